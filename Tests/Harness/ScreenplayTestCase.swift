// The base of every test case: a failure reads as one line that says what was
// expected, what was seen and what the program under test said last, so that
// a red CI run can be understood without running it again.
import TestSupport
public import XCTest

/// Every test class derives from this instead of `XCTestCase`.
///
/// XCTest prints a failure's description as it is; ours often carry a whole
/// stderr, hundreds of lines that bury the assertion. Here the description is
/// folded to one line, long middles are cut (the start says which assertion,
/// the end is the newest output), and the stderr tail of the newest
/// `screenplay` process the test started is appended when the message does
/// not already end with it.
open class ScreenplayTestCase: XCTestCase {
    /// Characters of the program's stderr quoted after a failure.
    static let stderrTail = 600
    /// The longest failure line; the middle of a longer one is cut.
    static let longestLine = 2_000

    open override func setUp() {
        super.setUp()
        ProcessesUnderTest.reset()
    }

    open override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        super.recordFailure(
            withDescription: Self.oneLine(description, quoting: ProcessesUnderTest.started.last),
            inFile: filePath, atLine: lineNumber, expected: expected)
    }

    /// `description` on one line, with the tail of `process`'s stderr.
    static func oneLine(_ description: String, quoting process: ProcessesUnderTest.Entry?) -> String {
        var line = fold(description)
        if let process {
            let tail = fold(String(process.stderr().suffix(stderrTail)))
            if !tail.isEmpty, !line.hasSuffix(tail) {
                line += " ‖ stderr of `\(process.command.prefix(120))` ends: …\(tail)"
            } else if tail.isEmpty {
                line += " ‖ `\(process.command.prefix(120))` wrote nothing to stderr"
            }
        }
        guard line.count > longestLine else { return line }
        return String(line.prefix(longestLine / 3)) + " … " + String(line.suffix(longestLine * 2 / 3))
    }

    /// Newlines become " ⏎ ", so one failure is one line of the log.
    static func fold(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ⏎ ")
    }
}
