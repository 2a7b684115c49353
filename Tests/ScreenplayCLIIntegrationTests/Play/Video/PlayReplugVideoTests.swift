import Foundation
import TestHarness
import TestSupport
import XCTest

extension PlayMirrorTests {
    /// A panel plugged back in while the other panel is in the middle of a
    /// long video slot shows the clip within seconds, each of three times.
    /// A new output gets its mode after the panel connected, often while
    /// its first item still loads; the resize dropped that item as stale
    /// and nothing made it again, so the panel stayed grey until the slot's
    /// end (a minute here): 5 of 5 runs beside two busy cores failed.
    func testAPanelPluggedBackInDuringALongVideoSlotShowsTheClip() throws {
        let (rig, p) = try playLongClipOnTwoNestedPanels()
        var victim = "WL-2"
        for round in 1...3 {
            try rig.removeOutput(victim)
            XCTAssertNotNil(p.waitForEvent { $0.event == "disconnect" && $0.output == victim }, p.stderr)
            Thread.sleep(forTimeInterval: 1)
            let plugged = try rig.addOutput()
            guard p.waitForEvent(timeout: 10, { $0.event == "item" && $0.output == plugged }) != nil else {
                let status = try? CLI.run(["ctl", "status", "--json"], environment: rig.clientEnvironment)
                return XCTFail(
                    "round \(round): \(plugged) showed no item within 10 s of being plugged in; ctl status: \(status?.stdout ?? "no answer"); stderr: \(p.stderr.suffix(1500))"
                )
            }
            Thread.sleep(forTimeInterval: 1)
            assertRedOverBlue(try rig.capture(output: plugged), "round \(round): \(plugged) plugged back in")
            victim = plugged
        }
        assertCleanStop(p)
    }

    /// `play --all` of the red-over-blue clip in a 60 s slot on two 320x180
    /// outputs of a nested sway (which can unplug them), once both show it.
    func playLongClipOnTwoNestedPanels() throws -> (NestedSwayRig, RunningProcess) {
        let rig = try NestedSwayRig.start(
            outputs: 2, outputSize: .init(width: 320, height: 180), parentMode: .init(width: 1280, height: 720))
        addTeardownBlock { rig.stop() }
        try writeStackedClip()
        let playlist = media + "/signage.json"
        try #"{"playlists": {"show": [{"file": "clip.mp4", "duration": 60}]}, "default": "show"}"#
            .write(toFile: playlist, atomically: true, encoding: .utf8)
        let p = try CLI.start(["play", playlist, "--stats", "-", "--all"], environment: rig.clientEnvironment)
        for output in ["WL-1", "WL-2"] {
            XCTAssertNotNil(p.waitForEvent(timeout: 30) { $0.event == "item" && $0.output == output }, p.stderr)
        }
        return (rig, p)
    }
}
