import Documents
import Foundation
import Screenplay

/// A playlist's items in a JSON playlist file: files, pages, colours,
/// web pages and transitions, each error naming its JSON path.
extension SignageConfigLoader {
    static func parseItem(
        _ element: Any, at: String, folder: String, itemSeconds: Double, transition: Double,
        web: WebRules = WebRules(), _ fail: (String, String) -> PlaylistError
    ) throws(PlaylistError) -> [PlayItem] {
        let entry = try JSONValues.dictionary(element, at: at, fail)
        let isText = TextItemParser.isTextItem(entry)
        try JSONValues.rejectUnknownKeys(entry, allowed: isText ? TextItemParser.textItemKeys : itemKeys, at: at, fail)
        var duration = itemSeconds
        var ownDuration: Double?
        if let value = entry["duration"] {
            guard let seconds = JSONValues.number(value), seconds > 0, seconds.isFinite else {
                throw fail("\(at).duration", "expected a positive number of seconds, got \(JSONValues.describe(value))")
            }
            duration = seconds
            ownDuration = seconds
        }
        var fade = transition
        if let value = entry["transition"] { fade = try transitionSeconds(value, at: "\(at).transition", fail) }
        let sources: [PlayItem.Source]
        switch (entry["file"], entry["color"]) {
        case _ where entry["web"] != nil && !isText:
            if let other = ["file", "color", "pages"].first(where: { entry[$0] != nil }) {
                throw fail("\(at).\(other)", "a web item has \"web\" and no \"\(other)\"")
            }
            if let key = FileIntegrity.keys.sorted().first(where: { entry[$0] != nil }) {
                throw fail("\(at).\(key)", "\"\(key)\" applies to file items only")
            }
            sources = [try WebItem.source(entry["web"]!, at: "\(at).web", folder: folder, rules: web, fail)]
        case _ where isText: sources = [.text(try TextItemParser.parseTextItem(entry, at: at, folder: folder, fail))]
        case (nil, nil):
            throw fail(
                at,
                "an item needs \"file\" (image, PDF, shader or video), \"color\" (RRGGBB), \"text\", \"text-file\", \"clock\" or \"web\" (a page)"
            )
        case (.some, .some):
            throw fail(at, "an item has either \"file\" or \"color\", not both")
        case let (nil, .some(value)):
            if let key = FileIntegrity.keys.sorted().first(where: { entry[$0] != nil }) {
                throw fail("\(at).\(key)", "\"\(key)\" applies to file items only")  // fleet
            }
            guard let text = value as? String, let color = RGBColor(parsing: text) else {
                throw fail("\(at).color", "expected RRGGBB, got \(JSONValues.describe(value))")
            }
            if entry["pages"] != nil { throw fail("\(at).pages", "\"pages\" applies to PDF files only") }
            sources = [.color(color)]
        case let (.some(value), nil):
            guard let relative = value as? String, !relative.isEmpty else {
                throw fail("\(at).file", "expected a file path, got \(JSONValues.describe(value))")
            }
            let path = relative.hasPrefix("/") ? relative : (folder as NSString).appendingPathComponent(relative)
            _ = try FileIntegrity(entry, at: at, fail)  // fleet: "sha256" and "bytes" well-formed
            if !FileManager.default.fileExists(atPath: path) {
                // Not there yet: a bad item until it arrives (the playlist
                // reloads then), as it would be on a reload.
                sources = [.missing(path: path, reason: "no such file (\(at).file); it plays once it is there")]
            } else if access(path, R_OK) != 0 {
                sources = [
                    .missing(
                        path: path,
                        reason: "cannot read it (\(at).file): \(readReason(path)); it plays once it is readable")
                ]
            } else if let pagesValue = entry["pages"] {
                guard case .pdf? = MediaKind.of(path) else {
                    throw fail("\(at).pages", "\"pages\" applies to PDF files only; \(path) is not a PDF")
                }
                guard let text = pagesValue as? String, let pages = parsePages(text) else {
                    throw fail(
                        "\(at).pages",
                        "expected pages like \"1-3\" or \"1,4,6-8\", got \(JSONValues.describe(pagesValue))")
                }
                if let count = (try? PDFDocument.open(path: path))?.pageCount,
                    let bad = pages.first(where: { $0 >= count })
                {
                    throw fail("\(at).pages", "page \(bad + 1) does not exist: \(path) has \(count) pages")
                }
                sources = pdfPages(path, pages: pages)
            } else {
                switch MediaKind.of(path) {
                case .pdf?: sources = pdfPages(path, pages: nil)
                case .shader?: sources = [.shader(path: path)]
                case .image?: sources = [.image(path: path)]
                // Neither image nor PDF by its bytes: libmpv's to judge. A file
                // it cannot play is skipped at run time with its reason.
                default:
                    let (source, length) = videoItem(path, duration: ownDuration, itemSeconds: itemSeconds)
                    sources = [source]
                    duration = length
                }
            }
        }
        if fade >= duration {
            throw fail(
                at,
                "the crossfade (\(fade) s) must be shorter than the item's duration (\(duration) s\(ownDuration == nil && sources.first.map(isVideo) == true ? ", the video's length" : ""))"
            )
        }
        return sources.map { PlayItem(source: $0, duration: duration, transition: fade) }
    }

    private static func isVideo(_ source: PlayItem.Source) -> Bool {
        if case .video = source { return true }
        return false
    }

    /// "1-3", "2", "1,4,6-8" (1-based, inclusive) as 0-based page indexes.
    static func parsePages(_ text: String) -> [Int]? {
        var pages: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.trimmingCharacters(in: .whitespaces).split(
                separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(bounds.count), let low = decimalNumber(bounds[0]), low >= 1 else { return nil }
            let high = bounds.count == 2 ? decimalNumber(bounds[1]) : low
            guard let high, high >= low, high - low < 100_000 else { return nil }
            pages += (low...high).map { $0 - 1 }
        }
        return pages.isEmpty ? nil : pages
    }

    /// Why a panel pattern cannot be used, or nil.
    static func patternProblem(_ pattern: String) -> String? {
        if pattern.trimmingCharacters(in: .whitespaces).isEmpty {
            return "the pattern is empty; give a screen name, description or glob"
        }
        var depth = 0
        var escaped = false
        for character in pattern {
            if escaped { escaped = false; continue }
            switch character {
            case "\\": escaped = true
            case "[": depth += 1
            case "]": depth = max(0, depth - 1)
            default: break
            }
        }
        if depth > 0 { return "unclosed '[' in \"\(pattern)\" (write \\[ for a literal bracket)" }
        return nil
    }

    static func transitionSeconds(_ value: Any, at: String, _ fail: (String, String) -> PlaylistError)
        throws(PlaylistError) -> Double
    {
        let object = try JSONValues.dictionary(value, at: at, fail)
        try JSONValues.rejectUnknownKeys(object, allowed: transitionKeys, at: at, fail)
        guard let secondsValue = object["seconds"] else { throw fail(at, "missing \"seconds\" (0 for a cut)") }
        guard let seconds = JSONValues.number(secondsValue), seconds >= 0, seconds.isFinite else {
            throw fail(
                "\(at).seconds", "expected a number of seconds, 0 or more, got \(JSONValues.describe(secondsValue))")
        }
        return seconds
    }
}
