// Headless weston: a compositor without wlr-layer-shell (like GNOME), for testing the
// fallback path. Weston runs fine as root, unlike sway.
public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A headless weston 10 with one output and the desktop shell (background and top panel).
///
/// Pixels: weston's screenshooter protocol is only offered to clients when weston runs
/// with `--debug` ("permission denied. Debug protocol must be enabled" otherwise), so
/// the rig passes `--debug` and ``capture()`` runs `weston-screenshooter`, which saves a
/// PNG of the whole desktop. grim does not work: weston has no wlr-screencopy.
public final class WestonRig: @unchecked Sendable {
    private let process: ChildProcess
    private let directory: String
    private let clientRuntimeDir: String
    /// Absolute path of weston's Wayland socket.
    public let waylandDisplay: String
    /// weston's stdout/stderr log.
    public let logPath: String
    private let lock = NSLock()
    private var stopped = false

    private init(
        process: ChildProcess, directory: String, clientRuntimeDir: String, waylandDisplay: String,
        logPath: String
    ) {
        self.process = process
        self.directory = directory
        self.clientRuntimeDir = clientRuntimeDir
        self.waylandDisplay = waylandDisplay
        self.logPath = logPath
    }

    deinit { stop() }

    /// Starts weston and returns once its socket accepts connections and the desktop shell
    /// has been launched.
    /// - Parameters:
    ///   - width: output width in logical pixels; the mode is `width * scale` pixels wide.
    ///   - height: output height in logical pixels.
    ///   - transform: sway-style (`normal`, `90`, `flipped-270`, ...) or weston-style
    ///     (`rotate-90`, `flipped-rotate-270`, ...).
    ///   - scale: integer output scale.
    public static func start(
        width: Int = 1280, height: Int = 720, transform: String = "normal", scale: Int = 1,
        timeout: TimeInterval = 10
    ) throws -> WestonRig {
        let directory = try RigFiles.makeTempDirectory(label: "weston")
        let runtimeDir = directory + "/runtime"
        let clientRuntimeDir = directory + "/client-runtime"
        let logPath = directory + "/weston.log"
        let socketName = "screenplay-rig-weston"
        let process: ChildProcess
        do {
            try RigFiles.makeDirectory(runtimeDir, mode: 0o700)
            try RigFiles.makeDirectory(clientRuntimeDir, mode: 0o700)
            let env = [
                "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": runtimeDir, "XDG_RUNTIME_DIR": runtimeDir,
            ]
            process = try ChildProcess(
                path: "weston",
                args: [
                    "--backend=headless-backend.so", "--use-pixman", "--width=\(width)", "--height=\(height)",
                    "--transform=\(westonTransform(transform))", "--scale=\(scale)", "--socket=\(socketName)",
                    "--idle-time=0", "--no-config", "--debug",
                ],
                environment: env, directory: directory, stdinData: nil, keepStdinOpen: false,
                stderrPath: logPath)
        } catch {
            RigFiles.remove(directory)
            throw error
        }
        let socketPath = runtimeDir + "/" + socketName
        let rig = WestonRig(
            process: process, directory: directory, clientRuntimeDir: clientRuntimeDir,
            waylandDisplay: socketPath, logPath: logPath)
        let up = waitUntil(timeout: timeout) {
            if process.waitForExit(timeout: 0) != nil { return true }
            return socketAcceptsConnections(socketPath)
                && RigFiles.tail(of: logPath, maxBytes: 1 << 20).contains("weston-desktop-shell")
        }
        guard up, process.waitForExit(timeout: 0) == nil else {
            let exit = process.waitForExit(timeout: 0).map { "weston exited with status \($0)" } ?? "weston still running"
            let log = RigFiles.tail(of: logPath)
            rig.stop()
            throw RigError("weston did not come up within \(timeout) s (\(exit)). Log:\n\(log)")
        }
        return rig
    }

    /// Weston names transforms `rotate-90`, `flipped-rotate-90`; accept sway's names too.
    static func westonTransform(_ t: String) -> String {
        switch t {
        case "90", "180", "270": return "rotate-" + t
        case "flipped-90", "flipped-180", "flipped-270": return "flipped-rotate-" + t.dropFirst("flipped-".count)
        default: return t
        }
    }

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

    /// The current contents of weston's log.
    public var log: String { RigFiles.tail(of: logPath, maxBytes: 1 << 20) }

    /// Captures the whole desktop (the single output, panel included) with
    /// `weston-screenshooter`. The image has the output's pixel size (logical size × scale).
    public func capture() throws -> RigImage {
        let scratch = directory + "/shot-\(UUID().uuidString)"
        try RigFiles.makeDirectory(scratch, mode: 0o700)
        defer { RigFiles.remove(scratch) }
        // The screenshooter names its file after the time and writes it to its cwd.
        let result = try runProcess(
            "weston-screenshooter", [], environment: clientEnvironment, timeout: 20, directory: scratch)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: scratch)) ?? []
        guard result.status == 0, let png = files.first(where: { $0.hasSuffix(".png") }) else {
            throw RigError(
                "weston-screenshooter failed (status \(result.status)): \(result.stdout)\(result.stderr)")
        }
        return try RigImage(contentsOf: scratch + "/" + png)
    }

    /// Stops weston and its helper clients and removes temp files. Idempotent.
    public func stop() {
        lock.lock()
        let already = stopped
        stopped = true
        lock.unlock()
        if already { return }
        // Weston first: killed shell clients would only be respawned by it.
        process.terminateTree(grace: 3)
        RigFiles.remove(directory)
    }
}
