import Foundation
import Screenplay

/// A ticker: one line of text scrolling from the right edge of the panel
/// to the left until it has gone, then again from the right. It moves by
/// exactly speed × refresh interval (the display link's duration) every
/// frame it draws, whatever the time the draw happens to run: a draw that
/// runs late still moves one refresh's worth, so the motion has no judder
/// from the event loop's timing. A step that is not a whole number of
/// pixels (120 px/s at 75 Hz: 1.6 px) is drawn between pixels, so the line
/// moves 1.6 px each refresh and not 1, 2, 2, 1, 2. A refresh the
/// compositor skips is not made up: the line is late by one step rather
/// than jumping two. A file source is re-read before each pass, so the
/// text never changes under the reader's eyes.
@MainActor
final class TickerMedia: PlayMedia {
    private let item: TextItem
    private let messages: SignageMessages
    private let speed: Double
    private let path: String?
    private weak var scene: Scene?
    /// The text of this pass.
    private var text: String
    /// The left edge of the line on the last frame drawn; nil: the next frame starts a pass.
    private var offset: Double?
    /// The line's width and height in this pass.
    private var lineSize: (width: Int, height: Int)?
    private(set) var failure: String?
    /// The line was laid out and uploaded before its turn (`prepare`).
    private var prepared = false
    var isReady: Bool { prepared && failure == nil }
    var isAnimated: Bool { true }
    var onChange: (() -> Void)?
    /// A file that became unreadable is said once, until it reads again.
    private var toldFileProblem = false
    /// The step of the last frame, for the per-frame probe (with the
    /// position and the line's width, which changes only as a pass starts).
    private var lastStep = 0.0

    init(_ item: TextItem, scene: Scene, messages: SignageMessages) {
        self.item = item
        self.messages = messages
        self.scene = scene
        guard case let .ticker(text, path, speed) = item.content else {
            preconditionFailure("TickerMedia is made for ticker items only")
        }
        self.speed = speed
        self.path = path
        self.text = Self.oneLine(text ?? "")
        if let path {
            switch TextItem.readFile(path) {
            case let .success(read): self.text = Self.oneLine(read)
            case let .failure(problem): failure = problem.description
            }
        }
    }

    /// Lays out and uploads the first pass's line before the item's turn,
    /// drawn just beyond the right edge where nothing of it shows: the
    /// first frame costs no layout, and a line too long for the GPU is
    /// skipped before it shows a frame of background.
    func prepare(in context: DrawingContext) {
        guard !prepared, failure == nil else { return }
        do {
            try context.drawTextLine(
                text, x: Double(context.pixelWidth), y: 0, pixelHeight: item.size ?? max(1, context.pixelHeight / 10),
                color: item.color, font: item.font)
            prepared = true
        } catch {
            failure = Self.cannotDraw(error)
        }
    }

    private static func cannotDraw(_ error: any Error) -> String {
        "the line cannot be drawn (\(error)); shorten the text or make it smaller"
    }

    func draw(in context: DrawingContext, seconds: Double, frame: Int) throws {
        try context.clear(item.background)
        let width = context.pixelWidth, height = context.pixelHeight
        let pixels = item.size ?? max(1, height / 10)
        lastStep = speed * (scene?.displayLink.duration ?? 1.0 / 60)
        let x: Double
        if let offset, let lineSize, offset + Double(lineSize.width) > 0 {
            x = offset - lastStep
        } else {
            startPass()
            x = Double(width)
            lineSize = try context.textSize(text, maxWidth: nil, pixelHeight: pixels, font: item.font)
        }
        offset = x
        guard let lineSize, lineSize.width > 0 else { return }
        let padding = min(item.padding, (height - 1) / 2)
        let boxHeight = height - 2 * padding
        let y =
            switch item.verticalAlign {
            case .top: padding
            case .center: padding + (boxHeight - lineSize.height) / 2
            case .bottom: padding + boxHeight - lineSize.height
            }
        do {
            try context.drawTextLine(text, x: x, y: y, pixelHeight: pixels, color: item.color, font: item.font)
        } catch {
            // A line longer than the GPU's largest texture: skipped like a
            // video that fails part-way, the next item coming on.
            failure = Self.cannotDraw(error)
            onChange?()
        }
    }

    /// A new pass: a file source is read again; a save that left it
    /// unreadable keeps the last text.
    private func startPass() {
        guard let path else { return }
        switch TextItem.readFile(path) {
        case let .success(read):
            toldFileProblem = false
            text = Self.oneLine(read)
        case let .failure(problem):
            if !toldFileProblem {
                messages.warning("\(path): \(problem); the ticker runs its last text until it reads again")
            }
            toldFileProblem = true
        }
    }

    /// A ticker is one line: a file's lines run on, joined by spaces.
    nonisolated static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    func release(from app: Application?) {}

    var probeValues: [String: Any] {
        guard let offset else { return [:] }
        return ["ticker_x": offset, "ticker_step": lastStep, "ticker_width": lineSize?.width ?? 0]
    }
}
