import Foundation
import TestHarness
import TestSupport
import XCTest

/// The example game `screenplay-sdl-game` on headless sway with a laptop
/// panel (HEADLESS-1, marked built-in as a user's machine would be) and a
/// TV (HEADLESS-2): SDL's window and loop on the laptop read the keys,
/// Screenplay, driven from that loop, draws the arena with raw GLES on the
/// TV, and a key typed into the SDL window moves the piece there.
final class SDLGameTests: ScreenplayTestCase {
    static let background = RGB(hex: 0x202a44)
    static let colours = [RGB(hex: 0xe0a020), RGB(hex: 0x20c060), RGB(hex: 0xc03080)]
    static let columns = 8, rows = 6

    var binary: String {
        URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().appendingPathComponent("screenplay-sdl-game").path
    }

    /// The colour at the centre of the arena's cell (`column`, `row`) on the TV.
    func cell(_ image: RigImage, _ column: Int, _ row: Int) -> RGB {
        let w = image.width / Self.columns, h = image.height / Self.rows
        return image.pixel(x: column * w + w / 2, y: row * h + h / 2)
    }

    /// Waits until the TV shows the piece in `colour` at (`column`, `row`)
    /// and the arena's background in the cell the piece left.
    func waitForPiece(
        _ rig: SwayRig, _ p: RunningProcess, column: Int, row: Int, colour: Int, emptied: (Int, Int)?,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        var last = "no capture"
        let ok = waitUntil(timeout: 5, poll: 0.05) {
            guard let image = try? rig.capture(output: "HEADLESS-2") else { return false }
            let piece = cell(image, column, row)
            let left = emptied.map { cell(image, $0.0, $0.1) }
            last =
                "piece cell \(piece), left cell \(left.map(\.description) ?? "-"), background share \(image.fraction(of: Self.background, tolerance: 2))"
            return piece.distance(to: Self.colours[colour]) <= 2
                && (left.map { $0.distance(to: Self.background) <= 2 } ?? true)
                && image.fraction(of: Self.background, tolerance: 2) > 0.8
        }
        XCTAssertTrue(
            ok,
            "TV: piece at \(column) \(row) in colour \(colour): \(last); stdout:\n\(p.stdout)\nstderr:\n\(p.stderr)",
            file: file, line: line)
    }

    func testKeysInTheSDLWindowMoveThePieceOnTheTVDrawnWithRawGLES() throws {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw RigError("\(binary) is missing: run `swift build` before `swift test`")
        }
        // A keyboard on the seat from the start, as a laptop has (see ScoreboardTests).
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)], keyboard: true)
        try rig.focusOutput("HEADLESS-1")
        var environment = env(rig, builtin: "HEADLESS-1")
        environment["SDL_VIDEODRIVER"] = nil
        let p = try RunningProcess(binary, [], environment: environment)
        addTeardownBlock { p.kill() }
        XCTAssertTrue(waitUntil(timeout: 10) { p.stderr.contains("showing the arena on HEADLESS-2") }, p.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 5) { (rig.windowRect(titled: "Screenplay SDL game")?.width ?? 0) > 0 },
            "SDL's window is on the laptop through the Wayland backend: \(p.stderr)")
        waitForPiece(rig, p, column: 0, row: 0, colour: 0, emptied: nil)

        try type(["-k", "Right"], rig)
        XCTAssertNotNil(p.waitForLine(containing: "piece at 1 0 colour 0", timeout: 5), p.stdout + p.stderr)
        waitForPiece(rig, p, column: 1, row: 0, colour: 0, emptied: (0, 0))
        try type(["-k", "Down", "-s", "150", "-k", "space"], rig)
        XCTAssertNotNil(p.waitForLine(containing: "piece at 1 1 colour 1", timeout: 5), p.stdout + p.stderr)
        waitForPiece(rig, p, column: 1, row: 1, colour: 1, emptied: (1, 0))

        // SIGTERM reaches SDL's loop as SDL_QUIT: Screenplay shuts down, exit 0.
        assertCleanStop(p)
        XCTAssertTrue(p.stderr.contains("stopped"), p.stderr)
        XCTAssertFalse(p.stderr.contains("error"), p.stderr)
    }

    func type(_ keys: [String], _ rig: SwayRig) throws {
        let r = try runProcess("wtype", ["-s", "150"] + keys, environment: env(rig), timeout: 5)
        XCTAssertEqual(r.status, 0, "wtype \(keys): \(r.stderr)")
    }
}
