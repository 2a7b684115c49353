import Screenplay

/// The console's `?` list: every key and what it does, over the slides,
/// from the same table as `present --help` (`PresenterKeyNames.rows`).
@MainActor
enum ConsoleKeyList {
    /// `own`: the speaker's bindings, named above the defaults they change.
    static func draw(_ layout: ConsoleLayout, own: [String], _ c: DrawingContext) throws {
        let top = layout.bar.height
        try c.fill(x: 0, y: top, width: layout.width, height: layout.footer.y - top, color: ConsoleColors.background)
        let rows = PresenterKeyNames.rows
        // One line each, the title and a blank line above them, all between the bars.
        let room = layout.footer.y - top - 2 * layout.margin
        let line = max(6, min(layout.textSize * 5 / 4, room / (rows.count + (own.isEmpty ? 2 : 3))))
        let size = line * 4 / 5
        let keysWidth = layout.width * 36 / 100
        var y = top + layout.margin
        try c.drawText(
            "Keys  (? or Escape closes this; --keys FILE rebinds them)", x: layout.margin, y: y,
            maxWidth: layout.width - 2 * layout.margin, pixelHeight: size, color: ConsoleColors.dim)
        y += line
        if !own.isEmpty {
            try c.drawText(
                "Yours: " + own.joined(separator: "   "), x: layout.margin, y: y,
                maxWidth: layout.width - 2 * layout.margin, pixelHeight: size, color: ConsoleColors.amber)
            y += line
        }
        y += line
        for row in rows {
            try c.drawText(
                row.keys, x: layout.margin, y: y, maxWidth: keysWidth - layout.margin, pixelHeight: size,
                color: ConsoleColors.text)
            try c.drawText(
                row.does, x: keysWidth + layout.margin, y: y, maxWidth: layout.width - keysWidth - 2 * layout.margin,
                pixelHeight: size, color: ConsoleColors.text)
            y += line
        }
    }
}
