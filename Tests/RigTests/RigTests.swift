// Tests of the test rig itself, against the real compositors: if these fail, every
// compositor-backed test would be meaningless.
import Foundation
import TestHarness
import TestSupport
import XCTest

final class RigTests: ScreenplayTestCase {

    // MARK: Processes

    func testRunProcessCollectsOutputStatusAndStdin() throws {
        let r = try runProcess("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])
        XCTAssertEqual(r.status, 3)
        XCTAssertEqual(r.stdout, "out\n")
        XCTAssertEqual(r.stderr, "err\n")
        XCTAssertFalse(r.timedOut)

        let cat = try runProcess("cat", [], stdin: Data("fed through stdin".utf8))
        XCTAssertEqual(cat.status, 0)
        XCTAssertEqual(cat.stdout, "fed through stdin")

        let pwd = try runProcess("/bin/pwd", [], directory: "/tmp")
        XCTAssertEqual(pwd.stdout, "/tmp\n")

        XCTAssertThrowsError(try runProcess("no-such-program-screenplay", []))
    }

    func testRunProcessKillsOnTimeout() throws {
        let start = Date()
        let r = try runProcess("/bin/sh", ["-c", "sleep 30"], timeout: 0.5)
        XCTAssertTrue(r.timedOut)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    func testRunningProcessLinesSignalsAndExitStatus() throws {
        let script = """
            trap 'echo got-term; exit 7' TERM
            echo first; echo ready
            while true; do sleep 0.05; done
            """
        let p = try RunningProcess("/bin/sh", ["-c", script])
        addTeardownBlock { p.kill() }
        XCTAssertEqual(p.waitForLine(containing: "ready", timeout: 5), "ready")
        // "first" was skipped over by the previous wait, so it is consumed.
        XCTAssertNil(p.waitForLine(containing: "first", timeout: 0.2))
        XCTAssertTrue(p.isRunning)
        p.terminate()
        XCTAssertEqual(p.waitForLine(matching: "^got-.*$", timeout: 5), "got-term")
        XCTAssertEqual(p.wait(timeout: 5), 7)
        XCTAssertEqual(p.stdoutLines, ["first", "ready", "got-term"])

        let int = try RunningProcess("/bin/sleep", ["30"])
        int.interrupt()
        XCTAssertEqual(int.wait(timeout: 5), 128 + SIGINT)
    }

    func testRunningProcessIsKilledOnDeinit() throws {
        var pid: Int32 = 0
        do {
            let p = try RunningProcess("/bin/sleep", ["30"])
            pid = p.pid
            XCTAssertTrue(processIsAlive(pid))
        }
        XCTAssertFalse(processIsAlive(pid), "deinit must kill and reap the child")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: "\(rigPidDirectory)/\(pid)"), "pid record must be removed")
    }

    func testWaitUntil() throws {
        var n = 0
        XCTAssertTrue(
            waitUntil(timeout: 2, poll: 0.01) {
                n += 1; return n == 3
            })
        XCTAssertFalse(waitUntil(timeout: 0.1) { false })
    }

    // MARK: Images

    func testImageChecksAndPNGRoundTrip() throws {
        var pixels = [UInt8](repeating: 0, count: 4 * 2 * 3)
        for i in stride(from: 0, to: pixels.count, by: 3) { pixels[i] = 200 }  // all red-ish
        pixels[3 * 3 + 1] = 255  // (3,0) yellow-ish
        let image = try RigImage(width: 4, height: 2, pixels: pixels)
        XCTAssertEqual(image.pixel(x: 0, y: 1), RGB(r: 200, g: 0, b: 0))
        XCTAssertEqual(image[3, 0], RGB(r: 200, g: 255, b: 0))
        XCTAssertEqual(image.fraction(of: RGB(r: 200, g: 0, b: 0), tolerance: 0), 7.0 / 8.0)
        XCTAssertEqual(image.fraction(of: RGB(r: 190, g: 5, b: 0), tolerance: 10), 7.0 / 8.0)
        XCTAssertFalse(image.isUniform())
        XCTAssertTrue(image.isUniform(in: PixelRect(x: 0, y: 0, width: 3, height: 2)))
        XCTAssertEqual(image.mostCommonColor(), RGB(r: 200, g: 0, b: 0))

        let dir = NSTemporaryDirectory()
        let png = dir + "/rig-roundtrip-\(UUID().uuidString).png"
        let ppm = dir + "/rig-roundtrip-\(UUID().uuidString).ppm"
        defer {
            try? FileManager.default.removeItem(atPath: png)
            try? FileManager.default.removeItem(atPath: ppm)
        }
        try image.writePNG(to: png)
        try image.writePPM(to: ppm)
        XCTAssertEqual(try RigImage(contentsOf: png), image)
        XCTAssertEqual(try RigImage(contentsOf: ppm), image)
    }

    // MARK: sway

    func testSwayStartsWithOutputsSideBySide() throws {
        let rig = try SwayRig.start(outputs: [
            OutputMode(width: 1280, height: 720, refreshHz: 60),
            OutputMode(width: 1024, height: 768, refreshHz: 30),
        ])
        addTeardownBlock { rig.stop() }

        XCTAssertTrue(rig.waylandDisplay.hasPrefix("/"), rig.waylandDisplay)
        XCTAssertTrue(isSocket(rig.waylandDisplay))
        XCTAssertTrue(isSocket(rig.swaySocket))
        XCTAssertEqual(rig.clientEnvironment["WAYLAND_DISPLAY"], rig.waylandDisplay)
        XCTAssertNotNil(rig.clientEnvironment["PATH"])

        let outputs = try rig.outputs()
        XCTAssertEqual(outputs.map(\.name), ["HEADLESS-1", "HEADLESS-2"])
        XCTAssertEqual(outputs.map(\.width), [1280, 1024])
        XCTAssertEqual(outputs.map(\.height), [720, 768])
        XCTAssertEqual(outputs.map(\.refreshMilliHz), [60000, 30000])
        XCTAssertEqual(
            outputs.map(\.rect),
            [
                PixelRect(x: 0, y: 0, width: 1280, height: 720),
                PixelRect(x: 1280, y: 0, width: 1024, height: 768),
            ])
        XCTAssertEqual(outputs.map(\.transform), ["normal", "normal"])
        XCTAssertEqual(outputs.first?.make, "headless")
        XCTAssertTrue(outputs.allSatisfy(\.active))

        // A root client really connects: grim over the absolute WAYLAND_DISPLAY path.
        let shot = try rig.capture(output: "HEADLESS-2")
        XCTAssertEqual(shot.width, 1024)
        XCTAssertEqual(shot.height, 768)
    }

    func testSwayHotplugModeTransformScaleAndPosition() throws {
        let rig = try SwayRig.start(outputs: [
            OutputMode(width: 1280, height: 720, refreshHz: 60),
            OutputMode(width: 800, height: 600, refreshHz: 60),
        ])
        addTeardownBlock { rig.stop() }

        let added = try rig.addOutput()
        XCTAssertEqual(added, "HEADLESS-3")
        XCTAssertEqual(try rig.outputs().map(\.name), ["HEADLESS-1", "HEADLESS-2", "HEADLESS-3"])
        XCTAssertEqual(try rig.output(named: added)?.width, 1920)

        try rig.setMode("HEADLESS-2", OutputMode(width: 1024, height: 768, refreshHz: 30))
        var second = try XCTUnwrap(try rig.output(named: "HEADLESS-2"))
        XCTAssertEqual([second.width, second.height, second.refreshMilliHz], [1024, 768, 30000])

        try rig.setTransform("HEADLESS-2", "90")
        second = try XCTUnwrap(try rig.output(named: "HEADLESS-2"))
        XCTAssertEqual(second.transform, "90")
        XCTAssertEqual([second.rect.width, second.rect.height], [768, 1024])
        let rotated = try rig.capture(output: "HEADLESS-2")
        XCTAssertEqual([rotated.width, rotated.height], [768, 1024], "grim captures in layout orientation")

        try rig.setTransform("HEADLESS-2", "flipped-180")
        XCTAssertEqual(try rig.output(named: "HEADLESS-2")?.transform, "flipped-180")

        try rig.setScale("HEADLESS-1", 2)
        let first = try XCTUnwrap(try rig.output(named: "HEADLESS-1"))
        XCTAssertEqual(first.scale, 2)
        XCTAssertEqual([first.rect.width, first.rect.height], [640, 360])
        XCTAssertEqual([first.width, first.height], [1280, 720], "mode stays in physical pixels")

        try rig.setPosition(added, x: 0, y: 2000)
        XCTAssertEqual(try rig.output(named: added)?.rect.y, 2000)

        try rig.focusOutput("HEADLESS-2")
        XCTAssertTrue(try rig.swaymsg("-t", "get_workspaces").contains("\"output\": \"HEADLESS-2\""))

        // sway answers success for unknown outputs; the rig must notice nothing changed.
        XCTAssertThrowsError(try rig.setMode("HEADLESS-9", OutputMode(width: 640, height: 480)))
        XCTAssertThrowsError(try rig.swaymsg("output", "HEADLESS-1", "transform", "sideways"))
    }

    func testCaptureOfEmptyDesktopIsSwayGrey() throws {
        let rig = try SwayRig.start(outputs: [OutputMode(width: 1280, height: 720, refreshHz: 60)])
        addTeardownBlock { rig.stop() }
        let image = try rig.capture(output: "HEADLESS-1")
        XCTAssertEqual(image.width, 1280)
        XCTAssertEqual(image.height, 720)
        // Without a wallpaper sway clears to 0.25 grey, which is 0x3f in 8 bits.
        XCTAssertTrue(image.isUniform(tolerance: 0), "most common: \(String(describing: image.mostCommonColor()))")
        XCTAssertEqual(image.fraction(of: RGB(hex: 0x3f3f3f), tolerance: 2), 1.0)
    }

    func testStopKillsSwayAndCleansUp() throws {
        let rig = try SwayRig.start()
        let socket = rig.waylandDisplay
        // sway names its IPC socket sway-ipc.UID.PID.sock.
        let swayPid = try XCTUnwrap(
            Int32(URL(fileURLWithPath: rig.swaySocket).lastPathComponent.split(separator: ".")[2]))
        XCTAssertTrue(processIsAlive(swayPid))
        rig.stop()
        rig.stop()  // idempotent
        XCTAssertFalse(processIsAlive(swayPid))
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket))
        let records = (try? FileManager.default.contentsOfDirectory(atPath: rigPidDirectory)) ?? []
        XCTAssertFalse(records.contains("\(swayPid)"))
    }

    // MARK: nested sway

    func testNestedRigReallyRemovesAndAddsOutputs() throws {
        let rig = try NestedSwayRig.start(outputs: 2)
        addTeardownBlock { rig.stop() }

        var outputs = try rig.outputs()
        XCTAssertEqual(outputs.map(\.name), ["WL-1", "WL-2"])
        XCTAssertTrue(outputs.allSatisfy { $0.width == 1280 && $0.height == 720 }, "\(outputs)")
        XCTAssertEqual(rig.clientEnvironment["WAYLAND_DISPLAY"], rig.waylandDisplay)

        let shot = try rig.capture(output: "WL-2")
        XCTAssertEqual([shot.width, shot.height], [1280, 720])

        let added = try rig.addOutput()
        XCTAssertEqual(added, "WL-3")
        XCTAssertTrue(try rig.parentSwaymsg("-t", "get_tree").contains("\"wlroots - WL-3\""))

        try rig.removeOutput("WL-2")
        outputs = try rig.outputs()
        XCTAssertEqual(outputs.map(\.name), ["WL-1", "WL-3"])
        XCTAssertTrue(
            outputs.allSatisfy { $0.width == 1280 && $0.height == 720 },
            "unplugging must not re-mode the other outputs: \(outputs)")
        XCTAssertFalse(try rig.parentSwaymsg("-t", "get_tree").contains("\"wlroots - WL-2\""))

        try rig.setSize("WL-1", width: 1024, height: 768)
        XCTAssertEqual(try rig.capture(output: "WL-1").width, 1024)
    }

    // MARK: weston

    func testWestonStartsAndCaptures() throws {
        let rig = try WestonRig.start(width: 640, height: 480)
        addTeardownBlock { rig.stop() }
        XCTAssertTrue(isSocket(rig.waylandDisplay))
        XCTAssertEqual(rig.clientEnvironment["WAYLAND_DISPLAY"], rig.waylandDisplay)
        var image = try rig.capture()
        XCTAssertEqual([image.width, image.height], [640, 480])
        // The desktop shell draws a patterned background and a dark panel along the top,
        // maybe a moment after weston is up.
        let panel = PixelRect(x: 0, y: 0, width: 640, height: 16)
        let drawn = try waitUntil(timeout: 5) {
            image = try rig.capture()
            return !image.isUniform(tolerance: 8)
                && image.pixel(x: 320, y: 8).distance(to: RGB(r: 0, g: 0, b: 0)) < 0x40
        }
        XCTAssertTrue(drawn, "panel colour \(String(describing: image.mostCommonColor(in: panel)))")
    }

    func testWestonCaptureIsInModeOrientation() throws {
        // 320x240 logical at scale 2 is a 640x480 mode; the screenshot is not rotated by the
        // output transform, so it keeps the mode's orientation.
        let rig = try WestonRig.start(width: 320, height: 240, transform: "90", scale: 2)
        addTeardownBlock { rig.stop() }
        let image = try rig.capture()
        XCTAssertEqual([image.width, image.height], [640, 480])
    }

    // MARK: Helpers

    private func processIsAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state != "Z" && state != "X"
    }

    private func isSocket(_ path: String) -> Bool {
        let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
        return type == .typeSocket
    }
}
