import Foundation
import TestSupport
import XCTest

/// `screenplay present VIDEO` against headless sway: pixels (grim), the
/// per-frame read-back probe and `--stats`.
final class VideoTests: XCTestCase {
    var media = ""

    override func setUpWithError() throws {
        media = try TestMedia.directory()
        let dir = media
        addTeardownBlock { TestMedia.remove(dir) }
    }

    func testExplore() throws {
        let rig = try startSway([.init(width: 640, height: 360), .init(width: 640, height: 360)])
        let clip = ProcessInfo.processInfo.environment["SIXTY"] != nil ? try TestMedia.pattern(in: media, seconds: 3, fps: 60, width: 320, height: 180) : try TestMedia.colourSequence(in: media)
        if ProcessInfo.processInfo.environment["SIXTY"] != nil { try rig.setMode("HEADLESS-2", .init(width: 640, height: 360, refreshHz: 30)) }
        var e = env(rig, builtin: "HEADLESS-1")
        e["SCREENPLAY_VIDEO_PROBE"] = ProcessInfo.processInfo.environment["PROBE"]
        let p = try CLI.start(["present", clip, "--stats", "-"], environment: e)
        Thread.sleep(forTimeInterval: 8)
        assertCleanStop(p)
        print(p.stdout)
        print(p.stderr)
    }
}
