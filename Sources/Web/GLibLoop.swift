internal import CWPE
import EventLoop
import Glibc

/// WebKit's GLib main context, run from the main thread's one loop rather
/// than a loop of its own: each pump dispatches what GLib has ready, then
/// watches the descriptors GLib asks for in `MainEventLoop` and sets one of
/// its timers to GLib's next timeout. So WebKit's work (IPC with the web
/// process, wpebackend-fdo's nested compositor that receives the frames)
/// runs on the thread that owns the Wayland connection and the EGL context,
/// between batches, never nesting a second loop and never blocking.
@MainActor
package final class GLibLoop {
    /// The loop of the main thread's default GLib context.
    package static let shared = GLibLoop()

    private var watched: [Watch] = []
    private var nextWatched: [Watch] = []
    private var next: [Int32] = []
    private var timer: (id: UInt64, deadlineNs: UInt64)?
    private var kicked = false
    private var pumping = false
    private var fds = [Int32](repeating: 0, count: 64)
    private var events = [Int16](repeating: 0, count: 64)
    private lazy var onReadable: () -> Void = { [unowned self] in pump() }

    private init() {}

    /// Pumps in the loop's next pass: after any call into WebKit, which may
    /// add sources GLib would not wake itself for (it wakes only for
    /// sources added from other threads).
    package func kick() {
        guard !kicked else { return }
        kicked = true
        MainEventLoop.shared.soon { [self] in
            kicked = false
            pump()
        }
    }

    private func pump() {
        guard !pumping else { return kick() }
        pumping = true
        defer { pumping = false }
        var timeoutMs: Int32 = -1
        let count = Int(sp_glib_pump(&fds, &events, Int32(fds.count), &timeoutMs))
        let loop = MainEventLoop.shared
        next.removeAll(keepingCapacity: true)
        var writable = false
        if count >= 0 {
            for index in 0..<count {
                if events[index] & Int16(POLLIN) != 0 {
                    next.append(fds[index])
                } else if events[index] & Int16(POLLOUT) != 0 {
                    writable = true
                }
            }
        }
        // A page asks for the same few descriptors pump after pump (a pump
        // or more a frame): those that went are unwatched, and those that
        // stay are watched again, which costs one epoll_ctl and re-adds a
        // number GLib closed and reopened for another file. Unwatching goes
        // by the watch, not the number: GLib closes descriptors without
        // telling, and the number may be the Wayland socket's by now.
        for watch in watched where !next.contains(watch.fd) { loop.unwatch(watch) }
        nextWatched.removeAll(keepingCapacity: true)
        for fd in next { nextWatched.append(loop.watch(fd, onReadable: onReadable)) }
        swap(&watched, &nextWatched)
        guard count >= 0 else { return cancelTimer() }
        // MainEventLoop watches for reading only; a descriptor GLib waits
        // to write (a full IPC socket, rare) is polled every 4 ms instead.
        if writable { timeoutMs = timeoutMs < 0 ? 4 : min(timeoutMs, 4) }
        if timeoutMs < 0 { return cancelTimer() }
        if timeoutMs == 0 {
            cancelTimer()
            return kick()
        }
        let deadline = MainEventLoop.nowNs() + UInt64(timeoutMs) * 1_000_000
        // GLib rounds its timeout up to a millisecond, so a timer already
        // set for the same source lands up to 1 ms before the new deadline
        // and is not early; keeping it spares the loop a re-arm a pump.
        if let timer, timer.deadlineNs <= deadline, timer.deadlineNs + 1_000_000 >= deadline { return }
        cancelTimer()
        let id = loop.after(ns: UInt64(timeoutMs) * 1_000_000) { [unowned self] in
            timer = nil
            pump()
        }
        timer = (id, deadline)
    }

    private func cancelTimer() {
        if let timer { MainEventLoop.shared.cancel(timer.id) }
        timer = nil
    }
}
