import Foundation
import TestHarness
import TestSupport
import XCTest

/// A compositor that holds a video's frames for a while (stopped, swamped,
/// the output hidden) leaves no spare window buffer behind once it answers
/// again. Where GL renders in software a video presents through Mesa's EGL
/// swap, and Mesa takes a third buffer when it must draw while the
/// compositor holds both, then keeps it until the window goes: 3.6 MB at
/// 1280x720 (8.3 MB at 1920x1080), for good, after one stall or a loaded
/// minute. The window now makes its swap window again after a frame the
/// compositor held, and trims the heap.
final class HeldFramesMemoryTests: ScreenplayTestCase {
    func testAVideoWindowGoesBackToTwoBuffersAfterTheCompositorHeldItsFrames() throws {
        let mode = OutputMode(width: 1280, height: 720, refreshHz: 60)
        let rig = try SwayRig.start(outputs: [mode, mode])
        addTeardownBlock { rig.stop() }
        let media = try TestMedia.directory()
        addTeardownBlock { TestMedia.remove(media) }
        let clip = try TestMedia.pattern(in: media, seconds: 10, fps: 30)
        let p = try CLI.start(["present", clip, "--stats", "-"], environment: rig.clientEnvironment)
        XCTAssertNotNil(p.waitForEvent { $0.event == "connect" && $0.output == "HEADLESS-2" }, p.stderr)
        let sway = try XCTUnwrap(rig.compositorPID, "the sway process behind runuser")
        Thread.sleep(forTimeInterval: 3)
        let before = ProcessUsage.residentKiB(p.pid)
        // A short stall, then long ones: on this machine the order that made
        // Mesa take a third buffer every time (long ones alone: not always).
        for seconds in [1.0, 5.0, 5.0] {
            kill(sway, SIGSTOP)
            Thread.sleep(forTimeInterval: seconds)
            kill(sway, SIGCONT)
            Thread.sleep(forTimeInterval: 2)
        }
        // Shared memory is the window buffers the compositor maps (the
        // process has no other of any size); two are what a window that
        // double-buffers needs. Under load a third may come and go, so the
        // promise is that it goes: the least seen over half a minute.
        let buffer = 1280 * 720 * 4 / 1024
        var least = Int.max
        let back = waitUntil(timeout: 30, poll: 0.25) {
            least = min(least, Self.sharedKiB(p.pid))
            return least <= 2 * buffer + buffer / 2
        }
        XCTAssertTrue(
            back,
            "the video's window kept \(least) KiB of shared buffers (a 1280x720 buffer is \(buffer) KiB) half a minute after the compositor held its frames"
        )
        // Nor is the buffer traded for heap: the new window's buffers leave
        // the old ones' blocks free in the heap, which a trim hands back.
        Thread.sleep(forTimeInterval: 1)
        let after = ProcessUsage.residentKiB(p.pid)
        print("held frames: RSS \(before) -> \(after) KiB, shared \(least) KiB")
        XCTAssertLessThan(
            after - before, buffer,
            "RSS grew from \(before) to \(after) KiB over the stalls, a window buffer (\(buffer) KiB) or more")
        let seen = p.frames(for: "HEADLESS-2").count
        XCTAssertTrue(
            waitUntil(timeout: 5) { p.frames(for: "HEADLESS-2").dropFirst(seen).contains { $0.int("presented") > 0 } },
            "the video plays on after the stalls: \(p.stderr.suffix(1500))")
        assertCleanStop(p)
    }

    /// RssShmem from /proc/PID/status, in KiB.
    private static func sharedKiB(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("RssShmem:") } ?? ""
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? Int.max
    }
}
