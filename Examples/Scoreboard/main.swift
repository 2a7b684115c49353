// screenplay-scoreboard: the laptop is the keypad, the TV shows the score.
//
//     swift build --product screenplay-scoreboard
//     .build/debug/screenplay-scoreboard            # scoreboard on every external screen
//     .build/debug/screenplay-scoreboard --preview  # scoreboard in a second window instead
//
// A keypad window (two teams; +1, -1 and reset buttons you can click, tap or
// drive with keys) and a scoreboard scene on every external screen. The
// scoreboards draw only when the score changes: between changes the app
// uses no CPU. docs/library.md ("Example: a scoreboard") walks through it.
import Foundation
import Screenplay

/// The score, shared by the keypad and every scoreboard. Whoever shows it
/// subscribes and is told of each change.
@MainActor
final class Game {
    private(set) var home = 0
    private(set) var away = 0
    private var watchers: [ObjectIdentifier: () -> Void] = [:]

    enum Team { case home, away }

    func add(_ points: Int, to team: Team) {
        switch team {
        case .home: home = max(0, home + points)
        case .away: away = max(0, away + points)
        }
        changed()
    }

    func reset() {
        (home, away) = (0, 0)
        changed()
    }

    func watch(_ owner: AnyObject, _ body: @escaping () -> Void) { watchers[ObjectIdentifier(owner)] = body }
    func unwatch(_ owner: AnyObject) { watchers[ObjectIdentifier(owner)] = nil }

    /// Changes so far (a -1 at 0 is a change that keeps the score).
    private(set) var changes = 0

    private func changed() {
        changes += 1
        // One line per change: a log for the kiosk, a sign for scripts.
        FileHandle.standardOutput.write(Data("score home \(home) away \(away)\n".utf8))
        for watcher in watchers.values { watcher() }
    }
}

enum Palette {
    static let background = RGBColor(hex: 0x101820)
    static let home = RGBColor(hex: 0x1e5aa8)
    static let away = RGBColor(hex: 0xb8322a)
    static let button = RGBColor(hex: 0x2c3e50)
    static let pressed = RGBColor(hex: 0x4a6785)
    static let text = RGBColor.white
}

/// The scoreboard on a TV: the score, and the leading team's half in its
/// colour. Its display link stays paused, so it draws once when it
/// connects and then only when the game changes (`setNeedsDisplay`).
@MainActor
final class Scoreboard: SceneDelegate {
    let game: Game
    init(game: Game) { self.game = game }
    /// Draws per screen, told when the app stops: the proof that it drew
    /// once when it connected and once per change, never for nothing.
    static var draws: [String: Int] = [:]

    func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        game.watch(self) { [weak scene] in scene?.setNeedsDisplay() }
    }

    func sceneDidDisconnect(_ scene: Scene) { game.unwatch(self) }

    func draw(_ scene: Scene, in context: DrawingContext) throws {
        Self.draws[scene.screen?.name ?? "preview", default: 0] += 1
        let (w, h) = (context.pixelWidth, context.pixelHeight)
        try context.clear(Palette.background)
        if game.home > game.away { try context.fill(x: 0, y: 0, width: w / 2, height: h, color: Palette.home) }
        if game.away > game.home { try context.fill(x: w / 2, y: 0, width: w - w / 2, height: h, color: Palette.away) }
        for (column, (name, score)) in [("HOME", game.home), ("AWAY", game.away)].enumerated() {
            let x = column * w / 2
            try context.drawText(
                name, x: x, y: h / 6, maxWidth: w / 2, pixelHeight: h / 10, color: Palette.text, alignment: .center)
            try context.drawText(
                "\(score)", x: x, y: h / 3, maxWidth: w / 2, pixelHeight: h / 3, color: Palette.text, alignment: .center
            )
        }
    }
}

/// The keypad window: a header with the score, then a 2x3 grid of
/// buttons. Rows, top to bottom: +1, -1, reset; columns: home, away (the
/// reset row is one button across). The header takes the top quarter, the
/// rows share the rest equally. Buttons act when clicked (press and release
/// over the same button), tapped (touch lifted over the button it went down
/// on) or by key.
@MainActor
final class Keypad: SceneDelegate {
    enum Action: Equatable { case add(Game.Team, Int), reset }

    let game: Game
    let onQuit: () -> Void
    private weak var scene: Scene?
    /// The button under a pressed mouse button, or under each finger.
    private var pressedByPointer: Action?
    private var pressedByTouch: [Int: Action] = [:]

    init(game: Game, onQuit: @escaping () -> Void) {
        self.game = game
        self.onQuit = onQuit
    }

    func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        self.scene = scene
        game.watch(self) { [weak scene] in scene?.setNeedsDisplay() }
    }

    func sceneDidDisconnect(_ scene: Scene) {
        game.unwatch(self)
        // Closing the keypad ends the app.
        onQuit()
    }

    /// Each button's action and rectangle, in device pixels.
    func buttons(width w: Int, height h: Int) -> [(action: Action, x: Int, y: Int, width: Int, height: Int)] {
        let top = h / 4
        let row = (h - top) / 3
        let pad = max(4, min(w, h) / 40)
        var result: [(action: Action, x: Int, y: Int, width: Int, height: Int)] = []
        for (column, team) in [Game.Team.home, .away].enumerated() {
            let x = column * w / 2 + pad
            result.append((.add(team, 1), x, top + pad, w / 2 - 2 * pad, row - 2 * pad))
            result.append((.add(team, -1), x, top + row + pad, w / 2 - 2 * pad, row - 2 * pad))
        }
        result.append((.reset, pad, top + 2 * row + pad, w - 2 * pad, row - 2 * pad))
        return result
    }

    private func action(at x: Double, _ y: Double) -> Action? {
        guard let scene else { return nil }
        return buttons(width: scene.pixelSize.width, height: scene.pixelSize.height).first {
            x >= Double($0.x) && x < Double($0.x + $0.width) && y >= Double($0.y) && y < Double($0.y + $0.height)
        }?.action
    }

    private func perform(_ action: Action) {
        switch action {
        case let .add(team, points): game.add(points, to: team)
        case .reset: game.reset()
        }
    }

    func draw(_ scene: Scene, in context: DrawingContext) throws {
        let (w, h) = (context.pixelWidth, context.pixelHeight)
        try context.clear(Palette.background)
        try context.drawText(
            "Home \(game.home)  :  \(game.away) Away", x: 0, y: h / 12, maxWidth: w, pixelHeight: h / 12,
            color: Palette.text, alignment: .center)
        let held = Set([pressedByPointer].compactMap { $0 }.map(label) + pressedByTouch.values.map(label))
        for button in buttons(width: w, height: h) {
            let name = label(button.action)
            try context.fill(
                x: button.x, y: button.y, width: button.width, height: button.height,
                color: held.contains(name) ? Palette.pressed : Palette.button)
            let size = button.height / 3
            try context.drawText(
                name, x: button.x, y: button.y + (button.height - size * 5 / 4) / 2, maxWidth: button.width,
                pixelHeight: size, color: Palette.text, alignment: .center)
        }
    }

    private func label(_ action: Action) -> String {
        switch action {
        case .add(.home, let n): return "Home \(n > 0 ? "+" : "")\(n)"
        case .add(.away, let n): return "Away \(n > 0 ? "+" : "")\(n)"
        case .reset: return "Reset"
        }
    }

    // Keys by keysym, so they are right on any layout.
    func scene(_ scene: Scene, didReceiveKey event: KeyEvent) {
        guard event.isPressed else { return }
        switch event.keysym {
        case "a": perform(.add(.home, 1))
        case "z": perform(.add(.home, -1))
        case "k": perform(.add(.away, 1))
        case "m": perform(.add(.away, -1))
        case "r": perform(.reset)
        case "Escape", "q": onQuit()
        default: break
        }
    }

    func scene(_ scene: Scene, didReceivePointer event: PointerEvent) {
        switch event.kind {
        case .pressed(.left):
            pressedByPointer = action(at: event.x, event.y)
            scene.setNeedsDisplay()
        case .released(.left):
            if let pressed = pressedByPointer, pressed == action(at: event.x, event.y) { perform(pressed) }
            pressedByPointer = nil
            scene.setNeedsDisplay()
        case .left:
            pressedByPointer = nil
            scene.setNeedsDisplay()
        default:
            break
        }
    }

    func scene(_ scene: Scene, didReceiveTouch event: TouchEvent) {
        switch event.kind {
        case .began:
            pressedByTouch[event.id] = action(at: event.x, event.y)
        case .moved:
            break
        case .ended:
            if let pressed = pressedByTouch.removeValue(forKey: event.id), pressed == action(at: event.x, event.y) {
                perform(pressed)
            }
        case .cancelled:
            pressedByTouch[event.id] = nil
        }
        scene.setNeedsDisplay()
    }
}

// MARK: main

let arguments = CommandLine.arguments.dropFirst()
let preview = arguments.contains("--preview")
if let unknown = arguments.first(where: { $0 != "--preview" }) {
    FileHandle.standardError.write(
        Data("screenplay-scoreboard: unknown argument \(unknown); usage: screenplay-scoreboard [--preview]\n".utf8))
    exit(64)
}

let app: Application
do {
    app = try Application()
} catch {
    FileHandle.standardError.write(Data("screenplay-scoreboard: \(error)\n".utf8))
    exit(69)
}
let game = Game()
let quit: () -> Void = { [weak app] in app?.shutdown() }
let scoreboard = SceneConfiguration(name: "scoreboard") { Scoreboard(game: game) }
if preview {
    // Working without a second screen: the scoreboard in a window of its own.
    _ = try app.openWindow(configuration: scoreboard)
} else {
    let registration = app.registerSceneAccessory(.externalNonInteractive(sceneConfiguration: scoreboard))
    registration.onAvailabilityChange = { available in
        FileHandle.standardError.write(
            Data(
                "screenplay-scoreboard: \(available ? "showing the score on the external screens" : "no external screen; plug in a TV, or use --preview")\n"
                    .utf8))
    }
    let names = app.externalScreens.map(\.name).joined(separator: ", ")
    FileHandle.standardError.write(
        Data(
            "screenplay-scoreboard: \(registration.isAvailable ? "showing the score on \(names)" : "no external screen yet; plug in a TV, or use --preview")\n"
                .utf8))
}
_ = try app.openWindow(
    configuration: SceneConfiguration(name: "Scoreboard keypad") { Keypad(game: game, onQuit: quit) })
FileHandle.standardError.write(
    Data("screenplay-scoreboard: keys a/z home +1/-1, k/m away +1/-1, r reset, Escape quits\n".utf8))
do {
    try app.run()
} catch {
    FileHandle.standardError.write(Data("screenplay-scoreboard: \(error)\n".utf8))
    exit(69)
}
let drawn = Scoreboard.draws.sorted { $0.key < $1.key }.map { "\($0.value) on \($0.key)" }.joined(separator: ", ")
FileHandle.standardError.write(
    Data(
        "screenplay-scoreboard: \(game.changes) score changes; the scoreboard drew \(drawn.isEmpty ? "nothing" : drawn)\n"
            .utf8))
