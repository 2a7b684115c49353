import Documents
import Foundation
import TestSupport
import XCTest

/// Every line a command writes to stderr is Screenplay's own (Log.swift:
/// "screenplay: " first): no line of FFmpeg's, mpv's, GLib's, Mesa's or
/// WebKit's reaches a box's journal unless Screenplay passed it on.
func libraryLines(_ stderr: String) -> [String] {
    stderr.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("screenplay: ") }
}

extension PlayTests {
    /// `play` as a user runs it (no --stats, no test-only environment) with
    /// a colour, a picture, a video, a text item and a web page, each shown
    /// and the video started twice.
    func testPlayWritesOnlyItsOwnLinesToStderr() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let folder = try mediaFolder()
        try writePNG(folder + "/picture.png", 0x00ff00)
        _ = try TestMedia.colourSequence(in: folder, name: "clip")
        try squarePage("ffff00").write(to: URL(fileURLWithPath: folder + "/page.html"))
        let playlist = try writePlaylist(
            folder,
            """
            {"playlists": {"all": [{"color": "204080", "duration": 2}, {"file": "picture.png", "duration": 2},
                                   {"file": "clip.mp4"}, {"text": "Quiet please", "duration": 2},
                                   {"web": "page.html", "duration": 3}]},
             "default": "all"}
            """)
        let proof = folder + "/proof.jsonl"
        let p = try CLI.start(["play", "--proof", proof, playlist], environment: env(rig))
        func shown() -> [Int] {
            ((try? String(contentsOfFile: proof, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                ((try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any])?["index"] as? Int
            }
        }
        XCTAssertTrue(
            waitUntil(timeout: 90) { shown().filter { $0 == 2 }.count >= 2 && Set(shown()) == [0, 1, 2, 3, 4] },
            "not every item was shown (and the video twice): \(shown()); \(p.stderr)")
        assertCleanStop(p)
        XCTAssertEqual(libraryLines(p.stderr), [], "lines on stderr that are not Screenplay's:\n\(p.stderr)")
    }
}

extension PresenterTests {
    /// `present` on a PDF as a speaker runs it: the console on the laptop,
    /// slides on the projector, every page shown in turn, then quit.
    func testPresentWritesOnlyItsOwnLinesToStderr() throws {
        let rig = try startSway([.init(width: 1280, height: 720), .init(width: 1280, height: 720)], keyboard: true)
        try rig.focusOutput("HEADLESS-1")
        let e = env(rig, builtin: "HEADLESS-1")
        let p = try CLI.start(["present", deck.pdf], environment: e)
        let cap = { (name: String) in try rig.capture(output: name) }
        XCTAssertTrue(waitForColor(background(1), on: "HEADLESS-2", capture: cap, timeout: 20), p.stderr)
        for page in 2...SampleDeck.pageCount {
            try type(["-k", "Right"], e)
            XCTAssertTrue(waitForColor(background(page), on: "HEADLESS-2", capture: cap), "page \(page): \(p.stderr)")
        }
        try endTalk(p, e)
        XCTAssertEqual(libraryLines(p.stderr), [], "lines on stderr that are not Screenplay's:\n\(p.stderr)")
    }
}
