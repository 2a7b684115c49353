import Foundation
import TestHarness
import TestSupport
import XCTest

/// `screenplay ctl screenshot`: the panel's own buffer, read back at its
/// pixel size, equals what grim reads from the same output, on an
/// unrotated and a rotated panel; mistakes exit non-zero and say why.
final class ScreenshotTests: ScreenplayTestCase {
    /// Four corner colours and a grey ramp across the middle: a turned,
    /// mirrored or scaled read-back shows, and so does a channel swap.
    func writePattern(_ path: String, width: Int, height: Int) throws {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let o = (y * width + x) * 3
                let rgb: (UInt8, UInt8, UInt8)
                if abs(y - height / 2) < height / 8 {
                    let v = UInt8(x * 255 / (width - 1))
                    rgb = (v, v / 2, 255 - v)
                } else {
                    switch (x < width / 2, y < height / 2) {
                    case (true, true): rgb = (0xff, 0x20, 0x10)
                    case (false, true): rgb = (0x10, 0xe0, 0x30)
                    case (true, false): rgb = (0x20, 0x30, 0xf0)
                    case (false, false): rgb = (0xf8, 0xf0, 0xe0)
                    }
                }
                (pixels[o], pixels[o + 1], pixels[o + 2]) = rgb
            }
        }
        try RigImage(width: width, height: height, pixels: pixels).writePNG(to: path)
    }

    /// The largest difference of any channel of any pixel, or nil when the sizes differ.
    func largestDifference(_ a: RigImage, _ b: RigImage) -> Int? {
        guard a.width == b.width, a.height == b.height else { return nil }
        var largest = 0
        for i in 0..<a.pixels.count { largest = max(largest, abs(Int(a.pixels[i]) - Int(b.pixels[i]))) }
        return largest
    }

    /// Screenshots until one equals grim's capture taken right after it
    /// (within rounding): the first may race a redraw after a change.
    func assertScreenshotEqualsGrim(
        _ rig: SwayRig, _ folder: String, width: Int, height: Int, _ label: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let shot = folder + "/shot-\(label).png"
        var last = "no screenshot"
        let matched = waitUntil(timeout: 10) {
            guard let r = try? CLI.run(["ctl", "screenshot", shot], environment: self.env(rig)) else { return false }
            guard r.status == 0 else {
                last = "exit \(r.status): \(r.stderr)"
                return false
            }
            guard let image = try? RigImage(contentsOf: shot), let grim = try? rig.capture(output: "HEADLESS-1")
            else { return false }
            let difference = self.largestDifference(image, grim)
            last =
                "screenshot \(image.width)x\(image.height), grim \(grim.width)x\(grim.height), largest difference \(difference.map(String.init) ?? "-")"
            return image.width == width && image.height == height && (difference ?? 255) <= 2
        }
        XCTAssertTrue(matched, "\(label): \(last)", file: file, line: line)
    }

    /// As docs/unattended.md tells a user: `play FOLDER`, then `ctl screenshot FILE`
    /// with no options (one panel, the default socket).
    func testScreenshotEqualsGrimOnAnUnrotatedAndARotatedPanel() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let (folder, _) = try signagePlaylist("{}")
        let media = folder + "/media"
        try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
        try writePattern(media + "/pattern.png", width: 320, height: 240)
        let p = try CLI.start(["play", media], environment: env(rig))
        defer { assertCleanStop(p) }
        XCTAssertTrue(
            waitUntil(timeout: 10) {
                (try? rig.capture(output: "HEADLESS-1").pixel(x: 10, y: 10)) == RGB(hex: 0xff2010)
            }, "the pattern shows: \(p.stderr)")
        try assertScreenshotEqualsGrim(rig, folder, width: 320, height: 240, "unrotated")

        // Turned a quarter: the panel is 240x320 and the picture is fitted
        // inside it; the screenshot is what a viewer sees, as grim's is.
        try rig.setTransform("HEADLESS-1", "90")
        try assertScreenshotEqualsGrim(rig, folder, width: 240, height: 320, "rotated")
        let written = try CLI.run(["ctl", "screenshot", folder + "/json.png", "--json"], environment: env(rig))
        XCTAssertEqual(written.status, 0, written.stderr)
        let reply = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(written.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(reply["output"] as? String, "HEADLESS-1")
        XCTAssertEqual(reply["width"] as? Int, 240)
        XCTAssertNil(reply["png"], "--json prints the summary, not the picture")
    }

    /// Two panels: a screenshot is of one, so --output must name it; a
    /// pattern naming none and a folder that does not exist are errors.
    func testScreenshotMistakesExitNonZeroAndSayWhy() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 320, height: 240)])
        let (folder, playlist) = try signagePlaylist(
            "{\"playlists\": {\"s\": [{\"color\": \"336699\"}]}, \"panels\": [{\"match\": \"*\", \"playlist\": \"s\"}]}"
        )
        let socket = controlSocketPath()
        let p = try CLI.start(["play", playlist, "--all", "--socket", socket], environment: env(rig))
        defer { assertCleanStop(p) }
        XCTAssertTrue(
            waitUntil(timeout: 10) {
                (try? rig.capture(output: "HEADLESS-2").pixel(x: 10, y: 10)) == RGB(hex: 0x336699)
                    && (try? rig.capture(output: "HEADLESS-1").pixel(x: 10, y: 10)) == RGB(hex: 0x336699)
            }, p.stderr)
        let both = try CLI.run(["ctl", "screenshot", folder + "/a.png", "--socket", socket], environment: env(rig))
        XCTAssertEqual(both.status, 65, both.stderr)
        XCTAssertTrue(both.stderr.contains("2 panels (HEADLESS-1, HEADLESS-2)"), both.stderr)
        XCTAssertTrue(both.stderr.contains("--output"), both.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/a.png"))

        for (arguments, status, says) in [
            (["b.png", "--output", "DP-9"], Int32(65), "no panel matches 'DP-9'"),
            (["no/such/dir/c.png", "--output", "HEADLESS-2"], 73, "cannot write"),
            ([], 64, "screenshot needs the PNG file"),
        ] {
            let files = arguments.first.map { [folder + "/" + $0] + arguments.dropFirst() } ?? []
            let r = try CLI.run(["ctl", "screenshot"] + files + ["--socket", socket], environment: env(rig))
            XCTAssertEqual(r.status, status, "\(arguments): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(says), "\(arguments): \(r.stderr)")
        }

        let one = try CLI.run(
            ["ctl", "screenshot", folder + "/d.png", "--output", "HEADLESS-2", "--socket", socket],
            environment: env(rig))
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertTrue(one.stdout.contains("HEADLESS-2, 320x240"), one.stdout)
        let image = try RigImage(contentsOf: folder + "/d.png")
        XCTAssertEqual(image.pixel(x: 160, y: 120), RGB(hex: 0x336699))
        // A screenshot and a status sent together: the screenshot waits for
        // a frame, and the status reply comes after it, not before.
        let raw = try ControlConnection(socket)
        raw.send("{\"command\":\"screenshot\",\"output\":\"HEADLESS-1\"}\n{\"command\":\"status\"}\n")
        let first = try XCTUnwrap(
            raw.readLine().flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        XCTAssertEqual(first["output"] as? String, "HEADLESS-1", "the screenshot's reply first")
        XCTAssertNotNil(first["png"])
        let second = try XCTUnwrap(
            raw.readLine().flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        XCTAssertNotNil(second["panels"], "then the status")
        // The control socket still answers after all of that.
        XCTAssertEqual(try CLI.run(["ctl", "status", "--socket", socket], environment: env(rig)).status, 0)
    }
}
