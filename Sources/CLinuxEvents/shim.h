#ifndef SCREENPLAY_CLINUXEVENTS_SHIM_H
#define SCREENPLAY_CLINUXEVENTS_SHIM_H
// epoll, timerfd and eventfd for the main event loop: part of glibc, but
// Swift's Glibc module does not export these headers.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>

// libdispatch's entry points for a run loop that drains the main queue
// itself, the ones CoreFoundation's CFRunLoop uses: exported by
// libdispatch.so (every Swift toolchain for Linux ships them), declared in
// none of its installed headers. The port is an eventfd that turns
// readable when the main queue has work; the callback drains it.
int _dispatch_get_main_queue_port_4CF(void);
void _dispatch_main_queue_callback_4CF(void *msg);
#endif
