// screenplay-lobby: a café's counter window, and its TV playing the menu.
//
//     swift build --product screenplay-lobby
//     .build/debug/screenplay-lobby Examples/Lobby/cafe.json
//
// The TV plays a playlist through the Signage library's player, the same
// player `screenplay play` runs, with its schedules, crossfades and
// overrides. The window on the counter has three buttons, also on keys:
// Next (n) shows the next item now, Special (o) puts today's special over
// the playlist for a minute, Schedule (s) goes back to the playlist.
// Escape or q quits; so does SIGTERM, with exit status 0. With
// `--socket PATH` the app also answers `screenplay ctl --socket PATH`
// (status, next, override), as `screenplay play` does.
import Foundation
import Screenplay
import Signage

enum Palette {
    static let background = RGBColor(hex: 0x1b1b1b)
    static let button = RGBColor(hex: 0x3a3226)
    static let pressed = RGBColor(hex: 0x6b5a40)
    static let text = RGBColor.white
}

/// What the counter's buttons do to the player.
@MainActor
final class Counter {
    enum Action: CaseIterable { case next, special, schedule }

    let player: SignagePlayer
    let special: String
    /// The last action's outcome, shown in the window's header.
    private(set) var line = "Playing the menu"
    var onChange: () -> Void = {}

    init(player: SignagePlayer, special: String) {
        self.player = player
        self.special = special
    }

    func perform(_ action: Action) {
        let result: Result<[String: Any], ControlError>
        switch action {
        case .next: result = player.next()
        case .special: result = player.override(.start(what: nil, text: special, seconds: 60))
        case .schedule: result = player.backToSchedule()
        }
        switch result {
        case .success:
            line = Self.done(action)
            // One line per action: a log for the café, a sign for scripts.
            FileHandle.standardOutput.write(Data("lobby \(action)\n".utf8))
        case let .failure(error):
            line = "Not done: \(error.reason)"
            FileHandle.standardError.write(Data("screenplay-lobby: \(action) refused: \(error.reason)\n".utf8))
        }
        onChange()
    }

    static func label(_ action: Action) -> String {
        switch action {
        case .next: "Next (n)"
        case .special: "Special (o)"
        case .schedule: "Schedule (s)"
        }
    }

    private static func done(_ action: Action) -> String {
        switch action {
        case .next: "Showing the next item"
        case .special: "Today's special is on the TV for a minute"
        case .schedule: "Back to the menu"
        }
    }
}

/// The counter window: the last action's outcome on top, then a button
/// per action, clicked, tapped or keyed.
@MainActor
final class CounterWindow: SceneDelegate {
    let counter: Counter
    let onQuit: () -> Void
    private weak var scene: Scene?
    private var pressed: Counter.Action?

    init(counter: Counter, onQuit: @escaping () -> Void) {
        self.counter = counter
        self.onQuit = onQuit
    }

    func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        self.scene = scene
        counter.onChange = { [weak scene] in scene?.setNeedsDisplay() }
    }

    // Closing the window ends the app.
    func sceneDidDisconnect(_ scene: Scene) { onQuit() }

    /// Each button and its rectangle in device pixels: a row of three under
    /// a header of a quarter of the height.
    func buttons(width w: Int, height h: Int) -> [(action: Counter.Action, rect: SceneRect)] {
        let top = h / 4, pad = max(4, min(w, h) / 40)
        let actions = Counter.Action.allCases
        return actions.enumerated().map { index, action in
            let x = index * w / actions.count
            let rect = SceneRect(
                x: x + pad, y: top + pad, width: w / actions.count - 2 * pad, height: h - top - 2 * pad)
            return (action, rect)
        }
    }

    private func action(at x: Double, _ y: Double) -> Counter.Action? {
        guard let scene else { return nil }
        return buttons(width: scene.pixelSize.width, height: scene.pixelSize.height).first {
            x >= Double($0.rect.x) && x < Double($0.rect.x + $0.rect.width) && y >= Double($0.rect.y)
                && y < Double($0.rect.y + $0.rect.height)
        }?.action
    }

    func draw(_ scene: Scene, in context: DrawingContext) throws {
        let (w, h) = (context.pixelWidth, context.pixelHeight)
        try context.clear(Palette.background)
        try context.drawText(
            counter.line, x: 0, y: h / 12, maxWidth: w, pixelHeight: h / 14, color: Palette.text, alignment: .center)
        for (action, rect) in buttons(width: w, height: h) {
            try context.fill(
                x: rect.x, y: rect.y, width: rect.width, height: rect.height,
                color: action == pressed ? Palette.pressed : Palette.button)
            let size = min(rect.height / 5, rect.width / 7)
            try context.drawText(
                Counter.label(action), x: rect.x, y: rect.y + (rect.height - size) / 2, maxWidth: rect.width,
                pixelHeight: size, color: Palette.text, alignment: .center)
        }
    }

    // Keys by keysym, so they are right on any layout.
    func scene(_ scene: Scene, didReceiveKey event: KeyEvent) {
        guard event.isPressed else { return }
        switch event.keysym {
        case "n": counter.perform(.next)
        case "o": counter.perform(.special)
        case "s": counter.perform(.schedule)
        case "Escape", "q": onQuit()
        default: break
        }
    }

    func scene(_ scene: Scene, didReceivePointer event: PointerEvent) {
        switch event.kind {
        case .pressed(.left): pressed = action(at: event.x, event.y)
        case .released(.left):
            if let held = pressed, held == action(at: event.x, event.y) { counter.perform(held) }
            pressed = nil
        case .left: pressed = nil
        default: return
        }
        scene.setNeedsDisplay()
    }

    func scene(_ scene: Scene, didReceiveTouch event: TouchEvent) {
        switch event.kind {
        case .began: pressed = action(at: event.x, event.y)
        case .moved: return
        case .ended:
            if let held = pressed, held == action(at: event.x, event.y) { counter.perform(held) }
            pressed = nil
        case .cancelled: pressed = nil
        }
        scene.setNeedsDisplay()
    }
}

// MARK: main

func fail(_ message: String, _ status: Int32) -> Never {
    FileHandle.standardError.write(Data("screenplay-lobby: \(message)\n".utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var socketPath: String?
if let index = arguments.firstIndex(of: "--socket"), index + 1 < arguments.count {
    socketPath = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
}
guard arguments.count == 1, let path = arguments.first, !path.hasPrefix("-") else {
    fail("usage: screenplay-lobby PLAYLIST.json [--socket PATH] (for example Examples/Lobby/cafe.json)", 64)
}

let player = SignagePlayer(options: PlayerOptions(path: path))
do {
    try player.load()
} catch {
    // The parser names the file, the JSON path and the fix; 65 or 66 as `play` exits.
    fail(error.description, error.code == .noInput ? 66 : 65)
}
var applicationOptions = ApplicationOptions()
player.configure(&applicationOptions)
let app: Application
do {
    app = try Application(options: applicationOptions)
} catch {
    fail("\(error)", 69)
}
let counter = Counter(player: player, special: "Today's special: pear tart")
do {
    try player.start(on: app)
} catch {
    fail(error.description, error.code == .noInput ? 66 : 65)
}
var server: ControlServer?
if let socketPath {
    do {
        let naming = ControlServer.Naming(program: "screenplay-lobby", shortName: "lobby", pathSetting: "--socket")
        server = try ControlServer(path: socketPath, naming: naming, messages: .standardError) { line, later in
            player.answer(line, later: later)
        }
    } catch {
        fail(error.description, error.kind == .usage ? 64 : 69)
    }
}
_ = try app.openWindow(
    configuration: SceneConfiguration(name: "Lobby counter") {
        CounterWindow(counter: counter, onQuit: { [weak app] in app?.shutdown() })
    })
let keys = "keys n next, o special, s schedule, q quits"
FileHandle.standardError.write(Data("screenplay-lobby: playing \(path) on the external screens; \(keys)\n".utf8))
do {
    try app.run()
} catch {
    fail("\(error)", 69)
}
server?.close()
player.stop()
