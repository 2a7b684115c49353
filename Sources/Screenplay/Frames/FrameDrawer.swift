import Rendering
import WaylandClient

/// One frame of a scene drawn into its window and presented: the target
/// (the window, or the scene's own copy of its picture where the driver
/// does not tell the back buffer's age), the repaint region (this frame's
/// damage and what the buffer missed, `DamageHistory`) as the scissor, the
/// delegate's draw through a `DrawingContext`, then the buffer presented
/// with its damage, or a web page's held frame presented as it is. It
/// keeps what carries from one frame to the next and counts what it drew.
@MainActor
final class FrameDrawer {
    /// The damage of recent frames, for buffers of age above 1.
    private var damageHistory = DamageHistory()
    /// The scene's own copy of its picture where buffer age is not offered.
    private var retainedFrame = RetainedFrame()
    /// The back buffer's age (EGL_EXT_buffer_age) at the last frame drawn;
    /// 0 when unknown.
    private(set) var lastBufferAge = 0
    /// How many times the delegate was asked to draw.
    private(set) var drawCount = 0
    /// How many pixels the draws repainted, in all.
    private(set) var redrawnPixels = 0
    /// How many frames went to the compositor as a web page's own pixels.
    private(set) var framesPresentedAsIs = 0
    /// How many frames were copies of the same shared picture or web
    /// page frame another scene presented or holds (`SharedFrames`,
    /// `DeferredFrame.holdCopy`), neither drawn nor read back.
    private(set) var framesCopied = 0
    /// How many frames were read straight from a shared picture into the
    /// window's wl_shm buffer, not drawn (`SharedFrame.source`: a mirrored
    /// video at its own size, a wall's tile's part of it).
    private(set) var framesReadBack = 0

    /// What a frame goes through besides its window: the graphics every
    /// scene shares, where its shown frames are tracked and its reads
    /// delivered, the surface it commits, and where failures go.
    struct Outlets {
        let graphics: SharedGraphics
        let feedback: SceneFeedback
        let captures: FrameCaptures
        let surface: Surface
        let screenName: String?
        let report: (any Error) -> Void
    }

    /// Draws `damage` (nil: everything) of `window` with `draw` and
    /// presents it. `bringUpGL` brings GL up before `draw` decides what to
    /// draw, so the time from that decision to the frame shown does not
    /// include loading the driver; a scene with a web page leaves it to the
    /// frame's first GL call, which a frame presented as it is never makes.
    func draw(
        _ damage: [SceneRect]?, of window: WindowSurface, bringUpGL: Bool, feedbackToken: UInt64?,
        _ outlets: Outlets, draw: (DrawingContext) throws -> Void
    ) throws {
        let bounds = SceneRect(x: 0, y: 0, width: window.pixelWidth, height: window.pixelHeight)
        var target: any RenderTarget = window
        if !window.hasGraphicsContext, bringUpGL { try window.makeCurrent() }
        window.beginFrame(damage: damage?.map(\.pixelRect))
        let graphics = window.presentsThroughShm ? nil : try outlets.graphics.resources()
        if graphics != nil { try window.makeCurrent() }
        lastBufferAge = window.bufferAge()
        if let graphics, !graphics.context.offersBufferAge,
            let copy = try retainedFrame.target(
                damageShare: RetainedFrame.share(of: damage, in: bounds), width: window.pixelWidth,
                height: window.pixelHeight,
                context: graphics.context)
        {
            (target, lastBufferAge) = copy
        }
        let repaint = damageHistory.repaint(damage, bufferAge: lastBufferAge, bounds: bounds)
        target.clip = repaint == bounds ? nil : repaint.pixelRect
        // Scissor off again however the draw ends: an app's own GL
        // outside a frame and the next scene must not find it on.
        defer {
            target.clip = nil
            if window.hasGraphicsContext { applyClip(target) }
        }
        let shared = outlets.graphics
        let context = DrawingContext(
            target: target, resources: { [shared] in try graphics ?? shared.resources() }, redrawRect: repaint)
        drawCount += 1
        redrawnPixels += repaint.area
        do {
            try draw(context)
        } catch {
            outlets.report(error)
        }
        let feedback = outlets.feedback, frame = context.frameInProgress
        // A capture reads the drawn buffer: a held page frame is drawn for it.
        if !outlets.captures.isEmpty { frame.settle() }
        // Resolved with the frame's own watchers (presentation feedback
        // where it comes, else the frame callback) by trackShown below.
        for action in frame.afterShown { feedback.shownWatchers.append { _ in action() } }
        if let shared = frame.deferred.takeShared(), let staged = stage(shared, on: window, frame: frame, outlets) {
            feedback.trackShown(feedbackToken: feedbackToken, surface: outlets.surface)
            try window.present(staged: staged)
        } else if let held = frame.takeHeldFrame() {
            feedback.trackShown(feedbackToken: feedbackToken, surface: outlets.surface)
            try window.present(staged: held)
            framesPresentedAsIs += 1
            if frame.deferred.heldIsCopy { framesCopied += 1 }
        } else {
            if let error = frame.settleError { outlets.report(error) }
            if let graphics, let copy = target as? OffscreenTarget {
                try retainedFrame.draw(copy, into: window, quads: graphics.quads())
            }
            feedback.trackShown(feedbackToken: feedbackToken, surface: outlets.surface)
            // The whole buffer is this frame now: outside the repaint it
            // still holds what the frames it missed drew. (Reads are not
            // scissored.)
            outlets.captures.deliver(from: window, screen: outlets.screenName)
            try window.present(damage: damage?.map(\.pixelRect))
        }
        for action in frame.afterPresent { action() }
    }

    /// A frame that is one shared picture, as a staged wl_shm frame:
    /// another scene's copied, or its source read back; nil once drawn
    /// into the window the usual way, to be presented as usual.
    private func stage(
        _ shared: SharedFrame, on window: WindowSurface, frame: FrameInProgress, _ outlets: Outlets
    ) -> StagedFrame? {
        var outcome = SharedFrames.Outcome.notDrawn
        do {
            outcome = try outlets.graphics.frames.stage(shared, on: window, settle: frame.settle)
        } catch {
            outlets.report(error)
        }
        switch outcome {
        case let .copied(staged):
            framesCopied += 1
            return staged
        case let .shownAgain(staged): return staged
        case let .readBack(staged):
            if shared.source != nil { framesReadBack += 1 }
            return staged
        case .drawn: return nil
        case .notDrawn:
            frame.settle()
            do { try shared.draw() } catch { outlets.report(error) }
            return nil
        }
    }

    /// Frees the scene's copy of its picture (the scene is torn down).
    func release() { retainedFrame.release() }
}
