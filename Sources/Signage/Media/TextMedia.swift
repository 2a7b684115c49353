import Dispatch
import Foundation
import Screenplay

/// A text item on a panel. The text is laid out and uploaded only when it
/// changes (the library keeps the laid-out block), and the panel asks for
/// no frames between changes: a file item waits on inotify, a clock on a
/// timer set to its next possible change.
@MainActor
final class TextMedia: PlayMedia {
    private let item: TextItem
    private let messages: SignageMessages
    private let clock: ClockFace?
    /// The text of a string or file item (a clock's is computed when drawn).
    private var text: String
    private(set) var failure: String?
    var isReady: Bool { failure == nil }
    var isAnimated: Bool { false }
    var onChange: (() -> Void)?
    private var redraw: (@MainActor () -> Void)?
    private var watcher: FileWatcher?
    private var timer: (any DispatchSourceTimer)?
    /// The text last drawn: a clock redraws only when its text differs.
    private var drawnText: String?
    /// The last layout measured: the same text in the same box is not measured again.
    private var measured: (text: String, width: Int, pixels: Int, size: (width: Int, height: Int))?
    /// A file that became unreadable is said once, until it reads again.
    private var toldFileProblem = false

    init(_ item: TextItem, messages: SignageMessages) {
        self.item = item
        self.messages = messages
        text = ""
        if case let .clock(format, zone) = item.content {
            clock = ClockFace(format: format, zoneName: zone)
        } else {
            clock = nil
        }
        switch item.content {
        case let .string(string): text = string
        case .clock, .ticker: break
        case let .file(path):
            switch TextItem.readFile(path) {
            case let .success(read): text = read
            case let .failure(problem): failure = problem.description
            }
            // Watched from the start, so a preloaded item is current when its turn comes.
            watcher = FileWatcher(path: path, messages: messages) { [weak self] in self?.fileChanged(path) }
        }
    }

    func attach(redraw: @escaping @MainActor () -> Void) { self.redraw = redraw }

    func prepare(in context: DrawingContext) {}

    func start() { armClock() }

    func wallClockStepped() {
        guard clock != nil else { return }
        armClock()
        redrawIfTextChanged()
    }

    func draw(in context: DrawingContext, seconds: Double, frame: Int) throws {
        let shown = clock?.text(at: wallSeconds()) ?? text
        drawnText = shown
        try context.clear(item.background)
        let width = context.pixelWidth, height = context.pixelHeight
        let padding = min(item.padding, (min(width, height) - 1) / 2)
        let boxWidth = width - 2 * padding, boxHeight = height - 2 * padding
        let pixels = item.size ?? max(1, height / 10)
        guard !shown.isEmpty else { return }
        let size: (width: Int, height: Int)
        if let measured, measured.text == shown, measured.width == boxWidth, measured.pixels == pixels {
            size = measured.size
        } else {
            size = try context.textSize(shown, maxWidth: boxWidth, pixelHeight: pixels, font: item.font)
            measured = (shown, boxWidth, pixels, size)
        }
        let blockHeight = min(size.height, boxHeight)
        let y =
            switch item.verticalAlign {
            case .top: padding
            case .center: padding + (boxHeight - blockHeight) / 2
            case .bottom: padding + boxHeight - blockHeight
            }
        try context.drawText(
            shown, x: padding, y: y, maxWidth: boxWidth, maxHeight: boxHeight, pixelHeight: pixels,
            color: item.color, alignment: item.align, font: item.font)
    }

    func release(from app: Application?) {
        watcher?.stop()
        watcher = nil
        timer?.cancel()
        timer = nil
        redraw = nil
    }

    private func fileChanged(_ path: String) {
        switch TextItem.readFile(path) {
        case let .success(read):
            toldFileProblem = false
            if failure != nil {
                // A file that could not be read when loaded: the panel
                // passed the item over, and it is tried again at its next turn.
                return
            }
            guard read != text else { return }
            text = read
            redraw?()
        case let .failure(problem):
            // Mid-save or removed: the text on screen stays.
            if !toldFileProblem {
                messages.warning("\(path): \(problem); the text on screen stays until it reads again")
            }
            toldFileProblem = true
        }
    }

    /// Wakes at the next second or minute boundary (whichever the format
    /// can change at) and redraws only if the text moved on. The timer runs
    /// on the monotonic clock; a step of the wall clock re-arms it
    /// (`wallClockStepped`).
    private func armClock() {
        guard let clock else { return }
        timer?.cancel()
        let now = wallSeconds()
        let step = clock.granularity
        let delay = ((now / step).rounded(.down) + 1) * step - now + 0.002
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + .nanoseconds(Int(delay * 1e9)), leeway: .milliseconds(1))
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                self?.redrawIfTextChanged()
                self?.armClock()
            }
        }
        timer.resume()
        self.timer = timer
    }

    private func redrawIfTextChanged() {
        guard let clock, clock.text(at: wallSeconds()) != drawnText else { return }
        redraw?()
    }
}
