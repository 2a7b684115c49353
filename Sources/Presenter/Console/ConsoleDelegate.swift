import Documents
import Foundation
import Screenplay

/// The speaker's window: current and next slide, notes, timers, clock.
@MainActor
final class ConsoleDelegate: SceneDelegate {
    unowned let presenter: Presenter
    private var lastSummary: [String: String] = [:]
    /// Stills (first pictures) of the current slide's videos, with a play marker.
    lazy var stills = SlideVideoPlayers(messages: presenter.messages)
    /// The current slide's drawing, kept between whole frames.
    let ink = InkLayer()
    let clockFormat: DateFormatter = {
        let f = DateFormatter()
        f.dateFormat = "HH:mm:ss"
        return f
    }()

    private let input: ConsolePointerInput

    init(presenter: Presenter) {
        self.presenter = presenter
        input = ConsolePointerInput(presenter: presenter)
    }

    func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        presenter.emit([
            "event": "connect", "role": "console", "output": presenter.label(scene),
            "width": scene.pixelSize.width, "height": scene.pixelSize.height,
        ])
        presenter.prefetch()
    }

    func sceneDidResize(_ scene: Scene) { presenter.prefetch() }

    func sceneDidDisconnect(_ scene: Scene) {
        stills.closeAll()
        // The compositor closed the console (its close button): end the talk.
        presenter.quit(reason: "console closed")
    }

    func scene(_ scene: Scene, didReceiveKey event: KeyEvent) { presenter.handle(event) }

    /// Pointing at the current slide moves the pointer on every screen;
    /// presses draw in a drawing mode (`ConsolePointerInput`).
    func scene(_ scene: Scene, didReceivePointer event: PointerEvent) { input.pointer(event, in: scene) }

    /// The first finger draws as the left button does in a drawing mode.
    func scene(_ scene: Scene, didReceiveTouch event: TouchEvent) { input.touch(event, in: scene) }

    func draw(_ scene: Scene, in c: DrawingContext) throws {
        let layout = ConsoleLayout(width: c.pixelWidth, height: c.pixelHeight)
        let state = presenter.state
        let now = Double(monotonicNanoseconds()) / 1e9
        let t = layout.textSize
        let slides = state.slides
        try c.clear(ConsoleColors.background)

        // Top bar: page or slide, elapsed time (and countdown), wall clock.
        let bar = self.bar(at: now, date: Date())
        try drawBar(bar, layout, c)
        let countdown = presenter.files.timing.countdown(elapsed: state.timer.elapsed(at: now), now: Date())

        let notes = presenter.files.notesText(page: state.page)
        var line: [String: Any] = [:]
        var notesView = "none"
        if state.isHelpShown {
            try ConsoleKeyList.draw(layout, own: presenter.files.keys.described, c)
        } else if let selection = state.overviewSelection {
            line = try drawOverview(layout, selection: selection, c)
        } else {
            // Slides.
            try c.drawText(
                "Current", x: layout.current.x, y: layout.current.y - t - layout.margin / 2,
                maxWidth: layout.current.width,
                pixelHeight: t * 9 / 10, color: ConsoleColors.dim)
            try drawSlide(page: state.page, in: layout.current, c)
            try drawStills(page: state.page, in: layout.current, scene: scene, c)
            if let frame = input.currentSlideFrame(width: c.pixelWidth, height: c.pixelHeight) {
                try presenter.drawInk(slide: state.slide, on: frame, layer: ink, c)
            }
            // What the room sees of the pointer, over the speaker's slide.
            if let pointer = presenter.consolePointer,
                let frame = input.currentSlideFrame(width: c.pixelWidth, height: c.pixelHeight)
            {
                try PointerLook.draw(pointer.mode, at: pointer.point, on: frame, c)
            }
            try c.drawText(
                "Next", x: layout.next.x, y: layout.next.y - t - layout.margin / 2, maxWidth: layout.next.width,
                pixelHeight: t * 9 / 10, color: ConsoleColors.dim)
            if let next = state.nextSlidePreview {
                try drawSlide(page: next, in: layout.next, c)
            } else {
                try c.fill(
                    x: layout.next.x, y: layout.next.y, width: layout.next.width, height: layout.next.height,
                    color: ConsoleColors.slotEmpty)
                try c.drawText(
                    "End of the talk", x: layout.next.x, y: layout.next.y + layout.next.height / 2 - t / 2,
                    maxWidth: layout.next.width, pixelHeight: t, color: ConsoleColors.dim, alignment: .center)
            }

            // Notes: the notes half of a beamer page, else the text; or the editor.
            let editor = presenter.notesEditing.editor
            try c.drawText(
                editor == nil ? "Notes" : "Notes, editing: Escape saves to \(presenter.notesEditing.pdfpcFileName)",
                x: layout.notes.x, y: layout.notes.y - t - layout.margin / 2, maxWidth: layout.notes.width,
                pixelHeight: t * 9 / 10, color: editor == nil ? ConsoleColors.dim : ConsoleColors.amber)
            if let editor {
                try c.fill(
                    x: layout.notes.x, y: layout.notes.y, width: layout.notes.width, height: layout.notes.height,
                    color: ConsoleColors.slotEmpty)
                try c.drawText(
                    editor.withCaret, x: layout.notes.x, y: layout.notes.y, maxWidth: layout.notes.width,
                    maxHeight: layout.notes.height, pixelHeight: t, color: ConsoleColors.text)
                notesView = "editor"
            } else if let position = presenter.files.notesPosition {
                try drawSlide(page: state.page, in: layout.notes, region: position.notesRegion, c)
                notesView = "page"
            } else if !notes.isEmpty {
                let drawn = presenter.files.notesForDrawing(page: state.page)
                try c.drawText(
                    drawn.text, x: layout.notes.x, y: layout.notes.y, maxWidth: layout.notes.width,
                    maxHeight: layout.notes.height, pixelHeight: t, color: ConsoleColors.text, markup: drawn.markup)
                notesView = "text"
            }
            line["current_rect"] = layout.current.array
            line["next_rect"] = layout.next.array
            line["notes_rect"] = layout.notes.array
        }

        // Footer: what the audience sees, or the banner when nobody can.
        let audienceText: String
        switch state.audience {
        case .black: audienceText = "Audience: BLACK (b to show the slide)"
        case .white: audienceText = "Audience: WHITE (w to show the slide)"
        case let .page(p):
            audienceText =
                state.frozenPage != nil ? "Audience: FROZEN on page \(p + 1) (f to follow)" : "Audience: page \(p + 1)"
        }
        let banner = !presenter.hasAudience
        let askingToQuit = state.isAskingToQuit(at: now)
        // A red footer: the question to end the talk, or no audience display.
        let alarm =
            askingToQuit
            ? "End the talk? Press Escape or q again. Any other key goes on."
            : banner ? "No audience display — slides show when an external screen connects" : nil
        if let alarm {
            try c.fill(
                x: 0, y: layout.footer.y, width: layout.width, height: layout.footer.height, color: ConsoleColors.banner
            )
            try c.drawText(
                alarm, x: layout.margin, y: layout.footer.y + (layout.footer.height - t * 5 / 4) / 2,
                maxWidth: layout.width - 2 * layout.margin, pixelHeight: t, color: ConsoleColors.text,
                alignment: .center)
        } else {
            var footer =
                state.isOverviewShown
                ? "Overview: arrows choose, Return goes there, Tab or Escape leaves. " + audienceText : audienceText
            switch state.pointerMode {
            case .off: break
            case .pointer: footer += "   ·   Pointer on (l to stop)"
            case .spotlight: footer += "   ·   Spotlight on (h to stop)"
            case .pen: footer += "   ·   Pen: drag on the slide (d to stop)"
            case .highlighter: footer += "   ·   Highlighter: drag on the slide (m to stop)"
            case .eraser: footer += "   ·   Eraser: drag over lines (x to stop)"
            }
            try c.drawText(
                footer, x: layout.margin, y: layout.footer.y + (layout.footer.height - t * 5 / 4) / 2,
                maxWidth: layout.width - 2 * layout.margin, pixelHeight: t, color: ConsoleColors.dim)
        }

        var summary = [
            "page": "\(state.page + 1)", "notes": notes, "banner": "\(banner)", "countdown": bar.phase,
            "audience": audienceText, "timer_running": "\(state.timer.isRunning)",
            "output": presenter.label(scene), "slide": "\(state.slide + 1)", "slides": "\(slides.count)",
            "overview": "\(state.isOverviewShown)", "notes_view": notesView, "pointer_mode": state.pointerMode.rawValue,
            "size": "\(c.pixelWidth)x\(c.pixelHeight)", "asking_to_quit": "\(askingToQuit)",
            "help": "\(state.isHelpShown)",
        ]
        if let countdown { summary["remaining_s"] = "\(Int(countdown.remaining.rounded(.down)))" }
        if let startsIn = bar.startsIn { summary["starts_in_s"] = "\(startsIn)" }
        if let selection = state.overviewSelection { summary["selected"] = "\(selection + 1)" }
        if let ready = line["thumbnails"] as? Int { summary["thumbnails"] = "\(ready)" }
        if summary != lastSummary {
            lastSummary = summary
            for (key, value) in summary where key != "remaining_s" && key != "size" { line[key] = value }
            if let countdown { line["remaining_s"] = Int(countdown.remaining.rounded(.down)) }
            line["event"] = "console"
            line["width"] = c.pixelWidth
            line["height"] = c.pixelHeight
            presenter.emit(line)
        }
    }

    /// The top bar as last drawn: the once-a-second tick repaints the bar
    /// only when what it shows changed (`TalkClock.secondPassed`).
    var drawnBar: ConsoleBar?

}
