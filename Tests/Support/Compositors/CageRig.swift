// Headless cage 0.1.4: the kiosk compositor signage boxes run. No layer shell, so
// Screenplay's scenes are fullscreen windows there; every toplevel is made to span
// the output layout. cage refuses root, like sway, so it runs as the rig user.
public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A headless cage with `outputs` outputs (HEADLESS-1...), optionally rotated.
///
/// cage needs an application to run and exits when it does; the rig gives it
/// `sleep`, so Screenplay connects as a second client, as it would next to a
/// kiosk app. Pixels come from grim (cage offers wlr-screencopy).
public final class CageRig: CompositorRig, @unchecked Sendable {
    /// Starts cage and returns once its socket accepts connections.
    /// - Parameters:
    ///   - outputs: number of headless outputs (1280x720 each, cage's default mode).
    ///   - quarterTurns: how many times cage rotates its outputs by 90° clockwise (`-r`).
    public static func start(outputs: Int = 1, quarterTurns: Int = 0, timeout: TimeInterval = 10) throws -> CageRig {
        try run(
            ["cage", "-d"] + Array(repeating: "-r", count: quarterTurns % 4) + ["--", "sleep", "86400"],
            outputs: outputs, timeout: timeout)
    }

    /// Runs `command`, a command line that starts cage with its application
    /// (a kiosk's, such as a systemd unit's `ExecStart`), headless as the rig
    /// user, and returns once cage's socket accepts connections.
    /// - Parameters:
    ///   - environment: added to the rig's (`PATH`, `HOME` and
    ///     `XDG_RUNTIME_DIR`, the headless backend's variables); it wins.
    public static func run(
        _ command: [String], outputs: Int = 1, environment: [String: String] = [:], timeout: TimeInterval = 10
    ) throws -> CageRig {
        try prepareX11SocketDirectory()
        let user = try RigUser.get()
        return try launch(
            "cage", socket: "wayland-0", runtimeOwner: (user.uid, user.gid), descendantsFirst: user.needsSwitch,
            timeout: timeout
        ) { layout in
            var env = layout.environment
            env.merge([
                "WLR_BACKENDS": "headless", "WLR_HEADLESS_OUTPUTS": "\(outputs)", "WLR_RENDERER": "pixman",
                "WLR_LIBINPUT_NO_DEVICES": "1",
            ]) { $1 }
            env.merge(environment) { $1 }
            return try user.spawn(command, environment: env, directory: layout.directory, logPath: layout.logPath)
        }
    }

    /// cage 0.1.4 will not start without Xwayland, and wlroots refuses an X11 socket
    /// directory owned by anyone but root or itself. A Debian system makes it at boot
    /// (tmpfiles.d/x11.conf: root, 1777); a bare CI container has none, so make it the same way.
    private static func prepareX11SocketDirectory() throws {
        let path = "/tmp/.X11-unix"
        var info = stat()
        if stat(path, &info) != 0 {
            guard geteuid() == 0 else { return }  // cage, running as us, makes its own
            try RigFiles.makeDirectory(path, mode: 0o1777)
            chmod(path, 0o1777)
            return
        }
        let user = try RigUser.get()
        guard info.st_uid == 0 || info.st_uid == user.uid else {
            throw RigError(
                "\(path) belongs to uid \(info.st_uid), so cage's Xwayland (run as \(user.name)) refuses it "
                    + "and cage exits. Fix: `chown root:root \(path) && chmod 1777 \(path)` (what tmpfiles.d/x11.conf does)."
            )
        }
    }

    /// Captures one output with grim, at the output's pixel size (rotated outputs come
    /// out rotated, as the viewer sees them).
    public func capture(output: String = "HEADLESS-1") throws -> RigImage {
        try captureWithGrim(output: output, environment: clientEnvironment, scratch: directory)
    }
}
