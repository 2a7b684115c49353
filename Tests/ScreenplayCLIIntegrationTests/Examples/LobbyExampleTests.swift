import Foundation
import TestHarness
import TestSupport
import XCTest

/// The example app `screenplay-lobby` on headless sway with a laptop panel
/// (HEADLESS-1) and a TV (HEADLESS-2): the TV plays a playlist through the
/// Signage library's player, and keys in the app's own window (wtype) change
/// what the TV shows, read from the TV's pixels.
final class LobbyExampleTests: ScreenplayTestCase {
    static let first = RGB(hex: 0x1f6f3f)
    static let second = RGB(hex: 0x204080)
    /// A text override's background, as `play` draws it.
    static let overrideRed = RGB(hex: 0xb00000)

    var binary: String {
        URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().appendingPathComponent("screenplay-lobby").path
    }

    func tvPixel(_ rig: SwayRig) -> RGB? {
        guard let image = try? rig.capture(output: "HEADLESS-2") else { return nil }
        return image.pixel(x: 2, y: 2)
    }

    func type(_ key: String, _ rig: SwayRig) throws {
        let r = try runProcess("wtype", ["-s", "150", key], environment: env(rig), timeout: 5)
        XCTAssertEqual(r.status, 0, "wtype \(key): \(r.stderr)")
    }

    /// The example on a laptop panel and a TV, playing two colours long
    /// enough that only a request moves the TV on (no crossfade, so every
    /// capture shows one item's colour), with its own XDG_STATE_HOME
    /// (overrides outlive a run there). Returns once the TV shows one of
    /// them: the process, the rig, the run's folder and the colour shown.
    func startLobby(_ extraArguments: (String) -> [String] = { _ in [] }, keyboard: Bool = false) throws -> (
        p: RunningProcess, rig: SwayRig, folder: String, shown: RGB?
    ) {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw RigError("\(binary) is missing: run `swift build` before `swift test`")
        }
        let folder = NSTemporaryDirectory() + "lobby-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/state", withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        let playlist = folder + "/counter.json"
        try #"""
        {"playlists": {"menu": [{"color": "1f6f3f", "duration": 900}, {"color": "204080", "duration": 900}]},
         "default": "menu", "transition": {"seconds": 0}}
        """#.write(toFile: playlist, atomically: true, encoding: .utf8)
        let rig = try startSway([.init(width: 640, height: 360), .init(width: 640, height: 360)], keyboard: keyboard)
        try rig.focusOutput("HEADLESS-1")
        var environment = env(rig, builtin: "HEADLESS-1")
        environment["XDG_STATE_HOME"] = folder + "/state"
        let p = try RunningProcess(binary, [playlist] + extraArguments(folder), environment: environment)
        addTeardownBlock { p.kill() }
        XCTAssertTrue(waitUntil(timeout: 10) { p.stderr.contains("playing \(playlist)") }, p.stderr)
        var shown: RGB?
        XCTAssertTrue(
            waitUntil(timeout: 10) {
                shown = self.tvPixel(rig)
                return shown == Self.first || shown == Self.second
            }, "the TV shows neither of the playlist's colours: \(String(describing: shown))\n\(p.stderr)")
        return (p, rig, folder, shown)
    }

    func testKeysInTheWindowChangeWhatTheTVPlaysAndSIGTERMExitsZero() throws {
        let (p, rig, _, shown) = try startLobby(keyboard: true)
        let other = shown == Self.first ? Self.second : Self.first

        try type("n", rig)
        XCTAssertNotNil(p.waitForLine(containing: "lobby next", timeout: 5), p.stdout + p.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 5) { self.tvPixel(rig) == other },
            "after n the TV shows \(String(describing: tvPixel(rig))), not the next item's \(other)\n\(p.stderr)")

        try type("o", rig)
        XCTAssertNotNil(p.waitForLine(containing: "lobby special", timeout: 5), p.stdout + p.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 5) { self.tvPixel(rig) == Self.overrideRed },
            "after o the TV shows \(String(describing: tvPixel(rig))), not the special's red\n\(p.stderr)")

        try type("s", rig)
        XCTAssertNotNil(p.waitForLine(containing: "lobby schedule", timeout: 5), p.stdout + p.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                let now = self.tvPixel(rig)
                return now == Self.first || now == Self.second
            }, "after s the TV shows \(String(describing: tvPixel(rig))), not the playlist\n\(p.stderr)")
        // The window is an ordinary window on the laptop: the TV never showed it.
        XCTAssertNotNil(rig.windowRect(titled: "Lobby counter"), "no counter window in sway's tree")

        p.terminate()
        XCTAssertEqual(p.wait(timeout: 5), 0, p.stderr)
        XCTAssertFalse(p.stderr.contains("refused"), p.stderr)
    }

    /// With `--socket`, the app's player answers `screenplay ctl` as
    /// `play` does: the same requests reach it from outside.
    func testScreenplayCtlReachesTheAppsPlayerThroughItsSocket() throws {
        let (p, rig, folder, shown) = try startLobby { ["--socket", $0 + "/lobby.sock"] }
        let socket = folder + "/lobby.sock"
        var environment = env(rig, builtin: "HEADLESS-1")
        environment["XDG_STATE_HOME"] = folder + "/state"

        let status = try CLI.run(["ctl", "--socket", socket, "status"], environment: environment)
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("HEADLESS-2"), status.stdout)
        let next = try CLI.run(["ctl", "--socket", socket, "next"], environment: environment)
        XCTAssertEqual(next.status, 0, next.stderr)
        let other = shown == Self.first ? Self.second : Self.first
        XCTAssertTrue(
            waitUntil(timeout: 5) { self.tvPixel(rig) == other },
            "after ctl next the TV shows \(String(describing: tvPixel(rig))), not \(other)\n\(p.stderr)")

        p.terminate()
        XCTAssertEqual(p.wait(timeout: 5), 0, p.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket), "the socket file outlived the app")
    }

    func testABadPlaylistIsNamedWithItsPathAndExits65() throws {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw RigError("\(binary) is missing: run `swift build` before `swift test`")
        }
        let path = NSTemporaryDirectory() + "lobby-bad-\(UUID().uuidString).json"
        try #"{"playlists": {"menu": [{"colour": "1f6f3f"}]}, "default": "menu"}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        let r = try runProcess(binary, [path], timeout: 10)
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains(path) && r.stderr.contains("playlists.menu[0]"), r.stderr)
    }
}
