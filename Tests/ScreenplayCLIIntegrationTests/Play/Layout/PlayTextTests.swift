import Foundation
import TestSupport
import XCTest

/// Text, text-file and clock items of `screenplay play` on headless sway,
/// checked by the pixels grim reads back and by the frames `--stats` counts.
/// Each runs `screenplay play PLAYLIST.json` as docs/signage.md tells a user.
extension PlayTests {
    /// The bounding box of the pixels that differ from `background`
    /// (the text's ink), and how many there are.
    func ink(_ image: RigImage, background: RGB) -> (box: PixelRect, count: Int)? {
        var (minX, minY, maxX, maxY, count) = (Int.max, Int.max, -1, -1, 0)
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixel(x: x, y: y).distance(to: background) > 40 {
                (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
                count += 1
            }
        }
        guard count > 0 else { return nil }
        return (PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1), count)
    }

    /// Captures `output` until `ready` holds (or 10 s pass); the last capture.
    func captureText(_ rig: SwayRig, _ output: String, until ready: (RigImage) -> Bool) -> RigImage? {
        var image: RigImage?
        _ = waitUntil(timeout: 10) {
            image = try? rig.capture(output: output)
            return image.map(ready) ?? false
        }
        return image
    }

    /// A text item: the background colour everywhere but where the text
    /// is, the text's own colour in its strokes, centred in the panel at
    /// the size asked for, and not drawn again once drawn (static content).
    func testTextItemDrawsItsInkOnItsBackground() throws {
        let rig = try startSway([.init(width: 640, height: 360)])
        let folder = try mediaFolder()
        let playlist = try writePlaylist(
            folder,
            """
            {"playlists": {"lobby": [{"text": "HELLO", "font": "Sans Bold", "size": 100, "color": "FFFFFF",
                                      "background": "204080", "padding": 20}]},
             "default": "lobby"}
            """)
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: env(rig))
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.output == "HEADLESS-1" }, p.stderr)
        let background = RGB(hex: 0x204080)
        let image = try XCTUnwrap(captureText(rig, "HEADLESS-1") { self.ink($0, background: background) != nil })
        for (x, y) in [(2, 2), (637, 2), (2, 357), (637, 357), (320, 20)] {
            XCTAssertLessThanOrEqual(image.pixel(x: x, y: y).distance(to: background), 2, "background at \(x),\(y)")
        }
        let (box, count) = try XCTUnwrap(ink(image, background: background))
        XCTAssertLessThanOrEqual(abs(box.x + box.width / 2 - 320), 4, "centred across: \(box)")
        XCTAssertLessThanOrEqual(abs(box.y + box.height / 2 - 180), 25, "centred down: \(box)")
        // DejaVu Sans Bold's capitals are 0.73 of the size: 73 px at 100 px.
        XCTAssertTrue((65...80).contains(box.height), "capitals of a 100 px font: \(box)")
        XCTAssertTrue((250...450).contains(box.width), "five bold capitals: \(box)")
        let white = (box.y..<(box.y + box.height)).flatMap { y in
            (box.x..<(box.x + box.width)).filter { image.pixel(x: $0, y: y).distance(to: RGB(hex: 0xffffff)) <= 8 }
        }
        XCTAssertGreaterThan(white.count, count / 2, "the strokes are the text colour")
        // Static: after the first frame, none a second.
        _ = waitUntil(timeout: 10) { p.frames(for: "HEADLESS-1").count >= 5 }
        let draws = p.frames(for: "HEADLESS-1").dropFirst(2).map { $0.int("draws") }
        XCTAssertGreaterThanOrEqual(draws.count, 3)
        XCTAssertEqual(draws.reduce(0, +), 0, "a text that does not change is not drawn again: \(draws)")
        assertCleanStop(p)
    }

    /// A text file edited (saved by rename, as editors do) shows its new
    /// text within a second, without reloading the playlist.
    func testTextFileEditedShowsTheNewText() throws {
        let rig = try startSway([.init(width: 640, height: 360)])
        let folder = try mediaFolder()
        try "II".write(toFile: folder + "/news.txt", atomically: true, encoding: .utf8)
        let playlist = try writePlaylist(
            folder,
            """
            {"playlists": {"news": [{"text-file": "news.txt", "size": 60, "align": "start", "padding": 10,
                                     "background": "000000", "color": "FFFF00"}]},
             "default": "news"}
            """)
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: env(rig))
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.output == "HEADLESS-1" }, p.stderr)
        let black = RGB(hex: 0)
        let before = try XCTUnwrap(captureText(rig, "HEADLESS-1") { self.ink($0, background: black) != nil })
        let short = try XCTUnwrap(ink(before, background: black)).box
        XCTAssertTrue((10...16).contains(short.x), "starts at the padding: \(short)")
        XCTAssertLessThan(short.width, 60, "two narrow letters: \(short)")

        try "WWWWWWWW\nsecond line".write(toFile: folder + "/news.txt", atomically: true, encoding: .utf8)
        let edited = Date()
        let after = try XCTUnwrap(
            captureText(rig, "HEADLESS-1") { (self.ink($0, background: black)?.box.width ?? 0) > 300 },
            "the new text never showed: \(p.stderr)")
        XCTAssertLessThan(Date().timeIntervalSince(edited), 3, "shown within a second or two of the save")
        let long = try XCTUnwrap(ink(after, background: black)).box
        XCTAssertGreaterThan(long.height, short.height + 40, "two lines now: \(long) after \(short)")
        XCTAssertTrue((10...16).contains(long.x), "still at the padding: \(long)")
        XCTAssertTrue(p.statsEvents.filter { $0.event == "reload" }.isEmpty, "no playlist reload for a text edit")
        XCTAssertFalse(p.stderr.contains("skipped"), p.stderr)
        assertCleanStop(p)
    }

    /// The box of the ink `output` shows on black, once it shows some.
    func inkOnBlack(_ rig: SwayRig, _ output: String) -> PixelRect? {
        let black = RGB(hex: 0)
        return captureText(rig, output) { self.ink($0, background: black) != nil }.flatMap {
            ink($0, background: black)?.box
        }
    }

    /// pango's bidi and shaping reach the panel: an Arabic line aligned to
    /// its start sits at the right edge (a Latin one at the left), its
    /// letters join (narrower than the same letters kept apart by zero-width
    /// non-joiners, which an unshaped line would equal), and an emoji is
    /// drawn in its colour font, not as a box in the text colour.
    func testRightToLeftTextAndEmojiShape() throws {
        let rig = try startSway([
            .init(width: 640, height: 240), .init(width: 640, height: 240), .init(width: 640, height: 240),
            .init(width: 640, height: 240),
        ])
        let folder = try mediaFolder()
        let playlist = try writePlaylist(
            folder,
            """
            {"playlists": {
               "arabic": [{"text": "مرحبا", "size": 60, "align": "start", "padding": 20}],
               "latin": [{"text": "Hello", "size": 60, "align": "start", "padding": 20}],
               "emoji": [{"text": "😀", "size": 150}],
               "apart": [{"text": "م\\u200Cر\\u200Cح\\u200Cب\\u200Cا", "size": 60, "align": "start", "padding": 20}]},
             "panels": [{"match": "HEADLESS-1", "playlist": "arabic"}, {"match": "HEADLESS-2", "playlist": "latin"},
                        {"match": "HEADLESS-3", "playlist": "emoji"}, {"match": "HEADLESS-4", "playlist": "apart"}]}
            """)
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: env(rig))
        for output in ["HEADLESS-1", "HEADLESS-2", "HEADLESS-3", "HEADLESS-4"] {
            XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.output == output }, "\(output): \(p.stderr)")
        }
        let black = RGB(hex: 0)
        let arabic = try XCTUnwrap(inkOnBlack(rig, "HEADLESS-1"))
        XCTAssertTrue((612...620).contains(arabic.x + arabic.width), "ends at the right padding: \(arabic)")
        XCTAssertGreaterThan(arabic.x, 320, "right-to-left: the line starts at the right: \(arabic)")
        let apart = try XCTUnwrap(inkOnBlack(rig, "HEADLESS-4"))
        XCTAssertLessThan(arabic.width + 10, apart.width, "joined letters are narrower: \(arabic) vs \(apart)")
        let latin = try XCTUnwrap(inkOnBlack(rig, "HEADLESS-2"))
        XCTAssertTrue((20...26).contains(latin.x), "left-to-right: starts at the left padding: \(latin)")

        let emoji = try XCTUnwrap(captureText(rig, "HEADLESS-3") { self.ink($0, background: black) != nil })
        let box = try XCTUnwrap(ink(emoji, background: black)).box
        // Noto Color Emoji's face is yellow; a missing glyph would be a
        // white box (the text colour) and no yellow at all.
        let yellow = (box.y..<(box.y + box.height)).flatMap { y in
            (box.x..<(box.x + box.width)).filter {
                let c = emoji.pixel(x: $0, y: y)
                return c.r > 200 && c.g > 140 && c.b < 100
            }
        }
        XCTAssertGreaterThan(yellow.count, box.width * box.height / 4, "a yellow face in \(box)")
        XCTAssertTrue((100...200).contains(box.height), "an emoji at 150 px: \(box)")
        XCTAssertFalse(p.stderr.contains("skipped"), p.stderr)
        assertCleanStop(p)
    }

    /// A clock draws when its shown text changes and never in between
    /// (`draws` in the frames lines): a clock with seconds about once a
    /// second (not sixty times), one without seconds not at all in a few
    /// seconds (once at most, if a minute turns); the seconds clock's pixels
    /// change from second to second.
    func testClockRedrawsOnlyWhenItsTextChanges() throws {
        let rig = try startSway([.init(width: 640, height: 240), .init(width: 640, height: 240)])
        let folder = try mediaFolder()
        let playlist = try writePlaylist(
            folder,
            """
            {"playlists": {"seconds": [{"clock": "%H:%M:%S", "timezone": "Europe/Berlin", "size": 80}],
                           "minutes": [{"clock": "%H:%M", "timezone": "Asia/Kathmandu", "size": 80}]},
             "panels": [{"match": "HEADLESS-1", "playlist": "seconds"}, {"match": "HEADLESS-2", "playlist": "minutes"}]}
            """)
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: env(rig))
        for output in ["HEADLESS-1", "HEADLESS-2"] {
            XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.output == output }, "\(output): \(p.stderr)")
        }
        let black = RGB(hex: 0)
        let first = try XCTUnwrap(captureText(rig, "HEADLESS-1") { self.ink($0, background: black) != nil })
        XCTAssertTrue(
            waitUntil(timeout: 5) { (try? rig.capture(output: "HEADLESS-1")).map { $0 != first } ?? false },
            "the seconds never moved on")

        // The minute clock's count starts after its first quiet frames
        // line: the line holding its first draw may still be on its way
        // when the seconds have moved on, and counting it with a turn of
        // the minute would read as two draws.
        var settled: Int?
        XCTAssertTrue(
            waitUntil(timeout: 10) {
                let draws = p.frames(for: "HEADLESS-2").map { $0.int("draws") }
                guard let drawn = draws.firstIndex(where: { $0 > 0 }),
                    let quiet = draws[drawn...].firstIndex(of: 0)
                else { return false }
                settled = quiet + 1
                return true
            }, "the minute clock's first draw, then a quiet second: \(p.stderr)")
        let marks = [p.frames(for: "HEADLESS-1").count, settled ?? 0]
        XCTAssertTrue(
            waitUntil(timeout: 15) {
                p.frames(for: "HEADLESS-1").count >= marks[0] + 6 && p.frames(for: "HEADLESS-2").count >= marks[1] + 6
            }, p.stderr)
        let seconds = p.frames(for: "HEADLESS-1").dropFirst(marks[0]).prefix(6).map { $0.int("draws") }
        let minutes = p.frames(for: "HEADLESS-2").dropFirst(marks[1]).prefix(6).map { $0.int("draws") }
        XCTAssertTrue((4...9).contains(seconds.reduce(0, +)), "about one draw a second for 6 s: \(seconds)")
        XCTAssertLessThanOrEqual(seconds.max() ?? 0, 2, "never a draw every refresh: \(seconds)")
        XCTAssertLessThanOrEqual(minutes.reduce(0, +), 1, "a minute clock is static between minutes: \(minutes)")
        XCTAssertFalse(p.stderr.contains("skipped"), p.stderr)
        assertCleanStop(p)
    }
}

extension PlayTests {
    /// A step of the wall clock (libfaketime, as the clock tests do) shows
    /// on a clock at once, not at its next minute: two hours forward and
    /// the hour on screen changes within the clock watch's second; back
    /// again and the panel is the picture it was.
    func testClockShowsAWallClockStepAtOnce() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 640, height: 240)])
        let folder = try mediaFolder()
        let playlist = try writePlaylist(
            folder, #"{"playlists": {"hour": [{"clock": "%H", "timezone": "UTC", "size": 120}]}, "default": "hour"}"#)
        let environment = try fakeClockEnvironment(rig, folder: folder, offset: 0)
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: environment)
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" && $0.output == "HEADLESS-2" }, p.stderr)
        // Away from a minute's turn, when the clock's own timer redraws anyway.
        while Int(Date().timeIntervalSince1970) % 60 > 45 { Thread.sleep(forTimeInterval: 1) }
        let black = RGB(hex: 0)
        let before = try XCTUnwrap(captureText(rig, "HEADLESS-2") { self.ink($0, background: black) != nil })

        try setClock(folder: folder, offset: 7200)
        let stepped = Date()
        let later = captureText(rig, "HEADLESS-2") { $0 != before && self.ink($0, background: black) != nil }
        XCTAssertNotEqual(later, before, "two hours on, the hour never changed: \(p.stderr)")
        XCTAssertLessThan(Date().timeIntervalSince(stepped), 4, "shown within the clock watch's second")
        XCTAssertNotNil(p.waitForEvent { $0.event == "clock-step" }, p.stderr)

        try setClock(folder: folder, offset: 0)
        XCTAssertNotNil(
            captureText(rig, "HEADLESS-2") { $0 == before }, "back again, the panel is not what it was: \(p.stderr)")
        assertCleanStop(p)
    }
}
