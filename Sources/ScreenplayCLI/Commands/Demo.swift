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
final class DemoRunner: SceneCommand {
    let command: DemoCommand
    private var compositor: HeadlessSway?
    private var presenter: PresentedTalk?

    init(_ command: DemoCommand) { self.command = command }

    var application: Application? { presenter?.app }

    func stop(signal: StopSignal) { presenter?.stop(signal: signal) }

    func start() throws {
        let deckDir = NSTemporaryDirectory() + "screenplay-demo-deck.\(getpid())"
        try FileManager.default.createDirectory(atPath: deckDir, withIntermediateDirectories: true)
        let deck = try SampleDeck.write(to: deckDir)
        var present = PresentCommand(content: .pdf(path: deck.pdf))
        present.talk.notesPath = deck.notes
        if let display = ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"], !display.isEmpty {
            log("WAYLAND_DISPLAY=\(display): presenting the sample deck \(deck.pdf) on this desktop until you press q")
            let presenter = try PresentedTalk(present, path: deck.pdf)
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
            let presenter = try PresentedTalk(present, path: deck.pdf)
            try presenter.start()
            self.presenter = presenter
        } catch {
            sway.stop()
            throw error
        }
        // Pages render in the background; give the first frames time to land.
        DispatchQueue.main.asyncAfter(deadline: .now() + 3) {
            MainActor.assumeIsolated { self.finish(deckDir: deckDir) }
        }
    }

    private func finish(deckDir: String) {
        guard let sway = compositor else { return }
        let dir = URL(fileURLWithPath: command.outputDirectory).standardizedFileURL
        var status: Int32 = 0
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            print(
                "Screenplay demo: a headless sway with two outputs; HEADLESS-1 plays the laptop's built-in panel, HEADLESS-2 the projector."
            )
            let shows = [
                "HEADLESS-1":
                    "built-in: the presenter console — current and next slide, the notes of slide 1, timer, clock and page 1/5; the audience view never goes here",
                "HEADLESS-2":
                    "external: slide 1 of the sample deck spanning all 1280x720 pixels (letterboxed 16:9), as the audience sees it",
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

func findExecutable(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for dir in path.split(separator: ":") + ["/usr/sbin", "/usr/bin"] {
        let candidate = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}
