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
public final class WestonRig: CompositorRig, @unchecked Sendable {
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
        try launch("weston", socket: "screenplay-rig-weston", timeout: timeout) { layout in
            try ChildProcess(
                path: "weston",
                args: [
                    "--backend=headless-backend.so", "--use-pixman", "--width=\(width)", "--height=\(height)",
                    "--transform=\(westonTransform(transform))", "--scale=\(scale)", "--socket=screenplay-rig-weston",
                    "--idle-time=0", "--no-config", "--debug",
                ],
                environment: layout.environment, directory: layout.directory, stdinData: nil, keepStdinOpen: false,
                stderrPath: layout.logPath)
        } ready: { rig in
            rig.log.contains("weston-desktop-shell")
        }
    }

    /// Weston with `outputs` outputs of `width`x`height`, nested in `parent`
    /// (its wayland backend: each output is a window of the parent). Debian's
    /// weston 10 headless backend makes one output only; a talk needs two.
    /// Pixels: the parent's capture of the windows, or ``capture()``.
    public static func startNested(
        inWaylandDisplay parentDisplay: String, outputs: Int = 2, width: Int = 640, height: Int = 480,
        timeout: TimeInterval = 15
    ) throws -> WestonRig {
        try launch("weston-nested", socket: "screenplay-rig-weston", timeout: timeout) { layout in
            var environment = layout.environment
            environment["WAYLAND_DISPLAY"] = parentDisplay
            return try ChildProcess(
                path: "weston",
                args: [
                    "--backend=wayland-backend.so", "--use-pixman", "--output-count=\(outputs)", "--width=\(width)",
                    "--height=\(height)", "--socket=screenplay-rig-weston", "--idle-time=0", "--no-config", "--debug",
                ],
                environment: environment, directory: layout.directory, stdinData: nil, keepStdinOpen: false,
                stderrPath: layout.logPath)
        } ready: { rig in
            rig.log.contains("weston-desktop-shell")
        }
    }

    /// Weston names transforms `rotate-90`, `flipped-rotate-90`; accept sway's names too.
    static func westonTransform(_ t: String) -> String {
        switch t {
        case "90", "180", "270": return "rotate-" + t
        case "flipped-90", "flipped-180", "flipped-270": return "flipped-rotate-" + t.dropFirst("flipped-".count)
        default: return t
        }
    }

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
}
