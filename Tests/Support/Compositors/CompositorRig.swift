// What the weston, cage, mutter and KWin rigs share: one compositor process in a temp directory,
// a socket root clients reach, a log, and an idempotent stop.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

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

    required init(
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

    /// The compositor process named `name` (weston, cage, ...) behind any
    /// `runuser` or `env` in front of it; nil once it is gone.
    public func compositorPID(named name: String) -> Int32? { process.find(named: name) }

    /// The current contents of the compositor's log.
    public var log: String { RigFiles.tail(of: logPath, maxBytes: 1 << 20) }

    /// Where one compositor run keeps its files, all under one temp directory.
    struct Layout {
        let directory: String
        /// The compositor's `XDG_RUNTIME_DIR` (and `HOME`).
        let runtimeDir: String
        /// A root-owned `XDG_RUNTIME_DIR` for the clients under test.
        let clientRuntimeDir: String
        let logPath: String
        /// The environment a compositor gets: nothing of the test process's.
        var environment: [String: String] {
            ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": runtimeDir, "XDG_RUNTIME_DIR": runtimeDir]
        }
    }

    /// Makes the directories, starts the compositor with `spawn`, and returns once
    /// `ready` holds (or throws with the compositor's log).
    /// - Parameters:
    ///   - socket: the socket's name in the runtime directory.
    ///   - runtimeOwner: owner of the runtime directory when the compositor runs as
    ///     another user.
    static func launch(
        _ name: String, socket: String, runtimeOwner: (uid_t, gid_t)? = nil, descendantsFirst: Bool = false,
        timeout: TimeInterval, spawn: (Layout) throws -> ChildProcess, ready: (CompositorRig) -> Bool = { _ in true }
    ) throws -> Self {
        let directory = try RigFiles.makeTempDirectory(label: name)
        let layout = Layout(
            directory: directory, runtimeDir: directory + "/runtime", clientRuntimeDir: directory + "/client-runtime",
            logPath: directory + "/\(name).log")
        let process: ChildProcess
        do {
            try RigFiles.makeDirectory(layout.runtimeDir, mode: 0o700, owner: runtimeOwner)
            try RigFiles.makeDirectory(layout.clientRuntimeDir, mode: 0o700)
            process = try spawn(layout)
        } catch {
            RigFiles.remove(directory)
            throw error
        }
        let rig = Self(
            process: process, directory: directory, clientRuntimeDir: layout.clientRuntimeDir,
            waylandDisplay: layout.runtimeDir + "/" + socket, logPath: layout.logPath,
            descendantsFirst: descendantsFirst)
        try rig.awaitReady(name, timeout: timeout) { socketAcceptsConnections(rig.waylandDisplay) && ready(rig) }
        return rig
    }

    /// Waits until `ready` holds; on timeout or an early exit, stops the compositor and
    /// throws an error carrying its log.
    func awaitReady(_ name: String, timeout: TimeInterval, _ ready: () -> Bool) throws {
        let up = waitUntil(timeout: timeout) { process.waitForExit(timeout: 0) != nil || ready() }
        guard up, process.waitForExit(timeout: 0) == nil else {
            let exit =
                process.waitForExit(timeout: 0).map { "\(name) exited with status \($0)" } ?? "\(name) still running"
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
