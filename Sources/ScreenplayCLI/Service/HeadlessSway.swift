import Dispatch
import Documents
import Foundation
import Screenplay

/// A headless sway started for the demo. Sway refuses to run as root, so
/// as root it runs as `nobody` with a runtime directory that user owns.
final class HeadlessSway {
    let runtimeDir: String
    let socketPath: String
    private let process: Process

    static func start(outputs: Int) throws -> HeadlessSway {
        guard let sway = findExecutable("sway") else {
            throw CommandFailure(
                .unavailable,
                "the demo needs sway for its headless compositor: apt-get install sway grim (or run it inside a Wayland session)"
            )
        }
        guard findExecutable("grim") != nil else {
            throw CommandFailure(.unavailable, "the demo needs grim to capture the outputs: apt-get install grim")
        }
        let base = NSTemporaryDirectory() + "screenplay-demo.\(getpid())"
        let runtime = base + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let config = base + "/sway.conf"
        var lines = ["default_border none", "xwayland disable"]
        for i in 1...outputs {
            lines.append("output HEADLESS-\(i) mode 1280x720@60Hz position \((i - 1) * 1280) 0 bg #3f3f3f solid_color")
        }
        try lines.joined(separator: "\n").write(toFile: config, atomically: true, encoding: .utf8)
        chmod(base, 0o755)
        chmod(config, 0o644)
        var arguments = [
            "XDG_RUNTIME_DIR=\(runtime)", "WLR_BACKENDS=headless", "WLR_RENDERER=pixman", "WLR_LIBINPUT_NO_DEVICES=1",
            "WLR_HEADLESS_OUTPUTS=\(outputs)", "PATH=/usr/local/bin:/usr/bin:/bin", sway, "-c", config,
        ]
        let process = Process()
        if geteuid() == 0 {
            guard let pw = getpwnam("nobody") else {
                throw CommandFailure(.unavailable, "sway refuses root and there is no `nobody` user to run it as")
            }
            chown(runtime, pw.pointee.pw_uid, pw.pointee.pw_gid)
            chmod(runtime, 0o700)
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            arguments = ["-u", "nobody", "--", "/usr/bin/env", "-i"] + arguments
        } else {
            chmod(runtime, 0o700)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            arguments = ["-i"] + arguments
        }
        process.arguments = arguments
        let logPath = base + "/sway.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = FileHandle(forWritingAtPath: logPath)
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let socket = runtime + "/wayland-1"
        let started = Date()
        while !FileManager.default.fileExists(atPath: socket) {
            if !process.isRunning || Date().timeIntervalSince(started) > 10 {
                let tail = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                process.terminate()
                throw CommandFailure(.unavailable, "the demo's headless sway did not start:\n\(tail.suffix(2000))")
            }
            usleep(50_000)
        }
        return HeadlessSway(runtimeDir: runtime, socketPath: socket, process: process)
    }

    private init(runtimeDir: String, socketPath: String, process: Process) {
        self.runtimeDir = runtimeDir
        self.socketPath = socketPath
        self.process = process
    }

    func capture(output: String, to path: String) throws {
        let grim = Process()
        grim.executableURL = URL(fileURLWithPath: findExecutable("grim") ?? "/usr/bin/grim")
        grim.arguments = ["-o", output, path]
        var env = ProcessInfo.processInfo.environment
        env["WAYLAND_DISPLAY"] = socketPath
        env["XDG_RUNTIME_DIR"] = env["XDG_RUNTIME_DIR"] ?? NSTemporaryDirectory()
        grim.environment = env
        try grim.run()
        grim.waitUntilExit()
        guard grim.terminationStatus == 0 else {
            throw CommandFailure(.failure, "grim could not capture \(output) (status \(grim.terminationStatus))")
        }
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: (runtimeDir as NSString).deletingLastPathComponent)
    }
}
