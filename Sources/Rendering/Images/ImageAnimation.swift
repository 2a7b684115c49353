import CPixbuf
import Foundation

/// Playback of an animated GIF or WebP on a clock the caller keeps
/// (milliseconds since the animation started), so it can be driven by a
/// display link, stepped in tests, or aligned to the wall clock.
///
/// The frame shown at a moment, and when the next one is due, come from
/// gdk-pixbuf's animation iterator (loop counts included: an animation
/// that has finished stays on its last frame, `nextFrameDueMilliseconds`
/// nil).
package final class ImageAnimation {
    private let source: ImageSource
    private let animation: OpaquePointer
    private var iterator: OpaquePointer?
    /// Iterators count from this virtual moment: gdk-pixbuf's WebP iterator
    /// ignores times that are not later than the last one it saw, starting
    /// from zero.
    private static let epochMicroseconds = 1_000_000_000
    /// When the current frame started, and how long it lasts (nil: forever).
    package private(set) var frameStartMilliseconds = 0
    package private(set) var frameDelayMilliseconds: Int?
    /// Counts frame changes, for checks and statistics.
    package private(set) var frameChanges = 0

    init(source: ImageSource, animation: OpaquePointer) {
        self.source = source
        self.animation = animation
        restart()
    }

    deinit {
        if let iterator { g_object_unref(UnsafeMutableRawPointer(iterator)) }
    }

    /// When the next frame is due, in milliseconds since the start; nil
    /// once the animation has ended.
    package var nextFrameDueMilliseconds: Int? { frameDelayMilliseconds.map { frameStartMilliseconds + $0 } }

    private func restart() {
        if let iterator { g_object_unref(UnsafeMutableRawPointer(iterator)) }
        iterator = source.locked { screenplay_animation_iter_at(animation, Self.epochMicroseconds) }
        frameStartMilliseconds = 0
        readDelay(queriedAt: 0)
    }

    private func delayNow() -> Int {
        guard let iterator else { return -1 }
        return Int(source.locked { gdk_pixbuf_animation_iter_get_delay_time(iterator) })
    }

    private func step(to milliseconds: Int) {
        guard let iterator else { return }
        _ = source.locked {
            screenplay_animation_iter_advance_to(iterator, Self.epochMicroseconds + milliseconds * 1000)
        }
    }

    /// Reads how long the current frame lasts. Loaders differ in what the
    /// delay means: GIF's iterator gives the time left from the moment last
    /// asked, WebP's the frame's whole length. One more millisecond tells
    /// them apart (a count-down moves, a length does not).
    private func readDelay(queriedAt query: Int) {
        let first = delayNow()
        guard first >= 0 else { return frameDelayMilliseconds = nil }
        step(to: query + 1)
        let second = delayNow()
        let end = second < first ? query + first : frameStartMilliseconds + first
        // gdk-pixbuf holds GIF frames at least 20 ms (50 fps); so does this
        // for every format, rather than spin on a frame that claims none.
        frameDelayMilliseconds = max(end - frameStartMilliseconds, 20)
    }

    /// Moves to the frame shown `elapsed` milliseconds after the start.
    /// Returns whether the frame changed.
    @discardableResult
    package func advance(toMilliseconds elapsed: Int) -> Bool {
        var changed = false
        if elapsed < frameStartMilliseconds {
            restart()
            changed = true
        }
        while let due = nextFrameDueMilliseconds, due <= elapsed {
            // Far behind (a long pause): jump, rather than step every frame.
            let target = elapsed - due > 10_000 ? elapsed : due
            // One millisecond past the boundary: the WebP iterator counts a
            // frame's last millisecond as its own.
            step(to: target + 1)
            frameStartMilliseconds = target
            readDelay(queriedAt: target + 1)
            changed = true
        }
        if changed { frameChanges += 1 }
        return changed
    }

    /// The current frame for a target of `width` x `height` pixels (scaled
    /// down when larger, as `ImageSource.image(fitting:)`).
    package func image(fitting targetWidth: Int, height targetHeight: Int) throws(ImageError) -> DecodedImage {
        guard let iterator, let frame = source.locked({ gdk_pixbuf_animation_iter_get_pixbuf(iterator) }) else {
            throw .corrupt(path: source.path, reason: "the animation has no frame")
        }
        let size = source.size(fitting: targetWidth, height: targetHeight)
        return try source.locked { () throws(ImageError) -> DecodedImage in
            try PixelConversion.rgba(frame, path: source.path, width: size.width, height: size.height)
        }
    }
}
