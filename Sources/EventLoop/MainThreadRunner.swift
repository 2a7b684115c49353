import CLinuxEvents
import Dispatch
import Foundation
import Glibc

/// Runs the main thread as CFRunLoop would, with one poll(2) on two
/// descriptors: the main event loop's (`MainEventLoop.process()`) and
/// libdispatch's main queue's (its blocks, Swift's main actor jobs,
/// signal sources).
///
/// Why not `RunLoop.main` with the loop's dispatch read source: there every
/// wake-up of the loop's descriptor passes through libdispatch's event
/// thread, which sees it in its own epoll set, arms it again
/// (`epoll_ctl`) and wakes the main thread through the main queue's
/// eventfd before `process()` runs. For a scene presenting every refresh
/// on llvmpipe that was a second thread at about 0.07 ms of CPU a frame,
/// and more work on the main thread, against weston-simple-egl's one
/// thread blocking in poll. Here the main thread blocks in the kernel for
/// both, and wakes once per thing to do.
@MainActor
package enum MainThreadRunner {
    /// Runs passes until `isDone()` answers true after one; returns at
    /// once if it does before the first. The loop's dispatch read source is
    /// off meanwhile (the loop has one driver) and back on after, for apps
    /// that drain the main queue themselves. `inRunLoop`: wait in
    /// `RunLoop.main` instead, where that source drives the loop, so
    /// Foundation timers and run-loop sources fire too.
    package static func run(inRunLoop: Bool = false, until isDone: () -> Bool) {
        dispatchPrecondition(condition: .onQueue(.main))
        if inRunLoop {
            while !isDone() { _ = RunLoop.main.run(mode: .default, before: .distantFuture) }
            return
        }
        let loop = MainEventLoop.shared
        loop.detachFromMainQueue()
        defer { loop.attachToMainQueue() }
        let mainQueue = _dispatch_get_main_queue_port_4CF()
        var fds = [
            pollfd(fd: loop.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: mainQueue, events: Int16(POLLIN), revents: 0),
        ]
        while !isDone() {
            fds[0].revents = 0
            fds[1].revents = 0
            // No timeout: the loop's timers are a timerfd inside its epoll
            // set, and the main queue's timers poke its eventfd when due.
            guard poll(&fds, 2, -1) > 0 else {
                // EINTR (a signal's handler ran); nothing else can fail
                // with two valid descriptors, and a hot loop would be worse
                // than a busy one, so any other error waits a moment.
                if errno != EINTR { usleep(1000) }
                continue
            }
            if fds[1].revents != 0 {
                // Reset before draining: blocks posted while it drains poke
                // the eventfd again and are seen in the next pass.
                var counter: UInt64 = 0
                _ = read(mainQueue, &counter, 8)
                _dispatch_main_queue_callback_4CF(nil)
            }
            if fds[0].revents != 0 { loop.process() }
        }
    }
}
