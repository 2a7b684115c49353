import Foundation
import TestHarness
import TestSupport
import VirtualPointer
import XCTest

/// The example app `screenplay-scoreboard` on headless sway with a laptop
/// panel (HEADLESS-1) and a TV (HEADLESS-2): the keypad window is driven by
/// keys (wtype) and by a mouse (a virtual pointer), and every check reads
/// the TV's pixels, where the leading team's half turns its colour.
final class ScoreboardTests: ScreenplayTestCase {
    static let background = RGB(hex: 0x101820)
    static let home = RGB(hex: 0x1e5aa8)
    static let away = RGB(hex: 0xb8322a)

    var binary: String {
        URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().appendingPathComponent("screenplay-scoreboard")
            .path
    }

    func start(_ rig: SwayRig, _ arguments: [String] = []) throws -> RunningProcess {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw RigError("\(binary) is missing: run `swift build` before `swift test`")
        }
        try rig.focusOutput("HEADLESS-1")
        let p = try RunningProcess(binary, arguments, environment: env(rig, builtin: "HEADLESS-1"))
        addTeardownBlock { p.kill() }
        return p
    }

    /// Fractions of the TV's left and right halves in `color`.
    func halves(_ rig: SwayRig, _ color: RGB) -> (left: Double, right: Double) {
        guard let image = try? rig.capture(output: "HEADLESS-2") else { return (0, 0) }
        let w = image.width / 2
        return (
            image.fraction(of: color, tolerance: 2, in: PixelRect(x: 0, y: 0, width: w, height: image.height)),
            image.fraction(
                of: color, tolerance: 2, in: PixelRect(x: w, y: 0, width: image.width - w, height: image.height))
        )
    }

    /// Waits until the TV shows `leader`'s half in its colour and the other
    /// half in the background (nil: a tie, both halves background).
    func waitForLeader(
        _ leader: RGB?, _ rig: SwayRig, _ p: RunningProcess, _ what: String, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let ok = waitUntil(timeout: 5, poll: 0.05) {
            let home = self.halves(rig, Self.home), away = self.halves(rig, Self.away),
                plain = self.halves(rig, Self.background)
            switch leader {
            case Self.home?: return home.left > 0.6 && plain.right > 0.6
            case Self.away?: return away.right > 0.6 && plain.left > 0.6
            default: return plain.left > 0.6 && plain.right > 0.6
            }
        }
        XCTAssertTrue(
            ok,
            "\(what): TV halves home \(halves(rig, Self.home)) away \(halves(rig, Self.away)); stdout:\n\(p.stdout)\nstderr:\n\(p.stderr)",
            file: file, line: line)
    }

    func type(_ keys: [String], _ rig: SwayRig) throws {
        let r = try runProcess("wtype", ["-s", "150"] + keys, environment: env(rig), timeout: 5)
        XCTAssertEqual(r.status, 0, "wtype \(keys): \(r.stderr)")
    }

    func testKeysChangeTheScoreOnTheTVAndSIGTERMStopsCleanly() throws {
        // A keyboard on the seat from the start, as a laptop has: keys typed
        // by wtype's keyboards then cannot arrive before the app binds one.
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)], keyboard: true)
        let p = try start(rig)
        XCTAssertTrue(waitUntil(timeout: 10) { p.stderr.contains("showing the score on HEADLESS-2") }, p.stderr)
        waitForLeader(nil, rig, p, "0:0 at start")
        try type(["a"], rig)
        XCTAssertNotNil(p.waitForLine(containing: "score home 1 away 0", timeout: 5), p.stdout + p.stderr)
        waitForLeader(Self.home, rig, p, "home leads 1:0")
        try type(["k", "-s", "150", "k"], rig)
        XCTAssertNotNil(p.waitForLine(containing: "score home 1 away 2", timeout: 5), p.stdout + p.stderr)
        waitForLeader(Self.away, rig, p, "away leads 1:2")
        try type(["m", "-s", "150", "m", "-s", "150", "z"], rig)
        XCTAssertNotNil(p.waitForLine(containing: "score home 0 away 0", timeout: 5), p.stdout + p.stderr)
        waitForLeader(nil, rig, p, "0:0 after -1s")
        try type(["a", "-s", "150", "r"], rig)
        XCTAssertNotNil(p.waitForLine(containing: "score home 1 away 0", timeout: 5), p.stdout + p.stderr)
        XCTAssertTrue(waitUntil(timeout: 5) { p.stdoutLines.last == "score home 0 away 0" }, "reset: \(p.stdout)")
        waitForLeader(nil, rig, p, "0:0 after reset")

        // Idle: the scoreboards drew when the score changed and not since.
        Thread.sleep(forTimeInterval: 0.5)
        let before = ProcessUsage.cpuTicks(p.pid)
        Thread.sleep(forTimeInterval: 2)
        XCTAssertLessThanOrEqual(ProcessUsage.cpuTicks(p.pid) - before, 2, "no CPU while the score stands still")

        // Application.run returns on SIGTERM after tearing the scenes down: exit 0.
        p.terminate()
        XCTAssertEqual(p.wait(timeout: 5), 0, p.stderr)
        XCTAssertFalse(p.stderr.contains("error"), p.stderr)

        // No redundant draws: the TV drew once when it connected and once
        // per change (keys 150 ms apart, so no two changes share a draw).
        let changes = p.stdoutLines.filter { $0.hasPrefix("score ") }.count
        XCTAssertEqual(changes, 8, p.stdout)
        // At most one draw at connect and one per change; two changes that
        // a loaded machine delivers in one batch share a draw, as they should.
        let said = "\(changes) score changes; the scoreboard drew "
        let drew = p.stderr.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: said), line.hasSuffix(" on HEADLESS-2") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }.first
        XCTAssertNotNil(drew, "the example did not say how often HEADLESS-2 drew")
        XCTAssertTrue(
            (2...(changes + 1)).contains(drew ?? -1),
            "HEADLESS-2 drew \(drew ?? -1) times: more than one at connect and one per change (\(changes + 1)), or none"
        )
    }

    func testClicksOnTheKeypadChangeTheScoreOnTheTV() throws {
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)])
        let p = try start(rig)
        XCTAssertTrue(waitUntil(timeout: 10) { p.stderr.contains("showing the score on HEADLESS-2") }, p.stderr)
        waitForLeader(nil, rig, p, "0:0 at start")
        var keypad: PixelRect?
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                keypad = rig.windowRect(titled: "Scoreboard keypad"); return (keypad?.width ?? 0) > 0
            }, "no keypad window in sway's tree")
        guard let k = keypad else { return }

        var error = [CChar](repeating: 0, count: 256)
        guard let pointer = virtual_pointer_connect(rig.waylandDisplay, &error) else {
            let bytes = error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            return XCTFail(String(decoding: bytes, as: UTF8.self))
        }
        defer { virtual_pointer_disconnect(pointer) }
        // The seat gains its pointer with the virtual one; give the app the
        // moment it needs to bind wl_pointer before the first motion.
        Thread.sleep(forTimeInterval: 0.3)
        let layout = (width: UInt32(2560), height: UInt32(720))
        /// Clicks the centre of the keypad's button in `column` (0 home,
        /// 1 away) and `row` (0: +1, 1: -1, 2: reset): the header is the top
        /// quarter, the three rows share the rest.
        func click(column: Int, row: Int) {
            let top = k.height / 4, rowHeight = (k.height - top) / 3
            let x = k.x + (row == 2 ? k.width / 2 : column * k.width / 2 + k.width / 4)
            let y = k.y + top + row * rowHeight + rowHeight / 2
            XCTAssertTrue(virtual_pointer_move(pointer, UInt32(x), UInt32(y), layout.width, layout.height))
            XCTAssertTrue(virtual_pointer_button(pointer, 0x110, true))
            XCTAssertTrue(virtual_pointer_button(pointer, 0x110, false))
        }
        click(column: 1, row: 0)
        XCTAssertNotNil(p.waitForLine(containing: "score home 0 away 1", timeout: 5), p.stdout + p.stderr)
        waitForLeader(Self.away, rig, p, "away leads 0:1 after a click")
        click(column: 0, row: 0)
        click(column: 0, row: 0)
        XCTAssertNotNil(p.waitForLine(containing: "score home 2 away 1", timeout: 5), p.stdout + p.stderr)
        waitForLeader(Self.home, rig, p, "home leads 2:1 after two clicks")
        click(column: 0, row: 1)
        XCTAssertNotNil(p.waitForLine(containing: "score home 1 away 1", timeout: 5), p.stdout + p.stderr)
        waitForLeader(nil, rig, p, "1:1 after a -1 click")
        click(column: 1, row: 0)
        click(column: 0, row: 2)
        XCTAssertTrue(waitUntil(timeout: 5) { p.stdoutLines.last == "score home 0 away 0" }, "reset click: \(p.stdout)")
        waitForLeader(nil, rig, p, "0:0 after the reset click")
        assertCleanStop(p)
    }

    /// Without a second screen, `--preview` shows the scoreboard in a window.
    func testPreviewShowsTheScoreboardInAWindow() throws {
        let rig = try startSway([.init(width: 1280, height: 720)])
        let p = try start(rig, ["--preview"])
        XCTAssertTrue(
            waitUntil(timeout: 5) { (rig.windowRect(titled: "Scoreboard keypad")?.width ?? 0) > 0 },
            "no keypad window in sway's tree")
        _ = try rig.swaymsg("[title=\"Scoreboard keypad\"]", "focus")
        try type(["a"], rig)
        XCTAssertNotNil(p.waitForLine(containing: "score home 1 away 0", timeout: 5), p.stdout + p.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                ((try? rig.capture(output: "HEADLESS-1"))?.fraction(of: Self.home, tolerance: 2) ?? 0) > 0.1
            },
            "the preview window shows home leading: \(p.stderr)")
        assertCleanStop(p)
    }
}
