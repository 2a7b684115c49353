import Foundation
import TestHarness
import TestSupport
import XCTest

/// A wall when things go wrong under it: a tile unplugged and plugged
/// back, a tile's output turned or re-moded, the compositor restarted.
/// Every case runs `screenplay play FILE` as a user would and reads the
/// tiles' pixels with grim.
final class PlayWallFaultTests: ScreenplayTestCase {
    /// Seconds each item of the faults' playlists shows.
    static let seconds = 2.0

    /// A wall of two 640x360 tiles side by side named `left` and `right`,
    /// playing the coordinate picture of its 1280x360 canvas, then magenta,
    /// `seconds` each, by the wall clock (no crossfade).
    func writeWall(left: String, right: String, sync: Bool = true) throws -> String {
        let folder = try wallFolder()
        try writeCoordinatePicture(folder + "/wide.png", width: 1280, height: 360)
        let path = folder + "/wall.json"
        try
            #"{"playlists": {"wide": [{"file": "wide.png"}, {"color": "ff00ff"}]}, "walls": [{"playlist": "wide", "tiles": [{"match": "\#(left)", "column": 0, "row": 0}, {"match": "\#(right)", "column": 1, "row": 0}]}], "sync": \#(sync)}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func play(_ path: String, _ environment: [String: String]) throws -> RunningProcess {
        var environment = environment
        environment["SCREENPLAY_BUILTIN"] = nil
        return try CLI.start(["play", path, "--duration", "\(Self.seconds)", "--stats", "-"], environment: environment)
    }

    /// The left tile's part: canvas pixels one to one.
    static func leftPart(_ x: Int, _ y: Int) -> (x: Int, y: Int) { (x, y) }
    /// The right tile's part.
    static func rightPart(_ x: Int, _ y: Int) -> (x: Int, y: Int) { (x + 640, y) }

    /// Waits until every output in `parts` shows its part of the picture,
    /// all in one round of captures (so all on the same item), and returns
    /// the images; fails with the misplaced pixels otherwise.
    @discardableResult
    func assertParts(
        _ capture: (String) throws -> RigImage, _ parts: [String: (Int, Int) -> (x: Int, y: Int)],
        timeout: TimeInterval = 15, _ label: String, line: UInt = #line
    ) -> [String: RigImage] {
        var images: [String: RigImage] = [:]
        var wrong: [String: (count: Int, first: [String])] = [:]
        let together = waitUntil(timeout: timeout) {
            // Every output captured first, then checked: the captures fall
            // in one item's slot even on a loaded machine.
            images = [:]
            wrong = [:]
            for output in parts.keys {
                guard let image = try? capture(output) else {
                    wrong[output] = (-1, ["no capture"])
                    return false
                }
                images[output] = image
            }
            for (output, part) in parts {
                guard let image = images[output] else { continue }
                let result = self.misplaced(image, expected: part)
                if result.count != 0 { wrong[output] = result }
            }
            return wrong.isEmpty
        }
        XCTAssertTrue(together, "\(label): \(wrong.mapValues { "\($0.count) wrong: \($0.first)" })", line: line)
        return images
    }

    /// The clock's item (0: the picture, 1: magenta) at `seconds` since the epoch.
    func clockIndex(_ seconds: Double) -> Int {
        Int((seconds / Self.seconds).rounded(.down).truncatingRemainder(dividingBy: 2))
    }

    func items(_ p: RunningProcess, on output: String) -> [StatsEvent] {
        p.statsEvents.filter { $0.event == "item" && $0.output == output }
    }

    /// Every item `output` showed after its first `after` is the wall
    /// clock's: tiles show the same item. `at` is when sway's frame
    /// callback said the frame was shown; on a loaded machine that comes
    /// a few hundred milliseconds after the boundary the item was chosen
    /// at, so an item shown up to a quarter of a slot into the next one
    /// still counts as its own slot's (a panel on a clock of its own is off
    /// by a random part of a slot, and by a whole one half the time).
    func assertClockItems(
        _ p: RunningProcess, _ output: String, after: Int = 0, _ label: String, line: UInt = #line
    ) {
        for item in items(p, on: output).dropFirst(after) {
            guard let at = seconds(item) else { return XCTFail("\(label): no time in \(item.raw)", line: line) }
            XCTAssertTrue(
                [clockIndex(at), clockIndex(at - Self.seconds / 4)].contains(item.int("index")),
                "\(label): \(output)'s item \(item.raw) is not the clock's", line: line)
        }
    }

    /// Seconds since the epoch of a stats line's `at`.
    func seconds(_ event: StatsEvent) -> Double? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return (event.raw["at"] as? String).flatMap { formatter.date(from: $0)?.timeIntervalSince1970 }
    }

    func testAnUnpluggedTileLeavesTheOthersAsTheyWereAndRejoinsOnTheSameItem() throws {
        let rig = try NestedSwayRig.start(
            outputs: 2, outputSize: .init(width: 640, height: 360), parentMode: .init(width: 1920, height: 1080))
        addTeardownBlock { rig.stop() }
        // A nested sway names a screen plugged back in WL-3, where a real
        // connector keeps its name: the right tile names both.
        let p = try play(try writeWall(left: "WL-1", right: "WL-[2-9]"), rig.clientEnvironment)
        for output in ["WL-1", "WL-2"] {
            XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.output == output }, "\(output): \(p.stderr)")
        }
        let before = assertParts(rig.capture, ["WL-1": Self.leftPart, "WL-2": Self.rightPart], "both tiles")

        try rig.removeOutput("WL-2")
        XCTAssertNotNil(p.waitForEvent { $0.event == "disconnect" && $0.output == "WL-2" }, p.stderr)
        let unpluggedAt = items(p, on: "WL-1").count
        // The playlist goes on: both items come round again on the tile left.
        XCTAssertTrue(
            waitUntil(timeout: 4 * Self.seconds + 5) {
                Set(self.items(p, on: "WL-1").dropFirst(unpluggedAt).map { $0.int("index") }) == [0, 1]
            }, "WL-1 keeps advancing: \(items(p, on: "WL-1").dropFirst(unpluggedAt).map(\.raw))")
        // And shows its part of the picture exactly as before, pixel for pixel.
        let after = assertParts(rig.capture, ["WL-1": Self.leftPart], timeout: 5 * Self.seconds, "WL-1 alone")
        if let before = before["WL-1"], let after = after["WL-1"] {
            XCTAssertEqual(after.pixels, before.pixels, "WL-1's pixels changed when WL-2 went")
        }
        XCTAssertEqual(p.statsEvents.filter { $0.event == "connect" && $0.output == "WL-1" }.count, 1)

        let plugged = try rig.addOutput()
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.output == plugged }, "\(plugged): \(p.stderr)")
        // Both show their parts of the picture in one round of captures: the same item.
        assertParts(
            rig.capture, ["WL-1": Self.leftPart, plugged: Self.rightPart], timeout: 5 * Self.seconds,
            "back together")
        XCTAssertTrue(waitUntil(timeout: 2 * Self.seconds + 3) { self.items(p, on: plugged).count >= 2 })
        assertClockItems(p, plugged, "rejoined")
        assertClockItems(p, "WL-1", "all along")
        XCTAssertTrue(p.isRunning, p.stderr)
        XCTAssertFalse(p.stderr.contains("protocol error"), p.stderr)
        assertCleanStop(p)
    }

    func testWithoutSyncATileStillRejoinsOnTheOthersItem() throws {
        let rig = try NestedSwayRig.start(
            outputs: 2, outputSize: .init(width: 640, height: 360), parentMode: .init(width: 1920, height: 1080))
        addTeardownBlock { rig.stop() }
        // "sync": false lets each panel start at its first item when it
        // appears; a wall's tiles are one picture and keep one clock.
        let p = try play(try writeWall(left: "WL-1", right: "WL-[2-9]", sync: false), rig.clientEnvironment)
        assertParts(rig.capture, ["WL-1": Self.leftPart, "WL-2": Self.rightPart], "both tiles")
        try rig.removeOutput("WL-2")
        XCTAssertNotNil(p.waitForEvent { $0.event == "disconnect" && $0.output == "WL-2" }, p.stderr)
        // Plugged back in the middle of WL-1's item, so a tile on a clock
        // of its own would switch half an item away from it.
        let shown = items(p, on: "WL-1").count
        XCTAssertTrue(waitUntil(timeout: 2 * Self.seconds + 3) { self.items(p, on: "WL-1").count > shown })
        let since = items(p, on: "WL-1").last.flatMap(seconds) ?? 0
        Thread.sleep(forTimeInterval: max(0, since + Self.seconds / 2 - Date().timeIntervalSince1970))
        let plugged = try rig.addOutput()
        XCTAssertTrue(
            waitUntil(timeout: 3 * Self.seconds + 5) { self.items(p, on: plugged).count >= 3 }, p.stderr)
        assertParts(
            rig.capture, ["WL-1": Self.leftPart, plugged: Self.rightPart], timeout: 5 * Self.seconds,
            "back together")
        // Each item the rejoined tile switches to, WL-1 switches to on about the same refresh.
        let left = items(p, on: "WL-1")
        for item in items(p, on: plugged).dropFirst() {
            guard let at = seconds(item) else { continue }
            let match = left.first { $0.int("index") == item.int("index") && abs((seconds($0) ?? 0) - at) < 0.25 }
            XCTAssertNotNil(match, "\(plugged)'s \(item.raw) has no like item on WL-1: \(left.map(\.raw))")
        }
        assertCleanStop(p)
    }

    func testARestartedCompositorBringsEveryTileBackTogether() throws {
        let rig = try startSway([.init(width: 640, height: 360), .init(width: 640, height: 360)])
        let p = try play(try writeWall(left: "HEADLESS-1", right: "HEADLESS-2"), env(rig))
        assertParts(rig.capture, ["HEADLESS-1": Self.leftPart, "HEADLESS-2": Self.rightPart], "before")
        rig.kill()
        XCTAssertTrue(
            waitUntil(timeout: 5) { p.stderr.contains("waiting for a compositor on the same socket") }, p.stderr)
        let before = ["HEADLESS-1", "HEADLESS-2"].map { items(p, on: $0).count }

        try rig.restart()
        XCTAssertTrue(waitUntil(timeout: 10) { p.stderr.contains("reconnected to ") }, p.stderr)
        assertParts(
            rig.capture, ["HEADLESS-1": Self.leftPart, "HEADLESS-2": Self.rightPart], timeout: 5 * Self.seconds,
            "after the restart")
        XCTAssertTrue(
            waitUntil(timeout: 2 * Self.seconds + 3) {
                zip(["HEADLESS-1", "HEADLESS-2"], before).allSatisfy { self.items(p, on: $0).count >= $1 + 2 }
            }, "both tiles advance after the restart")
        for (output, count) in zip(["HEADLESS-1", "HEADLESS-2"], before) {
            XCTAssertEqual(p.statsEvents.filter { $0.event == "connect" && $0.output == output }.count, 2, output)
            assertClockItems(p, output, after: count, "after the restart")
        }
        assertCleanStop(p)
    }

    func testATurnedOutputKeepsItsPartAsItsPanelHangs() throws {
        let rig = try startSway([.init(width: 640, height: 360), .init(width: 640, height: 360)])
        let p = try play(try writeWall(left: "HEADLESS-1", right: "HEADLESS-2"), env(rig))
        let before = assertParts(rig.capture, ["HEADLESS-1": Self.leftPart, "HEADLESS-2": Self.rightPart], "upright")
        // sway's "90" turns the output clockwise: its clients see
        // wl_output's transform 270, which turns what they draw 270 degrees
        // counter-clockwise onto the panel (grim reads it as drawn). The
        // panel shows the part upright when what is drawn is the part
        // turned a quarter counter-clockwise: its top-right corner top left.
        func part(_ transform: String, _ lx: Int, _ ly: Int) -> (x: Int, y: Int) {
            switch transform {
            case "90": (640 + 639 - ly, lx)
            case "180": (640 + 639 - lx, 359 - ly)
            case "270": (640 + ly, 359 - lx)
            default: Self.rightPart(lx, ly)
            }
        }
        for transform in ["90", "180", "270", "normal"] {
            try rig.setTransform("HEADLESS-2", transform)
            let images = assertParts(
                rig.capture, ["HEADLESS-1": Self.leftPart, "HEADLESS-2": { part(transform, $0, $1) }], timeout: 10,
                "transform \(transform)")
            XCTAssertEqual(images["HEADLESS-1"]?.pixels, before["HEADLESS-1"]?.pixels, "transform \(transform)")
        }
        XCTAssertEqual(p.statsEvents.filter { $0.event == "connect" }.count, 2, "no tile was connected again")
        assertCleanStop(p)
    }

    func testAReModedTileShowsItsPartFittedToTheNewMode() throws {
        // The right tile comes up in another mode than the left one, and
        // the wall leaves the panels' pixels to the screens.
        let rig = try startSway([.init(width: 640, height: 360), .init(width: 1280, height: 720)])
        let folder = try wallFolder()
        // Eight stripes of 160 canvas pixels, each its own colour: the
        // right tile shows the last four.
        let colours: [RGB] = [
            RGB(hex: 0xff0000), RGB(hex: 0x00ff00), RGB(hex: 0x0000ff), RGB(hex: 0xffff00),
            RGB(hex: 0x00ffff), RGB(hex: 0xff00ff), RGB(hex: 0xffffff), RGB(hex: 0x808000),
        ]
        var pixels = [UInt8](repeating: 0, count: 1280 * 360 * 3)
        for y in 0..<360 {
            for x in 0..<1280 {
                let c = colours[x / 160], i = (y * 1280 + x) * 3
                (pixels[i], pixels[i + 1], pixels[i + 2]) = (c.r, c.g, c.b)
            }
        }
        try RigImage(width: 1280, height: 360, pixels: pixels).writePNG(to: folder + "/stripes.png")
        let path = folder + "/wall.json"
        try
            #"{"playlists": {"wide": [{"file": "stripes.png"}]}, "walls": [{"playlist": "wide", "tiles": [{"match": "HEADLESS-1", "column": 0, "row": 0}, {"match": "HEADLESS-2", "column": 1, "row": 0}]}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let p = try play(path, env(rig))
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.output == "HEADLESS-2" }, p.stderr)
        /// Columns of `output` (`width` wide) not showing the stripes from
        /// `first` on, four across, each a quarter of the width. Scaled
        /// (`exact` false), the columns next to a stripe's edges may blend.
        func wrongColumns(_ output: String, width: Int, first: Int, exact: Bool) -> [String] {
            guard let image = try? rig.capture(output: output), image.width == width else { return ["no capture"] }
            let stripe = width / 4
            return (0..<width).filter { x in
                let inside = x % stripe
                guard exact || (inside > 2 && inside < stripe - 3) else { return false }
                return (0..<image.height).contains { image.pixel(x: x, y: $0) != colours[first + x / stripe] }
            }.prefix(5).map { "column \($0)" }
        }
        var wrong: [String] = []
        let left = waitUntil(timeout: 10) {
            wrong = wrongColumns("HEADLESS-1", width: 640, first: 0, exact: true)
            return wrong.isEmpty
        }
        XCTAssertTrue(left, "HEADLESS-1: \(wrong)")
        // Last, the left tile's mode: the right tile's part is worked out
        // again for it and shows one to one, every column, edges included.
        for (mode, exact) in [
            (OutputMode(width: 1280, height: 720), false), (.init(width: 320, height: 180), false),
            (.init(width: 640, height: 360), true),
        ] {
            if try rig.output(named: "HEADLESS-2")?.width != mode.width { try rig.setMode("HEADLESS-2", mode) }
            let shown = waitUntil(timeout: 10) {
                wrong = wrongColumns("HEADLESS-2", width: mode.width, first: 4, exact: exact)
                return wrong.isEmpty
            }
            XCTAssertTrue(shown, "mode \(mode): \(wrong)")
            XCTAssertEqual(wrongColumns("HEADLESS-1", width: 640, first: 0, exact: true), [], "HEADLESS-1 at \(mode)")
        }
        assertCleanStop(p)
    }
}
