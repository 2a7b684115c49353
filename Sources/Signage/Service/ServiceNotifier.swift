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
        if sd_watchdog_enabled(0, &usec) > 0, usec > 0 {
            watchdogSeconds = Double(usec) / 1e6
        } else {
            watchdogSeconds = Self.watchdogOfParent(ProcessInfo.processInfo.environment, parent: getppid())
        }
    }

    /// The watchdog interval when the manager's main process is this
    /// process's parent: under a kiosk compositor (`cage -- screenplay play`
    /// in screenplay-kiosk@.service) the service's main process is cage, so
    /// systemd names cage in `WATCHDOG_PID`, and the one who can tell whether
    /// the panels play is its child. The unit's `NotifyAccess=all` lets the
    /// child's pings count. Any other process further down still pings
    /// nothing.
    static func watchdogOfParent(_ environment: [String: String], parent: pid_t) -> Double? {
        guard let pid = environment["WATCHDOG_PID"].flatMap({ pid_t($0) }), pid == parent,
            let usec = environment["WATCHDOG_USEC"].flatMap({ UInt64($0) }), usec > 0
        else { return nil }
        return Double(usec) / 1e6
    }

    /// Sends `state` ("READY=1", "STATUS=...", "WATCHDOG=1", "STOPPING=1");
    /// a manager that went away is no reason to stop playing.
    func send(_ state: String) {
        _ = sd_notify(0, state)
    }
}
