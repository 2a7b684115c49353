import Documents
import Foundation
import Screenplay

/// Where the console puts things, in pixels, from the window size. Sizes
/// scale with the window so text stays readable from 1280x720 up.
struct ConsoleLayout: Equatable {
    struct Rect: Equatable {
        var x, y, width, height: Int
        var size: PixelSize { PixelSize(width: width, height: height) }
        /// [x, y, width, height], as `--stats` writes it.
        var array: [Int] { [x, y, width, height] }
    }
    let width: Int
    let height: Int
    let margin: Int
    let bar: Rect
    let current: Rect
    let next: Rect
    let notes: Rect
    let footer: Rect
    /// Body text height in pixels.
    let textSize: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        margin = max(8, height / 60)
        textSize = max(16, height / 32)
        let barHeight = max(40, height * 9 / 100)
        bar = Rect(x: 0, y: 0, width: width, height: barHeight)
        let footerHeight = max(30, textSize * 2)
        footer = Rect(x: 0, y: height - footerHeight, width: width, height: footerHeight)
        let label = textSize + margin / 2
        let top = barHeight + margin + label
        let bottom = footer.y - margin
        let leftWidth = max(1, width * 60 / 100 - margin * 3 / 2)
        let currentHeight = max(1, min(bottom - top, leftWidth * 9 / 16))
        current = Rect(x: margin, y: top, width: leftWidth, height: currentHeight)
        let rightX = width * 60 / 100 + margin / 2
        let rightWidth = max(1, width - rightX - margin)
        let nextHeight = max(1, min((bottom - top) / 2, rightWidth * 9 / 16))
        next = Rect(x: rightX, y: top, width: rightWidth, height: nextHeight)
        let notesTop = top + nextHeight + margin + label
        notes = Rect(x: rightX, y: notesTop, width: rightWidth, height: max(1, bottom - notesTop))
    }

    /// The overview: a grid of thumbnails between the bar and the footer.
    struct Overview: Equatable {
        /// Slides per row.
        let columns: Int
        /// Thumbnail size (every cell's).
        let thumbnail: PixelSize
        /// The slides on screen and where each goes; a long talk is shown a
        /// screenful of rows at a time, the one with the selection.
        let cells: [Cell]
        struct Cell: Equatable {
            var slide: Int
            var rect: Rect
        }
    }

    /// Lays out `count` slides of `aspect` (width / height) as large as
    /// they fit, never narrower than a readable minimum (then the grid
    /// scrolls a screenful at a time).
    func overview(count: Int, aspect: Double, selected: Int) -> Overview {
        let gap = margin
        let area = Rect(
            x: margin, y: bar.height + margin, width: max(1, width - 2 * margin),
            height: max(1, footer.y - margin - bar.height - margin))
        let ratio = aspect > 0 && aspect.isFinite ? aspect : 16.0 / 9
        let count = max(1, count)
        var best = (columns: 1, width: 0.0)
        for columns in 1...count {
            let rows = (count + columns - 1) / columns
            let cellWidth = Double(area.width - gap * (columns - 1)) / Double(columns)
            let cellHeight = Double(area.height - gap * (rows - 1)) / Double(rows)
            let w = min(cellWidth, cellHeight * ratio)
            if w > best.width { best = (columns, w) }
        }
        let minimum = Double(max(96, area.width / 8))
        var columns = best.columns
        var thumbWidth = best.width
        if thumbWidth < minimum {
            thumbWidth = minimum
            columns = max(1, (area.width + gap) / (Int(minimum) + gap))
        }
        let thumb = PixelSize(width: max(1, Int(thumbWidth)), height: max(1, Int(thumbWidth / ratio)))
        let rowsShown = max(1, (area.height + gap) / (thumb.height + gap))
        let perScreen = rowsShown * columns
        let first = (min(max(0, selected), count - 1) / perScreen) * perScreen
        // Centre the grid in the area.
        let usedColumns = min(columns, count)
        let usedRows = min(rowsShown, (min(count - first, perScreen) + columns - 1) / columns)
        let x0 = area.x + (area.width - (usedColumns * thumb.width + (usedColumns - 1) * gap)) / 2
        let y0 = area.y + (area.height - (usedRows * thumb.height + (usedRows - 1) * gap)) / 2
        var cells: [Overview.Cell] = []
        for slide in first..<min(count, first + perScreen) {
            let i = slide - first
            cells.append(
                Overview.Cell(
                    slide: slide,
                    rect: Rect(
                        x: x0 + i % columns * (thumb.width + gap), y: y0 + i / columns * (thumb.height + gap),
                        width: thumb.width, height: thumb.height)))
        }
        return Overview(columns: columns, thumbnail: thumb, cells: cells)
    }
}

enum ConsoleColors {
    static let background = RGBColor(hex: 0x181818)
    static let bar = RGBColor(hex: 0x262626)
    static let text = RGBColor(hex: 0xf2f2f2)
    static let dim = RGBColor(hex: 0x9a9a9a)
    static let slotEmpty = RGBColor(hex: 0x303030)
    static let amber = RGBColor(hex: 0xffbf00)
    static let red = RGBColor(hex: 0xff3b30)
    static let banner = RGBColor(hex: 0xb00020)
}

/// What the console's top bar shows.
struct ConsoleBar: Equatable {
    var page: String
    var timer: String
    var timerColor: RGBColor
    /// The timer at the bar's full size (once it runs or counts down).
    var timerIsBig: Bool
    /// The wall clock; nil with `--no-clock`.
    var clock: String?
    /// The countdown's phase for `--stats`: none, normal, amber or over.
    var phase: String
    /// Seconds until a start time (`--start-time`) starts the timer.
    var startsIn: Int?
}

/// The speaker's window: current and next slide, notes, timers, clock.
@MainActor
final class ConsoleDelegate: SceneDelegate {
    unowned let presenter: Presenter
    private var lastSummary: [String: String] = [:]
    /// Stills (first pictures) of the current slide's videos, with a play marker.
    private let stills = SlideVideoPlayers()
    /// The current slide's drawing, kept between whole frames.
    private let ink = InkLayer()
    private let clockFormat: DateFormatter = {
        let f = DateFormatter()
        f.dateFormat = "HH:mm:ss"
        return f
    }()

    init(presenter: Presenter) { self.presenter = presenter }

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
        presenter.stop(reason: "console closed")
    }

    func scene(_ scene: Scene, didReceiveKey event: KeyEvent) { presenter.handle(event) }

    /// Pointing at the current slide moves the pointer on every screen; in
    /// a drawing mode a left press on the slide draws there instead of
    /// going on (a click without motion leaves a dot), until released.
    /// Presses elsewhere on the console, and the right button, do as always.
    func scene(_ scene: Scene, didReceivePointer event: PointerEvent) {
        switch event.kind {
        case .entered, .moved:
            if presenter.state.drawings.isDrawing, let point = clampedSlidePoint(scene, x: event.x, y: event.y) {
                presenter.inkMoved(to: point)
            }
            presenter.pointerMoved(to: slidePoint(scene, x: event.x, y: event.y))
        case .left:
            presenter.inkEnded()
            presenter.pointerMoved(to: nil)
        case .pressed(.left) where presenter.state.pointerMode.tool != nil:
            if let point = inkPoint(scene, x: event.x, y: event.y), presenter.inkBegan(at: point) { return }
            presenter.consoleClicked(
                .left, x: event.x, y: event.y, width: scene.pixelSize.width, height: scene.pixelSize.height)
        case let .pressed(button):
            presenter.consoleClicked(
                button, x: event.x, y: event.y, width: scene.pixelSize.width, height: scene.pixelSize.height)
        case let .scrolled(_, dy):
            presenter.consoleScrolled(dy)
        case .released(.left):
            presenter.inkEnded()
        case .released:
            break
        }
    }

    /// The first finger draws as the left button does in a drawing mode;
    /// touch does nothing else on the console.
    func scene(_ scene: Scene, didReceiveTouch event: TouchEvent) {
        switch event.kind {
        case .began:
            guard drawingTouch == nil, let point = inkPoint(scene, x: event.x, y: event.y),
                presenter.inkBegan(at: point)
            else { return }
            drawingTouch = event.id
        case .moved:
            guard event.id == drawingTouch, let point = clampedSlidePoint(scene, x: event.x, y: event.y) else {
                return
            }
            presenter.inkMoved(to: point)
        case .ended, .cancelled:
            guard event.id == drawingTouch else { return }
            drawingTouch = nil
            presenter.inkEnded()
        }
    }
    /// The touch point drawing a line, if one is.
    private var drawingTouch: Int?

    /// The slide point a press draws at: on the current slide, and not
    /// while the key list covers it.
    private func inkPoint(_ scene: Scene, x: Double, y: Double) -> SlidePoint? {
        presenter.consoleSlideFrame(width: scene.pixelSize.width, height: scene.pixelSize.height)?.point(atX: x, y: y)
    }

    private func clampedSlidePoint(_ scene: Scene, x: Double, y: Double) -> SlidePoint? {
        presenter.consoleSlideFrame(width: scene.pixelSize.width, height: scene.pixelSize.height)?
            .clampedPoint(atX: x, y: y)
    }

    /// Where the current slide lies in the console (nil in the overview,
    /// which shows no current slide).
    private func currentSlideFrame(width: Int, height: Int) -> SlideFrame? {
        guard !presenter.state.isOverviewShown else { return nil }
        let slide = presenter.slideSize(page: presenter.state.page)
        return SlideFrame(
            slideWidth: slide.width, slideHeight: slide.height, in: ConsoleLayout(width: width, height: height).current)
    }

    private func slidePoint(_ scene: Scene, x: Double, y: Double) -> SlidePoint? {
        currentSlideFrame(width: scene.pixelSize.width, height: scene.pixelSize.height)?.point(atX: x, y: y)
    }

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
        let countdown = presenter.timing.countdown(elapsed: state.timer.elapsed(at: now), now: Date())

        let notes = presenter.notesText(page: state.page)
        var line: [String: Any] = [:]
        var notesView = "none"
        if state.isHelpShown {
            try ConsoleKeyList.draw(layout, own: presenter.keys.described, c)
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
            if let frame = currentSlideFrame(width: c.pixelWidth, height: c.pixelHeight) {
                try presenter.drawInk(slide: state.slide, on: frame, layer: ink, c)
            }
            // What the room sees of the pointer, over the speaker's slide.
            if let pointer = presenter.consolePointer,
                let frame = currentSlideFrame(width: c.pixelWidth, height: c.pixelHeight)
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
            let editor = presenter.notesEditor
            try c.drawText(
                editor == nil ? "Notes" : "Notes, editing: Escape saves to \(presenter.pdfpcFileName)",
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
            } else if let position = presenter.notesPosition {
                try drawSlide(page: state.page, in: layout.notes, region: position.notesRegion, c)
                notesView = "page"
            } else if !notes.isEmpty {
                let drawn = presenter.notesForDrawing(page: state.page)
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
    /// only when what it shows changed (`Presenter.secondPassed`).
    private(set) var drawnBar: ConsoleBar?

    /// What the top bar shows at `now` (monotonic seconds) and `date`.
    func bar(at now: Double, date: Date) -> ConsoleBar {
        let state = presenter.state
        let slides = state.slides
        var pageText: String
        if slides.hasOverlays {
            // Overlays count as one slide; the step within it follows.
            let overlay = slides.overlay(ofPage: state.page)
            pageText = "Slide \(state.slide + 1) / \(slides.count)"
            if overlay.steps > 1 { pageText += "  (\(overlay.step)/\(overlay.steps))" }
        } else {
            pageText = "Page \(state.page + 1) / \(presenter.document.pageCount)"
        }
        if !state.typed.isEmpty { pageText += "  → \(state.typed)_" }
        let elapsed = state.timer.elapsed(at: now)
        var timerText = formatDuration(elapsed)
        var startsIn: Int?
        if !state.timer.hasStarted, state.timerWaitsForStart, let startsAt = presenter.timing.startsAt {
            startsIn = max(0, Int(startsAt.timeIntervalSince(date).rounded(.up)))
            timerText = "starts in " + formatDuration(Double(startsIn ?? 0))
        } else if !state.timer.hasStarted {
            timerText += " (starts on the first page change)"
        } else if !state.timer.isRunning {
            timerText += " paused"
        }
        var bar = ConsoleBar(
            page: pageText, timer: timerText, timerColor: ConsoleColors.text, timerIsBig: state.timer.hasStarted,
            clock: presenter.command.showsClock ? clockFormat.string(from: date) : nil, phase: "none",
            startsIn: startsIn)
        if let countdown = presenter.timing.countdown(elapsed: elapsed, now: date) {
            bar.timer += "   " + (countdown.phase == .over ? "over \(countdown.text)" : "\(countdown.text) left")
            bar.timerIsBig = true
            switch countdown.phase {
            case .normal: bar.phase = "normal"
            case .amber: (bar.phase, bar.timerColor) = ("amber", ConsoleColors.amber)
            case .over: (bar.phase, bar.timerColor) = ("over", ConsoleColors.red)
            }
        }
        return bar
    }

    private func drawBar(_ bar: ConsoleBar, _ layout: ConsoleLayout, _ c: DrawingContext) throws {
        try c.fill(x: 0, y: 0, width: layout.width, height: layout.bar.height, color: ConsoleColors.bar)
        let big = layout.bar.height * 6 / 10
        let barY = (layout.bar.height - big * 5 / 4) / 2
        let third = layout.width / 3
        try c.drawText(
            bar.page, x: layout.margin, y: barY, maxWidth: third, pixelHeight: big, color: ConsoleColors.text)
        try c.drawText(
            bar.timer, x: third / 2, y: barY, maxWidth: third * 2,
            pixelHeight: bar.timerIsBig ? big : max(layout.textSize, big * 2 / 3), color: bar.timerColor,
            alignment: .center)
        if let clock = bar.clock {
            try c.drawText(
                clock, x: layout.width - third - layout.margin, y: barY, maxWidth: third, pixelHeight: big,
                color: ConsoleColors.text, alignment: .right)
        }
        drawnBar = bar
    }

    /// The overview grid: one thumbnail per slide (fully built), the
    /// selection framed. Returns what `--stats` reports of it.
    private func drawOverview(_ layout: ConsoleLayout, selection: Int, _ c: DrawingContext) throws -> [String: Any] {
        let slides = presenter.state.slides
        let grid = layout.overview(count: slides.count, aspect: presenter.overviewAspect, selected: selection)
        presenter.setOverviewColumns(grid.columns)
        presenter.wantThumbnails(size: grid.thumbnail)
        var selectedRect: ConsoleLayout.Rect?
        let border = max(3, layout.margin / 2)
        for cell in grid.cells {
            let r = cell.rect
            if cell.slide == selection {
                selectedRect = r
                try c.fill(
                    x: r.x - border, y: r.y - border, width: r.width + 2 * border, height: r.height + 2 * border,
                    color: ConsoleColors.amber)
            }
            if let picture = presenter.thumbnails.picture(page: slides.lastPage(ofSlide: cell.slide)) {
                try c.draw(picture, x: r.x, y: r.y, width: r.width, height: r.height)
            } else {
                try c.fill(x: r.x, y: r.y, width: r.width, height: r.height, color: ConsoleColors.slotEmpty)
            }
        }
        var line: [String: Any] = ["thumbnails": presenter.thumbnails.readyCount, "columns": grid.columns]
        if let selectedRect { line["selected_rect"] = selectedRect.array }
        return line
    }

    /// The current slide's videos as stills (their first picture, not
    /// playing) with a play marker, where the audience sees them play.
    private func drawStills(page: Int, in rect: ConsoleLayout.Rect, scene: Scene, _ c: DrawingContext) throws {
        let videos = presenter.slideVideos[page] ?? []
        if stills.page != page, !videos.isEmpty || stills.page != nil {
            stills.showSoon { [weak self, weak scene] in
                guard let self, let scene else { return }
                self.stills.show(
                    page: videos.isEmpty ? nil : page, videos: videos, in: scene, play: false, audio: false,
                    loops: false)
            }
        }
        guard stills.page == page else { return }
        let slide = presenter.slideSize(page: page)
        for (video, player) in stills.players {
            let r = video.pixelRect(
                slideWidth: slide.width, slideHeight: slide.height, in: (rect.x, rect.y, rect.width, rect.height))
            guard r.width > 0, r.height > 0 else { continue }
            if player.hasPicture {
                try c.drawVideo(player, x: r.x, y: r.y, width: r.width, height: r.height)
            } else {
                try c.fill(x: r.x, y: r.y, width: r.width, height: r.height, color: ConsoleColors.slotEmpty)
            }
            // The play marker: a white triangle on a dark disc-like square.
            let side = max(8, min(r.width, r.height) / 3)
            try c.fill(
                x: r.x + (r.width - side) / 2, y: r.y + (r.height - side) / 2, width: side, height: side,
                color: RGBColor(hex: 0x202020))
            try c.drawText(
                "▶", x: r.x, y: r.y + (r.height - side) / 2, maxWidth: r.width, pixelHeight: side * 4 / 5,
                color: .white, alignment: .center)
        }
    }

    private func drawSlide(page: Int, in rect: ConsoleLayout.Rect, region: PageRegion? = nil, _ c: DrawingContext)
        throws
    {
        let region = region ?? presenter.slideRegion
        if let picture = presenter.cache.picture(SlideKey(page: page, size: rect.size, region: region)) {
            try c.draw(picture, x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        } else if let picture = presenter.cache.anyPicture(page: page, region: region) {
            let fit = fitRect(
                contentWidth: Double(picture.width), contentHeight: Double(picture.height), width: rect.width,
                height: rect.height)
            try c.fill(x: rect.x, y: rect.y, width: rect.width, height: rect.height, color: .black)
            try c.draw(picture, x: rect.x + fit.x, y: rect.y + fit.y, width: fit.width, height: fit.height)
        } else {
            try c.fill(x: rect.x, y: rect.y, width: rect.width, height: rect.height, color: ConsoleColors.slotEmpty)
        }
    }
}

/// The audience's view of the talk: the current page, black, white, or the
/// frozen page, edge to edge at the screen's pixel size.
@MainActor
final class AudienceDelegate: SceneDelegate {
    unowned let presenter: Presenter
    private var isConnected = false
    /// The shown page's videos, playing in their rectangles.
    private let videos = SlideVideoPlayers()
    /// The slide's drawing, kept between whole frames (a moving pointer
    /// dot, a video's pictures redraw the whole screen).
    private let inkLayer = InkLayer()
    let placeholderDelay = PlaceholderDelay()

    init(presenter: Presenter) { self.presenter = presenter }

    func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        isConnected = true
        presenter.audienceConnected(scene)
    }

    func sceneDidDisconnect(_ scene: Scene) {
        videos.closeAll()
        guard isConnected else { return }
        isConnected = false
        presenter.audienceDisconnected(scene)
    }

    /// While videos play, a refresh draws only when one has a new picture.
    func sceneShouldDrawFrame(_ scene: Scene) -> Bool {
        videos.players.isEmpty ? true : videos.refreshIsDue()
    }

    func sceneDidResize(_ scene: Scene) { presenter.audienceResized(scene) }

    /// Only the --rehearse window gets keys; they drive the talk as the console's do.
    func scene(_ scene: Scene, didReceiveKey event: KeyEvent) { presenter.handle(event) }

    func draw(_ scene: Scene, in c: DrawingContext) throws {
        let content: String
        var pointer: String?
        var ink = 0
        switch presenter.state.audience {
        case .black:
            try c.clear(.black)
            content = "black"
        case .white:
            try c.clear(.white)
            content = "white"
        case let .page(p):
            syncVideos(page: p, scene: scene)
            let region = presenter.slideRegion
            let key = SlideKey(page: p, size: PixelSize(width: c.pixelWidth, height: c.pixelHeight), region: region)
            if let picture = presenter.cache.picture(key) {
                try c.draw(picture, x: 0, y: 0, width: c.pixelWidth, height: c.pixelHeight)
                content = "page \(p + 1)"
                try drawVideos(page: p, scene: scene, c)
                ink = try drawInk(page: p, c)
                pointer = try drawPointer(page: p, c)
            } else if let picture = presenter.cache.anyPicture(page: p, region: region) {
                // Another size of the page, scaled, until the exact one is rendered.
                try c.drawFitted(picture)
                content = "page \(p + 1) scaled"
                ink = try drawInk(page: p, c)
                pointer = try drawPointer(page: p, c)
            } else {
                try c.clear(.black)
                content = "rendering page \(p + 1)"
            }
        }
        if case .page = presenter.state.audience {} else { syncVideos(page: nil, scene: scene) }
        // Once per change, not per video frame. A drawing's change is a frame of
        // its own: `ink_version` and the part repainted say what each one cost.
        let drawn = Drawn(
            content: content, keyNs: presenter.lastKeyNs, pointer: pointer,
            inkVersion: ink > 0 ? presenter.state.drawings.version : nil)
        guard drawn != lastDrawn else { return }
        lastDrawn = drawn
        var line: [String: Any] = [
            "event": "drawn", "output": presenter.label(scene), "content": content, "key_ns": presenter.lastKeyNs,
            "lines": ink, "redraw_rect": [c.redrawRect.x, c.redrawRect.y, c.redrawRect.width, c.redrawRect.height],
        ]
        if let waited = placeholderDelay.waitedMs(nowNs: monotonicNanoseconds()) { line["waited_ms"] = waited }
        if let pointer { line["pointer"] = pointer }
        if let version = drawn.inkVersion {
            line["ink_version"] = version
            line["ink_rasterized_px"] = inkLayer.rasterizedPixels
        }
        presenter.emit(line)
    }

    private struct Drawn: Equatable {
        var content: String
        var keyNs: UInt64
        var pointer: String?
        var inkVersion: Int?
    }

    /// The lines drawn on the page's slide, over it; how many there are.
    private func drawInk(page: Int, _ c: DrawingContext) throws -> Int {
        let frame = presenter.audienceSlideFrame(page: page, width: c.pixelWidth, height: c.pixelHeight)
        return try presenter.drawInk(
            slide: presenter.state.slides.slide(ofPage: page), on: frame, layer: inkLayer, c)
    }
    private var lastDrawn: Drawn?

    /// The pointer dot or spotlight over the slide, where the speaker points
    /// on the console; says what it drew for `--stats`: the mode and the pixel
    /// of the point ("pointer 256,240").
    private func drawPointer(page: Int, _ c: DrawingContext) throws -> String? {
        guard let pointer = presenter.audiencePointer else { return nil }
        let slide = presenter.slideSize(page: page)
        let frame = SlideFrame(
            slideWidth: slide.width, slideHeight: slide.height,
            in: ConsoleLayout.Rect(x: 0, y: 0, width: c.pixelWidth, height: c.pixelHeight))
        try PointerLook.draw(pointer.mode, at: pointer.point, on: frame, c)
        let (x, y) = frame.position(of: pointer.point)
        return "\(pointer.mode.rawValue) \(Int(x.rounded(.down))),\(Int(y.rounded(.down)))"
    }

    /// The page's videos in their rectangles, muted unless the talk has --audio.
    private func drawVideos(page: Int, scene: Scene, _ c: DrawingContext) throws {
        syncVideos(page: page, scene: scene)
        guard videos.page == page else { return }
        let slide = presenter.slideSize(page: page)
        for (video, player) in videos.players where player.hasPicture {
            let r = video.pixelRect(
                slideWidth: slide.width, slideHeight: slide.height, in: (0, 0, c.pixelWidth, c.pixelHeight))
            try c.drawVideo(player, x: r.x, y: r.y, width: r.width, height: r.height)
        }
    }

    private func syncVideos(page: Int?, scene: Scene) {
        let list = page.flatMap { presenter.slideVideos[$0] } ?? []
        let wanted = list.isEmpty ? nil : page
        guard wanted != videos.page else { return }
        videos.showSoon { [weak self, weak scene] in
            guard let self, let scene, self.isConnected else { return }
            self.videos.show(
                page: wanted, videos: list, in: scene, play: true, audio: self.presenter.playsSound(scene), loops: true)
            if wanted == nil { scene.displayLink.isPaused = true }
            for (video, _) in self.videos.players {
                self.presenter.emit([
                    "event": "slide_video", "output": self.presenter.label(scene), "page": (wanted ?? 0) + 1,
                    "path": video.path,
                ])
            }
        }
    }
}
