import Foundation

/// Speaker notes written in pdfpc's Markdown subset, as Pango markup for
/// the console: headings (`#` to `######`) larger and bold, list items
/// (`-`, `*`, `+`) with a bullet, `**bold**` and `__bold__`, `*italic*` and
/// `_italic_`, `` `code` `` in a fixed font. Everything else stays the text
/// it is (`<`, `>` and `&` escaped), so notes that are not Markdown read as
/// they were written.
enum NotesMarkdown {
    static func pangoMarkup(_ markdown: String) -> String {
        markdown.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var text = escape(String(line))
            if let heading = text.firstMatch(of: /^(#{1,6})[ \t]+(.*?)[ \t#]*$/) {
                let size = heading.1.count <= 2 ? "x-large" : "large"
                return "<span size=\"\(size)\" weight=\"bold\">\(inline(String(heading.2)))</span>"
            }
            if let item = text.firstMatch(of: /^([ \t]*)[-*+][ \t]+(.*)$/) {
                text = "\(item.1)• \(item.2)"
            }
            return inline(text)
        }.joined(separator: "\n")
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Emphasis and code within a line; underscores only at word edges, so
    /// snake_case names stay as they are.
    private static func inline(_ line: String) -> String {
        var text = line
        text.replace(/`([^`]+)`/) { "<tt>\($0.1)</tt>" }
        text.replace(/\*\*(\S(?:.*?\S)?)\*\*/) { "<b>\($0.1)</b>" }
        text.replace(/(^|[^\w])__(\S(?:.*?\S)?)__(?![\w])/) { "\($0.1)<b>\($0.2)</b>" }
        text.replace(/\*(\S(?:.*?\S)?)\*/) { "<i>\($0.1)</i>" }
        text.replace(/(^|[^\w])_(\S(?:.*?\S)?)_(?![\w])/) { "\($0.1)<i>\($0.2)</i>" }
        return text
    }
}
