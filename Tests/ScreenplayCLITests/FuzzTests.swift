import Foundation
import TestHarness
import XCTest

@testable import Presenter
@testable import ScreenplayCLI

/// A seeded random loop over the parsers (command line, notes
/// file). Bounded by FUZZ_SECONDS (default 3) so CI stays quick; the seed is
/// printed, and FUZZ_SEED replays a run.
final class FuzzTests: ScreenplayTestCase {
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
    }

    private var seconds: Double { Double(ProcessInfo.processInfo.environment["FUZZ_SECONDS"] ?? "") ?? 3 }
    private func makeGenerator() -> SplitMix {
        let seed = UInt64(ProcessInfo.processInfo.environment["FUZZ_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max)
        print("fuzz seed \(seed) (replay with FUZZ_SEED=\(seed))")
        return SplitMix(state: seed)
    }

    private func randomString(_ g: inout SplitMix, maxLength: Int = 12) -> String {
        let alphabet = Array("abcHDMI-*?[]!#=0123456789.,:/ \u{0}\u{7f}é✓\n\t-")
        return String((0..<Int.random(in: 0...maxLength, using: &g)).map { _ in alphabet.randomElement(using: &g)! })
    }

    func testCommandLineParserNeverCrashes() {
        var g = makeGenerator()
        let vocabulary = [
            "present", "outputs", "doctor", "demo", "help", "--help", "-h", "--version", "--json", "--output", "--all",
            "--builtin", "--layer", "overlay", "top", "--fps", "30", "-1", "--preview", "--stats", "-", "--reconnect",
            "--duration", "--talk-minutes", "--no-reconnect", "--notes", "--password", "--rehearse", "--end-time",
            "14:30", "--last-minutes",
            "--notes-position", "right", "--out", "test-card", "color", "ff00ff", "#00FF00",
            "x.png", "y.frag", "z.pdf", "w.txt", "--", "--fps=60", "--layer=", "=", "",
        ]
        let end = Date().addingTimeInterval(seconds)
        var parsed = 0, rejected = 0
        while Date() < end {
            let count = Int.random(in: 0...7, using: &g)
            let args = (0..<count).map { _ in
                Bool.random(using: &g) ? vocabulary.randomElement(using: &g)! : randomString(&g)
            }
            do {
                _ = try ScreenplayCommandLine.parse(args)
                parsed += 1
            } catch {
                rejected += 1
                XCTAssertFalse(error.message.isEmpty, "a usage error without a reason for \(args)")
                XCTAssertFalse(error.usage.isEmpty)
            }
        }
        XCTAssertGreaterThan(parsed + rejected, 1000)
        XCTAssertGreaterThan(parsed, 0, "the fuzzer never produced a valid command line")
        XCTAssertGreaterThan(rejected, 0)
    }

    func testNotesParserNeverCrashesAndNamesARealLine() {
        var g = makeGenerator()
        let lines = [
            "## 1", "## 2", "## 3", "## 0", "## -4", "##", "## x", "# Title", "", "   ", "text",
            "## 99999999999999999999",
            "##  2  ", "### 3", "## 1.5",
        ]
        let end = Date().addingTimeInterval(seconds)
        var runs = 0
        while Date() < end {
            let count = Int.random(in: 0...12, using: &g)
            let text = (0..<count).map { _ in
                Bool.random(using: &g) ? lines.randomElement(using: &g)! : randomString(&g, maxLength: 20)
            }.joined(separator: "\n")
            let pages = Int.random(in: 0...5, using: &g)
            do {
                let notes = try SpeakerNotes.parse(text, pageCount: pages, path: "fuzz.notes.md")
                for page in 0..<max(pages, 1) { _ = notes.text(forPage: page) }
            } catch {
                let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
                XCTAssertTrue(
                    (1...max(lineCount, 1)).contains(error.line),
                    "error names line \(error.line) of \(lineCount): \(error)")
            }
            runs += 1
        }
        XCTAssertGreaterThan(runs, 1000)
    }

    /// pdfpc files built from JSON fragments, valid and not: parsed or
    /// refused with the file's name, never a crash.
    func testPdfpcParserNeverCrashes() {
        var g = makeGenerator()
        let members = [
            #""pdfpcFormat":2"#, #""pdfpcFormat":9"#, #""duration":20"#, #""duration":-3"#, #""duration":"x""#,
            #""endTime":"14:30""#, #""endTime":"99:99""#, #""endTime":"a\nb""#, #""lastMinutes":5"#,
            #""beamerNotePosition":"right""#,
            #""beamerNotePosition":7"#, #""pages":[]"#, #""pages":{}"#, #""unknown":null"#,
            #""pages":[{"idx":0,"note":"a"},{"idx":1,"label":"2","overlay":1,"note":"b"}]"#,
            #""pages":[{"idx":-1}]"#, #""pages":[{"idx":1e300}]"#, #""pages":[{"label":"x","overlay":99,"idx":2}]"#,
            #""pages":[true]"#, #""pages":[{"idx":0,"forcedOverlay":1}]"#,
        ]
        let end = Date().addingTimeInterval(seconds)
        var runs = 0, parsed = 0
        while Date() < end {
            let count = Int.random(in: 0...5, using: &g)
            var text =
                "{"
                + (0..<count).map { _ in
                    Bool.random(using: &g) ? members.randomElement(using: &g)! : randomString(&g, maxLength: 8)
                }.joined(separator: ",") + "}"
            if Int.random(in: 0..<8, using: &g) == 0 {
                text = String(text.prefix(Int.random(in: 0...text.count, using: &g)))
            }
            let labels = (0..<Int.random(in: 0...4, using: &g)).map { _ in
                ["1", "2", "2", "x", ""].randomElement(using: &g)!
            }
            do {
                _ = try PdfpcFile.parse(Data(text.utf8), path: "fuzz.pdfpc", pageLabels: labels)
                parsed += 1
            } catch {
                XCTAssertTrue(
                    error.description.hasPrefix("fuzz.pdfpc: ") && error.description.count > 12, error.description)
                XCTAssertFalse(error.description.contains("\n"), error.description)
            }
            runs += 1
        }
        XCTAssertGreaterThan(runs, 1000)
        XCTAssertGreaterThan(parsed, 0)
    }
}
