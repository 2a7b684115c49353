#ifndef SCREENPLAY_CLINUXEVENTS_SHIM_H
#define SCREENPLAY_CLINUXEVENTS_SHIM_H
// epoll, timerfd and eventfd for the main event loop: part of glibc, but
// Swift's Glibc module does not export these headers.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <poll.h>

// libdispatch's main queue as a run loop sees it: an eventfd that turns
// readable when blocks wait on the main queue (RunLoop.main drains them and
// reads it). Exported by the toolchain's libdispatch.so for
// swift-corelibs-foundation's CFRunLoop, which polls it the same way.
extern int _dispatch_get_main_queue_handle_4CF(void);
#endif
