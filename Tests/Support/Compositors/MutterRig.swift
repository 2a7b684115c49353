// Headless mutter 43: GNOME's compositor, which has no wlr-layer-shell and never will.
// It runs as root, renders with Mesa's surfaceless llvmpipe and gives real
// wp_presentation feedback. It offers no screenshot protocol (GNOME screenshots go
// through gnome-shell's D-Bus API), so the tests check protocol behaviour, not pixels.
// `startNested` runs mutter in an X server instead (its nested backend), for pixels and keys.
public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A headless mutter with one virtual monitor per mode (Meta-0, Meta-1, ...), in its own
/// D-Bus session (mutter wants a session bus and exits without one).
public final class MutterRig: CompositorRig, @unchecked Sendable {
    /// Starts mutter and returns once its socket accepts connections.
    public static func start(
        monitors: [OutputMode] = [OutputMode(width: 1280, height: 720)], timeout: TimeInterval = 15
    ) throws
        -> MutterRig
    {
        try launch("mutter", socket: "screenplay-rig-mutter", timeout: timeout) { layout in
            let virtualMonitors = monitors.flatMap {
                ["--virtual-monitor", "\($0.width)x\($0.height)@\(Int($0.refreshHz.rounded()))"]
            }
            return try ChildProcess(
                path: "dbus-run-session",
                args: [
                    "--", "mutter", "--headless", "--wayland", "--no-x11", "--wayland-display=screenplay-rig-mutter",
                ]
                    + virtualMonitors,
                environment: layout.environment, directory: layout.directory, stdinData: nil, keepStdinOpen: false,
                stderrPath: layout.logPath)
        } ready: { rig in
            rig.log.contains("Using Wayland display name")
        }
    }

    /// The Xvfb server a nested mutter draws into; nil for a headless one.
    private var xServer: XServer?

    /// Mutter nested in an Xvfb server (`mutter --nested`, its X11 backend):
    /// the stage is one X window showing `monitors` dummy monitors of 1024x768
    /// side by side, so ``capture()`` reads what reached them with `xwd` and
    /// ``typeKey(_:)`` types on mutter's keyboard with `xdotool` (XTest).
    ///
    /// Mutter 43 names its dummy monitors `LVDS1`, `LVDS2`, ... (connector type
    /// LVDS, `meta-monitor-manager-dummy.c`): built-in panels to Screenplay, as
    /// to anyone who reads connector names. A laptop's GNOME session names its
    /// panel eDP-1 and the projector HDMI-A-1, so the rig renames them with an
    /// LD_PRELOAD library (``OutputNames/mutterLibrary()``) to `names`, in order.
    /// Each is 1024x768 at 60 Hz (`MUTTER_DEBUG_DUMMY_MODE_SPECS`; without it
    /// mutter picked 800x600 or 1024x768 from run to run), in a row from (0,0).
    public static func startNested(names: [String] = ["eDP-1", "HDMI-A-1"], timeout: TimeInterval = 20) throws
        -> MutterRig
    {
        let monitors = names.count
        let xServer = try XServer.start(width: 1024 * monitors, height: 768)
        do {
            let rig = try launch("mutter-nested", socket: "screenplay-rig-mutter", timeout: timeout) { layout in
                var environment = layout.environment
                environment["DISPLAY"] = xServer.display
                environment["MUTTER_DEBUG_NUM_DUMMY_MONITORS"] = "\(monitors)"
                environment["MUTTER_DEBUG_DUMMY_MODE_SPECS"] = "1024x768"
                environment["SCREENPLAY_RIG_OUTPUT_NAMES"] = names.joined(separator: ",")
                environment["LD_PRELOAD"] = try OutputNames.mutterLibrary()
                return try ChildProcess(
                    path: "dbus-run-session",
                    args: [
                        "--", "mutter", "--nested", "--wayland", "--no-x11", "--wayland-display=screenplay-rig-mutter",
                    ],
                    environment: environment, directory: layout.directory, stdinData: nil, keepStdinOpen: false,
                    stderrPath: layout.logPath)
            } ready: { rig in
                rig.log.contains("Using Wayland display name")
            }
            rig.xServer = xServer
            return rig
        } catch {
            xServer.stop()
            throw error
        }
    }

    /// The whole stage of a nested mutter (monitor after monitor from the left),
    /// read from the X server with `xwd -root`.
    public func capture() throws -> RigImage {
        guard let xServer else { throw RigError("capture: headless mutter has no screenshot (use startNested)") }
        return try xServer.capture()
    }

    /// Types `key` (an X keysym name: `Right`, `q`) with `xdotool key` on a
    /// nested mutter's X window: mutter passes it to its focused window.
    public func typeKey(_ key: String) throws {
        guard let xServer else { throw RigError("typeKey: headless mutter has no keyboard (use startNested)") }
        try xServer.typeKey(key)
    }

    public override func stop() {
        super.stop()
        xServer?.stop()
    }
}
