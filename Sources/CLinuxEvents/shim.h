#ifndef SCREENPLAY_CLINUXEVENTS_SHIM_H
#define SCREENPLAY_CLINUXEVENTS_SHIM_H
// epoll, timerfd and eventfd for the main event loop: part of glibc, but
// Swift's Glibc module does not export these headers.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <poll.h>

// libdispatch's main queue as a run loop drives it (CoreFoundation's
// RunLoop does the same on Linux): an eventfd that turns readable when
// blocks wait on the main queue, and the call that runs them. Exported by
// the toolchain's libdispatch.so for swift-corelibs-foundation.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);
#endif
