/// The notes of one page as the speaker edits them on the console: the
/// text and a cursor (a character offset), changed by typed keys.
struct NotesEditor: Equatable, Sendable {
    let page: Int
    private(set) var text: String
    /// Characters before the cursor.
    private(set) var cursor: Int

    init(page: Int, text: String) {
        self.page = page
        self.text = text
        cursor = text.count
    }

    /// What a key does while editing.
    enum Outcome: Equatable {
        case edited, unchanged, save, cancel
    }

    /// Typing inserts at the cursor; Return breaks the line; BackSpace,
    /// Delete, the arrows, Home and End edit and move as anywhere; Escape
    /// saves and closes, as leaving pdfpc's note mode does (nothing typed
    /// is ever thrown away by a key).
    mutating func key(keysym: String, text typed: String, control: Bool) -> Outcome {
        switch keysym {
        case "Escape": return .save
        case "Return", "KP_Enter": insert("\n")
        case "BackSpace":
            guard cursor > 0 else { return .unchanged }
            let at = text.index(text.startIndex, offsetBy: cursor - 1)
            text.remove(at: at)
            cursor -= 1
        case "Delete", "KP_Delete":
            guard cursor < text.count else { return .unchanged }
            text.remove(at: text.index(text.startIndex, offsetBy: cursor))
        case "Left", "KP_Left":
            guard cursor > 0 else { return .unchanged }
            cursor -= 1
        case "Right", "KP_Right":
            guard cursor < text.count else { return .unchanged }
            cursor += 1
        case "Home", "KP_Home":
            cursor = lineStart()
        case "End", "KP_End":
            cursor = lineEnd()
        default:
            guard !control, !typed.isEmpty, typed.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f })
            else { return .unchanged }
            insert(typed)
        }
        return .edited
    }

    /// The text with a caret at the cursor, for drawing.
    var withCaret: String {
        var shown = text
        shown.insert(contentsOf: "▏", at: shown.index(shown.startIndex, offsetBy: cursor))
        return shown
    }

    private mutating func insert(_ typed: String) {
        text.insert(contentsOf: typed, at: text.index(text.startIndex, offsetBy: cursor))
        cursor += typed.count
    }

    private func lineStart() -> Int {
        let before = text.prefix(cursor)
        guard let newline = before.lastIndex(of: "\n") else { return 0 }
        return text.distance(from: text.startIndex, to: newline) + 1
    }

    private func lineEnd() -> Int {
        let after = text.dropFirst(cursor)
        guard let newline = after.firstIndex(of: "\n") else { return text.count }
        return text.distance(from: text.startIndex, to: newline)
    }
}
