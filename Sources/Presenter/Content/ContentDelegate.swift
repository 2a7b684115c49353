import Foundation
public import Screenplay

/// Hidden settings for benchmarks and tests (`screenplay present` reads
/// them from `SCREENPLAY_BENCH_*` and `SCREENPLAY_VIDEO_PROBE`): none by default.
public struct ContentDiagnostics: Sendable {
    /// Keeps the display link running for static content, so a colour is
    /// cleared every refresh: the clear-only scene, which isolates the
    /// per-frame cost of the library from that of the content.
    public var redrawsContinuously = false
    /// Text drawn over a colour, as the README's scoreboard does: the
    /// text scene, compared with the same scene without it.
    public var overlayText: String?
    /// A `video_frame` event with the centre pixel of every video frame drawn.
    public var probesVideoPixels = false

    /// None of them.
    public init() {}
}

/// Draws one `ContentKind` into each scene it is given (external scenes,
/// a preview window): `screenplay present`'s pictures, videos, colours,
/// shaders, web pages and test card. With `events` it reports each
/// scene's connect, size, screen and once a second its frames, as the
/// JSON objects `--stats` writes.
@MainActor
public final class ContentDelegate: SceneDelegate {
    /// What it draws.
    public let kind: ContentKind
    let stats: (([String: Any]) -> Void)?
    let messages: TalkMessages
    /// Draws `.image` content: the picture sized for this scene, animation.
    let imageView: ImageView?
    let shader: FragmentShader?
    let statsLabel: (Scene) -> String
    let videoLifecycle: VideoLifecycle?
    private let diagnostics: ContentDiagnostics
    private var video: SceneVideo?
    /// The page of `present URL`, one per scene (each at its panel's size and scale).
    private var pages: [ObjectIdentifier: WebPage] = [:]
    private var start: UInt64 = 0
    private var timer: (any DispatchSourceTimer)?
    /// Scene draws already counted in a frames line.
    private var redraws = RedrawCounter()
    /// Timestamp of the newest frame whose interval a frames line already
    /// carried, so each line reports only the intervals that ended in its window.
    private var lastReportedFrameNs: UInt64 = 0

    /// Whether the screens shown on are kept from blanking (`--allow-idle` says no).
    private let inhibitsIdle: Bool

    /// - Parameters:
    ///   - kind: what to draw.
    ///   - image: the picture of `.image`, loaded (and checked) beforehand.
    ///   - shader: the shader of `.shader`, compiled beforehand.
    ///   - events: takes each event as a JSON object; nil: none, and no
    ///     timer runs (a still picture never wakes the process).
    ///   - messages: a web page's or a video's problems and news.
    ///   - videoLifecycle: told when the video ends or fails.
    ///   - inhibitsIdle: whether the screens are kept from blanking.
    ///   - diagnostics: the hidden benchmark and test settings.
    ///   - statsLabel: a scene's name in events and messages (its output's).
    public init(
        kind: ContentKind, image: LoadedImage?, shader: FragmentShader?, events: (([String: Any]) -> Void)?,
        messages: TalkMessages = .standardError, videoLifecycle: VideoLifecycle? = nil, inhibitsIdle: Bool = true,
        diagnostics: ContentDiagnostics = ContentDiagnostics(), statsLabel: @escaping (Scene) -> String
    ) {
        self.kind = kind
        self.inhibitsIdle = inhibitsIdle
        self.videoLifecycle = videoLifecycle
        imageView = image.map { ImageView(image: $0) }
        self.shader = shader
        stats = events
        self.messages = messages
        self.diagnostics = diagnostics
        self.statsLabel = statsLabel
    }

    /// Starts the content in `scene` (a video, a page, the shader's frames).
    public func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        scene.contentDescription = kind.description
        scene.inhibitsIdle = inhibitsIdle
        start = monotonicNanoseconds()
        stats?([
            "event": "connect", "output": statsLabel(scene), "width": scene.pixelSize.width,
            "height": scene.pixelSize.height, "scale": scene.screen?.scale ?? 1,
            "content_scale": scene.contentScale, "logical_width": scene.size.width,
            "logical_height": scene.size.height, "refresh_mhz": scene.screen?.refreshMilliHz ?? 0,
            "inhibits_idle": scene.inhibitsIdle,
        ])
        if case .shader = kind { scene.displayLink.isPaused = false }
        if case let .video(path, loops, audio) = kind {
            do {
                video = try SceneVideo(
                    path: path, loops: loops, audio: audio, scene: scene, stats: stats, messages: messages,
                    label: statsLabel(scene), lifecycle: videoLifecycle, probesPixels: diagnostics.probesVideoPixels)
            } catch {
                videoLifecycle?.onFailure("\(error)")
            }
        }
        if case let .web(url) = kind { startPage(url, in: scene) }
        if diagnostics.redrawsContinuously { scene.displayLink.isPaused = false }
        // Once a second: the stats line. Without it there is nothing to do,
        // and a static picture should not wake the process at all (the idle
        // benchmark compares it with swaybg).
        guard stats != nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [weak self, weak scene] in
            MainActor.assumeIsolated {
                guard let self, let scene else { return }
                self.tick(scene)
            }
        }
        timer.resume()
        self.timer = timer
    }

    private func tick(_ scene: Scene) {
        let now = monotonicNanoseconds()
        let window = scene.displayLink.takeFrameStatistics(nowNs: now)
        let redrawn = redraws.take(scene)
        stats?(
            [
                "event": "frames", "output": statsLabel(scene), "presented": window.presented,
                "discarded": window.discarded,
                "refresh_ns": window.refreshNs ?? Int64(scene.displayLink.duration * 1e9),
                "window_s": window.windowSeconds, "source": scene.displayLink.countSource,
                "intervals_us": newIntervalsMicroseconds(scene.displayLink),
                "draws": redrawn.draws, "redrawn_px": redrawn.redrawnPixels, "as_is": redrawn.presentedAsIs,
            ].merging(video?.framesFields() ?? [:]) { first, _ in first })
        // For unattended screens: say when an output stops showing frames
        // (hidden, switched off) and when it shows them again.
        switch scene.displayLink.takeStallChange(nowNs: now) {
        case .stalled:
            let silent = scene.displayLink.stalledDuration(nowNs: now) ?? 0
            stats?(["event": "stalled", "output": statsLabel(scene), "silent_ms": Int(silent * 1000)])
        case .resumed:
            stats?(["event": "resumed", "output": statsLabel(scene)])
        case nil:
            break
        }
    }

    /// Microseconds between consecutive frames shown since the previous
    /// frames line, from the same source as the counts (presentation
    /// timestamps, or frame-callback arrival where feedback never comes):
    /// the raw material for an interval distribution.
    private func newIntervalsMicroseconds(_ link: DisplayLink) -> [Int] {
        let shown = link.recentFrameTimestampsNs
        var intervals: [Int] = []
        for (previous, current) in zip(shown, shown.dropFirst()) where current > lastReportedFrameNs {
            // The first frame after a switch of source has no comparable predecessor.
            guard previous >= lastReportedFrameNs || lastReportedFrameNs == 0 else { continue }
            intervals.append(Int((current - previous) / 1000))
        }
        if let last = shown.last { lastReportedFrameNs = max(lastReportedFrameNs, last) }
        return intervals
    }

    /// A video's or a page's next frame is due.
    public func sceneShouldDrawFrame(_ scene: Scene) -> Bool {
        if let page = pages[ObjectIdentifier(scene)] { return page.frameIsDue() }
        return video?.player.frameIsDue() ?? true
    }

    private func startPage(_ url: String, in scene: Scene) {
        let label = statsLabel(scene)
        let root = url.hasPrefix("file://") ? URL(string: url)?.deletingLastPathComponent().path : nil
        do {
            let page = try WebPage(url: url, scene: scene, fileRoot: root)
            page.onFailure = { [messages] reason in messages.warning("web page on \(label): \(reason)") }
            page.onBlocked = { [messages] uri in
                messages.warning("web page on \(label): blocked a navigation to \(uri) (not an allowed origin)")
            }
            page.onWebProcessTerminated = { [weak page, messages] why in
                messages.warning("web page on \(label): \(why); reloading it")
                page?.reload()
            }
            page.onPaint = { [messages] in messages.info("web page on \(label): painted \(url)") }
            pages[ObjectIdentifier(scene)] = page
            if pages.count == 1 {
                let export =
                    WebPage.export == .eglImage
                    ? "EGLImages (no copy)"
                    : WebPage.presentsFillingFramesAsTheyAre
                        ? "shared memory (software rendering: a page filling its panel is copied once into the panel's wl_shm buffer, not drawn)"
                        : "shared memory (one upload a frame: EGL here cannot bind Wayland buffers)"
                let sandbox = WebPage.isSandboxed ? "requested" : "OFF"
                messages.info("web pages: frames by \(export); WebKit's sandbox \(sandbox)")
            }
        } catch {
            messages.warning("web page on \(label): \(error)")
        }
    }

    /// In the preview window a page takes the pointer and keys, so a person
    /// can click through a dashboard while preparing it. (External scenes
    /// take no input: nothing arrives there.)
    public func scene(_ scene: Scene, didReceivePointer event: PointerEvent) {
        pages[ObjectIdentifier(scene)]?.send(event)
    }

    /// A key for the page in the preview window.
    public func scene(_ scene: Scene, didReceiveKey event: KeyEvent) {
        pages[ObjectIdentifier(scene)]?.send(event)
    }

    /// Stops what plays in `scene` and frees it.
    public func sceneDidDisconnect(_ scene: Scene) {
        video?.close()
        video = nil
        pages.removeValue(forKey: ObjectIdentifier(scene))?.close()
        timer?.cancel()
        timer = nil
        imageView?.stop()
        stats?(["event": "disconnect", "output": statsLabel(scene)])
    }

    /// Reports the screen's new refresh and redraws.
    public func sceneDidUpdateScreen(_ scene: Scene) {
        stats?([
            "event": "screen", "output": statsLabel(scene), "refresh_mhz": scene.screen?.refreshMilliHz ?? 0,
            "refresh_ns": Int64(scene.displayLink.duration * 1e9),
        ])
        scene.setNeedsDisplay()
    }

    /// Reports the scene's new size.
    public func sceneDidResize(_ scene: Scene) {
        stats?([
            "event": "configure", "output": statsLabel(scene), "width": scene.pixelSize.width,
            "height": scene.pixelSize.height, "scale": scene.screen?.scale ?? 1,
            "content_scale": scene.contentScale, "logical_width": scene.size.width,
            "logical_height": scene.size.height,
        ])
    }

    /// Draws the content over the whole scene.
    public func draw(_ scene: Scene, in context: DrawingContext) throws {
        switch kind {
        case let .color(color):
            try context.clear(color)
            if let text = diagnostics.overlayText {
                try context.drawText(lines: [(text, context.pixelHeight / 5)], color: .white)
            }
        case .image:
            try imageView?.draw(scene, in: context)
        case .shader:
            if let shader {
                let t = Double(monotonicNanoseconds() - start) / 1e9
                try context.draw(shader, time: t, frame: Int(scene.displayLink.frameCount))
            }
        case .testCard:
            try drawTestCard(scene, context)
        case .video:
            try video?.draw(scene, in: context)
        case .web:
            if let page = pages[ObjectIdentifier(scene)] { try context.drawWebPage(page) }
        }
    }
}
