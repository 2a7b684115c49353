/// The presenter's actions by name, for bindings files, and every default
/// key with what it does: one table serves `present --help` (and so the
/// man page, which help2man makes from it), the console's `?` list and the
/// bindings file's action names, so none of them can say otherwise.
public enum PresenterKeyNames {
    /// An action a binding can name: ours, and pdfpc's names for the same.
    struct Named: Sendable {
        var name: String
        var action: PresenterAction
        var pdfpc: [String]
    }

    static let actions: [Named] = [
        Named(name: "next", action: .next, pdfpc: ["next"]),
        Named(name: "previous", action: .previous, pdfpc: ["prev"]),
        Named(name: "nextSlide", action: .nextSlide, pdfpc: ["nextOverlay"]),
        Named(name: "previousSlide", action: .previousSlide, pdfpc: ["prevOverlay"]),
        Named(name: "first", action: .first, pdfpc: ["gotoFirst"]),
        Named(name: "last", action: .last, pdfpc: ["gotoLast"]),
        Named(name: "overview", action: .toggleOverview, pdfpc: ["overview"]),
        Named(name: "black", action: .toggleBlack, pdfpc: ["blank"]),
        Named(name: "white", action: .toggleWhite, pdfpc: []),
        Named(name: "freeze", action: .toggleFreeze, pdfpc: ["freeze"]),
        Named(name: "pointer", action: .togglePointer, pdfpc: []),
        Named(name: "spotlight", action: .toggleSpotlight, pdfpc: []),
        Named(name: "pen", action: .togglePen, pdfpc: []),
        Named(name: "highlighter", action: .toggleHighlighter, pdfpc: []),
        Named(name: "eraser", action: .toggleEraser, pdfpc: []),
        Named(name: "clearDrawing", action: .clearDrawing, pdfpc: []),
        Named(name: "clearAllDrawings", action: .clearAllDrawings, pdfpc: []),
        Named(name: "swapScreens", action: .swapScreens, pdfpc: []),
        Named(name: "pauseTimer", action: .toggleTimer, pdfpc: ["pause"]),
        Named(name: "resetTimer", action: .resetTimer, pdfpc: ["resetTimer"]),
        Named(name: "start", action: .startFromBeginning, pdfpc: ["start"]),
        Named(name: "startHere", action: .startHere, pdfpc: []),
        Named(name: "enter", action: .enter, pdfpc: []),
        Named(name: "editNotes", action: .editNotes, pdfpc: ["note"]),
        Named(name: "help", action: .toggleHelp, pdfpc: ["showHelp"]),
        Named(name: "quit", action: .quit, pdfpc: ["quit", "exitState"]),
    ]

    static func action(named name: String) -> PresenterAction? {
        actions.first { $0.name == name || $0.pdfpc.contains(name) }?.action
    }

    static func unknownActionReason(_ name: String) -> String {
        "unknown action '\(name)'; one of: " + actions.map(\.name).joined(separator: ", ")
    }

    /// One row of the key list: keys as a speaker reads them, and what they do.
    struct Row: Sendable {
        var keys: String
        var does: String
        /// Keys as `PresenterKeys` takes them (keysym, Shift), for the test
        /// that holds the list to the truth.
        var presses: [(keysym: String, shift: Bool)]
        var action: PresenterAction
    }

    static let rows: [Row] = [
        Row(
            keys: "Right Down Page_Down space Return n", does: "next page (an overlay's next step)",
            presses: [("Right", false), ("Down", false), ("Next", false), ("space", false), ("n", false)],
            action: .next),
        Row(
            keys: "Left Up Page_Up BackSpace p", does: "previous page",
            presses: [("Left", false), ("Up", false), ("Prior", false), ("BackSpace", false), ("p", false)],
            action: .previous),
        Row(
            keys: "Shift+Page_Down Shift+n", does: "first page of the next slide",
            presses: [("Next", true), ("n", true)], action: .nextSlide),
        Row(
            keys: "Shift+Page_Up Shift+p", does: "first page of the slide before",
            presses: [("Prior", true), ("p", true)], action: .previousSlide),
        Row(keys: "Home", does: "first page", presses: [("Home", false)], action: .first),
        Row(keys: "End", does: "last page", presses: [("End", false)], action: .last),
        Row(keys: "digits, then Return", does: "go to that slide", presses: [("Return", false)], action: .enter),
        Row(
            keys: "Tab", does: "all slides as a grid (arrows, Return; Tab or Escape leaves)",
            presses: [("Tab", false)], action: .toggleOverview),
        Row(
            keys: "b .", does: "black audience screen (again: the slide)", presses: [("b", false), ("period", false)],
            action: .toggleBlack),
        Row(
            keys: "w ,", does: "white audience screen", presses: [("w", false), ("comma", false)],
            action: .toggleWhite),
        Row(keys: "f", does: "freeze what the audience sees", presses: [("f", false)], action: .toggleFreeze),
        Row(keys: "l", does: "pointer dot on the slide", presses: [("l", false)], action: .togglePointer),
        Row(keys: "h", does: "spotlight on the slide", presses: [("h", false)], action: .toggleSpotlight),
        Row(
            keys: "d", does: "pen: drag on the slide to draw (d again: off)", presses: [("d", false)],
            action: .togglePen),
        Row(
            keys: "m", does: "highlighter: drag on the slide to mark", presses: [("m", false)],
            action: .toggleHighlighter),
        Row(
            keys: "x", does: "eraser: drag over drawn lines to erase", presses: [("x", false)],
            action: .toggleEraser),
        Row(keys: "c", does: "clear this slide's drawing", presses: [("c", false)], action: .clearDrawing),
        Row(
            keys: "Shift+c", does: "clear the drawings of every slide", presses: [("c", true)],
            action: .clearAllDrawings),
        Row(keys: "t", does: "pause or resume the timer", presses: [("t", false)], action: .toggleTimer),
        Row(keys: "r", does: "reset the timer", presses: [("r", false)], action: .resetTimer),
        Row(
            keys: "F5", does: "before the talk: start on page 1 (during it: nothing)", presses: [("F5", false)],
            action: .startFromBeginning),
        Row(
            keys: "Shift+F5", does: "before the talk: start the timer here", presses: [("F5", true)],
            action: .startHere),
        Row(
            keys: "s", does: "swap screens: the console moves to the next screen", presses: [("s", false)],
            action: .swapScreens),
        Row(
            keys: "e Ctrl+n", does: "edit this slide's notes (Escape saves them to talk.pdfpc)",
            presses: [("e", false)], action: .editNotes),
        Row(keys: "?", does: "this list on the console", presses: [("question", false)], action: .toggleHelp),
        Row(
            keys: "Escape q",
            does: "ask to end the talk; again within 2 s ends it (first: undo b, w, f)",
            presses: [("Escape", false), ("q", false)], action: .quit),
    ]

    /// The action names, wrapped as `present --help` prints an option's text.
    public static var actionNamesText: String {
        var lines: [String] = []
        var line = ""
        for name in actions.map(\.name) {
            if !line.isEmpty, line.count + 1 + name.count > 54 {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? name : " " + name
        }
        lines.append(line)
        return lines.map { String(repeating: " ", count: 26) + $0 }.joined(separator: "\n")
    }

    /// The list as `present --help` prints it, indented like its options.
    public static var helpText: String {
        let width = rows.map(\.keys.count).max() ?? 0
        return rows.map { row in
            "  " + row.keys.padding(toLength: max(width, 22), withPad: " ", startingAt: 0) + "  " + row.does
        }.joined(separator: "\n")
    }
}
