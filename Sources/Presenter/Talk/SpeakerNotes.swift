import Foundation

/// A notes file that does not follow the format, with the line at fault.
struct NotesError: Error, CustomStringConvertible, Equatable {
    let path: String
    let line: Int
    let reason: String
    var description: String { "\(path):\(line): \(reason)" }
}

/// Speaker notes from the sidecar file (`talk.pdf` -> `talk.notes.md`): a
/// section per page, started by a line `## N` (1-based page number). Lines
/// before the first section may be blank or `#` headings; anything else
/// there, a `##` line without a valid page, a page twice or a page beyond
/// the document is an error naming its line.
struct SpeakerNotes: Equatable, Sendable {
    /// Notes by 0-based page.
    private(set) var pages: [Int: String] = [:]

    init() {}

    /// The notes for page `index` (0-based); "" for a page without a section.
    func text(forPage index: Int) -> String { pages[index] ?? "" }

    /// A page's notes as edited on the console (an empty text removes them).
    mutating func set(_ text: String, forPage index: Int) { pages[index] = text.isEmpty ? nil : text }

    /// Adds notes for pages that have none here (ours win where both have some).
    mutating func fill(from other: [Int: String]) {
        pages.merge(other) { ours, _ in ours }
    }

    static func parse(_ text: String, pageCount: Int, path: String) throws(NotesError) -> SpeakerNotes {
        var notes = SpeakerNotes()
        var current: (page: Int, line: Int)?
        var body: [Substring] = []
        var seen: [Int: Int] = [:]
        func flush() {
            guard let current else { return }
            var lines = body[...]
            while let first = lines.first, first.allSatisfy(\.isWhitespace) { lines = lines.dropFirst() }
            while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines = lines.dropLast() }
            let joined = lines.joined(separator: "\n")
            if !joined.isEmpty { notes.pages[current.page] = joined }
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (i, raw) in lines.enumerated() {
            let number = i + 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let isSection = line.hasPrefix("##") && !line.hasPrefix("###")
            if isSection {
                let rest = line.dropFirst(2).trimmingCharacters(in: .whitespaces)
                guard line.dropFirst(2).first?.isWhitespace == true, let n = Int(rest) else {
                    throw NotesError(
                        path: path, line: number,
                        reason: "expected a section line '## N' with a page number, found '\(line)'")
                }
                guard n >= 1, n <= pageCount else {
                    throw NotesError(
                        path: path, line: number,
                        reason:
                            "page \(n) does not exist: the document has \(pageCount) page\(pageCount == 1 ? "" : "s")")
                }
                if let earlier = seen[n] {
                    throw NotesError(
                        path: path, line: number,
                        reason: "a second section for page \(n) (the first is on line \(earlier))")
                }
                flush()
                seen[n] = number
                current = (n - 1, number)
                body = []
            } else if current != nil {
                body.append(line)
            } else if !line.allSatisfy(\.isWhitespace) && !line.hasPrefix("#") {
                throw NotesError(
                    path: path, line: number,
                    reason: "text before the first '## N' section (start each page's notes with '## N')")
            }
        }
        flush()
        return notes
    }

    /// The sidecar path for a document: `talk.pdf` -> `talk.notes.md`.
    static func sidecarPath(for pdf: String) -> String {
        let url = URL(fileURLWithPath: pdf)
        let base = url.deletingPathExtension().lastPathComponent
        let dir = (pdf as NSString).deletingLastPathComponent
        return (dir.isEmpty ? "" : dir + "/") + base + ".notes.md"
    }
}
