// A sway nested in a headless sway: outputs that can be really unplugged.
public import Foundation

#if canImport(Glibc)
import Glibc
#endif

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
