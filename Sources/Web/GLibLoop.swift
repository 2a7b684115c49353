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

    private var watched: [Int32] = []
    private var timer: UInt64?
    private var kicked = false
    private var pumping = false
    private var fds = [Int32](repeating: 0, count: 64)
    private var events = [Int16](repeating: 0, count: 64)

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
        // Watched afresh each pump: GLib may have closed a descriptor and
        // opened another under the same number, which epoll forgot.
        for fd in watched { loop.unwatch(fd) }
        watched.removeAll(keepingCapacity: true)
        if let timer { loop.cancel(timer) }
        timer = nil
        guard count >= 0 else { return }
        var writable = false
        for index in 0..<count {
            if events[index] & Int16(POLLIN) != 0 {
                let fd = fds[index]
                loop.watch(fd) { [unowned self] in pump() }
                watched.append(fd)
            } else if events[index] & Int16(POLLOUT) != 0 {
                writable = true
            }
        }
        // MainEventLoop watches for reading only; a descriptor GLib waits
        // to write (a full IPC socket, rare) is polled every 4 ms instead.
        if writable { timeoutMs = timeoutMs < 0 ? 4 : min(timeoutMs, 4) }
        if timeoutMs == 0 {
            kick()
        } else if timeoutMs > 0 {
            timer = loop.after(ns: UInt64(timeoutMs) * 1_000_000) { [unowned self] in
                timer = nil
                pump()
            }
        }
    }
}
