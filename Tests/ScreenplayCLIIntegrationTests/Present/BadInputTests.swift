import Foundation
import TestHarness
import TestSupport
import XCTest

/// Every input the CLI takes, broken: the documented exit code
/// and a one-line reason, no crash, no hang.
final class BadInputTests: ScreenplayTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "screenplay-bad-\(getpid())-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let d = dir
        addTeardownBlock { try? FileManager.default.removeItem(atPath: d) }
    }

    private func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = dir + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A PNG whose header claims 50000x50000 (with a tiny IDAT so libpng reads the header).
    private func hugePNGHeader() -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] {
            [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)]
        }
        func crc(_ bytes: [UInt8]) -> UInt32 {
            var c: UInt32 = 0xffff_ffff
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 == 1 ? 0xedb8_8320 ^ (c >> 1) : c >> 1 }
            }
            return c ^ 0xffff_ffff
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be(UInt32(data.count)) + body + be(crc(body))
        }
        let ihdr = be(50000) + be(50000) + [8, 2, 0, 0, 0]
        let idat: [UInt8] = [0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]
        return [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + chunk("IHDR", ihdr) + chunk("IDAT", idat)
            + chunk("IEND", [])
    }

    func testBrokenInputsGetTheirExitCodeAndAReason() throws {
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 640, height: 480)])
        let e = env(rig, builtin: "HEADLESS-1")
        var random = SystemRandomNumberGenerator()
        let noise = (0..<8192).map { _ in UInt8.random(in: 0...255, using: &random) }
        var goodPNG = [UInt8]()
        do {
            let path = dir + "/good.png"
            try RigImage(width: 64, height: 32, pixels: [UInt8](repeating: 200, count: 64 * 32 * 3)).writePNG(to: path)
            goodPNG = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        // Whole files of each format, then their first halves.
        let red = RGB(hex: 0xff0000), blue = RGB(hex: 0x0000ff)
        try TestImages.animation([red, blue], frameSeconds: 0.5, width: 200, height: 100, to: dir + "/whole.gif")
        try TestImages.webp(top: red, bottom: blue, width: 300, height: 200, to: dir + "/whole.webp")
        try TestImages.svg(
            width: "10", height: "10", viewBox: nil, body: "<rect width=\"10\" height=\"10\" fill=\"red\"/>"
        )
        .write(toFile: dir + "/whole.svg", atomically: true, encoding: .utf8)
        for format in ["gif", "webp", "svg"] {
            try TestImages.truncate(dir + "/whole." + format, to: dir + "/cut." + format)
        }
        let cases: [(name: String, args: [String], status: Int32, says: String)] = [
            ("truncated gif", ["present", dir + "/cut.gif"], 65, "cut.gif"),
            ("truncated webp", ["present", dir + "/cut.webp"], 65, "cut.webp"),
            ("truncated svg", ["present", dir + "/cut.svg"], 65, "cut.svg"),
            ("random gif", ["present", try write("noise.gif", noise)], 65, "noise.gif"),
            ("text named svg", ["present", try write("words.svg", Array("not a drawing".utf8))], 65, "words.svg"),
            ("random bytes without extension", ["present", try write("noise", noise)], 65, "noise"),
            ("missing svg", ["present", dir + "/none.svg"], 66, "none.svg"),
            ("missing webp", ["present", dir + "/none.webp"], 66, "none.webp"),
            ("empty png", ["present", try write("empty.png", [])], 65, "empty.png"),
            ("empty jpeg", ["present", try write("empty.jpg", [])], 65, "empty.jpg"),
            ("huge png header", ["present", try write("huge.png", hugePNGHeader())], 65, "50000"),
            (
                "truncated png", ["present", try write("cut.png", Array(goodPNG.prefix(goodPNG.count / 2)))], 65,
                "cut.png"
            ),
            ("random png", ["present", try write("noise.png", noise)], 65, "noise.png"),
            ("random jpeg", ["present", try write("noise.jpeg", noise)], 65, "noise.jpeg"),
            ("empty shader", ["present", try write("empty.frag", [])], 65, "empty.frag"),
            ("random shader", ["present", try write("noise.glsl", noise)], 65, "noise.glsl"),
            (
                "shader over the limits",
                [
                    "present",
                    try write(
                        "limits.frag",
                        Array(
                            "uniform vec4 big[100000];\nvoid mainImage(out vec4 c, in vec2 p) { c = big[int(p.x)]; }\n"
                                .utf8)),
                ], 65, "limits.frag"
            ),
            ("empty pdf", ["present", try write("empty.pdf", [])], 65, "empty.pdf"),
            ("random pdf", ["present", try write("noise.pdf", noise)], 65, "noise.pdf"),
            ("directory as image", ["present", dir + "/"], 64, dir),
            (
                "directory as shader",
                [
                    "present",
                    try {
                        try FileManager.default.createDirectory(
                            atPath: dir + "/d.frag", withIntermediateDirectories: true);
                        return dir + "/d.frag"
                    }(),
                ], 66, "d.frag"
            ),
            ("missing pdf", ["present", dir + "/none.pdf"], 66, "none.pdf"),
            ("unknown option", ["present", "--frobnicate", "test-card"], 64, "--frobnicate"),
            ("missing value", ["present", "test-card", "--fps"], 64, "--fps"),
            ("bad fps", ["present", "--fps", "fast", "test-card"], 64, "fast"),
            ("zero fps", ["present", "--fps=0", "test-card"], 64, "0"),
            ("bad layer", ["present", "--layer", "middle", "test-card"], 64, "middle"),
            ("empty color", ["present", "color", ""], 64, "color"),
            ("no content", ["present"], 64, "CONTENT"),
            ("pattern matching nothing", ["present", "--output", "HDMI-*", "color", "000000"], 64, "HEADLESS-2"),
            ("unwritable stats", ["present", "--stats", dir + "/no/such/dir/stats.jsonl", "test-card"], 66, "stats"),
            ("unknown subcommand", ["projector"], 64, "projector"),
        ]
        for c in cases {
            let start = Date()
            let r = try CLI.run(c.args, environment: e, timeout: 10)
            XCTAssertFalse(r.timedOut, "\(c.name) hung")
            XCTAssertLessThan(Date().timeIntervalSince(start), 5, "\(c.name) took too long")
            XCTAssertEqual(r.status, c.status, "\(c.name): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(c.says), "\(c.name) should name \(c.says): \(r.stderr)")
            XCTAssertLessThan(r.status, 128, "\(c.name) died of a signal: \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("Swift/"), "\(c.name) hit a Swift runtime error: \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").filter { $0.hasPrefix("screenplay:") }.count >= 1, true)
        }
        // The reason is said once, on stderr: gdk-pixbuf's GIF loader also
        // prints it to stdout, which would corrupt `--stats -`.
        let cut = try CLI.run(["present", "--stats", "-", dir + "/cut.gif"], environment: e, timeout: 10)
        XCTAssertEqual(cut.status, 65, cut.stderr)
        XCTAssertEqual(cut.stdout, "", "stdout carries only stats lines")
        XCTAssertEqual(cut.stderr.split(separator: "\n").count, 1, cut.stderr)
    }

    /// A shader too slow for the refresh: a warning names the measured frame
    /// time, and signals are still handled promptly.
    func testSlowShaderWarnsAndStillStops() throws {
        // Slow for the refresh, yet far from the 1.5 s a signal gives the
        // draw in progress (a quarter of 720p): a loaded machine must not
        // turn "slow" into "stuck" (exit 70) here.
        let rig = try startSway([.init(width: 640, height: 480), .init(width: 640, height: 360)])
        let path = dir + "/slow.frag"
        try """
        void mainImage(out vec4 c, in vec2 p) {
            float v = 0.0;
            for (int i = 0; i < 150; i++) { v += sin(p.x * 0.01 + float(i) + iTime) * cos(p.y * 0.01 - float(i)); }
            c = vec4(0.5 + 0.001 * v, 0.2, 0.3, 1.0);
        }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let p = try CLI.start(["present", path], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertTrue(waitUntil(timeout: 30) { p.stderr.contains("longer than the") }, p.stderr)
        XCTAssertTrue(p.stderr.contains("ms to draw"), p.stderr)
        let stopped = Date()
        p.terminate()
        XCTAssertEqual(p.wait(timeout: 5), 0, p.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(stopped), 5)
    }
}
