import Documents
import Foundation
import TestSupport
import XCTest

/// Drives the real `screenplay` binary built next to the test bundle.
enum CLI {
    static var binary: String {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [
            dir.appendingPathComponent("screenplay").path,
            dir.deletingLastPathComponent().appendingPathComponent("screenplay").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }

    static func requireBinary() throws {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw RigError(
                "\(binary) is missing: run `swift build` before `swift test` (the README's test command does)")
        }
    }

    static func run(_ args: [String], environment: [String: String], timeout: TimeInterval = 20) throws -> ProcessResult
    {
        try requireBinary()
        return try runProcess(binary, args, environment: environment, timeout: timeout)
    }

    static func start(_ args: [String], environment: [String: String]) throws -> RunningProcess {
        try requireBinary()
        return try RunningProcess(binary, args, environment: environment)
    }
}

/// One parsed `--stats` line.
struct StatsEvent {
    let raw: [String: Any]
    var event: String { raw["event"] as? String ?? "" }
    var output: String { raw["output"] as? String ?? "" }
    func int(_ key: String) -> Int { (raw[key] as? NSNumber)?.intValue ?? -1 }

    init?(_ line: String) {
        guard let data = line.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        raw = object
    }
}

extension RunningProcess {
    var statsEvents: [StatsEvent] { stdoutLines.compactMap(StatsEvent.init) }

    /// Waits for a stats event matching `predicate` (the first one seen so
    /// far counts: lines are not consumed).
    @discardableResult
    func waitForEvent(timeout: TimeInterval = 15, _ predicate: (StatsEvent) -> Bool) -> StatsEvent? {
        var found: StatsEvent?
        _ = waitUntil(timeout: timeout) {
            found = statsEvents.first(where: predicate)
            return found != nil || !isRunning
        }
        return found
    }

    /// Frames lines for `output` after `after` lines were seen.
    func frames(for output: String) -> [StatsEvent] {
        statsEvents.filter { $0.event == "frames" && $0.output == output }
    }
}

extension XCTestCase {
    /// Starts a PDF talk (the sample deck) as a speaker does, with `laptop`
    /// as the built-in screen, and checks the audience view connects on
    /// `external` at `size` and the console is full screen on `laptop`.
    /// `markBuiltIn`: name `laptop` in `SCREENPLAY_BUILTIN` (false: the
    /// compositor's connector names must tell it, as for a user who sets nothing).
    /// Returns the running presenter.
    func startPDFTalk(
        _ environment: [String: String], laptop: String, external: String, size: [Int], markBuiltIn: Bool = true,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> RunningProcess {
        var environment = environment
        environment["SCREENPLAY_BUILTIN"] = markBuiltIn ? laptop : nil
        let folder = NSTemporaryDirectory() + "screenplay-talk-\(getpid())-\(UUID().uuidString.prefix(8))"
        let deck = try SampleDeck.write(to: folder).pdf
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        let p = try CLI.start(["present", deck, "--stats", "-"], environment: environment)
        let audience = p.waitForEvent(timeout: 20) { $0.event == "connect" && $0.raw["role"] as? String == "audience" }
        XCTAssertEqual(audience?.output, external, p.stderr, file: file, line: line)
        XCTAssertEqual([audience?.int("width"), audience?.int("height")], size, file: file, line: line)
        let console = p.waitForEvent { $0.event == "console-fullscreen" }
        XCTAssertEqual(console?.raw["ok"] as? Bool, true, p.stderr, file: file, line: line)
        XCTAssertEqual(console?.output, laptop, file: file, line: line)
        return p
    }

    /// Ends a `present` talk as a speaker does, `q` twice (the first only
    /// asks), and expects a clean exit.
    func endTalk(
        _ p: RunningProcess, _ environment: [String: String], file: StaticString = #filePath, line: UInt = #line
    )
        throws
    {
        let typed = try runProcess("wtype", ["-s", "120", "qq"], environment: environment, timeout: 5)
        XCTAssertEqual(typed.status, 0, "wtype qq: \(typed.stderr)", file: file, line: line)
        XCTAssertEqual(p.wait(timeout: 5), 0, p.stderr, file: file, line: line)
    }

    /// `keyboard`: a keyboard on the seat from the start (``SwayRig/attachKeyboard(timeout:)``),
    /// for tests that type keys with wtype.
    func startSway(_ modes: [TestSupport.OutputMode], names: [String]? = nil, keyboard: Bool = false) throws -> SwayRig
    {
        let rig = try SwayRig.start(outputs: modes, names: names)
        addTeardownBlock { rig.stop() }
        if keyboard { try rig.attachKeyboard() }
        return rig
    }

    func env(_ rig: SwayRig, builtin: String? = nil) -> [String: String] {
        var e = rig.clientEnvironment
        if let builtin { e["SCREENPLAY_BUILTIN"] = builtin } else { e["SCREENPLAY_BUILTIN"] = nil }
        return e
    }

    /// The test card as the viewer must see it: red, green, blue and white corner
    /// blocks clockwise from the top left, and a one-pixel yellow border.
    func assertTestCard(_ image: RigImage, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        let w = image.width, h = image.height
        XCTAssertEqual(image.pixel(x: 3, y: 3), RGB(hex: 0xff0000), "\(label) top-left", file: file, line: line)
        XCTAssertEqual(image.pixel(x: w - 4, y: 3), RGB(hex: 0x00ff00), "\(label) top-right", file: file, line: line)
        XCTAssertEqual(image.pixel(x: 3, y: h - 4), RGB(hex: 0x0000ff), "\(label) bottom-left", file: file, line: line)
        XCTAssertEqual(
            image.pixel(x: w - 4, y: h - 4), RGB(hex: 0xffffff), "\(label) bottom-right", file: file, line: line)
        // The border is exactly one device pixel: no blur, no off-by-one row.
        XCTAssertEqual(image.pixel(x: w / 2, y: 0), RGB(hex: 0xffff00), "\(label) top border", file: file, line: line)
        XCTAssertEqual(
            image.pixel(x: w / 2, y: 1), RGB(hex: 0x202020), "\(label) inside top border", file: file, line: line)
        XCTAssertEqual(
            image.pixel(x: w / 2, y: h - 1), RGB(hex: 0xffff00), "\(label) bottom border", file: file, line: line)
        XCTAssertEqual(
            image.pixel(x: w / 2, y: h - 2), RGB(hex: 0x202020), "\(label) inside bottom border", file: file, line: line
        )
        XCTAssertEqual(image.pixel(x: 0, y: h / 3), RGB(hex: 0xffff00), "\(label) left border", file: file, line: line)
        XCTAssertEqual(
            image.pixel(x: 1, y: h / 3), RGB(hex: 0x202020), "\(label) inside left border", file: file, line: line)
    }

    /// Writes a fragment shader for this test; it is removed at teardown.
    func temporaryShader(_ name: String, _ source: String) throws -> String {
        let path = NSTemporaryDirectory() + "\(name)-\(getpid()).frag"
        try source.write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// Asserts that `output`'s frames were paced at `hz` after the first
    /// `skip` frames lines: never faster in any window (no busy loop), the
    /// typical (median) second within 15 % of `hz` (a frame every period
    /// where the machine keeps up), and at least half the rate overall (it
    /// kept animating). A loaded machine loses refreshes in some seconds,
    /// so no single window must be exact.
    func assertPaced(
        _ process: RunningProcess, output: String, hz: Double, skip: Int = 2, _ label: String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let windows = Array(process.frames(for: output).dropFirst(skip))
        let seconds = windows.map { ($0.raw["window_s"] as? NSNumber)?.doubleValue ?? 1 }
        let perWindow = zip(windows, seconds).map { Double($0.int("presented")) / max($1, 0.001) }
        let overall =
            Double(windows.map { $0.int("presented") }.reduce(0, +)) / max(seconds.reduce(0, +), 0.001)
        let median = perWindow.isEmpty ? .nan : perWindow.sorted()[perWindow.count / 2]
        let summary = String(
            format: "%@ %@: per window %@ frames/s, overall %.1f", label, output,
            perWindow.map { String(format: "%.1f", $0) }.joined(separator: " "), overall)
        XCTAssertGreaterThanOrEqual(windows.count, 2, "too few frames lines: \(summary)", file: file, line: line)
        for fps in perWindow {
            XCTAssertLessThanOrEqual(fps, hz * 1.1, "faster than \(hz) Hz: \(summary)", file: file, line: line)
        }
        XCTAssertEqual(
            median, hz, accuracy: hz * 0.15, "the typical second is not \(hz) Hz: \(summary)", file: file, line: line)
        XCTAssertGreaterThanOrEqual(overall, hz / 2, "stopped animating: \(summary)", file: file, line: line)
    }

    /// Stops `process` with SIGTERM and asserts a clean exit 0.
    func assertCleanStop(_ process: RunningProcess, file: StaticString = #filePath, line: UInt = #line) {
        process.terminate()
        let status = process.wait(timeout: 5)
        XCTAssertEqual(
            status, 0, "SIGTERM must tear down and exit 0; stderr:\n\(process.stderr)", file: file, line: line)
    }
}

/// Now on CLOCK_MONOTONIC, in nanoseconds.
func monotonicNow() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
