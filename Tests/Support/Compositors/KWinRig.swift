// Headless KWin 5.27 (`--virtual`): KDE's compositor, with wlr-layer-shell and the only
// compositor here that offers wp_fractional_scale_v1. Its screenshot D-Bus API did not
// answer on the virtual backend here, so pixels come from KWin nested in sway (startNested).
public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A headless KWin with `outputs` virtual outputs (Virtual-0, ...) at one scale.
public final class KWinRig: CompositorRig, @unchecked Sendable {
    /// Starts KWin in its own D-Bus session and returns once its socket accepts connections.
    /// - Parameters:
    ///   - scale: output scale, fractional allowed (1.5 announces wl_output scale 2 and
    ///     a preferred fractional scale of 180/120).
    /// KWin with `outputs` outputs nested in the compositor at `parentDisplay`
    /// (its wayland backend: each output a window there), so the parent's
    /// keyboard and screenshots reach it.
    public static func startNested(
        inWaylandDisplay parentDisplay: String, outputs: Int = 2, width: Int = 640, height: Int = 480,
        timeout: TimeInterval = 20
    ) throws -> KWinRig {
        try launch("kwin-nested", socket: "screenplay-rig-kwin", timeout: timeout) { layout in
            let binary = layout.directory + "/kwin_wayland"
            try FileManager.default.copyItem(atPath: "/usr/bin/kwin_wayland", toPath: binary)
            var environment = layout.environment
            environment["WAYLAND_DISPLAY"] = parentDisplay
            // The log says whether KWin activated a window on a token's behalf.
            environment["QT_LOGGING_RULES"] = "kwin_core.debug=true"
            return try ChildProcess(
                path: "dbus-run-session",
                args: [
                    "--", binary, "--width", "\(width)", "--height", "\(height)", "--output-count", "\(outputs)",
                    "--socket", "screenplay-rig-kwin", "--no-lockscreen", "--no-global-shortcuts",
                ],
                environment: environment, directory: layout.directory, stdinData: nil, keepStdinOpen: false,
                stderrPath: layout.logPath)
        }
    }

    public static func start(
        outputs: Int = 1, width: Int = 1280, height: Int = 720, scale: Double = 1, timeout: TimeInterval = 20
    ) throws -> KWinRig {
        try launch("kwin", socket: "screenplay-rig-kwin", timeout: timeout) { layout in
            // Debian ships kwin_wayland with file capabilities (cap_sys_resource), and a
            // container that may not grant them refuses to exec it ("Operation not
            // permitted"). A copy carries no capabilities, and KWin does not need them.
            let binary = layout.directory + "/kwin_wayland"
            try FileManager.default.copyItem(atPath: "/usr/bin/kwin_wayland", toPath: binary)
            return try ChildProcess(
                path: "dbus-run-session",
                args: [
                    "--", binary, "--virtual", "--width", "\(width)", "--height", "\(height)", "--scale", "\(scale)",
                    "--output-count", "\(outputs)", "--socket", "screenplay-rig-kwin", "--no-lockscreen",
                    "--no-global-shortcuts",
                ],
                environment: layout.environment, directory: layout.directory, stdinData: nil, keepStdinOpen: false,
                stderrPath: layout.logPath)
        }
    }

    /// An `xdg_activation_v1` token for `appID`, asked for as a desktop's
    /// launcher does before it starts an app (``ActivationLauncher``). KWin
    /// grants it only while no other window is active.
    public func activationToken(appID: String) throws -> String {
        try ActivationLauncher.token(appID: appID, environment: clientEnvironment)
    }
}
