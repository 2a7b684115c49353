import EventLoop
import Rendering
import WaylandClient

/// Content on one screen: an external scene (layer surface spanning the
/// output) or an application window. It ties together its parts, each with
/// one job: the surface and role (`SceneSurface`), the screen it is on and
/// the display link keyed to it (`SceneScreenBinding`), pacing on the
/// display link (`ScenePacing`), whether a frame is drawn and what it
/// repaints (`FrameRequest`), drawing and presenting a frame
/// (`FrameDrawer`), presentation feedback and shown frames
/// (`SceneFeedback`), warnings (`SceneWarnings`) and what changed around
/// it (`SceneChanges`); and it tears them all down through one path.
@MainActor
public final class Scene {
    /// The scene's role, configuration and user info.
    public let session: SceneSession
    /// The delegate that draws the scene, made by the configuration's factory.
    public let delegate: any SceneDelegate
    /// The scene's frame clock, keyed to the refresh of the screen it is on (`CADisplayLink`).
    public let displayLink = DisplayLink()
    /// The screen the scene was made for (external scenes) or is on now.
    public var screen: Screen? { binding.screen }
    /// Size in surface units (logical pixels) from the last configure.
    public var size: (width: Int, height: Int) { sceneSurface.size }
    /// Size of the buffer drawn into, in device pixels.
    public var pixelSize: (width: Int, height: Int) { sceneSurface.pixelSize }
    /// Device pixels per logical pixel of the buffer (UIKit's
    /// `contentScaleFactor`): the fractional scale where the compositor
    /// offers `wp_fractional_scale_v1` (1.5 is 180/120), else the screen's
    /// integer scale.
    public var contentScale: Double { sceneSurface.contentScale }
    /// True from `scene(_:willConnectTo:)` until the scene is torn down.
    public internal(set) var isConnected = false
    /// True when an external scene is a fullscreen window because the
    /// compositor has no layer shell.
    public var isFullscreenFallback: Bool { sceneSurface.isFullscreenFallback }
    /// What the scene shows, in words (a file name, an item): messages
    /// about it name this, such as the one for a draw that never returns
    /// (`DrawWatch`). Nil names the scene configuration.
    public var contentDescription: String? {
        // Set during a draw (a delegate naming what it draws next): the watched draw takes it.
        didSet {
            if isDrawing { drawWatch?.describe(contentDescription ?? session.configuration.name ?? "scene") }
        }
    }
    /// How many frames reached the compositor's presentation feedback.
    public var presentedFrames: Int { feedback.presentedFrames }
    /// How many times the delegate was asked to draw: once per change for
    /// static content, once per frame while the display link runs.
    public var drawCount: Int { frames.drawCount }
    /// How many pixels the scene's draws repainted, in all (a frame that
    /// repaints a rectangle counts its area, a full frame the buffer's):
    /// the difference between two reads is what a period cost.
    public var redrawnPixels: Int { frames.redrawnPixels }
    /// How many of the frames drawn went to the compositor as a web page's
    /// own pixels, copied once into the window's wl_shm buffer and not
    /// drawn (software GL, the page filling the scene with nothing over it).
    public var framesPresentedAsIs: Int { frames.framesPresentedAsIs }
    /// How many of the frames drawn were copies of the same frame another
    /// scene of this size presented (one video mirrored on several
    /// screens, software GL): one memcpy, neither drawn nor read back.
    public var framesCopied: Int { frames.framesCopied }
    /// How many of the frames drawn were read undrawn from a shared picture into the window's
    /// wl_shm buffer (software GL: a mirrored video at its own size, a wall tile's part of it).
    public var framesReadBack: Int { frames.framesReadBack }
    /// Open web pages drawing here: while there are none, GL comes up before the first draw.
    var webPageCount = 0
    /// The back buffer's age (EGL_EXT_buffer_age) at the last frame drawn, 0 when unknown (tests).
    package var lastBufferAge: Int { frames.lastBufferAge }
    /// Outputs the surface is on now (screens' ids).
    public var enteredScreenIDs: [UInt32] { surface.enteredOutputs }

    unowned let host: any SceneHost
    let sceneSurface: SceneSurface
    var surface: Surface { sceneSurface.surface }
    let feedback: SceneFeedback
    let pacing: ScenePacing
    var warnings = SceneWarnings()
    let drawWatch: DrawWatch?
    /// The screen it is on, and the display link keyed to it.
    let binding: SceneScreenBinding
    /// Draws and presents each frame, and counts them.
    let frames = FrameDrawer()
    var isDrawing = false
    /// Whether a frame is drawn now, and what it repaints.
    let frameRequest = FrameRequest()
    private(set) var isTornDown = false
    /// Waiting for the next frame drawn (`captureNextFrame`).
    let captures = FrameCaptures()
    /// Applies what changed around the scene: each batch's records, its screen.
    private(set) lazy var changes = SceneChanges(scene: self)

    /// Makes the surface and role on `compositor`; `readsPanelPower` where
    /// the compositor reports panel power (a silent link then counts as a
    /// stall only once a read found the panel not off).
    init(
        host: any SceneHost, compositor: Compositor, session: SceneSession, delegate: any SceneDelegate,
        screen: Screen?, layer: Layer, readsPanelPower: Bool, drawWatch: DrawWatch?
    ) throws(SceneError) {
        self.host = host
        self.session = session
        self.delegate = delegate
        self.drawWatch = drawWatch
        let needsBatch = { [unowned host] in host.sceneNeedsRender() }
        sceneSurface = try SceneSurface(
            compositor: compositor, role: session.role, title: session.configuration.name, screen: screen,
            layer: layer, needsBatch: needsBatch)
        pacing = ScenePacing(displayLink: displayLink, needsBatch: needsBatch)
        feedback = SceneFeedback(displayLink: displayLink, needsBatch: needsBatch)
        binding = SceneScreenBinding(
            screen: screen, role: session.role, displayLink: displayLink, surface: sceneSurface,
            readsPanelPower: readsPanelPower)
        displayLink.onResume = { [weak self] in self?.setNeedsDisplay() }
        displayLink.preferredFramesPerSecond = session.configuration.preferredFramesPerSecond
        binding.keyToScreen()
        surface.commit()
    }

    /// Whether the compositor's last configure of this window said
    /// fullscreen: after `setFullscreen(on:)`, false means it refused (or
    /// has not answered yet). Always false for external scenes' layer surfaces.
    public internal(set) var isFullscreen = false

    /// Asks the compositor to show this window fullscreen on `screen` (nil:
    /// leave fullscreen). For application windows; external scenes span
    /// their screen already. Compositors may ignore the output hint.
    public func setFullscreen(on screen: Screen?) {
        guard session.role == .application, !isTornDown else { return }
        sceneSurface.setFullscreen(on: screen)
        host.sceneNeedsRender()
    }

    /// Draw the whole scene once more at the next opportunity (static
    /// content that changed everywhere, or nobody knows where).
    public func setNeedsDisplay() {
        guard !isTornDown else { return }
        frameRequest.addAll()
        host.sceneNeedsRender()
    }

    /// Draw once more at the next opportunity, repainting only `rect`
    /// (device pixels of the buffer, origin top left, as `DrawingContext`
    /// draws): a clock's text, one region of a layout. Calls accumulate
    /// until the frame is drawn, together with ``setNeedsDisplay()``
    /// (which wins: everything). A rectangle outside the buffer asks for
    /// nothing.
    ///
    /// The rule for content on the display link: a refresh for which
    /// ``SceneDelegate/sceneShouldDrawFrame(_:)`` returns true repaints the
    /// rectangles given here since the last frame, including those given
    /// from `sceneShouldDrawFrame` itself; with none given, it repaints
    /// the whole scene, as before. So a delegate that animates one band
    /// calls `setNeedsDisplay(in: band)` there and returns true.
    ///
    /// The delegate's `draw` still runs once, with ``DrawingContext/redrawRect``
    /// saying what is repainted; drawing outside it is clipped, and the
    /// pixels there stay as the last frame left them: the window's buffers
    /// are reused where the driver offers EGL_EXT_buffer_age; where GL
    /// renders in software the scene's framebuffer keeps the last frame and
    /// only the changed rows go into its own wl_shm buffers; elsewhere the
    /// scene keeps its own copy of its picture, repaints that and copies it
    /// whole into each new buffer (``GraphicsDriver/presentsThroughSharedMemory``
    /// says which; so does `screenplay doctor`).
    public func setNeedsDisplay(in rect: SceneRect) {
        guard !isTornDown else { return }
        let inside = rect.intersection(SceneRect(x: 0, y: 0, width: pixelSize.width, height: pixelSize.height))
        guard !inside.isEmpty else { return }
        frameRequest.add(inside)
        host.sceneNeedsRender()
    }

    /// The panel was switched on or off (`Screen.setPower`, or a read
    /// of its power): off asks for no frames; on draws the current content.
    func screenPowerChanged() {
        guard !isTornDown else { return }
        if binding.powerChanged() { setNeedsDisplay() }
    }

    /// The screen whose panel power the display link wants read now, and
    /// marks the read as started; nil when no read is wanted.
    func screenNeedingPowerRead(nowNs: UInt64) -> Screen? {
        isTornDown ? nil : binding.screenNeedingPowerRead(nowNs: nowNs)
    }

    // MARK: teardown

    /// The one teardown path: closed, output removed, registration changed,
    /// app shutdown.
    func tearDown() {
        guard !isTornDown else { return }
        isTornDown = true
        displayLink.isPaused = true
        pacing.stop()
        let wasConnected = isConnected
        isConnected = false
        sceneSurface.destroy()
        frames.release()
        feedback.reset()
        captures.abandon(screen: screen?.name)
        if wasConnected { delegate.sceneDidDisconnect(self) }
    }
}
