import Foundation
import TestHarness
import TestSupport
import XCTest

/// Layouts on headless sway: each region's pixels where the file puts them,
/// on a panel as it stands and on one hung turned; regions crossfading on
/// their own, read back every frame; a bad layout refused on reload.
extension PlayTests {
    /// Three colour regions and one on top (z) over the layout's background.
    static let threeRegions = """
        {"layouts": {"m": {"background": "202020", "regions": [
            {"name": "a", "x": 0, "y": 0, "width": "50%", "height": "50%", "items": [{"color": "ff0000"}]},
            {"name": "b", "x": "50%", "y": 0, "width": "50%", "height": "50%", "items": [{"color": "00ff00"}]},
            {"name": "top", "x": "40%", "y": "80%", "width": "20%", "height": "10%", "z": 2, "items": [{"color": "ffffff"}]},
            {"name": "c", "x": 0, "y": "75%", "width": "100%", "height": "25%", "z": 1, "items": [{"color": "0000ff"}]}]}},
         "panels": [{"match": "HEADLESS-2", "layout": "m"}, {"match": "HEADLESS-3", "layout": "m", "rotate": 90}]}
        """

    func testLayoutRegionsOnAnUprightAndATurnedPanel() throws {
        let rig = try startSway([
            .init(width: 320, height: 240), .init(width: 640, height: 360), .init(width: 640, height: 360),
        ])
        let folder = try mediaFolder()
        let playlist = try writePlaylist(folder, Self.threeRegions)
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        for output in ["HEADLESS-2", "HEADLESS-3"] {
            for region in ["a", "b", "c", "top"] {
                XCTAssertNotNil(
                    p.waitForEvent {
                        $0.event == "item" && $0.output == output && $0.raw["region"] as? String == region
                    }, "no proof of play for region \(region) on \(output): \(p.stderr)")
            }
        }
        // Points of the layout as the viewer sees it (fractions of its
        // width and height) and the colour each must show.
        let expected: [(x: Double, y: Double, hex: UInt32, what: String)] = [
            (0.25, 0.25, 0xff0000, "region a"), (0.75, 0.25, 0x00ff00, "region b"),
            (0.5, 0.625, 0x202020, "the layout's background between b and c"), (0.1, 0.9, 0x0000ff, "region c"),
            (0.5, 0.85, 0xffffff, "region top, over c (z 2 over z 1)"),
            (0.02, 0.02, 0xff0000, "a's corner"), (0.98, 0.48, 0x00ff00, "b's corner"),
        ]
        // HEADLESS-2 as it stands: the layout is 640x360. HEADLESS-3 hangs
        // turned 90° clockwise: the layout is 360x640, and the buffer holds
        // it turned back, its top-left at the buffer's bottom-left.
        let upright: (Double, Double) -> (Int, Int) = { x, y in (Int(x * 640), Int(y * 360)) }
        let turned: (Double, Double) -> (Int, Int) = { x, y in (Int(y * 640), 359 - Int(x * 360)) }
        for (output, place) in [("HEADLESS-2", upright), ("HEADLESS-3", turned)] {
            var image = try rig.capture(output: output)
            let matches = {
                expected.allSatisfy { point in
                    let (x, y) = place(point.x, point.y)
                    return image.pixel(x: x, y: y) == RGB(hex: point.hex)
                }
            }
            _ = waitUntil(timeout: 5) {
                image = (try? rig.capture(output: output)) ?? image
                return matches()
            }
            for point in expected {
                let (x, y) = place(point.x, point.y)
                XCTAssertEqual(image.pixel(x: x, y: y), RGB(hex: point.hex), "\(output) at (\(x), \(y)): \(point.what)")
            }
        }
        assertCleanStop(p)
    }

    /// Two regions crossfade on their own clocks, 20 times and more: every
    /// frame, each region's centre is on the line between its own two
    /// colours: never black, never the other region's colour, never stale.
    func testLayoutRegionsCrossfadeWithoutABlackOrForeignFrame() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 480, height: 270)])
        let folder = try mediaFolder()
        let playlist = try writePlaylist(
            folder,
            """
            {"layouts": {"m": {"regions": [
                {"name": "left", "x": 0, "y": 0, "width": "50%", "height": "100%", "transition": {"seconds": 0.25},
                 "items": [{"color": "ff0000", "duration": 0.5}, {"color": "0000ff", "duration": 0.5}]},
                {"name": "right", "x": "50%", "y": 0, "width": "50%", "height": "100%", "transition": {"seconds": 0.3},
                 "items": [{"color": "00ff00", "duration": 0.7}, {"color": "ffff00", "duration": 0.7}]}]}},
             "default": "m"}
            """)
        var environment = env(rig, builtin: "HEADLESS-1")
        environment["SCREENPLAY_PLAY_PROBE"] = "1"
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: environment)
        let shown = { (region: String) in
            self.items(p, "HEADLESS-2").filter { $0.raw["region"] as? String == region }.count
        }
        XCTAssertTrue(waitUntil(timeout: 40) { shown("left") >= 22 && shown("right") >= 22 }, p.stderr)
        assertCleanStop(p)
        let probes = p.statsEvents.compactMap {
            $0.output == "HEADLESS-2" ? $0.raw["regions"] as? [String: String] : nil
        }
        XCTAssertGreaterThan(probes.count, 100, "frames read back")
        var mixes: [String: [Int]] = ["left": [], "right": []]
        for regions in probes {
            let left = Int(regions["left"] ?? "", radix: 16) ?? 0, right = Int(regions["right"] ?? "", radix: 16) ?? 0
            let (lr, lg, lb) = (left >> 16 & 0xff, left >> 8 & 0xff, left & 0xff)
            let (rr, rg, rb) = (right >> 16 & 0xff, right >> 8 & 0xff, right & 0xff)
            // left: red to blue (no green, red + blue = 255); right: green to
            // yellow (full green, no blue, any red).
            XCTAssertTrue(lg <= 2 && abs(lr + lb - 255) <= 4, "left showed \(regions["left"] ?? "nothing")")
            XCTAssertTrue(rg >= 251 && rb <= 2, "right showed \(regions["right"] ?? "nothing")")
            mixes["left"]?.append(lb)
            mixes["right"]?.append(rr)
        }
        for (region, mix) in mixes { assertEveryChangeIsAWholeFade(mix, region: region) }
    }

    /// `mix` is how far each frame is from a region's first colour (0) to
    /// its second (255). Every change runs through blended frames (no cut:
    /// a cut would be a skipped fade or a stale frame), one way only, from
    /// one colour to the other; 20 fades of 0.25 s at 60 Hz leave several
    /// blended frames each, even on a loaded machine.
    func assertEveryChangeIsAWholeFade(_ mix: [Int], region: String, line: UInt = #line) {
        var fades = 0, blended = 0
        var lastPure: Int?
        var run: [Int] = []
        for value in mix {
            let pure = value <= 4 ? 0 : value >= 251 ? 255 : nil
            guard let pure else {
                run.append(value)
                continue
            }
            if let lastPure, lastPure != pure || !run.isEmpty {
                XCTAssertNotEqual(lastPure, pure, "\(region): a fade went back to where it came from", line: line)
                XCTAssertFalse(
                    run.isEmpty, "\(region): a cut from \(lastPure) to \(pure), no blended frame", line: line)
                let steps = zip(run, run.dropFirst()).map { $1 - $0 }
                let direction = pure > lastPure ? 1 : -1
                XCTAssertTrue(
                    steps.allSatisfy { $0 * direction >= -2 }, "\(region): a fade reversed: \(run)", line: line)
                fades += 1
                blended += run.count
            }
            lastPure = pure
            run = []
        }
        XCTAssertGreaterThanOrEqual(fades, 20, "\(region): fades seen", line: line)
        XCTAssertGreaterThan(blended, 3 * fades, "\(region): blended frames over \(fades) fades", line: line)
    }

    /// Each kind of layout mistake stops `play` with 65 before it connects
    /// (no compositor here), naming the file and the JSON path.
    func testLayoutMistakesExitSixtyFiveBeforeConnecting() throws {
        let folder = try mediaFolder()
        let environment = ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": folder]
        let place = #""name": "r", "x": 0, "y": 0, "width": "50%", "height": "50%""#
        for (region, said) in [
            (place + #", "items": []"#, "layouts.m.regions[0].items: a region with no items"),
            (place + #", "playlist": "s", "colour": "000000""#, #"layouts.m.regions[0].colour: unknown key "colour""#),
            (place + #", "playlist": "nope""#, #"layouts.m.regions[0].playlist: no playlist named "nope""#),
            (
                #""name": "r", "x": 0, "y": 0, "width": 0, "height": 10, "playlist": "s""#,
                "layouts.m.regions[0].width: expected a whole number of pixels more than 0"
            ),
            (
                #""name": "r", "x": 0, "y": 0, "width": "150%", "height": 10, "playlist": "s""#,
                "layouts.m.regions[0].width: expected a percentage more than 0, up to 100%"
            ),
            (
                place + #", "playlist": "s"}, {"# + place + #", "playlist": "s""#,
                "layouts.m.regions[1].name: another region"
            ),
        ] {
            let bad = try writePlaylist(
                folder,
                #"{"playlists": {"s": [{"color": "ff0000"}]}, "layouts": {"m": {"regions": [{\#(region)}]}}, "default": "m"}"#
            )
            let result = try CLI.run(["play", bad], environment: environment)
            XCTAssertEqual(result.status, 65, result.stderr)
            XCTAssertTrue(result.stderr.contains("\(bad): \(said)"), result.stderr)
        }
    }

    /// A layout that cannot work is refused on reload while the old one
    /// plays on; a region past a smaller panel's edge is reported loudly
    /// and the panel shows its placeholder.
    func testABadLayoutIsRefusedOnReloadAndARegionPastTheEdgeIsNamed() throws {
        let rig = try startSway([
            .init(width: 320, height: 240), .init(width: 640, height: 360), .init(width: 320, height: 240),
        ])
        let folder = try mediaFolder()
        let good = """
            {"layouts": {"m": {"regions": [
                {"name": "a", "x": 0, "y": 0, "width": 400, "height": 300,
                 "items": [{"color": "ff0000", "duration": 0.5}, {"color": "ff0001", "duration": 0.5}]}]}},
             "default": "m"}
            """
        let playlist = try writePlaylist(folder, good)
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        let regionItems = { self.items(p, "HEADLESS-2").filter { $0.raw["region"] as? String == "a" }.count }
        XCTAssertTrue(waitUntil(timeout: 10) { regionItems() >= 2 }, p.stderr)
        // The 400x300 region reaches past the 320x240 panel: named, with
        // the pixels over, on stderr and in --stats; the panel shows the placeholder.
        let skipped = p.waitForEvent { $0.event == "skipped" && ($0.raw["reason"] as? String ?? "").contains("\"a\"") }
        let reason = skipped?.raw["reason"] as? String ?? ""
        for word in ["region \"a\"", "layout \"m\"", "layouts.m.regions[0]", "80 px past the right edge", "320x240"] {
            XCTAssertTrue(reason.contains(word), "\(reason) lacks \(word)")
        }
        XCTAssertTrue(p.stderr.contains("80 px past the right edge"), p.stderr)
        XCTAssertNotNil(p.waitForEvent { $0.event == "placeholder" && $0.output == "HEADLESS-3" }, p.stderr)

        // A region with no items: refused, naming its path, and the old layout keeps switching.
        try good.replacingOccurrences(
            of: #""items": [{"color": "ff0000", "duration": 0.5}, {"color": "ff0001", "duration": 0.5}]"#,
            with: #""items": []"#
        ).write(toFile: playlist, atomically: true, encoding: .utf8)
        let refused = p.waitForEvent { $0.event == "reload" && ($0.raw["ok"] as? Bool) == false }
        XCTAssertTrue(
            (refused?.raw["error"] as? String ?? "").contains("layouts.m.regions[0].items"), "\(refused?.raw ?? [:])")
        let before = regionItems()
        XCTAssertTrue(waitUntil(timeout: 5) { regionItems() >= before + 2 }, "the old layout stopped: \(p.stderr)")
        XCTAssertTrue(p.isRunning)

        // The layout edited under its name: it takes over at once, not at
        // the end of the layout's hour-long slot.
        try good.replacingOccurrences(of: "ff0001", with: "0000ff").write(
            toFile: playlist, atomically: true, encoding: .utf8)
        XCTAssertNotNil(p.waitForEvent { $0.event == "reload" && ($0.raw["ok"] as? Bool) == true }, p.stderr)
        XCTAssertNotNil(
            p.waitForEvent(timeout: 5) {
                $0.event == "item" && $0.output == "HEADLESS-2" && $0.raw["source"] as? String == "#0000FF"
            }, "the edited layout did not take over: \(p.stderr)")
        assertCleanStop(p)
    }
}
