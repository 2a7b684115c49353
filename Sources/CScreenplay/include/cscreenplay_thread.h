// For ScreenplayC only (not installed): whether the calling thread is the
// process's main thread, the one Screenplay's Application lives on. Swift
// cannot call gettid() or the variadic syscall(). Static inline: it adds
// no symbol to libscreenplay.
#ifndef CSCREENPLAY_THREAD_H
#define CSCREENPLAY_THREAD_H
#include <sys/syscall.h>
#include <unistd.h>

static inline int cscreenplay_is_main_thread(void) {
    return (pid_t)syscall(SYS_gettid) == getpid();
}
#endif
