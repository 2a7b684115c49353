import Dispatch
import Documents
import Foundation
import Screenplay

/// `screenplay demo`: the main job with no desktop. Without WAYLAND_DISPLAY
/// it starts its own headless sway with two outputs (HEADLESS-1 marked
/// built-in, HEADLESS-2 external), presents a sample deck it writes itself
/// (audience slide on the external output, console on the built-in one),
/// captures both outputs with grim and stops the compositor. With a desktop
/// it presents the deck on the real screens until quit.
@MainActor
final class DemoRunner {
    let command: DemoCommand
    private var compositor: HeadlessSway?
    private var presenter: Presenter?

    init(_ command: DemoCommand) { self.command = command }

    func start() throws {
        let deckDir = NSTemporaryDirectory() + "screenplay-demo-deck.\(getpid())"
        try FileManager.default.createDirectory(atPath: deckDir, withIntermediateDirectories: true)
        let deck = try SampleDeck.write(to: deckDir)
        var present = PresentCommand(content: .pdf(path: deck.pdf))
        present.notesPath = deck.notes
        if let display = ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"], !display.isEmpty {
            log("WAYLAND_DISPLAY=\(display): presenting the sample deck \(deck.pdf) on this desktop until you press q")
            let presenter = try Presenter(present, path: deck.pdf)
            try presenter.start()
            self.presenter = presenter
            return
        }
        let sway = try HeadlessSway.start(outputs: 2)
        compositor = sway
        // The presenter connects through WAYLAND_DISPLAY like any client.
        setenv("WAYLAND_DISPLAY", sway.socketPath, 1)
        present.builtinPatterns = ["HEADLESS-1"]
        do {
            let presenter = try Presenter(present, path: deck.pdf)
            try presenter.start()
            self.presenter = presenter
        } catch {
            sway.stop()
            throw error
        }
        // Pages render in the background; give the first frames time to land.
        DispatchQueue.main.asyncAfter(deadline: .now() + 3) { MainActor.assumeIsolated { self.finish(deckDir: deckDir) } }
    }

    private func finish(deckDir: String) {
        guard let sway = compositor else { return }
        let dir = URL(fileURLWithPath: command.outputDirectory).standardizedFileURL
        var status: Int32 = 0
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            print("Screenplay demo: a headless sway with two outputs; HEADLESS-1 plays the laptop's built-in panel, HEADLESS-2 the projector.")
            let shows = [
                "HEADLESS-1": "built-in: the presenter console — current and next slide, the notes of slide 1, timer, clock and page 1/5; the audience view never goes here",
                "HEADLESS-2": "external: slide 1 of the sample deck spanning all 1280x720 pixels (letterboxed 16:9), as the audience sees it",
            ]
            for name in ["HEADLESS-1", "HEADLESS-2"] {
                let path = dir.appendingPathComponent("\(name).png").path
                try sway.capture(output: name, to: path)
                print("  \(path)\n    \(name) (\(shows[name]!))")
            }
        } catch {
            printError("\(error)")
            status = ExitCode.failure.rawValue
        }
        try? FileManager.default.removeItem(atPath: deckDir)
        // Exit before the presenter hears the compositor go.
        sway.stop()
        exit(status)
    }
}

/// A headless sway started for the demo. Sway refuses to run as root, so
/// as root it runs as `nobody` with a runtime directory that user owns.
final class HeadlessSway {
    let runtimeDir: String
    let socketPath: String
    private let process: Process

    static func start(outputs: Int) throws -> HeadlessSway {
        guard let sway = findExecutable("sway") else {
            throw CommandFailure(.unavailable, "the demo needs sway for its headless compositor: apt-get install sway grim (or run it inside a Wayland session)")
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
            guard let pw = getpwnam("nobody") else { throw CommandFailure(.unavailable, "sway refuses root and there is no `nobody` user to run it as") }
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

func findExecutable(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for dir in path.split(separator: ":") + ["/usr/sbin", "/usr/bin"] {
        let candidate = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}
