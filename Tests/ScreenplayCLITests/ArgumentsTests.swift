import Presenter
import Screenplay
import TestHarness
import XCTest

@testable import ScreenplayCLI
@testable import Signage

final class ArgumentsTests: ScreenplayTestCase {
    typealias Present = PresentCommand

    func parse(_ line: String) throws(UsageError) -> Invocation {
        try ScreenplayCommandLine.parse(line.split(separator: " ").map(String.init))
    }

    func present(_ configure: (inout Present) -> Void = { _ in }, content: Present.Content = .testCard) -> Invocation {
        var command = Present(content: content)
        configure(&command)
        return .present(command)
    }

    // MARK: Successful parses

    func testEveryCommandAndOption() throws {
        let orange = RGBColor(hex: 0xFF8800)
        let cases: [(String, Invocation)] = [
            ("outputs", .outputs(OutputsCommand())),
            ("outputs --json", .outputs(OutputsCommand(json: true))),
            ("doctor", .doctor(DoctorCommand())),
            ("doctor --json", .doctor(DoctorCommand(json: true))),
            ("doctor --builtin eDP-* --builtin=LVDS-1", .doctor(DoctorCommand(builtinPatterns: ["eDP-*", "LVDS-1"]))),
            ("demo", .demo(DemoCommand(outputDirectory: "demo-output"))),
            ("demo --out /tmp/x", .demo(DemoCommand(outputDirectory: "/tmp/x"))),
            ("demo --out=/tmp/y", .demo(DemoCommand(outputDirectory: "/tmp/y"))),
            ("present test-card", present()),
            ("present color ff8800", present(content: .color(orange))),
            ("present color #FF8800", present(content: .color(orange))),
            ("present a.frag", present(content: .shader(path: "a.frag"))),
            ("present dir/b.GLSL", present(content: .shader(path: "dir/b.GLSL"))),
            ("present c.png", present(content: .image(path: "c.png"))),
            ("present c.jpg", present(content: .image(path: "c.jpg"))),
            ("present ./c.JPEG", present(content: .image(path: "./c.JPEG"))),
            ("present talk.pdf", present(content: .pdf(path: "talk.pdf"))),
            ("present --output HDMI-A-1 test-card", present { $0.outputPatterns = ["HDMI-A-1"] }),
            (
                "present --output=DP-* --output HDMI-A-1 test-card",
                present { $0.outputPatterns = ["DP-*", "HDMI-A-1"] }
            ),
            ("present --all test-card", present { $0.allOutputs = true }),
            ("present --builtin eDP-1 --builtin=DSI-* test-card", present { $0.builtinPatterns = ["eDP-1", "DSI-*"] }),
            ("present --layer top test-card", present { $0.layer = .top }),
            ("present --layer=bottom test-card", present { $0.layer = .bottom }),
            ("present --layer background test-card", present { $0.layer = .background }),
            ("present --layer overlay test-card", present { $0.layer = .overlay }),
            ("present --fps 30 test-card", present { $0.framesPerSecond = 30 }),
            ("present --fps=24 --fps 60 test-card", present { $0.framesPerSecond = 60 }),
            ("present --preview test-card", present { $0.preview = true }),
            ("present --stats - test-card", present { $0.stats = .standardOutput }),
            ("present --stats=- test-card", present { $0.stats = .standardOutput }),
            ("present --stats out.log test-card", present { $0.stats = .file("out.log") }),
            ("present --reconnect test-card", present { $0.reconnect = true }),
            ("present --talk-minutes 20 test-card", present { $0.talk.durationMinutes = 20 }),
            ("present --talk-minutes=1.5 test-card", present { $0.talk.durationMinutes = 1.5 }),
            ("present --notes notes.txt test-card", present { $0.talk.notesPath = "notes.txt" }),
            (
                "present --password s3cret talk.pdf",
                present({ $0.talk.password = "s3cret" }, content: .pdf(path: "talk.pdf"))
            ),
            (
                "present --password=-dash talk.pdf",
                present({ $0.talk.password = "-dash" }, content: .pdf(path: "talk.pdf"))
            ),
            ("present --rehearse test-card", present { $0.talk.rehearse = true }),
            ("present clip.mp4", present(content: .video(path: "clip.mp4"))),
            ("present a/b.WebM", present(content: .video(path: "a/b.WebM"))),
            ("present --audio clip.mkv", present({ $0.audio = true }, content: .video(path: "clip.mkv"))),
            ("present --no-loop clip.mov", present({ $0.loops = false }, content: .video(path: "clip.mov"))),
            (
                "present --end-time 14:30 talk.pdf",
                present({ $0.talk.endTime = ClockTime(parsing: "14:30") }, content: .pdf(path: "talk.pdf"))
            ),
            (
                "present --end-time=9:05 talk.pdf",
                present({ $0.talk.endTime = ClockTime(parsing: "09:05") }, content: .pdf(path: "talk.pdf"))
            ),
            (
                "present --last-minutes 3 talk.pdf",
                present({ $0.talk.lastMinutes = 3 }, content: .pdf(path: "talk.pdf"))
            ),
            (
                "present --notes-position Right talk.pdf",
                present({ $0.talk.notesPosition = .right }, content: .pdf(path: "talk.pdf"))
            ),
            (
                "present --notes-position bottom talk.pdf",
                present({ $0.talk.notesPosition = .bottom }, content: .pdf(path: "talk.pdf"))
            ),
            ("present test-card --fps 30", present { $0.framesPerSecond = 30 }),
            (
                "present color --preview 00ff00",
                present({ $0.preview = true }, content: .color(RGBColor(hex: 0x00FF00)))
            ),
            ("present -- --weird.png", present(content: .image(path: "--weird.png"))),
            ("present --fps 30 -- -h.frag", present({ $0.framesPerSecond = 30 }, content: .shader(path: "-h.frag"))),
            ("present --output=a=b test-card", present { $0.outputPatterns = ["a=b"] }),
            ("present --stall-grace 5 test-card", present { $0.stallGrace = 5 }),
            ("present --stall-grace=0.5 test-card", present { $0.stallGrace = 0.5 }),
        ]
        for (line, expected) in cases {
            XCTAssertEqual(try parse(line), expected, line)
        }
    }

    func testAllPresentOptionsTogether() throws {
        let line =
            "present --output DP-1 --builtin eDP-1 --layer top --fps 30 --preview --stats s.log --reconnect "
            + "--talk-minutes 45 --notes n.md --password pw --rehearse deck.pdf"
        var expected = Present(content: .pdf(path: "deck.pdf"))
        expected.outputPatterns = ["DP-1"]
        expected.builtinPatterns = ["eDP-1"]
        expected.layer = .top
        expected.framesPerSecond = 30
        expected.preview = true
        expected.stats = .file("s.log")
        expected.reconnect = true
        expected.talk.durationMinutes = 45
        expected.talk.notesPath = "n.md"
        expected.talk.password = "pw"
        expected.talk.rehearse = true
        XCTAssertEqual(try parse(line), .present(expected))
    }

    func testValuesWithSpacesSurviveAsOneArgument() throws {
        let invocation = try ScreenplayCommandLine.parse(["present", "--output", "Dell Inc. U2720Q", "my slides.pdf"])
        var expected = Present(content: .pdf(path: "my slides.pdf"))
        expected.outputPatterns = ["Dell Inc. U2720Q"]
        XCTAssertEqual(invocation, .present(expected))
    }

    // MARK: Help and version

    func testHelpAndVersion() throws {
        let root = ScreenplayCommandLine.usage
        let cases: [(String, Invocation)] = [
            ("", .help(root)),
            ("--help", .help(root)),
            ("-h", .help(root)),
            ("help", .help(root)),
            ("help present", .help(PresentCommand.usage)),
            ("--help doctor", .help(DoctorCommand.usage)),
            ("--version", .version(ScreenplayCommandLine.versionLine)),
            ("outputs --help", .help(OutputsCommand.usage)),
            ("outputs -h", .help(OutputsCommand.usage)),
            ("present -h", .help(PresentCommand.usage)),
            ("present --fps nope --help", .help(PresentCommand.usage)),
            ("present --bogus -h", .help(PresentCommand.usage)),
            ("doctor --help", .help(DoctorCommand.usage)),
            ("demo -h", .help(DemoCommand.usage)),
        ]
        for (line, expected) in cases {
            XCTAssertEqual(try parse(line), expected, line)
        }
    }

    func testUsageTextsMentionEveryOption() {
        for command in ScreenplayCommandLine.commands {
            XCTAssertTrue(ScreenplayCommandLine.usage.contains(command.commandName), command.commandName)
            XCTAssertTrue(command.usage.contains("USAGE: screenplay \(command.commandName)"), command.commandName)
            XCTAssertTrue(command.usage.contains("EXAMPLES:"), command.commandName)
            for option in command.options {
                XCTAssertTrue(command.usage.contains("--\(option.name)"), "\(command.commandName) --\(option.name)")
            }
        }
    }

    /// `play --help` (and so its man page) lists exactly the keys the
    /// playlist parser accepts, in each of its eleven kinds of object.
    func testPlayHelpListsEveryPlaylistKey() throws {
        let usage = PlayCommand.usage
        let section = try XCTUnwrap(usage.range(of: "PLAYLIST FILE"), "play --help has no PLAYLIST FILE section")
        var listed: [String: Set<String>] = [:]
        var group = ""
        for line in usage[section.lowerBound...].split(separator: "\n").dropFirst() {
            if line.isEmpty || !line.hasPrefix(" ") { break }
            if line.hasPrefix("  "), !line.hasPrefix("   "), line.hasSuffix(":") || line.contains("):") {
                group = String(line.trimmingCharacters(in: .whitespaces).prefix { $0 != ":" && $0 != "(" })
                    .trimmingCharacters(in: .whitespaces)
            } else if line.hasPrefix("    "), !line.hasPrefix("     ") {
                listed[group, default: []].insert(String(line.dropFirst(4).prefix { $0 != " " }))
            }
        }
        XCTAssertEqual(listed["Top level"], SignageConfigLoader.topKeys, usage)
        XCTAssertEqual(listed["An item"], PlaylistItemParser.itemKeys, usage)
        XCTAssertEqual(listed["A panel entry"], SignageConfigLoader.panelKeys, usage)
        XCTAssertEqual(listed["A transition"], PlaylistItemParser.transitionKeys, usage)
        XCTAssertEqual(listed["A schedule entry"], ScheduleParser.scheduleKeys, usage)
        XCTAssertEqual(listed["A date range"], ScheduleParser.dateRangeKeys, usage)
        XCTAssertEqual(listed["A layout"], LayoutParser.layoutKeys, usage)
        XCTAssertEqual(listed["A region"], LayoutParser.regionKeys, usage)
        XCTAssertEqual(listed["A wall"], WallParser.wallKeys, usage)
        XCTAssertEqual(listed["A tile"], WallParser.tileKeys, usage)
        XCTAssertEqual(listed["A wall's panel"], WallParser.panelKeys, usage)
        XCTAssertEqual(listed.count, 11, "\(listed)")
    }

    func testVersionLineNamesTheProgramReleaseAndCommit() {
        let line = ScreenplayCommandLine.versionLine
        XCTAssertTrue(line.hasPrefix("screenplay \(ScreenplayCommandLine.version) ("), line)
        XCTAssertTrue(
            line.hasSuffix(" (unknown commit)")
                || line.range(of: #" \(commit [0-9a-f]{7,}(, modified)?\)$"#, options: .regularExpression) != nil, line)
    }

    // MARK: Pieces

    func testScannerEdgeCases() throws {
        let options: [OptionSpec] = [.flag("a"), .value("v")]
        let parsed = try scanArguments(["x", "--v", "-", "--a", "--", "--a", "-v"], options: options, usage: "u")
        XCTAssertEqual(parsed.positionals, ["x", "--a", "-v"])
        XCTAssertEqual(parsed.all("v"), ["-"])
        XCTAssertTrue(parsed.flag("a"))
        XCTAssertFalse(parsed.flag("v"))
        XCTAssertNil(parsed.last("missing"))
        XCTAssertEqual(
            try scanArguments(["--v=a=b", "--v", "c"], options: options, usage: "u").all("v"), ["a=b", "c"])
    }

    func testContentClassification() {
        let cases: [(String, Present.Content?)] = [
            ("x.frag", .shader(path: "x.frag")), ("x.glsl", .shader(path: "x.glsl")),
            ("x.png", .image(path: "x.png")), ("x.jpg", .image(path: "x.jpg")), ("x.jpeg", .image(path: "x.jpeg")),
            ("/a/b.c/x.PDF", .pdf(path: "/a/b.c/x.PDF")), ("archive.pdf.gz", nil), ("x.", nil),
            (".pdf", nil), ("dir/.png", nil), ("noext", nil), ("x.vert", nil),
            ("x.gif", .image(path: "x.gif")), ("x.webp", .image(path: "x.webp")),
            ("logo.SVG", .image(path: "logo.SVG")),
            ("x.mp4", .video(path: "x.mp4")), ("x.MKV", .video(path: "x.MKV")), ("x.webm", .video(path: "x.webm")),
            ("x.mov", .video(path: "x.mov")), ("dir/.mp4", nil),
        ]
        for (path, expected) in cases {
            XCTAssertEqual(Present.Content.file(path), expected, path)
        }
    }

    /// A file that exists is judged by what it holds: a PDF without the
    /// extension is a PDF, anything else (a photo named .dat, no extension)
    /// goes to the image loader, which recognises the format or says why not.
    func testExistingFilesAreClassifiedByContent() throws {
        let dir = NSTemporaryDirectory() + "classify-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pdf = dir + "/slides.dat", photo = dir + "/photo", folder = dir + "/folder.png"
        try Data("%PDF-1.4\n".utf8).write(to: URL(fileURLWithPath: pdf))
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: photo))
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        XCTAssertEqual(Present.Content.file(pdf), .pdf(path: pdf))
        XCTAssertEqual(Present.Content.file(photo), .image(path: photo))
        XCTAssertNil(Present.Content.file(folder), "a directory is no content")
        // Neither a PDF nor an image by its first bytes nor its name: libmpv
        // decides (a clip with no extension), and says why if it is no video.
        let clip = dir + "/clip", svg = dir + "/logo.txt"
        try Data([0x00, 0x00, 0x00, 0x20, 0x66, 0x74, 0x79, 0x70]).write(to: URL(fileURLWithPath: clip))
        try Data("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8).write(
            to: URL(fileURLWithPath: svg))
        XCTAssertEqual(Present.Content.file(clip), .video(path: clip))
        XCTAssertEqual(Present.Content.file(svg), .image(path: svg))
    }
}
