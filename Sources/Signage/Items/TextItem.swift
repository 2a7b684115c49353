import Dispatch
import Foundation
public import Screenplay

// Text items of `screenplay play`: a string, a UTF-8 file or a clock, laid
// out by pango through the library's text drawing. They are static: drawn
// when their text changes (a file edited, a clock's shown text moving on),
// never every refresh.

/// A text item as the playlist gives it.
public struct TextItem: Equatable {
    /// What the item writes.
    public enum Content: Equatable {
        /// Text written in the playlist.
        case string(String)
        /// A UTF-8 file, re-read when it changes.
        case file(path: String)
        /// An strftime format, shown in `zone` (nil: the box's local time).
        case clock(format: String, zone: String?)
        /// One line scrolling right to left at `speed` pixels a second: the
        /// text itself, or a UTF-8 file re-read before each pass.
        case ticker(text: String?, path: String?, speed: Double)
    }

    /// Where lines of text sit across the box.
    public enum VerticalAlign: String, Equatable, CaseIterable {
        /// Lines at the top, in the middle or at the bottom of the box.
        case top, center, bottom
    }

    /// What it writes.
    public var content: Content
    /// A pango family and style ("Sans Bold", "DejaVu Serif Italic"), without a size.
    public var font = "Sans"
    /// Pixels; nil: a tenth of the panel's height (as drawn, after a turn).
    public var size: Int?
    /// The text's colour.
    public var color = RGBColor.white
    /// The colour behind the text, over the whole panel or region.
    public var background = RGBColor.black
    /// Where lines sit across the box. pango lays out a paragraph in a
    /// right-to-left script from the right, so `.left` (`"start"`) puts
    /// Hebrew and Arabic at the right edge: the start of their lines.
    public var align = TextAlign.center
    /// Where the block of lines sits, top to bottom.
    public var verticalAlign = VerticalAlign.center
    /// Pixels kept clear on each side of the panel.
    public var padding = 0

    /// A text item of `content` in the default font, white on black, centred.
    public init(content: Content) {
        self.content = content
    }

    /// For logs, proof of play and `ctl show`: the file, or the kind and its text.
    var label: String {
        switch content {
        case let .string(text): "text:" + (text.count > 40 ? String(text.prefix(40)) + "…" : text)
        case let .file(path): path
        case let .clock(format, zone): "clock:\(format)" + (zone.map { " \($0)" } ?? "")
        case let .ticker(_, path?, _): path
        case let .ticker(text, nil, _):
            "ticker:" + (text.map { $0.count > 40 ? String($0.prefix(40)) + "…" : $0 } ?? "")
        }
    }

    var path: String? {
        switch content {
        case let .file(path): path
        case let .ticker(_, path, _): path
        case .string, .clock: nil
        }
    }
}

extension PlayItem {
    /// The item re-reads its own file when it changes (a text file), so a
    /// change needs no reload of the playlist.
    var watchesItsFile: Bool {
        if case .text = source { return true }
        return false
    }
}

extension TextItem {
    /// The text of a UTF-8 file, without the newline editors end a file with.
    static func readFile(_ path: String) -> Result<String, TextFileProblem> {
        guard FileManager.default.fileExists(atPath: path) else {
            return .failure(TextFileProblem("no such file; create it, or give the text itself as \"text\""))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(TextFileProblem("cannot read it (\(readReason(path))); make it readable"))
        }
        guard var text = String(data: data, encoding: .utf8) else {
            return .failure(TextFileProblem("not UTF-8 text; save it as UTF-8"))
        }
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        return .success(text)
    }
}

/// Why a text file cannot be shown.
public struct TextFileProblem: Error, CustomStringConvertible {
    /// The file and the reason, for messages.
    public var description: String
    init(_ description: String) { self.description = description }
}
