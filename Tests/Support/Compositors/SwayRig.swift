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
