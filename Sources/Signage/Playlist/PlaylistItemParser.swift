import Documents
import Foundation
import Screenplay

/// One playlist item of a JSON playlist file and its keys: a file (its
/// pages, a video's length), a colour, a web page or a text item, and its
/// duration and transition, each error naming its JSON path.
enum PlaylistItemParser {
    static let itemKeys: Set<String> = Set(["file", "color", "web", "duration", "pages", "transition"])
        .union(FileIntegrity.keys)  // fleet: checked when the playlist comes from a URL
    static let transitionKeys: Set<String> = ["seconds"]

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

    /// A video item and the seconds it lasts: its own length as libmpv's
    /// probe measures it (which also decodes its first frame), unless the
    /// playlist gives a `duration`; then it loops to fill it or is cut. A
    /// file libmpv cannot play keeps its reason and is skipped when its
    /// turn comes; one without a known length lasts `itemSeconds`, looping.
    static func videoItem(_ file: String, duration: Double?, itemSeconds: Double) -> (PlayItem.Source, Double) {
        do {
            let info = try VideoPlayer.probe(path: file)
            if let duration { return (.video(path: file, loops: true, problem: nil), duration) }
            guard info.duration > 0 else { return (.video(path: file, loops: true, problem: nil), itemSeconds) }
            return (.video(path: file, loops: false, problem: nil), info.duration)
        } catch {
            return (.video(path: file, loops: duration != nil, problem: error.reason), duration ?? itemSeconds)
        }
    }

    /// A PDF's pages as items; one page-0 item when the document cannot be
    /// opened (it is skipped at run time with the reason, as corrupt media is).
    static func pdfPages(_ file: String, pages: [Int]?) -> [PlayItem.Source] {
        if let pages { return pages.map { .pdfPage(path: file, page: $0) } }
        guard let document = try? PDFDocument.open(path: file) else { return [.pdfPage(path: file, page: 0)] }
        return (0..<document.pageCount).map { .pdfPage(path: file, page: $0) }
    }
}
