import Foundation
import TestHarness
import TestSupport
import VirtualPointer
import XCTest

/// `screenplay present PAGE.html` as docs/signage.md gives it: the page's own
/// colours reach the output at the panel's size and scale, and a CSS
/// animation keeps frames coming.
final class WebPageTests: ScreenplayTestCase {
    /// A red page with a 100x100 CSS-pixel blue square at its top left.
    private func writePage(_ body: String, name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try body.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private static let squarePage = """
        <html><body style="margin:0;background:#ff0000">
        <div style="position:absolute;left:0;top:0;width:100px;height:100px;background:#0000ff"></div>
        </body></html>
        """

    func testPageColoursAtTheRotatedAndScaledPanelsSize() throws {
        let page = try writePage(Self.squarePage, name: "square.html")
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 800, height: 600)])
        try rig.setTransform("HEADLESS-2", "90")
        let p = try CLI.start(["present", page, "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent(timeout: 30) { $0.event == "connect" }, p.stderr)
        // Rotated: the page is laid out 600 wide, 800 tall; the square keeps 100 px.
        var image: RigImage?
        let shown = waitUntil(timeout: 30) {
            image = try? rig.capture(output: "HEADLESS-2")
            return image?.pixel(x: 50, y: 50) == RGB(hex: 0x0000ff)
                && image?.pixel(x: 300, y: 700) == RGB(hex: 0xff0000)
        }
        XCTAssertTrue(shown, "the page's colours never reached the rotated output; \(p.stderr)")
        if let image {
            XCTAssertEqual([image.width, image.height], [600, 800])
            XCTAssertEqual(image.pixel(x: 98, y: 98), RGB(hex: 0x0000ff))
            XCTAssertEqual(image.pixel(x: 102, y: 50), RGB(hex: 0xff0000))
        }
        // Scale 2: the square is 200 device pixels.
        try rig.setTransform("HEADLESS-2", "normal")
        try rig.setScale("HEADLESS-2", 2)
        let scaled = waitUntil(timeout: 30) {
            image = try? rig.capture(output: "HEADLESS-2")
            return image?.width == 800 && image?.pixel(x: 195, y: 195) == RGB(hex: 0x0000ff)
                && image?.pixel(x: 205, y: 100) == RGB(hex: 0xff0000)
        }
        XCTAssertTrue(scaled, "the page was not laid out at scale 2 (square 200 px); \(p.stderr)")
        assertCleanStop(p)
    }

    /// `present page.html --preview`: a click and a key in the preview
    /// window reach the page, as a person preparing a dashboard needs.
    func testPointerAndKeysReachThePageInThePreviewWindow() throws {
        let page = try writePage(
            """
            <html><body style="margin:0;background:#ff0000;height:100vh">
            <script>
            document.addEventListener('click', function () { document.body.style.background = '#0000ff'; });
            document.addEventListener('keydown', function (e) { if (e.key === 'g') document.body.style.background = '#00ff00'; });
            </script></body></html>
            """, name: "input.html")
        let rig = try startSway([.init(width: 640, height: 480)], keyboard: true)
        let p = try CLI.start(["present", page, "--preview", "--stats", "-"], environment: env(rig))
        // Away from where the pointer goes: the capture shows the cursor.
        func colour() -> RGB? { try? rig.capture(output: "HEADLESS-1").pixel(x: 100, y: 400) }
        XCTAssertTrue(waitUntil(timeout: 30) { colour() == RGB(hex: 0xff0000) }, "the page never showed: \(p.stderr)")
        var error = [CChar](repeating: 0, count: 256)
        guard let pointer = virtual_pointer_connect(rig.waylandDisplay, &error) else { return XCTFail("no pointer") }
        defer { virtual_pointer_disconnect(pointer) }
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertTrue(virtual_pointer_move(pointer, 320, 240, 640, 480))
        usleep(50_000)
        XCTAssertTrue(virtual_pointer_button(pointer, 0x110, true))
        XCTAssertTrue(virtual_pointer_button(pointer, 0x110, false))
        XCTAssertTrue(waitUntil(timeout: 10) { colour() == RGB(hex: 0x0000ff) }, "the click did not reach the page")
        let typed = try runProcess("wtype", ["-s", "150", "g"], environment: rig.clientEnvironment, timeout: 5)
        XCTAssertEqual(typed.status, 0, typed.stderr)
        XCTAssertTrue(waitUntil(timeout: 10) { colour() == RGB(hex: 0x00ff00) }, "the key did not reach the page")
        assertCleanStop(p)
    }

    func testCSSAnimationPresentsFramesEveryRefresh() throws {
        let page = try writePage(
            """
            <html><head><style>@keyframes m{from{left:0}to{left:80%}}
            #b{position:absolute;top:40%;width:20%;height:20%;background:#0f0;animation:m 2s linear infinite alternate}
            </style></head><body style="margin:0;background:#000"><div id=b></div></body></html>
            """, name: "anim.html")
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 640, height: 360)])
        let p = try CLI.start(["present", page, "--stats", "-"], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent(timeout: 30) { $0.event == "connect" }, p.stderr)
        XCTAssertTrue(waitUntil(timeout: 30) { p.stderr.contains("painted") }, p.stderr)
        let seen = p.frames(for: "HEADLESS-2").count
        _ = waitUntil(timeout: 8) { p.frames(for: "HEADLESS-2").count >= seen + 5 }
        let draws = p.frames(for: "HEADLESS-2").dropFirst(seen).map { $0.int("draws") }
        XCTAssertGreaterThanOrEqual(draws.count, 5, p.stderr)
        // 60 Hz; a loaded 2-core machine with llvmpipe misses some, never most.
        XCTAssertGreaterThan(draws.reduce(0, +) / max(draws.count, 1), 30, "draws per second \(draws)")
        // WebKit renders the next frame once sway shows the last: about one
        // a refresh, however fast the page could go (unpaced, this small
        // page ran at over 250 a second).
        // (The first window is the one the page painted in.)
        let lines = p.frames(for: "HEADLESS-2").dropFirst(seen + 1)
        let refreshes = lines.map { line in
            ((line.raw["window_s"] as? NSNumber)?.doubleValue ?? 0) * 1e9 / Double(max(line.int("refresh_ns"), 1))
        }
        XCTAssertLessThanOrEqual(
            Double(draws.dropFirst().reduce(0, +)), refreshes.reduce(0, +) * 1.1 + 2,
            "more frames than refreshes: \(draws) in \(refreshes)")
        // With software GL the page's frames go to sway as they are: copied
        // once into the scene's wl_shm buffer, never drawn (what cog does).
        let asIs = p.frames(for: "HEADLESS-2").dropFirst(seen).map { $0.int("as_is") }
        let doctor = try CLI.run(["doctor", "--json"], environment: rig.clientEnvironment)
        if doctor.stdout.contains("llvmpipe") || doctor.stdout.contains("softpipe") {
            XCTAssertTrue(
                doctor.stdout.contains("copied once into the panel's own wl_shm buffer"),
                "doctor names the path: \(doctor.stdout)")
            // The first window may hold the white frame drawn before the page painted.
            XCTAssertEqual(asIs.dropFirst(), draws.dropFirst(), "every frame of the page alone goes as it is")
            // So the process never loaded a GL driver (llvmpipe's LLVM is
            // about 30 MiB), nor libmpv's FFmpeg (opened with the first video).
            let maps = (try? String(contentsOfFile: "/proc/\(p.pid)/maps", encoding: .utf8)) ?? ""
            XCTAssertFalse(maps.isEmpty, "no /proc/\(p.pid)/maps")
            XCTAssertFalse(maps.contains("libLLVM"), "the GL driver was loaded for a page presented as it is")
            XCTAssertFalse(maps.contains("libmpv"), "libmpv was loaded with no video to play")
        } else {
            XCTAssertEqual(asIs.reduce(0, +), 0, "with a GPU the page is drawn as a texture")
        }
        assertCleanStop(p)
    }
}
