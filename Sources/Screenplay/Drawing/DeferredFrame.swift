import Glibc
import Rendering

/// What a frame puts off until a drawing call needs it: the frame's start
/// (its target made current, alpha 1 across a window buffer), and a web
/// page's frame held to be presented as it is while it is the whole frame,
/// drawn like any content once something else shares the frame. So an
/// order of calls draws as it always did, and a frame that is one page's
/// own pixels needs no GL at all.
@MainActor
final class DeferredFrame {
    private let target: any RenderTarget
    private var hasBegun = false
    /// A page's frame that is the whole frame so far, already in one of
    /// the window's wl_shm buffers, and its draw should anything follow.
    private var held: (frame: StagedFrame, draw: () throws -> Void)?
    /// A shared picture that is the whole frame so far, not drawn yet
    /// (`SharedFrames` copies or reads it back), drawn like any content
    /// once something else is drawn.
    private var heldShared: SharedFrame?
    /// Nothing is held to be drawn when something else needs the frame.
    var holdsNothing: Bool { held == nil && heldShared == nil }
    /// The held page frame is a copy of another window's (`holdCopy`).
    private(set) var heldIsCopy = false
    /// A held frame's draw, or the frame's start, that failed once
    /// something else needed it.
    private(set) var error: (any Error)?

    init(target: any RenderTarget) {
        self.target = target
    }

    /// Starts the frame's drawing if it has not started (`quads` brings up
    /// the shared GL objects), and draws a held page frame.
    func settle(_ quads: () throws -> QuadRenderer) {
        if !hasBegun {
            hasBegun = true
            // Alpha 1 across a window buffer before anything is drawn (see
            // QuadRenderer.beginFrame). A GL failure here fails the frame's
            // first draw call too, which reports it.
            do {
                try target.makeCurrent()
                try quads().beginFrame(on: target)
            } catch {
                self.error = self.error ?? error
            }
        }
        if let shared = heldShared {
            heldShared = nil
            do { try shared.draw() } catch { self.error = self.error ?? error }
        }
        guard let held else { return }
        self.held = nil
        do { try held.draw() } catch { self.error = self.error ?? error }
        held.frame.release()
    }

    /// Holds `frame`, which covers the whole window, to be presented as it
    /// is when nothing else is drawn in this frame; `draw` draws it otherwise.
    /// False where frames cannot go as they are (not a window presenting
    /// through wl_shm, or another size).
    func hold(_ frame: StagedFrame, orDraw draw: @escaping () throws -> Void) -> Bool {
        guard let window = target as? WindowSurface, window.presentsThroughShm, frame.isStaged,
            frame.belongs(to: window),
            frame.width == target.pixelWidth, frame.height == target.pixelHeight
        else { return false }
        heldIsCopy = false
        // Whatever was drawn before is covered, a frame held before too
        // (its buffer back to the rotation).
        if let previous = held?.frame, previous !== frame { previous.release() }
        heldShared = nil
        held = (frame, draw)
        return true
    }

    /// Holds a copy of `frame`, a page's frame written into another
    /// window's buffer (a page shown on two screens of one size), like
    /// `hold(_:orDraw:)`: one memcpy instead of an upload, a draw and a
    /// read-back.
    func holdCopy(of frame: StagedFrame, orDraw draw: @escaping () throws -> Void) -> Bool {
        let (width, height) = (target.pixelWidth, target.pixelHeight)
        guard let window = target as? WindowSurface, window.presentsThroughShm, held == nil, frame.isReadable,
            !frame.belongs(to: window), frame.width == width, frame.height == height,
            let copy = try? window.stageFrame(
                width: width, height: height, replacing: nil, fill: { frame.copyPixels(into: $0, stride: $1) })
        else { return false }
        guard hold(copy, orDraw: draw) else {
            copy.release()
            return false
        }
        heldIsCopy = true
        return true
    }

    /// Holds a white frame written into one of the window's wl_shm buffers,
    /// like `hold(_:orDraw:)`: a page's scene before its first paint.
    func holdWhite(orDraw draw: @escaping () throws -> Void) -> Bool {
        let height = target.pixelHeight
        guard let window = target as? WindowSurface, window.presentsThroughShm, held == nil,
            let frame = try? window.stageFrame(
                width: target.pixelWidth, height: height, replacing: nil,
                fill: { memory, stride in memset(memory, 0xff, stride * height) })
        else { return false }
        guard hold(frame, orDraw: draw) else {
            frame.release()
            return false
        }
        return true
    }

    /// Holds `frame`, a shared picture covering the whole window, while
    /// nothing has been drawn and the whole window is repainted through
    /// wl_shm; false otherwise (then draw it). On a wall canvas's layer
    /// (`holdsForPart`), a frame with a picture to read back is held for
    /// the tile to take (`LayerComposite`).
    func holdShared(_ frame: SharedFrame) -> Bool {
        guard holdsForPart ? frame.source != nil && !hasBegun && held == nil : mayHoldShared,
            frame.key.width == target.pixelWidth, frame.key.height == target.pixelHeight
        else { return false }
        heldShared = frame
        return true
    }

    /// A layer that is a wall's canvas, one tile's part of which is shown
    /// one to one on a window whose frame may hold a shared frame: a shared
    /// picture drawn as the whole canvas waits here for the tile to read
    /// its part back (`LayerComposite`), and is drawn into the layer once
    /// anything else is.
    var holdsForPart = false

    /// Whether a shared frame of the window's size would be held: nothing
    /// drawn or held yet, the whole window repainted through wl_shm.
    var mayHoldShared: Bool {
        guard !hasBegun, held == nil, target.clip == nil, let window = target as? WindowSurface else { return false }
        return window.presentsThroughShm && window.hasGraphicsContext
    }

    /// The shared picture held (`holdShared`) while nothing else is drawn.
    var heldSharedFrame: SharedFrame? { heldShared }

    /// The held shared picture, if the frame is nothing else; the frame is
    /// then not started, and drawing it is the caller's.
    func takeShared() -> SharedFrame? {
        defer { heldShared = nil }
        return heldShared
    }

    /// The held page frame, if the frame is nothing else; nil (and the
    /// frame settled) otherwise.
    func take(_ quads: () throws -> QuadRenderer) -> StagedFrame? {
        guard let held, held.frame.isStaged else {
            settle(quads)
            return nil
        }
        self.held = nil
        return held.frame
    }
}
