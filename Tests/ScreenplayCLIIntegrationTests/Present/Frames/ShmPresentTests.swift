import Foundation
import TestHarness
import TestSupport
import XCTest

extension PlayTests {
    /// With a software renderer (Mesa's llvmpipe, every rig here) a scene
    /// presents through its own wl_shm buffers: a ticker band under a
    /// still photo commits buffers damaged in the band's rows alone (the
    /// compositor is told no more), at most four buffers of its own of the
    /// panel's size in XRGB8888, and what reaches the output (grim) is the photo,
    /// untouched, over the moving band, as `play` runs with no settings.
    func testATickerUnderAPhotoCommitsOnlyTheBandsRowsThroughWlShm() throws {
        let rig = try startSway([.init(width: 640, height: 360)])
        let doctor = try CLI.run(["doctor", "--json"], environment: rig.clientEnvironment)
        // Only a GPU driver is a reason not to run: with a software renderer
        // (every rig here) a doctor that does not name the path fails.
        let software = doctor.stdout.contains("llvmpipe") || doctor.stdout.contains("softpipe")
        guard software else {
            throw XCTSkip("this machine renders with a GPU driver: windows present through EGL (\(doctor.stdout))")
        }
        XCTAssertTrue(doctor.stdout.contains("its own wl_shm buffers"), "doctor names the path: \(doctor.stdout)")
        let playlist = try writeTickerOverPhoto(panels: #"{"match": "*", "layout": "m"}"#)
        var environment = rig.clientEnvironment
        environment["WAYLAND_DEBUG"] = "client"
        let p = try CLI.start(["play", playlist, "--stats", "-"], environment: environment)
        XCTAssertTrue(waitUntil(timeout: 15) { p.frames(for: "HEADLESS-1").count >= 4 }, p.screenplayLines)
        var first: RigImage?
        var second: RigImage?
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                first = try? rig.capture(output: "HEADLESS-1")
                usleep(200_000)
                second = try? rig.capture(output: "HEADLESS-1")
                guard let a = first, let b = second else { return false }
                return (0..<640).contains { a.pixel(x: $0, y: 330) != b.pixel(x: $0, y: 330) }
            }, "the band does not move on the output")
        for image in [first, second].compactMap({ $0 }) {
            XCTAssertEqual(
                image.fraction(of: RGB(hex: 0x2060a0), in: PixelRect(x: 0, y: 0, width: 640, height: 300)), 1,
                "the photo above the band keeps its pixels")
        }
        assertCleanStop(p)

        let commits = ShmCommits(trace: p.stderr)
        // Screenplay's own buffers are XRGB8888; the whole frames (the
        // layout's first, the photo's repaints) go through Mesa's swap,
        // whose buffers take the EGL config's format (ARGB8888 here).
        let own = commits.buffers.filter { $0.hasSuffix(", 1") }
        XCTAssertFalse(own.isEmpty, "no wl_shm buffer created: \(p.screenplayLines)")
        XCTAssertLessThanOrEqual(own.count, 4, "buffers made: \(commits.buffers)")
        for buffer in commits.buffers {
            XCTAssertTrue(buffer.hasPrefix("640, 360, 2560, "), "not the panel's size: \(buffer)")
        }
        // After the layout's first frames: the band, and now and then the
        // photo region's repaint of the same picture when its slot comes
        // round on the wall clock.
        let later = commits.damage.dropFirst(5)
        XCTAssertGreaterThanOrEqual(later.count, 60, "band frames committed: \(later.count)")
        let bandOnly = later.filter { rects in rects.allSatisfy { $0.y >= 300 && $0.y + $0.height <= 360 } }
        XCTAssertGreaterThanOrEqual(
            Double(bandOnly.count), Double(later.count) * 0.9,
            "commits damaging more than the band: \(later.filter { !bandOnly.contains($0) }.prefix(5))")
    }
}

/// The scene surface's wl_shm buffers and each commit's `damage_buffer`
/// rectangles, from libwayland's client trace.
private struct ShmCommits {
    /// `width, height, stride, format` of each buffer created.
    var buffers: [String] = []
    var damage: [[PixelRect]] = []

    init(trace: String) {
        var pending: [PixelRect] = []
        for line in trace.split(separator: "\n") where line.contains(" -> ") {
            if line.contains(".create_buffer(new id wl_buffer@"),
                let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")")
            {
                let fields = line[line.index(after: open)..<close].components(separatedBy: ", ")
                if fields.count == 6 { buffers.append(fields[2...].joined(separator: ", ")) }
            } else if line.contains(".damage_buffer("), let open = line.firstIndex(of: "("),
                let close = line.lastIndex(of: ")")
            {
                let n = line[line.index(after: open)..<close].components(separatedBy: ", ").compactMap { Int($0) }
                if n.count == 4 { pending.append(PixelRect(x: n[0], y: n[1], width: n[2], height: n[3])) }
            } else if line.contains("wl_surface@"), line.hasSuffix(".commit()"), !pending.isEmpty {
                damage.append(pending)
                pending = []
            }
        }
    }
}
