import Foundation

/// The Markdown pages a reader of the repository follows (README.md, the other top-level
/// pages, the guides under docs/ and the examples' READMEs), read the way GitHub shows
/// them: code apart from prose, links with their targets, headings with their anchors.
struct DocsPage {
    /// The path from the checkout's root, as failure messages name it (`docs/signage.md`).
    let path: String
    let lines: [String]
    /// Per line: inside a fenced block (```) or an indented one (four spaces).
    let isCode: [Bool]

    init(path: String) throws {
        self.path = path
        lines = try String(contentsOfFile: PackageCheckout.root + "/" + path, encoding: .utf8)
            .components(separatedBy: "\n")
        var fenced = false
        isCode = lines.map { line in
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
                return true
            }
            return fenced || line.hasPrefix("    ") || line.hasPrefix("\t")
        }
    }

    /// Every page: README.md and the other top-level .md files, docs/*.md and Examples/*/*.md.
    static func all() throws -> [DocsPage] {
        let files = FileManager.default
        let root = PackageCheckout.root
        var paths = try files.contentsOfDirectory(atPath: root).filter { $0.hasSuffix(".md") }
        paths += try files.contentsOfDirectory(atPath: root + "/docs").filter { $0.hasSuffix(".md") }
            .map { "docs/" + $0 }
        for example in try files.contentsOfDirectory(atPath: root + "/Examples") {
            let folder = root + "/Examples/" + example
            paths += ((try? files.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".md") }
                .map { "Examples/\(example)/" + $0 }
        }
        return try paths.sorted().map(DocsPage.init(path:))
    }

    /// The page's folder from the checkout's root ("" for a top-level page).
    var folder: String { (path as NSString).deletingLastPathComponent }

    /// The prose: code lines blanked, so that line numbers still count from the page's top.
    var prose: String { zip(lines, isCode).map { $1 ? "" : $0 }.joined(separator: "\n") }

    /// The 1-based line of a character offset into `prose`.
    func line(at offset: String.Index, in text: String) -> Int {
        text[..<offset].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }

    /// Inline code spans of the prose (`` `x` `` and ``` ``x`` ```), with their lines; a span may
    /// run over a line break, as Markdown allows.
    var inlineCode: [(line: Int, text: String)] {
        let text = prose
        return Self.matches(of: "``(.+?)``|`([^`]+)`", in: text).map { match in
            (line(at: match.range.lowerBound, in: text), match.groups.compactMap { $0 }.first ?? "")
        }
    }

    /// Links in the prose, `[text](target)` and `![alt](target)`, code spans left out (a glob
    /// such as `[a-z]` is no link); the text may run over a line break.
    var links: [(line: Int, text: String, target: String)] {
        var text = prose
        for match in Self.matches(of: "``.+?``|`[^`]+`", in: text).reversed() {
            // Blanked, not removed: offsets and line breaks stay where they were.
            text.replaceSubrange(match.range, with: String(text[match.range].map { $0 == "\n" ? "\n" : "x" }))
        }
        return Self.matches(of: #"\[([^\]]*)\]\(([^)\s]+)\)"#, in: text).map { match in
            (line(at: match.range.lowerBound, in: text), match.groups[0] ?? "", match.groups[1] ?? "")
        }
    }

    /// The code lines as shell commands, with their first line: a line ending in `\` goes on
    /// on the next.
    var commandLines: [(line: Int, text: String)] {
        var result: [(line: Int, text: String)] = []
        var continued = false
        for (index, line) in lines.enumerated() where isCode[index] {
            let text = line.trimmingCharacters(in: .whitespaces)
            if continued, let last = result.popLast() {
                result.append((last.line, String(last.text.dropLast()) + " " + text))
            } else {
                result.append((index + 1, text))
            }
            continued = text.hasSuffix("\\")
        }
        return result
    }

    /// The anchors of the page's headings, as GitHub makes them: lower case, spaces to
    /// hyphens, other punctuation dropped, a repeated heading gets `-1`, `-2`, ...
    var anchors: Set<String> {
        var seen: [String: Int] = [:]
        var result = Set<String>()
        for (index, line) in lines.enumerated() where !isCode[index] && line.hasPrefix("#") {
            let title = line.drop { $0 == "#" }
            guard title.hasPrefix(" ") else { continue }
            let slug = Self.slug(String(title))
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            result.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return result
    }

    static func slug(_ heading: String) -> String {
        let text = heading.trimmingCharacters(in: .whitespaces).lowercased()
        return String(
            text.compactMap { character -> Character? in
                if character == " " { return "-" }
                return character.isLetter || character.isNumber || character == "-" || character == "_"
                    ? character : nil
            })
    }

    /// A regular expression's matches: the whole range and each group (nil where it took no part).
    static func matches(of pattern: String, in text: String) -> [(range: Range<String.Index>, groups: [String?])] {
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        else { preconditionFailure("a bad pattern in the test: \(pattern)") }
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            guard let range = Range(match.range, in: text) else { return nil }
            let groups = (1..<max(match.numberOfRanges, 1)).map { group in
                Range(match.range(at: group), in: text).map { String(text[$0]) }
            }
            return (range, groups)
        }
    }
}
