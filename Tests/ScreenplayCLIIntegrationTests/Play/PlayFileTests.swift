import Foundation
import TestSupport
import XCTest

/// Files that are missing, arrive late or change, and playlists that do not
/// parse: playback never stops for them.
extension PlayTests {
    /// Copies a file in as rsync does: written under a hidden temporary
    /// name in the same folder, then renamed to its own.
    func copyIn(_ hex: UInt32, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = folder + "/." + (path as NSString).lastPathComponent + ".Xy12Ab"
        try writePNG(temporary, hex)
        XCTAssertEqual(rename(temporary, path), 0, String(cString: strerror(errno)))
    }

    func sourceNames(_ events: [StatsEvent]) -> [String] {
        events.map { ($0.raw["source"] as? String ?? "").split(separator: "/").last.map(String.init) ?? "" }
    }

    /// A playlist naming files that are not there yet starts anyway: each
    /// missing file is skipped with one line, a panel with nothing else
    /// shows the placeholder, and once the files are copied in (renamed in
    /// from temporary names) they play from their next slot, no restart.
    func testMissingFilesAtStartPlayOnceCopiedIn() throws {
        let rig = try startSway([
            .init(width: 320, height: 240), .init(width: 320, height: 240), .init(width: 320, height: 240),
        ])
        let folder = try mediaFolder()
        try writePNG(folder + "/a.png", 0xff0000)
        let playlist = try writePlaylist(
            folder,
            """
            {"playlists": {"three": [{"file": "a.png"}, {"file": "b.png"}, {"file": "c.png"}],
                           "lonely": [{"file": "d.png"}]},
             "panels": [{"match": "HEADLESS-2", "playlist": "three"}, {"match": "HEADLESS-3", "playlist": "lonely"}]}
            """)
        let p = try CLI.start(
            ["play", playlist, "--duration", "0.5", "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.output == "HEADLESS-2" }, p.stderr)
        XCTAssertNotNil(p.waitForEvent { $0.event == "placeholder" && $0.output == "HEADLESS-3" }, p.stderr)
        // Two cycles: the missing items' slots keep a.png on screen.
        Thread.sleep(forTimeInterval: 3)
        XCTAssertEqual(Set(sourceNames(items(p, "HEADLESS-2"))), ["a.png"], "only the file that is there plays")
        for name in ["b.png", "c.png", "d.png"] {
            let lines = p.stderr.split(separator: "\n").filter { $0.contains("\(name): skipped") }
            XCTAssertEqual(lines.count, 1, "one line for \(name), over several cycles: \(p.stderr)")
            XCTAssertTrue(lines.first?.contains("no such file") == true, p.stderr)
        }

        try copyIn(0x00ff00, to: folder + "/b.png")
        try copyIn(0x0000ff, to: folder + "/c.png")
        try copyIn(0xffff00, to: folder + "/d.png")
        XCTAssertTrue(
            waitUntil(timeout: 20) {
                Set(self.sourceNames(self.items(p, "HEADLESS-2"))).isSuperset(of: ["b.png", "c.png"])
            }, "the copied files never played: \(p.stderr)")
        XCTAssertNotNil(
            p.waitForEvent {
                $0.event == "item" && $0.output == "HEADLESS-3"
                    && ($0.raw["source"] as? String)?.hasSuffix("/d.png") == true
            },
            "the placeholder panel never took the copied file: \(p.stderr)")
        for (output, hex) in [("HEADLESS-2", 0x00ff00), ("HEADLESS-3", 0xffff00)] {
            XCTAssertTrue(
                waitUntil(timeout: 10) {
                    (try? rig.capture(output: output).pixel(x: 160, y: 120)) == RGB(hex: UInt32(hex))
                }, "\(output) never showed \(String(format: "%06x", hex))")
        }
        // After they arrived, the three items take turns in playlist order.
        let order = ["a.png", "b.png", "c.png"]
        let tail = Array(sourceNames(items(p, "HEADLESS-2")).drop { $0 != "b.png" && $0 != "c.png" })
        XCTAssertGreaterThanOrEqual(tail.count, 2)
        for (before, after) in zip(tail, tail.dropFirst()) {
            let i = try XCTUnwrap(order.firstIndex(of: before))
            XCTAssertEqual(after, order[(i + 1) % 3], "\(tail)")
        }
        XCTAssertTrue(p.isRunning)
        assertCleanStop(p)
    }

    /// An empty folder at start (a box whose content is synced after boot)
    /// does not exit to be restarted until systemd gives up: the panel
    /// shows the placeholder, stderr says the folder has nothing yet, and
    /// the first file copied in plays. Run as docs/signage.md says, `play FOLDER`
    /// with no test-only settings. A folder that does not exist is a typo
    /// and still exits 66 (testConfigurationErrorsExitBeforeConnecting).
    /// With one panel it also shows the fix for a panel that started on the
    /// placeholder: no boundary timer ran, so nothing looked again.
    func testEmptyFolderAtStartWaitsForItsFirstFile() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let folder = try mediaFolder()
        let p = try CLI.start(["play", folder, "--stats", "-"], environment: env(rig))
        XCTAssertNotNil(p.waitForEvent { $0.event == "placeholder" && $0.output == "HEADLESS-1" }, p.stderr)
        XCTAssertTrue(p.isRunning, "play exited on an empty folder: \(p.stderr)")
        XCTAssertTrue(p.stderr.contains("no images, PDFs, shaders or videos yet"), p.stderr)
        try copyIn(0x00ff00, to: folder + "/first.png")
        XCTAssertTrue(
            waitUntil(timeout: 25) {
                (try? rig.capture(output: "HEADLESS-1").pixel(x: 160, y: 120)) == RGB(hex: 0x00ff00)
            }, "the file copied into the empty folder never showed: \(p.stderr)")
        XCTAssertTrue(p.isRunning)
        assertCleanStop(p)
    }

    /// A folder of one image takes a reload like any other: a second image
    /// copied in (rsync's way) plays, and the two take turns.
    func testFolderOfOneImageGainsASecond() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 320, height: 240)])
        let folder = try mediaFolder()
        try writePNG(folder + "/a.png", 0xff0000)
        let p = try CLI.start(
            ["play", folder, "--duration", "0.5", "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.output == "HEADLESS-2" }, p.stderr)
        // Several of its slots pass with the one image.
        Thread.sleep(forTimeInterval: 1.5)
        try copyIn(0x00ff00, to: folder + "/b.png")
        XCTAssertNotNil(p.waitForEvent { $0.event == "reload" && ($0.raw["ok"] as? Bool) == true }, p.stderr)
        XCTAssertTrue(
            waitUntil(timeout: 15) {
                let names = self.sourceNames(self.items(p, "HEADLESS-2"))
                guard let b = names.firstIndex(of: "b.png") else { return false }
                return names[b...].filter { $0 == "a.png" }.count >= 2
                    && names[b...].filter { $0 == "b.png" }.count >= 2
            }, "the second image did not join: \(sourceNames(items(p, "HEADLESS-2"))) \(p.stderr)")
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                (try? rig.capture(output: "HEADLESS-2").pixel(x: 160, y: 120)) == RGB(hex: 0x00ff00)
            })
        let names = sourceNames(items(p, "HEADLESS-2"))
        let joined = Array(names.drop { $0 != "b.png" })
        for (before, after) in zip(joined, joined.dropFirst()) { XCTAssertNotEqual(before, after, "\(joined)") }
        assertCleanStop(p)
    }

    /// A playlist file that does not parse at start plays the last good
    /// one (kept under XDG_STATE_HOME from the run before) and says so;
    /// fixing the file reloads it. With no last good one it exits 65
    /// naming the JSON error.
    func testBrokenPlaylistAtStartFallsBackToTheLastGood() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 320, height: 240)])
        let folder = try mediaFolder()
        var environment = env(rig, builtin: "HEADLESS-1")
        environment["XDG_STATE_HOME"] = folder + "/state"
        let playlist = try writePlaylist(folder, #"{"playlists": {"good": [{"color": "ff0000"}]}, "default": "good"}"#)
        let first = try CLI.start(["play", playlist, "--stats", "-"], environment: environment)
        XCTAssertNotNil(first.waitForEvent { $0.event == "item" && $0.output == "HEADLESS-2" }, first.stderr)
        assertCleanStop(first)

        // Saved broken (a copy cut short).
        try #"{"playlists": {"good": [{"color": "00ff00"}"#.write(toFile: playlist, atomically: true, encoding: .utf8)
        let second = try CLI.start(["play", playlist, "--stats", "-"], environment: environment)
        let shown = second.waitForEvent { $0.event == "item" && $0.output == "HEADLESS-2" }
        XCTAssertEqual(shown?.raw["source"] as? String, "#FF0000", second.stderr)
        XCTAssertEqual(shown?.raw["playlist"] as? String, "good")
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                (try? rig.capture(output: "HEADLESS-2").pixel(x: 160, y: 120)) == RGB(hex: 0xff0000)
            })
        let said = second.stderr.split(separator: "\n").first { $0.contains("last good playlist") } ?? ""
        XCTAssertTrue(said.contains("not valid JSON") && said.contains(playlist), second.stderr)

        // Fixed: it reloads and plays the new one.
        try #"{"playlists": {"fixed": [{"color": "0000ff"}]}, "default": "fixed"}"#.write(
            toFile: playlist, atomically: true, encoding: .utf8)
        XCTAssertNotNil(
            second.waitForEvent {
                $0.event == "item" && $0.output == "HEADLESS-2" && $0.raw["playlist"] as? String == "fixed"
            },
            second.stderr)
        assertCleanStop(second)

        // Broken, and nothing kept for it: exit 65 with the JSON error.
        try #"{"playlists": "#.write(toFile: playlist, atomically: true, encoding: .utf8)
        environment["XDG_STATE_HOME"] = folder + "/empty-state"
        let third = try CLI.run(["play", playlist], environment: environment)
        XCTAssertEqual(third.status, 65, third.stderr)
        XCTAssertTrue(
            third.stderr.contains(playlist) && third.stderr.contains("not valid JSON")
                && third.stderr.contains("no last good playlist"), third.stderr)
    }
}
