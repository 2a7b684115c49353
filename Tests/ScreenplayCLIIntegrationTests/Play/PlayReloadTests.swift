import Foundation
import TestHarness
import TestSupport
import XCTest

/// `screenplay play` with a changed or broken playlist: reloads, media that
/// cannot be shown, and configuration errors before anything shows.
extension PlayTests {
    /// SIGHUP and saving the file reload it: a valid playlist takes over at
    /// the next item boundary; an invalid one is refused (stderr and stats)
    /// and the old one keeps playing.
    func testReloadValidAndInvalid() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 320, height: 240)])
        let folder = try mediaFolder()
        let playlist = try writePlaylist(
            folder, #"{"playlists": {"s": [{"color": "ff0000"}, {"color": "ff0001"}]}, "default": "s"}"#)
        let p = try CLI.start(
            ["play", playlist, "--duration", "0.5", "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertTrue(waitUntil(timeout: 10) { self.items(p, "HEADLESS-2").count >= 2 }, p.stderr)

        // Invalid: refused, and the old playlist keeps switching.
        try #"{"playlists": {"s": []}, "default": "s"}"#.write(toFile: playlist, atomically: true, encoding: .utf8)
        let refused = p.waitForEvent { $0.event == "reload" && ($0.raw["ok"] as? Bool) == false }
        XCTAssertNotNil(refused, p.stderr)
        XCTAssertTrue((refused?.raw["error"] as? String ?? "").contains("playlists.s"), "\(refused?.raw ?? [:])")
        XCTAssertTrue(p.stderr.contains("reload refused"), p.stderr)
        let before = items(p, "HEADLESS-2").count
        XCTAssertTrue(
            waitUntil(timeout: 5) { self.items(p, "HEADLESS-2").count >= before + 2 }, "the old playlist stopped")
        XCTAssertTrue(items(p, "HEADLESS-2").allSatisfy { ($0.raw["source"] as? String ?? "").hasPrefix("#FF000") })

        // Valid, by saving the file (inotify): blue takes over.
        try #"{"playlists": {"t": [{"color": "0000ff"}]}, "default": "t"}"#.write(
            toFile: playlist, atomically: true, encoding: .utf8)
        XCTAssertNotNil(p.waitForEvent { $0.event == "reload" && ($0.raw["ok"] as? Bool) == true }, p.stderr)
        XCTAssertNotNil(
            p.waitForEvent { $0.event == "item" && $0.output == "HEADLESS-2" && $0.raw["playlist"] as? String == "t" },
            p.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                (try? rig.capture(output: "HEADLESS-2").pixel(x: 160, y: 120)) == RGB(hex: 0x0000ff)
            })

        // SIGHUP re-reads it too.
        try #"{"playlists": {"u": [{"color": "00ff00"}]}, "default": "u"}"#.write(
            toFile: folder + "/other.json", atomically: true, encoding: .utf8)
        let reloads = p.statsEvents.filter { $0.event == "reload" }.count
        kill(p.pid, SIGHUP)
        XCTAssertTrue(waitUntil(timeout: 5) { p.statsEvents.filter { $0.event == "reload" }.count > reloads }, p.stderr)
        XCTAssertTrue(p.isRunning)
        assertCleanStop(p)
    }

    /// A corrupt file is skipped with one line naming it; a playlist whose
    /// every item fails shows a grey placeholder, never black.
    func testBadItemsAreSkippedAndAllBadShowsAPlaceholder() throws {
        let rig = try startSway([
            .init(width: 320, height: 240), .init(width: 320, height: 240), .init(width: 320, height: 240),
        ])
        let folder = try mediaFolder()
        try writePNG(folder + "/good.png", 0x00c000)
        try Data(repeating: 0x42, count: 300).write(to: URL(fileURLWithPath: folder + "/corrupt.png"))
        try "void mainImage(out vec4 c, in vec2 p) { c = nope; }".write(
            toFile: folder + "/broken.frag", atomically: true, encoding: .utf8)
        let playlist = try writePlaylist(
            folder,
            """
            {"playlists": {"mixed": [{"file": "good.png"}, {"file": "corrupt.png"}, {"color": "c00000"}, {"file": "broken.frag"}],
                           "bad": [{"file": "corrupt.png"}, {"file": "broken.frag"}]},
             "panels": [{"match": "HEADLESS-2", "playlist": "mixed"}, {"match": "HEADLESS-3", "playlist": "bad"}]}
            """)
        let p = try CLI.start(
            ["play", playlist, "--duration", "0.4", "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertTrue(waitUntil(timeout: 15) { self.items(p, "HEADLESS-2").count >= 6 }, p.stderr)
        XCTAssertNotNil(p.waitForEvent { $0.event == "placeholder" && $0.output == "HEADLESS-3" }, p.stderr)
        let grey = try rig.capture(output: "HEADLESS-3").pixel(x: 5, y: 5)
        XCTAssertEqual(grey, RGB(hex: 0x404040), "the placeholder is neutral grey")
        XCTAssertTrue(
            waitUntil(timeout: 3) {
                (try? rig.capture(output: "HEADLESS-3").fraction(of: RGB(hex: 0x404040))) ?? 1 < 0.99
            }, "the placeholder says what is wrong")
        // One line per bad file, naming it and the reason.
        let lines = p.stderr.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains("corrupt.png: skipped") }.count, 1, p.stderr)
        XCTAssertEqual(
            lines.filter { $0.contains("broken.frag: skipped") && $0.contains("compile") }.count, 1, p.stderr)
        // The mixed playlist shows only its good items.
        let shown = Set(
            items(p, "HEADLESS-2").map {
                ($0.raw["source"] as? String ?? "").split(separator: "/").last.map(String.init) ?? ""
            })
        XCTAssertEqual(shown, ["good.png", "#C00000"])
        XCTAssertTrue(p.isRunning)
        assertCleanStop(p)
    }

    /// Configuration errors exit 65 (a missing playlist 66) before anything shows.
    func testConfigurationErrorsExitBeforeConnecting() throws {
        let folder = try mediaFolder()
        let bad = try writePlaylist(
            folder,
            #"{"playlists": {"s": [{"color": "ff0000"}]}, "panels": [{"match": "x", "playlist": "s"}, {"match": "y", "playlist": "nope"}]}"#
        )
        // No compositor in the environment: the error must come first.
        let environment = ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": folder]
        let result = try CLI.run(["play", bad], environment: environment)
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains(bad) && result.stderr.contains("panels[1].playlist"), result.stderr)
        // A missing playlist is 66; a missing media file is no error at all
        // (testMissingFilesAtStartPlayOnceCopiedIn).
        let missing = try CLI.run(["play", folder + "/gone.json"], environment: environment)
        XCTAssertEqual(missing.status, 66, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("gone.json"), missing.stderr)
        let usage = try CLI.run(["play"], environment: environment)
        XCTAssertEqual(usage.status, 64, usage.stderr)
    }
}
