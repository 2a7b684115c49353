import Rendering

/// What a whole frame shows, known before it is drawn: two windows of one
/// size whose frames have the same key show the same pixels.
struct SharedFrameKey: Hashable {
    /// What draws it (a mirrored video, a picture), from `newSource()`:
    /// never reused, so a source made where a freed one lived does not
    /// match its frames.
    var source: UInt64
    /// The source's picture (a mirrored video's serial, a picture's
    /// replacements).
    var version: Int
    /// What else the frame's pixels depend on (a picture's background).
    var variant: UInt32 = 0
    /// The part of the source's frame this frame is (a wall's tile); nil:
    /// all of it.
    var part: CanvasPart?
    var width: Int
    var height: Int

    @MainActor private static var sources: UInt64 = 0

    /// A source number no other source had.
    @MainActor static func newSource() -> UInt64 {
        sources += 1
        return sources
    }
}

/// A frame that is one shared picture and nothing else, held by the frame
/// (`DeferredFrame.holdShared`) until it is presented: copied from another
/// window that presented the same key, read back as it is, or drawn.
struct SharedFrame {
    let key: SharedFrameKey
    /// The picture already drawn, opaque, at the size it has in the frame
    /// (a mirrored video's kept picture), at `origin`, with black around
    /// it: read back with no draw at all.
    let source: OffscreenTarget?
    /// Where `source`'s top-left lies in the frame: (0, 0) for a picture
    /// that fills it, inside for a letterboxed one, and left of or above
    /// the frame for a wall's tile that shows a later part of the picture.
    var origin = (x: 0, y: 0)
    /// Draws it into the frame's target like any content.
    let draw: () throws -> Void

    init(
        key: SharedFrameKey, source: OffscreenTarget?, origin: (x: Int, y: Int) = (0, 0),
        draw: @escaping () throws -> Void
    ) {
        (self.key, self.source, self.origin, self.draw) = (key, source, origin, draw)
    }

    /// `part` of this frame, as a whole frame of the part's size on a
    /// window of its own (a wall's tile, the frame being the wall's
    /// canvas), drawn on `context` where it cannot be read back; nil
    /// without a source to read (then the canvas is drawn and cut).
    @MainActor
    func part(_ part: CanvasPart, drawnOn context: DrawingContext) -> SharedFrame? {
        guard let source, key.part == nil else { return nil }
        var key = self.key
        (key.part, key.width, key.height) = (part, part.width, part.height)
        let origin = (x: self.origin.x - part.x, y: self.origin.y - part.y)
        return SharedFrame(key: key, source: source, origin: origin) { [weak context] in
            guard let context else { return }
            let quads = try context.resources.quads(), target = context.target
            let placed = PixelRect(x: origin.x, y: origin.y, width: source.pixelWidth, height: source.pixelHeight)
            try quads.clear(red: 0, green: 0, blue: 0, on: target)
            try quads.draw(source, mapping: .layer, in: placed, on: target)
        }
    }
}

/// The frames that scenes of one connection presented as one shared
/// picture (one playlist's video or image on several panels), so a panel
/// of the same size showing the same picture copies the other's wl_shm
/// buffer with one memcpy instead of drawing it with GL and reading it
/// back: on a software rasteriser the second panel's draw and present cost
/// about three fifths of a panel.
///
/// Each window still presents its own buffer, on its own display link, and
/// the compositor releases each on its own; only pixels are copied, and
/// only while the buffer copied from still holds them
/// (`StagedFrame.isReadable`). A window of another size, or a frame with
/// anything else drawn on it, draws its own.
@MainActor
final class SharedFrames {
    /// What each frame gave the window.
    enum Outcome {
        /// Another window's frame, copied.
        case copied(StagedFrame)
        /// This window's own frame of the same picture, shown again (a
        /// mirrored picture drawn again while another panel catches up).
        case shownAgain(StagedFrame)
        /// Read back whole for others to copy; not yet presented.
        case readBack(StagedFrame)
        /// Drawn into the window: present it as usual.
        case drawn
        /// Nothing done: draw it and present it as usual.
        case notDrawn
    }

    /// The newest frame of each source, variant and size presented whole,
    /// in the wl_shm buffer that holds it.
    private var presented: [SharedFrameKey: StagedFrame] = [:]
    /// The size of each window that held a shared frame lately, and when.
    private var holders: [ObjectIdentifier: (width: Int, height: Int, at: UInt64)] = [:]
    /// How long a window that held a shared frame counts as sharing its
    /// size: a minute, so a playlist's pictures shown for most of one are
    /// copied at each change too. A frame read back whole where no window
    /// copies it costs what presenting it drawn whole costs.
    static let holderMemoryNs: UInt64 = 60_000_000_000

    /// Puts `frame` into `window`: a copy of another window's frame of the
    /// same key; else read back from its source; else, where another window
    /// of this size shows shared frames too, drawn (`settle` starts the
    /// frame first) and read back for it. Read-back frames are kept for
    /// the windows that follow.
    func stage(_ frame: SharedFrame, on window: WindowSurface, settle: () -> Void) throws -> Outcome {
        let key = frame.key
        let now = monotonicNanoseconds()
        holders[ObjectIdentifier(window)] = (key.width, key.height, now)
        if let shown = presented[key], shown.isReadable, shown.width == key.width, shown.height == key.height {
            let copy = try window.stageFrame(width: key.width, height: key.height, replacing: nil) { memory, stride in
                // This window's own buffer, taken again, holds it already.
                shown.copyPixels(into: memory, stride: stride)
            }
            if let copy { return shown.belongs(to: window) ? .shownAgain(copy) : .copied(copy) }
            return .notDrawn
        }
        var made: StagedFrame?
        if let source = frame.source {
            made = try window.stageFrame(readingBack: source, at: frame.origin)
        } else if sharesSize(window, key, now: now) {
            settle()
            try frame.draw()
            guard let drawn = try window.stageFrame(readingBack: nil) else { return .drawn }
            made = drawn
        }
        guard let made else { return .notDrawn }
        // One frame per source and size: the newest.
        presented = presented.filter { other, shown in
            shown.isReadable
                && (other.source, other.variant, other.part, other.width, other.height)
                    != (key.source, key.variant, key.part, key.width, key.height)
        }
        presented[key] = made
        return .readBack(made)
    }

    /// Whether another window of `key`'s size held a shared frame lately.
    private func sharesSize(_ window: WindowSurface, _ key: SharedFrameKey, now: UInt64) -> Bool {
        holders = holders.filter { now - $0.value.at <= Self.holderMemoryNs }
        let me = ObjectIdentifier(window)
        return holders.contains { $0.key != me && $0.value.width == key.width && $0.value.height == key.height }
    }

    /// Forgets every frame (the connection goes).
    func removeAll() {
        presented = [:]
        holders = [:]
    }
}
