import Rendering

/// A frame (or a layer of one) while it is drawn, apart from the drawing:
/// the target every drawing call draws on, settled first; the shared GL
/// objects, brought up at the first call that needs them; and what runs
/// once the frame is presented and shown. A `DrawingContext` holds one;
/// the scene's `FrameDrawer` reads it back to present the frame.
@MainActor
final class FrameInProgress {
    /// What every drawing call draws on. Reaching for it first settles
    /// what the frame put off: the frame's start, and a web page's frame
    /// held to be presented as it is, which is drawn now that something
    /// else shares the frame. So an order of calls draws as it always did.
    /// Drawing with it may cover the plain fill anywhere, so it ends.
    var target: any RenderTarget {
        settle()
        plain = nil
        return drawTarget
    }
    /// The target for a call that keeps `plain` up to date itself: a
    /// clear, a text block copied onto the plain colour.
    var targetKeepingPlain: any RenderTarget {
        settle()
        return drawTarget
    }
    /// Where the frame holds only the colour it was cleared to (`PlainFill`).
    private(set) var plain: PlainFill?
    /// The frame's start and a held page frame, put off until needed.
    let deferred: DeferredFrame
    private let drawTarget: any RenderTarget
    /// The shared GL objects, brought up at the first call that needs them:
    /// a frame presented as it is (a web page's, through wl_shm) needs none.
    var resources: GraphicsResources {
        get throws {
            if let madeResources { return madeResources }
            let made = try makeResources()
            madeResources = made
            return made
        }
    }
    private let makeResources: () throws -> GraphicsResources
    private var madeResources: GraphicsResources?
    /// Run by the scene right after the buffer is swapped (video reports
    /// its swaps to mpv).
    var afterPresent: [() -> Void] = []
    /// Run once the compositor shows the frame (its presentation feedback,
    /// else its frame callback): a web page renders its next frame only
    /// then, at the panel's refresh.
    var afterShown: [() -> Void] = []
    /// A held frame's draw that failed once something else needed it.
    var settleError: (any Error)? { deferred.error }

    init(target: any RenderTarget, resources: @escaping () throws -> GraphicsResources) {
        drawTarget = target
        deferred = DeferredFrame(target: target)
        makeResources = resources
    }

    /// The whole clip (or target) was just cleared to `color`.
    func cleared(to color: RGBColor) {
        let bounds = PixelRect(x: 0, y: 0, width: drawTarget.pixelWidth, height: drawTarget.pixelHeight)
        plain = (drawTarget.clip ?? bounds).intersection(bounds).map { PlainFill(color: color, rect: $0) }
    }

    /// A text block was drawn onto the plain colour at `rect`.
    func coveredOverPlain(_ rect: PixelRect) { plain?.covered.append(rect) }

    /// Starts the frame's drawing if it has not started, and draws a held
    /// page frame.
    func settle() { deferred.settle { try resources.quads() } }

    /// The held page frame, if the frame is nothing else: the scene
    /// presents it as it is instead of the drawn buffer.
    func takeHeldFrame() -> StagedFrame? { deferred.take { try resources.quads() } }
}
