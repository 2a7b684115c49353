internal import CSystemd
import Foundation

/// systemd's notify protocol through libsystemd's sd_notify: the only file
/// that sees libsystemd. Exists only when the service manager asked for it
/// (`NOTIFY_SOCKET`); a command started by hand sends nothing.
struct ServiceNotifier {
    /// The watchdog interval the manager wants pings within
    /// (`WATCHDOG_USEC`, for this process); nil when there is no watchdog.
    let watchdogSeconds: Double?

    /// Nil without `NOTIFY_SOCKET`.
    init?() {
        guard let socket = ProcessInfo.processInfo.environment["NOTIFY_SOCKET"], !socket.isEmpty else { return nil }
        var usec: UInt64 = 0
        // sd_watchdog_enabled checks WATCHDOG_PID too: a child that
        // inherited the variables pings nothing.
        watchdogSeconds = sd_watchdog_enabled(0, &usec) > 0 && usec > 0 ? Double(usec) / 1e6 : nil
    }

    /// Sends `state` ("READY=1", "STATUS=...", "WATCHDOG=1", "STOPPING=1");
    /// a manager that went away is no reason to stop playing.
    func send(_ state: String) {
        _ = sd_notify(0, state)
    }
}
