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

    /// What the top bar shows at `now` (monotonic seconds) and `date`;
    /// `clock` is the wall clock's text (nil: hidden).
    init(state: PresenterState, pageCount: Int, timing: TalkTiming, clock: String?, now: Double, date: Date) {
        let slides = state.slides
        var pageText: String
        if slides.hasOverlays {
            // Overlays count as one slide; the step within it follows.
            let overlay = slides.overlay(ofPage: state.page)
            pageText = "Slide \(state.slide + 1) / \(slides.count)"
            if overlay.steps > 1 { pageText += "  (\(overlay.step)/\(overlay.steps))" }
        } else {
            pageText = "Page \(state.page + 1) / \(pageCount)"
        }
        if !state.typed.isEmpty { pageText += "  → \(state.typed)_" }
        let elapsed = state.timer.elapsed(at: now)
        var timerText = formatDuration(elapsed)
        var startsIn: Int?
        if !state.timer.hasStarted, state.timerWaitsForStart, let startsAt = timing.startsAt {
            startsIn = max(0, Int(startsAt.timeIntervalSince(date).rounded(.up)))
            timerText = "starts in " + formatDuration(Double(startsIn ?? 0))
        } else if !state.timer.hasStarted {
            timerText += " (starts on the first page change)"
        } else if !state.timer.isRunning {
            timerText += " paused"
        }
        (page, timer, timerColor, timerIsBig) = (pageText, timerText, ConsoleColors.text, state.timer.hasStarted)
        (self.clock, phase, self.startsIn) = (clock, "none", startsIn)
        if let countdown = timing.countdown(elapsed: elapsed, now: date) {
            timer += "   " + (countdown.phase == .over ? "over \(countdown.text)" : "\(countdown.text) left")
            timerIsBig = true
            switch countdown.phase {
            case .normal: phase = "normal"
            case .amber: (phase, timerColor) = ("amber", ConsoleColors.amber)
            case .over: (phase, timerColor) = ("over", ConsoleColors.red)
            }
        }
    }
}

extension ConsoleLayout.Rect {
    func contains(x px: Double, y py: Double) -> Bool {
        px >= Double(x) && px < Double(x + width) && py >= Double(y) && py < Double(y + height)
    }
}
