// Headless sway compositors for tests: outputs that can be added, re-moded, rotated,
// captured and (with NestedSwayRig) really unplugged.
public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A display mode: size in pixels and refresh rate.
public struct OutputMode: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public var refreshHz: Double

    /// Creates a mode, e.g. `OutputMode(width: 1920, height: 1080, refreshHz: 60)`.
    public init(width: Int, height: Int, refreshHz: Double = 60) {
        self.width = width
        self.height = height
        self.refreshHz = refreshHz
    }

    /// The mode in sway's syntax, e.g. `1920x1080@60.000Hz`.
    public var swaySyntax: String { "\(width)x\(height)@\(String(format: "%.3f", refreshHz))Hz" }

    public var description: String { swaySyntax }
}

/// One output as sway reports it in `swaymsg -t get_outputs`.
public struct RigOutput: Hashable, Sendable {
    /// Connector name, e.g. `HEADLESS-1` or (nested) `WL-1`.
    public var name: String
    public var make: String
    public var model: String
    public var serial: String
    /// False when sway has the output disabled.
    public var active: Bool
    /// Current mode width in physical pixels (before transform).
    public var width: Int
    /// Current mode height in physical pixels (before transform).
    public var height: Int
    /// Current refresh rate in mHz; 0 for nested (wayland-backend) outputs.
    public var refreshMilliHz: Int
    /// `normal`, `90`, `180`, `270`, `flipped`, `flipped-90`, `flipped-180` or `flipped-270`.
    public var transform: String
    public var scale: Double
    /// Position and size in the compositor's logical layout (after transform and scale).
    public var rect: PixelRect
}

/// A headless sway with any number of virtual outputs (HEADLESS-1, HEADLESS-2, ...).
///
/// Sway refuses to run as root, so when the tests run as root it runs as the user
/// `screenplay-test` (created on first use); root clients can still connect to its
/// socket. Outputs start side by side, left to right, in the order given.
///
/// Limitation (sway 1.7 / wlroots 0.15 headless backend): `output X disable` and
/// `dpms off` fail to commit ("Failed to commit output" in the log), and a disabled
/// output would keep its wl_output global anyway. Use ``NestedSwayRig`` to unplug outputs.
public final class SwayRig: @unchecked Sendable {
    private let instanceLock = NSLock()
    private var instance: SwayInstance
    private var relaunch: (() throws -> SwayInstance)?
    var sway: SwayInstance {
        instanceLock.lock()
        defer { instanceLock.unlock() }
        return instance
    }

    private init(sway: SwayInstance) { self.instance = sway }

    deinit { sway.stop() }

    /// Types `key` (a keysym name) with the standard keymap's key code
    /// (``StandardKeyboard``), for compositors nested in this one that ignore
    /// the keymap wtype sends.
    public func typeWithStandardKeymap(_ key: String) throws {
        try StandardKeyboard.type(key, environment: clientEnvironment)
    }

    /// Puts a keyboard on the seat until sway stops, as a laptop has one.
    ///
    /// The headless seat has no keyboard of its own, so each `wtype` call
    /// brings one and takes it away again: a client binds `wl_keyboard` only
    /// when that keyboard appears, and a key typed before the client's
    /// request reaches sway (the client busy drawing, the machine loaded) is
    /// lost, whatever `wtype -s` waits. With a keyboard that stays, clients
    /// started afterwards hold their `wl_keyboard` from the start and every
    /// `wtype` key reaches the focused window. (A restarted sway starts
    /// without it.)
    public func attachKeyboard(timeout: TimeInterval = 5) throws { try sway.attachKeyboard(timeout: timeout) }

    /// Whether the seat has a keyboard now (`swaymsg -t get_inputs`).
    public func seatHasKeyboard() -> Bool { sway.seatHasKeyboard() }

    /// Kills sway (the whole process tree) but keeps its runtime directory,
    /// as when a compositor crashes: clients lose their connection.
    public func kill() { sway.kill() }

    /// Starts sway again in the same runtime directory, so it takes the same
    /// socket name, as a restarted compositor does.
    public func restart() throws {
        guard let relaunch else { throw RigError("this rig cannot restart") }
        let next = try relaunch()
        instanceLock.lock()
        instance = next
        instanceLock.unlock()
    }

    /// Starts sway and returns once every output is listed with its requested mode.
    /// - Parameter names: connector names for the outputs in order (e.g.
    ///   `["HDMI-A-1"]`), as real machines have them, instead of HEADLESS-N.
    /// - Throws: ``RigError`` with sway's log if it does not come up within `timeout`.
    public static func start(
        outputs: [OutputMode] = [OutputMode(width: 1280, height: 720, refreshHz: 60)],
        names: [String]? = nil, timeout: TimeInterval = 10
    ) throws -> SwayRig {
        guard !outputs.isEmpty else { throw RigError("SwayRig needs at least one output") }
        if let names, names.count != outputs.count || names.contains(where: { $0.isEmpty || $0.contains(",") }) {
            throw RigError("SwayRig: \(names.count) names for \(outputs.count) outputs, or an empty name or a comma")
        }
        var x = 0
        var config = SwayInstance.baseConfig
        var expected: [String: OutputMode] = [:]
        for (i, mode) in outputs.enumerated() {
            let name = names?[i] ?? "HEADLESS-\(i + 1)"
            config += "output \(name) mode \(mode.swaySyntax) position \(x) 0 scale 1 transform normal\n"
            expected[name] = mode
            x += mode.width
        }
        let ready: ([RigOutput]) -> Bool = { listed in
            expected.allSatisfy { name, mode in
                listed.contains { $0.name == name && $0.matches(mode) }
            }
        }
        var backend = ["WLR_BACKENDS": "headless", "WLR_HEADLESS_OUTPUTS": "\(outputs.count)"]
        if let names {
            backend["LD_PRELOAD"] = try OutputNames.library()
            backend["SCREENPLAY_RIG_OUTPUT_NAMES"] = names.joined(separator: ",")
        }
        let sway = try SwayInstance.launch(
            label: "sway", config: config, backend: backend, timeout: timeout, ready: ready)
        let rig = SwayRig(sway: sway)
        let directory = sway.directory
        rig.relaunch = {
            try SwayInstance.launch(
                label: "sway", config: config, backend: backend, timeout: timeout, existingDirectory: directory,
                ready: ready)
        }
        return rig
    }

    /// The sway process itself (not the `runuser` in front of it), for
    /// tests that watch the compositor's memory; nil once it is gone.
    public var compositorPID: Int32? { sway.compositorPID }

    /// Absolute path of sway's Wayland socket; libwayland accepts it as `WAYLAND_DISPLAY`.
    public var waylandDisplay: String { sway.waylandDisplay }
    /// Path of sway's IPC socket (`SWAYSOCK`).
    public var swaySocket: String { sway.swaySocket }
    /// Environment for Wayland clients run as root: this process's environment plus
    /// `WAYLAND_DISPLAY`, `SWAYSOCK` and a root-owned `XDG_RUNTIME_DIR`.
    public var clientEnvironment: [String: String] { sway.clientEnvironment }
    /// Path of sway's stdout/stderr log.
    public var logPath: String { sway.logPath }
    /// The current contents of sway's log.
    public var log: String { RigFiles.tail(of: sway.logPath, maxBytes: 1 << 20) }

    /// Runs `swaymsg` against this sway, e.g. `swaymsg("-t", "get_tree")`.
    /// - Returns: swaymsg's stdout.
    /// - Throws: ``RigError`` with sway's reply when the command fails.
    @discardableResult
    public func swaymsg(_ args: String...) throws -> String { try sway.swaymsg(args) }

    /// Runs `swaymsg` with an argument array.
    @discardableResult
    public func swaymsg(arguments: [String]) throws -> String { try sway.swaymsg(arguments) }

    /// All outputs sway knows, in sway's order.
    public func outputs() throws -> [RigOutput] { try sway.outputs() }

    /// The output called `name`, or nil.
    public func output(named name: String) throws -> RigOutput? {
        try sway.outputs().first { $0.name == name }
    }

    /// Hot-plugs a new 1920x1080@60 output (`create_output`), placed right of the others.
    /// - Returns: its name, once sway lists it.
    @discardableResult
    public func addOutput() throws -> String { try sway.addOutput(mode: nil) }

    /// Changes an output's mode and waits until sway reports it.
    public func setMode(_ output: String, _ mode: OutputMode) throws {
        try sway.configure(output, ["mode", mode.swaySyntax], "mode \(mode)") { $0.matches(mode) }
    }

    /// Rotates/flips an output (`normal`, `90`, `180`, `270`, `flipped`, `flipped-90`, ...).
    public func setTransform(_ output: String, _ transform: String) throws {
        try sway.setTransform(output, transform)
    }

    /// Sets an output's scale factor (fractional allowed).
    public func setScale(_ output: String, _ scale: Double) throws {
        try sway.setScale(output, scale)
    }

    /// Moves an output in the layout (logical coordinates).
    public func setPosition(_ output: String, x: Int, y: Int) throws {
        try sway.configure(output, ["position", "\(x)", "\(y)"], "position \(x),\(y)") {
            $0.rect.x == x && $0.rect.y == y
        }
    }

    /// Disables an output. Throws on sway 1.7's headless backend (see the type's docs).
    public func disable(_ output: String) throws {
        try sway.configure(output, ["disable"], "disabled") { !$0.active }
    }

    /// Re-enables an output.
    public func enable(_ output: String) throws {
        try sway.configure(output, ["enable"], "enabled") { $0.active }
    }

    /// Focuses an output; new windows open there.
    public func focusOutput(_ output: String) throws { try sway.swaymsg(["focus", "output", output]) }

    /// The app_id of the window with keyboard focus, if any: tests that type
    /// keys wait for their window to have it (a key typed before is lost,
    /// as it would be for a person).
    public func focusedAppID() -> String? {
        guard let text = try? swaymsg("-t", "get_tree"), let data = text.data(using: .utf8),
            let tree = try? JSONSerialization.jsonObject(with: data)
        else { return nil }
        func search(_ node: Any) -> String? {
            guard let node = node as? [String: Any] else { return nil }
            if node["focused"] as? Bool == true { return node["app_id"] as? String }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [Any] ?? [] { if let found = search(child) { return found } }
            }
            return nil
        }
        return search(tree)
    }

    /// The content rectangle, in layout coordinates (where a virtual
    /// pointer moves), of the first window whose title starts with
    /// `title`, from sway's tree; nil while there is none.
    public func windowRect(titled title: String) -> PixelRect? {
        guard let text = try? swaymsg("-t", "get_tree"), let data = text.data(using: .utf8),
            let tree = try? JSONSerialization.jsonObject(with: data)
        else { return nil }
        func int(_ d: [String: Any], _ k: String) -> Int { (d[k] as? NSNumber)?.intValue ?? 0 }
        func search(_ node: Any) -> PixelRect? {
            guard let node = node as? [String: Any] else { return nil }
            if (node["name"] as? String)?.hasPrefix(title) == true, let rect = node["rect"] as? [String: Any],
                let window = node["window_rect"] as? [String: Any]
            {
                return PixelRect(
                    x: int(rect, "x") + int(window, "x"), y: int(rect, "y") + int(window, "y"),
                    width: int(window, "width"), height: int(window, "height"))
            }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [Any] ?? [] { if let found = search(child) { return found } }
            }
            return nil
        }
        return search(tree)
    }

    /// Moves the focused window to another output (the client sees wl_surface leave/enter).
    public func moveFocusedWindow(to output: String) throws {
        try sway.swaymsg(["move", "container", "to", "output", output])
    }

    /// Captures one output's pixels with grim (screencopy), at the output's pixel size.
    public func capture(output: String) throws -> RigImage { try sway.capture(output: output) }

    /// Stops sway and everything it started, and removes its temp files. Idempotent.
    public func stop() { sway.stop() }
}

/// A sway nested in a headless sway, so outputs can be really unplugged.
///
/// Each output of the nested sway (WL-1, WL-2, ...) is a floating window in the parent;
/// closing that window removes the output from the nested sway, which clients see as
/// `wl_registry.global_remove`. Clients connect to the nested sway.
///
/// Nested outputs report refresh 0 and their frame rate follows the parent's frame callbacks.
/// The windows are kept inside the parent's output, because a window the parent does not
/// show gets no frame callbacks and the nested output would stop repainting.
public final class NestedSwayRig: @unchecked Sendable {
    let parent: SwayInstance
    private let nestedLock = NSLock()
    private var nestedInstance: SwayInstance
    /// The nested sway now (a restart replaces it).
    var nested: SwayInstance {
        nestedLock.lock()
        defer { nestedLock.unlock() }
        return nestedInstance
    }
    private var relaunchNested: (() throws -> SwayInstance)?
    private let outputSize: OutputMode
    private let parentMode: OutputMode
    private let layoutLock = NSLock()
    private var nextSlot = 0

    private init(parent: SwayInstance, nested: SwayInstance, outputSize: OutputMode, parentMode: OutputMode) {
        self.parent = parent
        self.nestedInstance = nested
        self.outputSize = outputSize
        self.parentMode = parentMode
    }

    deinit { stop() }

    /// Starts the parent and the nested sway with `outputs` outputs of `outputSize` pixels
    /// (the refresh rate in `outputSize` is ignored: nested outputs have none).
    public static func start(
        outputs: Int = 2, outputSize: OutputMode = OutputMode(width: 1280, height: 720),
        parentMode: OutputMode = OutputMode(width: 3840, height: 2160), timeout: TimeInterval = 15
    ) throws -> NestedSwayRig {
        guard outputs >= 1 else { throw RigError("NestedSwayRig needs at least one output") }
        // Floating windows keep the size the nested sway asks for; tiled ones would be
        // resized by the parent, and every unplug would re-mode the remaining outputs.
        let parentConfig =
            SwayInstance.baseConfig
            + "output HEADLESS-1 mode \(parentMode.swaySyntax) position 0 0 scale 1\n"
            + "for_window [app_id=\"wlroots\"] floating enable\n"
        let parent = try SwayInstance.launch(
            label: "sway-parent", config: parentConfig,
            backend: ["WLR_BACKENDS": "headless", "WLR_HEADLESS_OUTPUTS": "1"], timeout: timeout
        ) { listed in listed.contains { $0.name == "HEADLESS-1" && $0.matches(parentMode) } }

        var nestedConfig = SwayInstance.baseConfig
        for i in 0..<outputs {
            nestedConfig +=
                "output WL-\(i + 1) mode \(outputSize.width)x\(outputSize.height) position \(i * outputSize.width) 0\n"
        }
        let launchNested = { (directory: String?) throws -> SwayInstance in
            try SwayInstance.launch(
                label: "sway-nested", config: nestedConfig,
                backend: [
                    "WLR_BACKENDS": "wayland", "WLR_WL_OUTPUTS": "\(outputs)",
                    "WAYLAND_DISPLAY": parent.waylandDisplay,
                ],
                timeout: timeout, existingDirectory: directory
            ) { listed in
                (1...outputs).allSatisfy { i in
                    listed.contains {
                        $0.name == "WL-\(i)" && $0.width == outputSize.width && $0.height == outputSize.height
                    }
                }
            }
        }
        let nested: SwayInstance
        do {
            nested = try launchNested(nil)
        } catch {
            parent.stop()
            throw error
        }
        let rig = NestedSwayRig(parent: parent, nested: nested, outputSize: outputSize, parentMode: parentMode)
        let directory = nested.directory
        rig.relaunchNested = { try launchNested(directory) }
        for i in 1...outputs { try rig.placeWindow(of: "WL-\(i)") }
        return rig
    }

    /// Kills the nested sway (its whole process tree), keeping its runtime
    /// directory, as when the session's compositor crashes: clients lose
    /// their connection; the parent keeps running.
    public func killNested() { nested.kill() }

    /// Starts the nested sway again in the same runtime directory (the same
    /// socket), with the outputs it started with (WL-1, WL-2, ...), placed again.
    public func restartNested() throws {
        guard let relaunchNested else { throw RigError("this rig cannot restart") }
        let next = try relaunchNested()
        nestedLock.lock()
        nestedInstance = next
        nestedLock.unlock()
        layoutLock.lock()
        nextSlot = 0
        layoutLock.unlock()
        for output in try next.outputs() { try placeWindow(of: output.name) }
    }

    /// Absolute path of the nested sway's Wayland socket.
    public var waylandDisplay: String { nested.waylandDisplay }
    /// IPC socket of the nested sway.
    public var swaySocket: String { nested.swaySocket }
    /// IPC socket of the parent sway (where the output windows live).
    public var parentSwaySocket: String { parent.swaySocket }
    /// Environment for root clients of the nested sway.
    public var clientEnvironment: [String: String] { nested.clientEnvironment }
    /// The nested sway's log.
    public var log: String { RigFiles.tail(of: nested.logPath, maxBytes: 1 << 20) }

    /// Runs `swaymsg` against the nested sway.
    @discardableResult
    public func swaymsg(_ args: String...) throws -> String { try nested.swaymsg(args) }

    /// Runs `swaymsg` against the parent sway.
    @discardableResult
    public func parentSwaymsg(_ args: String...) throws -> String { try parent.swaymsg(args) }

    /// The nested sway's outputs (WL-1, WL-2, ...).
    public func outputs() throws -> [RigOutput] { try nested.outputs() }

    /// Plugs in a new output of the rig's output size.
    /// - Returns: its name, once listed with that size.
    @discardableResult
    public func addOutput() throws -> String {
        let name: String
        do {
            name = try nested.addOutput(mode: outputSize)
        } catch let error as RigError where "\(error)".contains("Unable to receive IPC response") {
            // A loaded nested sway sometimes drops an IPC reply; once more
            // tells that apart from a compositor that is gone.
            Thread.sleep(forTimeInterval: 0.3)
            name = try nested.addOutput(mode: outputSize)
        }
        try placeWindow(of: name)
        return name
    }

    /// Unplugs an output by closing its window in the parent, and waits until the nested
    /// sway no longer lists it.
    public func removeOutput(_ name: String) throws {
        try parent.swaymsg([SwayInstance.windowCriteria(for: name), "kill"])
        let gone = try waitUntil(timeout: 5) { try !nested.outputs().contains { $0.name == name } }
        if !gone {
            throw nested.failure("output \(name) still listed 5 s after its window was killed")
        }
    }

    /// Resizes a nested output (its window in the parent follows).
    public func setSize(_ output: String, width: Int, height: Int) throws {
        try nested.configure(output, ["mode", "\(width)x\(height)"], "size \(width)x\(height)") {
            $0.width == width && $0.height == height
        }
    }

    /// Rotates/flips a nested output.
    public func setTransform(_ output: String, _ transform: String) throws {
        try nested.setTransform(output, transform)
    }

    /// Sets a nested output's scale.
    public func setScale(_ output: String, _ scale: Double) throws { try nested.setScale(output, scale) }

    /// Focuses a nested output.
    public func focusOutput(_ output: String) throws { try nested.swaymsg(["focus", "output", output]) }

    /// Moves the nested sway's focused window to another nested output.
    public func moveFocusedWindow(to output: String) throws {
        try nested.swaymsg(["move", "container", "to", "output", output])
    }

    /// Captures a nested output with grim.
    public func capture(output: String) throws -> RigImage { try nested.capture(output: output) }

    /// Stops both compositors (nested first) and removes temp files. Idempotent.
    public func stop() {
        nested.stop()
        parent.stop()
    }

    /// Puts a keyboard on the nested sway's seat (see ``SwayRig/attachKeyboard(timeout:)``).
    public func attachKeyboard(timeout: TimeInterval = 5) throws { try nested.attachKeyboard(timeout: timeout) }

    /// Places an output's window in the next free slot of a grid inside the parent's output.
    private func placeWindow(of output: String) throws {
        let criteria = SwayInstance.windowCriteria(for: output)
        let title = SwayInstance.windowTitle(for: output)
        let mapped = try waitUntil(timeout: 5) {
            try parent.swaymsg(["-t", "get_tree"]).contains("\"\(title)\"")
        }
        guard mapped else { throw parent.failure("no window titled \"\(title)\" in the parent sway") }
        layoutLock.lock()
        let slot = nextSlot
        nextSlot += 1
        layoutLock.unlock()
        let columns = max(1, parentMode.width / outputSize.width)
        let rows = max(1, parentMode.height / outputSize.height)
        let x = (slot % columns) * outputSize.width
        let y = ((slot / columns) % rows) * outputSize.height
        try parent.swaymsg([criteria, "move", "absolute", "position", "\(x)", "\(y)"])
    }
}

// MARK: - One sway process

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
    /// nothing, so it is asked again, up to three times. A command is not:
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
            if isQuery, attempt < 3, !result.timedOut, result.stderr.contains(Self.lostReply) {
                FileHandle.standardError.write(
                    Data("rig: swaymsg \(args.joined(separator: " ")): reply lost, asking again\n".utf8))
                attempt += 1
                continue
            }
            throw RigError(
                "swaymsg \(args.joined(separator: " ")) failed (status \(result.status)"
                    + "\(result.timedOut ? ", timed out" : "")): \(result.stdout)\(result.stderr)")
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
    fileprivate func markStopped() {
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

/// Runs grim for one output and decodes its PPM (no PNG round trip, and exact pixels).
func captureWithGrim(output: String, environment: [String: String], scratch: String) throws -> RigImage {
    let path = "\(scratch)/capture-\(UUID().uuidString).ppm"
    defer { unlink(path) }
    let result = try runProcess("grim", ["-o", output, "-t", "ppm", path], environment: environment, timeout: 20)
    guard result.status == 0 else {
        throw RigError("grim -o \(output) failed (status \(result.status)): \(result.stderr)")
    }
    return try RigImage(contentsOf: path)
}

/// True when something listens on the Unix socket at `path`.
func socketAcceptsConnections(_ path: String) -> Bool {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else { return false }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: bytes)
        raw[bytes.count] = 0
    }
    let rc = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    return rc == 0
}

extension RigOutput {
    func matches(_ mode: OutputMode) -> Bool {
        width == mode.width && height == mode.height
            && abs(refreshMilliHz - Int((mode.refreshHz * 1000).rounded())) <= 500
    }
}

/// The subset of sway's get_outputs JSON the rig uses.
private struct RawOutput: Decodable {
    struct Mode: Decodable {
        var width: Int
        var height: Int
        var refresh: Int
    }
    struct Rect: Decodable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
    }
    var name: String
    var make: String?
    var model: String?
    var serial: String?
    var active: Bool?
    var current_mode: Mode?
    var transform: String?
    var scale: Double?
    var rect: Rect?

    var output: RigOutput {
        RigOutput(
            name: name, make: make ?? "", model: model ?? "", serial: serial ?? "",
            active: active ?? false, width: current_mode?.width ?? 0, height: current_mode?.height ?? 0,
            refreshMilliHz: current_mode?.refresh ?? 0, transform: transform ?? "normal",
            scale: scale ?? 1,
            rect: PixelRect(
                x: rect?.x ?? 0, y: rect?.y ?? 0, width: rect?.width ?? 0,
                height: rect?.height ?? 0))
    }
}
