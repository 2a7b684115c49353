import Foundation
import TestHarness
import TestSupport
import XCTest

/// The README and the guides as a reader follows them: the README is a front page that
/// starts with the two commands, every relative link in the pages reaches a file (and a
/// heading, for `#anchor`), and every `screenplay COMMAND --flag` they show is an option
/// that the built command's `--help` lists, so a guide cannot go on showing a renamed or
/// removed option.
final class DocsLinkTests: ScreenplayTestCase {
    func testTheReadmeIsAShortFrontPageThatStartsWithTheTwoCommands() throws {
        let readme = try DocsPage(path: "README.md")
        let length = readme.lines.last == "" ? readme.lines.count - 1 : readme.lines.count
        XCTAssertLessThanOrEqual(
            length, 300,
            "README.md has \(length) lines, more than a front page's 300: move the detail to a guide in docs/")
        XCTAssertEqual(
            Array(readme.lines.prefix(4)), ["# Screenplay", "", "    ./scripts/demo.sh", "    ./scripts/test.sh"],
            "README.md must start with the command that runs the main job and the one that runs every test "
                + "(.ci/run runs the second)")
    }

    func testEveryRelativeLinkReachesAFileAndItsHeading() throws {
        let pages = try DocsPage.all()
        XCTAssertTrue(pages.contains { $0.path == "README.md" } && pages.contains { $0.path.hasPrefix("docs/") })
        var checked = 0
        for page in pages {
            for link in page.links where !Self.leavesTheRepository(link.target) {
                checked += 1
                let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = String(parts[0])
                let resolved = file.isEmpty ? page.path : Self.resolve(file, from: page.folder)
                let place = "\(page.path):\(link.line): the link [\(link.text)](\(link.target))"
                guard !resolved.hasPrefix(".."),
                    FileManager.default.fileExists(atPath: PackageCheckout.root + "/" + resolved)
                else {
                    XCTFail(
                        "\(place) points at \(resolved), which is not in the repository: fix the path (relative to "
                            + "\(page.folder.isEmpty ? "the top folder" : page.folder + "/"), where \(page.path) is)")
                    continue
                }
                guard parts.count == 2, resolved.hasSuffix(".md") else { continue }
                let anchors = try DocsPage(path: resolved).anchors
                XCTAssertTrue(
                    anchors.contains(String(parts[1])),
                    "\(place) names the heading #\(parts[1]), which \(resolved) does not have: its headings' anchors "
                        + "are \(anchors.sorted().joined(separator: ", "))")
            }
        }
        XCTAssertGreaterThan(checked, 20, "the pages' relative links were not found: the test reads them wrongly")
    }

    func testEveryOptionTheDocsShowIsOneTheCommandAccepts() throws {
        let help = try CommandHelp()
        var checked = 0
        for page in try DocsPage.all() {
            let shown = page.commandLines + page.inlineCode
            for (line, text) in shown {
                for use in help.uses(in: text) {
                    let place = "\(page.path):\(line): `\(use.shown)`"
                    guard let commandHelp = help.text(of: use.command) else {
                        XCTFail(
                            "\(place) runs `screenplay \(use.command ?? "")`, which is no command of screenplay "
                                + "(it has \(help.commands.joined(separator: ", "))): fix the page")
                        continue
                    }
                    for flag in use.flags {
                        checked += 1
                        let accepted = CommandHelp.lists(flag, in: commandHelp)
                        let refusal = Self.documentedRefusals.contains("\(use.command ?? "") \(flag)")
                        XCTAssert(
                            accepted != refusal,
                            refusal
                                ? "\(place): \(flag) is listed as an option the docs show being refused, but "
                                    + "`\(help.invocation(use.command)) --help` lists it: take it off documentedRefusals"
                                : "\(place) shows \(flag), which `\(help.invocation(use.command)) --help` does not "
                                    + "list: fix the page (the option's name as --help gives it) or the command")
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 50, "the options the pages show were not found: the test reads them wrongly")
    }

    /// A message or comment that sends a reader to a page of the docs, and to a section of it
    /// after a colon (as play's sandbox hints end), names a page that exists and a section it
    /// has: a heading, or a paragraph's bold lead (`**Web pages.**`).
    func testEveryPointerToTheDocsNamesAPageAndSectionThatExist() throws {
        let root = PackageCheckout.root
        var files =
            ["Package.swift"]
            + (try FileManager.default.contentsOfDirectory(atPath: root)).filter {
                $0.hasSuffix(".md")
            }
        for folder in ["Sources", "Tests", "scripts", "contrib", "Examples", "docs"] {
            let below = FileManager.default.enumerator(atPath: root + "/" + folder)?.allObjects as? [String] ?? []
            files += below.map { folder + "/" + $0 }
        }
        var checked = 0
        for file in files.sorted() {
            guard let text = try? String(contentsOfFile: root + "/" + file, encoding: .utf8) else { continue }
            let pattern = #"\b(README|docs/[a-z0-9-]+\.md)(?::\s*"?([A-Z][^,)"\n]*))?"#
            for match in DocsPage.matches(of: pattern, in: text) {
                let page = match.groups[0] == "README" ? "README.md" : match.groups[0] ?? ""
                guard page != "README.md" || match.groups[1] != nil else { continue }  // "the README's example"
                checked += 1
                let line = text[..<match.range.lowerBound].filter { $0 == "\n" }.count + 1
                let place = "\(file):\(line): `\(text[match.range])`"
                guard let target = try? DocsPage(path: page) else {
                    XCTFail("\(place) names \(page), which does not exist: name the page the text is in now")
                    continue
                }
                guard let section = match.groups[1]?.trimmingCharacters(in: .whitespaces) else { continue }
                let found = zip(target.lines, target.isCode).contains { line, code in
                    !code
                        && (line.range(
                            of: "^#+ " + NSRegularExpression.escapedPattern(for: section) + "$",
                            options: .regularExpression) != nil || line.hasPrefix("**\(section).**"))
                }
                XCTAssertTrue(
                    found,
                    "\(place) names the section \"\(section)\", which \(page) has neither as a heading "
                        + "nor as a paragraph's bold lead: name the section as the page calls it, or the page it is in")
            }
        }
        XCTAssertGreaterThan(checked, 10, "no pointers to the docs were found: the test reads them wrongly")
    }

    /// Options the docs name precisely because the command refuses them (a former name, with
    /// the error that says which option to use now).
    static let documentedRefusals: Set<String> = ["present --duration", "play --reconnect"]

    /// `path` (a link's, relative to `folder`) from the checkout's root, `..` taken out;
    /// it starts with `..` when it leaves the checkout.
    static func resolve(_ path: String, from folder: String) -> String {
        var parts: [String] = []
        for part in (folder.isEmpty ? path : folder + "/" + path).split(separator: "/").map(String.init) {
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part != "." {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    /// Links the test does not follow: web addresses and mail.
    static func leavesTheRepository(_ target: String) -> Bool {
        target.range(of: "^[a-zA-Z][a-zA-Z0-9+.-]*:", options: .regularExpression) != nil
    }
}

/// The built `screenplay`'s help: its commands, and each command's `--help`.
struct CommandHelp {
    let commands: [String]
    private let texts: [String: String]
    private let topLevel: String

    init() throws {
        let binary = Self.binary
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw CheckoutError("\(binary) is missing: run `swift build` before `swift test` (scripts/test.sh does)")
        }
        func help(_ arguments: [String]) throws -> String {
            let result = try runProcess(binary, arguments + ["--help"], timeout: 20)
            guard result.status == 0, !result.stdout.isEmpty else {
                throw CheckoutError(
                    "`screenplay \((arguments + ["--help"]).joined(separator: " "))` exited \(result.status): "
                        + result.stderr)
            }
            return result.stdout
        }
        topLevel = try help([])
        // The lines under SUBCOMMANDS: name it, indented by two spaces.
        let section = topLevel.components(separatedBy: "SUBCOMMANDS:").dropFirst().first ?? ""
        commands = section.components(separatedBy: "\n\n")[0].components(separatedBy: "\n")
            .filter { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
        guard commands.count >= 5 else {
            throw CheckoutError("`screenplay --help` lists no SUBCOMMANDS the test can read:\n\(topLevel)")
        }
        texts = try Dictionary(uniqueKeysWithValues: commands.map { ($0, try help([$0])) })
    }

    /// The `screenplay` next to the test bundle, as `swift build` puts it.
    static var binary: String {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent()].map {
            $0.appendingPathComponent("screenplay").path
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }

    /// The help of a command (nil for the top level); nil when there is no such command.
    func text(of command: String?) -> String? { command.map { texts[$0] } ?? topLevel }

    func invocation(_ command: String?) -> String {
        (["screenplay"] + [command].compactMap { $0 }).joined(separator: " ")
    }

    /// Whether `help` lists `flag` as a whole word (`--out` is not in `--output`).
    static func lists(_ flag: String, in help: String) -> Bool {
        help.range(
            of: "(?<![\\w-])" + NSRegularExpression.escapedPattern(for: flag) + "(?![\\w-])",
            options: .regularExpression) != nil
    }

    /// The commands `text` runs: `screenplay COMMAND ...` (the program's name as a word of its
    /// own, not `screenplay-bench` or a path) up to a `#` comment or the next shell
    /// operator, and in an inline span also `COMMAND --flag ...` without the program's name.
    func uses(in text: String) -> [(shown: String, command: String?, flags: [String])] {
        var found: [(shown: String, command: String?, flags: [String])] = []
        var starts = DocsPage.matches(of: #"(?:^|(?<=[\s(`"']))screenplay(?=\s)"#, in: text).map {
            $0.range.lowerBound
        }
        let named = commands.joined(separator: "|")
        let bare = DocsPage.matches(of: "^(?:\(named))\\s.*--", in: text)
        if starts.isEmpty, let first = bare.first { starts = [first.range.lowerBound] }
        for start in starts {
            var words: [String] = []
            for word in text[start...].split(whereSeparator: \.isWhitespace).map(String.init) {
                if word.hasPrefix("#") || ["|", "||", "&&", ";", ">", "2>&1"].contains(word) { break }
                if word == "screenplay", !words.isEmpty { break }  // the next run of the command
                words.append(word)
            }
            let shown = words.joined(separator: " ")
            if words.first == "screenplay" { words.removeFirst() }
            guard let first = words.first else { continue }
            let command: String?
            if first.hasPrefix("-") {
                command = nil
            } else if first.range(of: "^[a-z][a-z-]*$", options: .regularExpression) != nil {
                command = first
            } else {
                continue  // not a run of the command: `screenplay 0.1.0 (commit ...)`, `screenplay (main.swift)`
            }
            let flags = words.compactMap { word -> String? in
                // An optional one in a synopsis is `[--json]`.
                guard let range = word.range(of: "^[\\[(]*--[a-z0-9][a-z0-9-]*", options: .regularExpression)
                else { return nil }
                return String(word[range].drop { $0 == "[" || $0 == "(" })
            }
            found.append((shown, command, flags))
        }
        return found
    }
}
