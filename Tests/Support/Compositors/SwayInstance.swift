// One sway process of a rig: launched, asked over IPC, captured, stopped.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One sway process with its temp dir (config, log, runtime dir) and IPC helpers.
final class SwayInstance: @unchecked Sendable {
    static let baseConfig = """
        xwayland disable
        default_border none
        default_floating_border none
        focus_follows_mouse no
        mouse_warping none

        """

    let directory: String
    let logPath: String
    let waylandDisplay: String
    let swaySocket: String
    let clientRuntimeDir: String
    private let process: ChildProcess
    private let lock = NSLock()
    private var stopped = false
    /// The keyboard `attachKeyboard` put on the seat: a `wtype -` that
    /// waits on its standard input and types nothing.
    private var keyboard: RunningProcess?

    var compositorPID: Int32? { process.find(named: "sway") }

    private init(
        directory: String, logPath: String, waylandDisplay: String, swaySocket: String,
        clientRuntimeDir: String, process: ChildProcess
    ) {
        self.directory = directory
        self.logPath = logPath
        self.waylandDisplay = waylandDisplay
        self.swaySocket = swaySocket
        self.clientRuntimeDir = clientRuntimeDir
        self.process = process
    }

    deinit { stop() }

    static func windowTitle(for output: String) -> String { "wlroots - \(output)" }

    /// Anchored, since sway criteria are regular expressions and WL-1 would match WL-10.
    static func windowCriteria(for output: String) -> String {
        "[title=\"^\(windowTitle(for: output))$\"]"
    }

    /// Starts sway and waits until its sockets work and `ready` accepts the output list.
    static func launch(
        label: String, config: String, backend: [String: String], timeout: TimeInterval,
        existingDirectory: String? = nil, ready: ([RigOutput]) -> Bool
    ) throws -> SwayInstance {
        let user = try RigUser.get()
        let directory = try existingDirectory ?? RigFiles.makeTempDirectory(label: label)
        let runtimeDir = directory + "/runtime"
        let clientRuntimeDir = directory + "/client-runtime"
        let configPath = directory + "/sway.conf"
        let logPath = directory + "/sway.log"
        do {
            if existingDirectory == nil {
                try RigFiles.makeDirectory(runtimeDir, mode: 0o700, owner: (user.uid, user.gid))
                try RigFiles.makeDirectory(clientRuntimeDir, mode: 0o700)
            } else {
                // A killed sway leaves its IPC socket behind; the new one must
                // not be mistaken for it. (The Wayland socket is reclaimed by
                // libwayland through its lock file.)
                for name in (try? FileManager.default.contentsOfDirectory(atPath: runtimeDir)) ?? []
                where name.hasPrefix("sway-ipc.") {
                    unlink(runtimeDir + "/" + name)
                }
            }
            try RigFiles.write(config, to: configPath)
        } catch {
            RigFiles.remove(directory)
            throw error
        }

        var env = [
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": runtimeDir,
            "XDG_RUNTIME_DIR": runtimeDir,
            "WLR_RENDERER": "pixman",
            "WLR_LIBINPUT_NO_DEVICES": "1",
        ]
        env.merge(backend) { $1 }
        let process: ChildProcess
        do {
            process = try user.spawn(
                ["sway", "-c", configPath], environment: env, directory: directory, logPath: logPath)
        } catch {
            RigFiles.remove(directory)
            throw error
        }

        func fail(_ why: String) -> RigError {
            let exit = process.waitForExit(timeout: 0).map { "sway exited with status \($0)" } ?? "sway still running"
            process.terminateTree(grace: 1, descendantsFirst: true)
            let log = RigFiles.tail(of: logPath)
            RigFiles.remove(directory)
            return RigError("\(label): \(why) (\(exit)). Log \(logPath):\n\(log)")
        }

        let deadline = Date().addingTimeInterval(timeout)
        var sockets: (wayland: String, ipc: String)?
        waitUntil(timeout: timeout) {
            if process.waitForExit(timeout: 0) != nil { return true }
            sockets = findSockets(in: runtimeDir)
            guard let s = sockets else { return false }
            return socketAcceptsConnections(s.wayland) && socketAcceptsConnections(s.ipc)
        }
        guard let found = sockets, process.waitForExit(timeout: 0) == nil,
            socketAcceptsConnections(found.wayland)
        else {
            throw fail("no usable Wayland and IPC sockets in \(runtimeDir) after \(timeout) s")
        }
        let instance = SwayInstance(
            directory: directory, logPath: logPath, waylandDisplay: found.wayland, swaySocket: found.ipc,
            clientRuntimeDir: clientRuntimeDir, process: process)
        var lastListing = "(none)"
        let isReady = waitUntil(timeout: max(0.5, deadline.timeIntervalSinceNow)) {
            guard process.waitForExit(timeout: 0) == nil else { return true }
            guard let listed = try? instance.outputs() else { return false }
            lastListing = listed.map { "\($0.name) \($0.width)x\($0.height)@\($0.refreshMilliHz)mHz" }
                .joined(separator: ", ")
            return ready(listed)
        }
        guard isReady, process.waitForExit(timeout: 0) == nil else {
            instance.markStopped()
            throw fail("outputs not as configured after \(timeout) s; listed: \(lastListing)")
        }
        return instance
    }

    private static func findSockets(in dir: String) -> (wayland: String, ipc: String)? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return nil }
        guard let wayland = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }),
            let ipc = names.first(where: { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") })
        else { return nil }
        return (dir + "/" + wayland, dir + "/" + ipc)
    }

    var clientEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["WAYLAND_DISPLAY"] = waylandDisplay
        env["SWAYSOCK"] = swaySocket
        env["XDG_RUNTIME_DIR"] = clientRuntimeDir
        env["WAYLAND_SOCKET"] = nil
        env["DISPLAY"] = nil
        return env
    }

    /// An error carrying the tail of sway's log, which usually says why a command failed.
    func failure(_ message: String) -> RigError {
        RigError("\(message). Log \(logPath):\n\(RigFiles.tail(of: logPath, maxBytes: 3000))")
    }

    /// Runs swaymsg against this sway.
    ///
    /// swaymsg gives up on a reply after a fixed 3 s ("Unable to receive IPC
    /// response") and has no option to wait longer; a nested sway on a loaded
    /// CI machine sometimes takes that long. A query (`-t get_*`) changes
    /// nothing, so it is asked again, up to five times: a fresh clone's run
    /// once saw three lost in a row (about 9 s) while a panel was unplugged
    /// beside another test. A command is not:
    /// sway drops a client that hung up before it read the command, so the
    /// command may or may not have run, and running `create_output` twice
    /// adds two outputs; the callers that can tell (`addOutput`) retry.
    @discardableResult
    func swaymsg(_ args: [String]) throws -> String {
        let isQuery = args.count >= 2 && args[0] == "-t" && args[1].hasPrefix("get_")
        var attempt = 1
        while true {
            let result = try runProcess(
                "swaymsg", ["-s", swaySocket] + args, environment: clientEnvironment, timeout: 10)
            if result.status == 0, !result.timedOut { return result.stdout }
            if isQuery, attempt < 5, !result.timedOut, result.stderr.contains(Self.lostReply) {
                FileHandle.standardError.write(
                    Data("rig: swaymsg \(args.joined(separator: " ")): reply lost, asking again\n".utf8))
                attempt += 1
                continue
            }
            // Which sway process, what it is doing and its log: CI once saw
            // five asks go unanswered for 22 s and nothing said why.
            let state = compositorPID.map(ProcessUsage.snapshot) ?? "sway is not running"
            throw failure(
                "swaymsg \(args.joined(separator: " ")) failed (status \(result.status)"
                    + "\(result.timedOut ? ", timed out" : "")): \(result.stdout)\(result.stderr); sway: \(state)")
        }
    }

    /// What swaymsg prints when sway took longer than its fixed 3 s to reply.
    static let lostReply = "Unable to receive IPC response"

    func outputs() throws -> [RigOutput] {
        let json = try swaymsg(["-t", "get_outputs", "-r"])
        let raw: [RawOutput]
        do {
            raw = try JSONDecoder().decode([RawOutput].self, from: Data(json.utf8))
        } catch {
            throw RigError("cannot parse get_outputs reply: \(error)\n\(json)")
        }
        return raw.map { $0.output }
    }

    func addOutput(mode: OutputMode?) throws -> String {
        let before = Set(try outputs().map(\.name))
        try swaymsg(["create_output"])
        var added: String?
        let listed = try waitUntil(timeout: 5) {
            added = try outputs().map(\.name).first { !before.contains($0) }
            return added != nil
        }
        guard listed, let name = added else { throw failure("create_output added no output within 5 s") }
        if let mode {
            try configure(name, ["mode", "\(mode.width)x\(mode.height)"], "size \(mode.width)x\(mode.height)") {
                $0.width == mode.width && $0.height == mode.height
            }
        }
        return name
    }

    func setTransform(_ output: String, _ transform: String) throws {
        try configure(output, ["transform", transform], "transform \(transform)") { $0.transform == transform }
    }

    func setScale(_ output: String, _ scale: Double) throws {
        try configure(output, ["scale", String(scale)], "scale \(scale)") { abs($0.scale - scale) < 0.001 }
    }

    /// Sends `output NAME <args>` and waits until the output satisfies `applied`.
    ///
    /// sway answers success even for unknown outputs and for changes that fail to commit
    /// (it only stores the config), so the listing is the only reliable confirmation.
    func configure(
        _ output: String, _ args: [String], _ what: String, applied: (RigOutput) -> Bool
    ) throws {
        guard try outputs().contains(where: { $0.name == output }) else {
            throw RigError("no output named \(output); sway has \(try outputs().map(\.name))")
        }
        try swaymsg(["output", output] + args)
        var current: RigOutput?
        let ok = try waitUntil(timeout: 5) {
            current = try outputs().first { $0.name == output }
            return current.map(applied) ?? false
        }
        guard ok else {
            let state = current.map { "\($0)" } ?? "output not listed"
            throw failure("\(output): \(what) not applied within 5 s; now \(state)")
        }
    }

    func capture(output: String) throws -> RigImage {
        try captureWithGrim(output: output, environment: clientEnvironment, scratch: directory)
    }

    /// Prevents a second termination after a failed launch already cleaned up.
    private func markStopped() {
        lock.lock()
        stopped = true
        lock.unlock()
    }

    /// Whether `swaymsg -t get_inputs` lists a keyboard.
    func seatHasKeyboard() -> Bool {
        guard let text = try? swaymsg(["-t", "get_inputs"]), let data = text.data(using: .utf8),
            let inputs = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { return false }
        return inputs.contains { $0["type"] as? String == "keyboard" }
    }

    func attachKeyboard(timeout: TimeInterval) throws {
        lock.lock()
        let present = keyboard != nil
        lock.unlock()
        if present { return }
        let holder = try RunningProcess("/usr/bin/wtype", ["-"], environment: clientEnvironment, keepStdinOpen: true)
        lock.lock()
        keyboard = holder
        lock.unlock()
        guard waitUntil(timeout: timeout, { self.seatHasKeyboard() }) else {
            throw RigError(
                "wtype - put no keyboard on the seat within \(timeout) s (swaymsg -t get_inputs lists none): \(holder.stderr)"
            )
        }
    }

    func stop() {
        lock.lock()
        let already = stopped
        stopped = true
        let holder = keyboard
        keyboard = nil
        lock.unlock()
        holder?.kill(grace: 0)
        if already { return }
        process.terminateTree(grace: 3, descendantsFirst: true)
        RigFiles.remove(directory)
    }

    /// Kills the process tree at once and keeps the directory (a crash).
    func kill() {
        lock.lock()
        let already = stopped
        stopped = true
        lock.unlock()
        if already { return }
        process.terminateTree(grace: 0, descendantsFirst: true)
    }
}
