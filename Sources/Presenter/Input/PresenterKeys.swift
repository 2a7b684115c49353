import Foundation

/// The presenter's keys. Keysyms come translated through the compositor's
/// keymap, so these hold on any layout.
enum PresenterKeys {
    /// `overview`: the grid is up, where Up and Down move by rows and
    /// Escape leaves the grid rather than the talk.
    static func action(
        keysym: String, text: String, shift: Bool = false, control: Bool = false, overview: Bool = false
    ) -> PresenterAction? {
        if control, keysym.lowercased() == "n" { return .editNotes }  // pdfpc's note key
        if overview {
            switch keysym {
            case "Up", "KP_Up": return .rowUp
            case "Down", "KP_Down": return .rowDown
            case "Escape": return .toggleOverview
            default: break
            }
        }
        switch keysym {
        // xkbcommon names Page_Down "Next" and Page_Up "Prior" (same keysyms).
        case "Right", "Down", "Next", "Page_Down", "KP_Right", "KP_Down", "KP_Next", "KP_Page_Down", "space":
            return shift ? .nextSlide : .next
        case "Return", "KP_Enter":
            return .enter
        case "Left", "Up", "Prior", "Page_Up", "KP_Left", "KP_Up", "KP_Prior", "KP_Page_Up", "BackSpace":
            return shift ? .previousSlide : .previous
        case "Tab", "ISO_Left_Tab", "KP_Tab": return .toggleOverview
        case "Home", "KP_Home": return .first
        case "End", "KP_End": return .last
        case "period", "KP_Decimal": return .toggleBlack
        case "comma": return .toggleWhite
        case "F5": return shift ? .startHere : .startFromBeginning
        case "Escape": return .quit
        case "question": return .toggleHelp
        default: break
        }
        if keysym.hasPrefix("KP_"), let d = Int(keysym.dropFirst(3)), (0...9).contains(d) { return .digit(d) }
        if keysym.count == 1, let d = Int(keysym) { return .digit(d) }
        switch keysym.lowercased() {
        case "n": return shift ? .nextSlide : .next
        case "p": return shift ? .previousSlide : .previous
        case "b": return .toggleBlack
        case "w": return .toggleWhite
        case "f": return .toggleFreeze
        case "l": return .togglePointer
        case "h": return .toggleSpotlight
        // pdfpc's 2, 3, 4 are typed page numbers here; c and Shift+c are pdfpc's.
        case "d": return .togglePen
        case "m": return .toggleHighlighter
        case "x": return .toggleEraser
        case "c": return shift ? .clearAllDrawings : .clearDrawing
        case "s": return .swapScreens
        case "t": return .toggleTimer
        case "r": return .resetTimer
        case "q": return .quit
        case "e": return .editNotes
        default: break
        }
        // Layouts whose digits need a modifier still type digits.
        if text.count == 1, let d = Int(text) { return .digit(d) }
        return nil
    }
}
