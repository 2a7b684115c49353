// What the weston and cage rigs share: one compositor process in a temp directory,
// a socket root clients reach, a log, and an idempotent stop.
public import Foundation

/// A compositor process the rig started, with its temp directory and socket.
public class CompositorRig: @unchecked Sendable {
    let process: ChildProcess
    let directory: String
    let clientRuntimeDir: String
    /// Absolute path of the compositor's Wayland socket.
    public let waylandDisplay: String
    /// The compositor's stderr log.
    public let logPath: String
    /// True when the compositor runs under `runuser`, which sleeps 2 s on SIGTERM
    /// before passing it on: then its children are signalled first.
    private let descendantsFirst: Bool
    private let lock = NSLock()
    private var stopped = false

    init(
        process: ChildProcess, directory: String, clientRuntimeDir: String, waylandDisplay: String, logPath: String,
        descendantsFirst: Bool = false
    ) {
        self.descendantsFirst = descendantsFirst
        self.process = process
        self.directory = directory
        self.clientRuntimeDir = clientRuntimeDir
        self.waylandDisplay = waylandDisplay
        self.logPath = logPath
    }

    deinit { stop() }

    /// Environment for root clients: this process's environment plus `WAYLAND_DISPLAY`
    /// and a root-owned `XDG_RUNTIME_DIR`.
    public var clientEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["WAYLAND_DISPLAY"] = waylandDisplay
        env["XDG_RUNTIME_DIR"] = clientRuntimeDir
        env["WAYLAND_SOCKET"] = nil
        env["DISPLAY"] = nil
        env["SWAYSOCK"] = nil
        return env
    }

    /// The current contents of the compositor's log.
    public var log: String { RigFiles.tail(of: logPath, maxBytes: 1 << 20) }

    /// Waits until `ready` holds; on timeout or an early exit, stops the compositor and
    /// throws an error carrying its log.
    func awaitReady(_ name: String, timeout: TimeInterval, _ ready: () -> Bool) throws {
        let up = waitUntil(timeout: timeout) { process.waitForExit(timeout: 0) != nil || ready() }
        guard up, process.waitForExit(timeout: 0) == nil else {
            let exit = process.waitForExit(timeout: 0).map { "\(name) exited with status \($0)" } ?? "\(name) still running"
            let log = RigFiles.tail(of: logPath)
            stop()
            throw RigError("\(name) did not come up within \(timeout) s (\(exit)). Log:\n\(log)")
        }
    }

    /// Stops the compositor and its children and removes temp files. Idempotent.
    public func stop() {
        lock.lock()
        let already = stopped
        stopped = true
        lock.unlock()
        if already { return }
        // Otherwise the compositor first: killed helper clients would only be respawned by it.
        process.terminateTree(grace: 3, descendantsFirst: descendantsFirst)
        RigFiles.remove(directory)
    }
}
