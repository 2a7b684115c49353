// Headless mutter 43: GNOME's compositor, which has no wlr-layer-shell and never will.
// It runs as root, renders with Mesa's surfaceless llvmpipe and gives real
// wp_presentation feedback. It offers no screenshot protocol (GNOME screenshots go
// through gnome-shell's D-Bus API), so the tests check protocol behaviour, not pixels.
public import Foundation

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
}
