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
    /// The whole frame already drawn, opaque, at the window's size (a
    /// mirrored video's kept picture): read back with no draw at all.
    let source: OffscreenTarget?
    /// Draws it into the frame's target like any content.
    let draw: () throws -> Void
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
            if let copy { return .copied(copy) }
            return .notDrawn
        }
        var made: StagedFrame?
        if let source = frame.source {
            made = try window.stageFrame(readingBack: source)
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
                && (other.source, other.variant, other.width, other.height)
                    != (key.source, key.variant, key.width, key.height)
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
