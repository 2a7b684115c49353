import Foundation
import Screenplay
import Signage

/// Draws one content kind into a scene; shared by external scenes and the
/// `--preview` window.
@MainActor
final class ContentDelegate: SceneDelegate {
    let kind: ContentKind
    let stats: StatsWriter?
    /// Draws `.image` content: the picture sized for this scene, animation.
    let imageView: ImageView?
    let shader: FragmentShader?
    let statsLabel: (Scene) -> String
    let videoLifecycle: VideoLifecycle?
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
    /// `SCREENPLAY_BENCH_CONTINUOUS=1` keeps the display link running for
    /// static content, so `present color` redraws (clears) every refresh:
    /// the benchmark's clear-only scene, which isolates the per-frame cost
    /// of the library from the cost of the content. Hidden: not for users.
    private let continuous = ProcessInfo.processInfo.environment["SCREENPLAY_BENCH_CONTINUOUS"] == "1"
    /// `SCREENPLAY_BENCH_TEXT=TEXT` draws TEXT over `present color`, as the
    /// README's scoreboard does: the benchmark's text scene, compared with
    /// the same scene without text. Hidden: not for users.
    private let benchText = ProcessInfo.processInfo.environment["SCREENPLAY_BENCH_TEXT"]

    /// Whether the screens shown on are kept from blanking (`--allow-idle` says no).
    private let inhibitsIdle: Bool

    init(
        kind: ContentKind, image: LoadedImage?, shader: FragmentShader?, stats: StatsWriter?,
        videoLifecycle: VideoLifecycle? = nil, inhibitsIdle: Bool = true, statsLabel: @escaping (Scene) -> String
    ) {
        self.kind = kind
        self.inhibitsIdle = inhibitsIdle
        self.videoLifecycle = videoLifecycle
        imageView = image.map { ImageView(image: $0) }
        self.shader = shader
        self.stats = stats
        self.statsLabel = statsLabel
    }

    func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        scene.contentDescription = kind.description
        scene.inhibitsIdle = inhibitsIdle
        start = monotonicNanoseconds()
        stats?.write([
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
                    path: path, loops: loops, audio: audio, scene: scene, stats: stats, label: statsLabel(scene),
                    lifecycle: videoLifecycle)
            } catch {
                videoLifecycle?.onFailure("\(error)")
            }
        }
        if case let .web(url) = kind { startPage(url, in: scene) }
        if continuous { scene.displayLink.isPaused = false }
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
        stats?.write(
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
            stats?.write(["event": "stalled", "output": statsLabel(scene), "silent_ms": Int(silent * 1000)])
        case .resumed:
            stats?.write(["event": "resumed", "output": statsLabel(scene)])
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

    func sceneShouldDrawFrame(_ scene: Scene) -> Bool {
        if let page = pages[ObjectIdentifier(scene)] { return page.frameIsDue() }
        return video?.player.frameIsDue() ?? true
    }

    private func startPage(_ url: String, in scene: Scene) {
        let label = statsLabel(scene)
        let root = url.hasPrefix("file://") ? URL(string: url)?.deletingLastPathComponent().path : nil
        do {
            let page = try WebPage(url: url, scene: scene, fileRoot: root)
            page.onFailure = { reason in warn("web page on \(label): \(reason)") }
            page.onBlocked = { uri in
                warn("web page on \(label): blocked a navigation to \(uri) (not an allowed origin)")
            }
            page.onWebProcessTerminated = { [weak page] why in
                warn("web page on \(label): \(why); reloading it")
                page?.reload()
            }
            page.onPaint = { log("web page on \(label): painted \(url)") }
            pages[ObjectIdentifier(scene)] = page
            if pages.count == 1 {
                let export =
                    WebPage.export == .eglImage
                    ? "EGLImages (no copy)"
                    : WebPage.presentsFillingFramesAsTheyAre
                        ? "shared memory (software rendering: a page filling its panel is copied once into the panel's wl_shm buffer, not drawn)"
                        : "shared memory (one upload a frame: EGL here cannot bind Wayland buffers)"
                log("web pages: frames by \(export); WebKit's sandbox \(WebPage.isSandboxed ? "requested" : "OFF")")
            }
        } catch {
            warn("web page on \(label): \(error)")
        }
    }

    /// In the preview window a page takes the pointer and keys, so a person
    /// can click through a dashboard while preparing it. (External scenes
    /// take no input: nothing arrives there.)
    func scene(_ scene: Scene, didReceivePointer event: PointerEvent) {
        pages[ObjectIdentifier(scene)]?.send(event)
    }

    func scene(_ scene: Scene, didReceiveKey event: KeyEvent) {
        pages[ObjectIdentifier(scene)]?.send(event)
    }

    func sceneDidDisconnect(_ scene: Scene) {
        video?.close()
        video = nil
        pages.removeValue(forKey: ObjectIdentifier(scene))?.close()
        timer?.cancel()
        timer = nil
        imageView?.stop()
        stats?.write(["event": "disconnect", "output": statsLabel(scene)])
    }

    func sceneDidUpdateScreen(_ scene: Scene) {
        stats?.write([
            "event": "screen", "output": statsLabel(scene), "refresh_mhz": scene.screen?.refreshMilliHz ?? 0,
            "refresh_ns": Int64(scene.displayLink.duration * 1e9),
        ])
        scene.setNeedsDisplay()
    }

    func sceneDidResize(_ scene: Scene) {
        stats?.write([
            "event": "configure", "output": statsLabel(scene), "width": scene.pixelSize.width,
            "height": scene.pixelSize.height, "scale": scene.screen?.scale ?? 1,
            "content_scale": scene.contentScale, "logical_width": scene.size.width,
            "logical_height": scene.size.height,
        ])
    }

    func draw(_ scene: Scene, in context: DrawingContext) throws {
        switch kind {
        case let .color(color):
            try context.clear(color)
            if let benchText { try context.drawText(lines: [(benchText, context.pixelHeight / 5)], color: .white) }
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

    private func drawTestCard(_ scene: Scene, _ c: DrawingContext) throws {
        let w = c.pixelWidth, h = c.pixelHeight
        try c.clear(RGBColor(hex: 0x202020))
        let edge = RGBColor(hex: 0xffff00)
        try c.fill(x: 0, y: 0, width: w, height: 1, color: edge)
        try c.fill(x: 0, y: h - 1, width: w, height: 1, color: edge)
        try c.fill(x: 0, y: 0, width: 1, height: h, color: edge)
        try c.fill(x: w - 1, y: 0, width: 1, height: h, color: edge)
        let s = 64
        try c.fill(x: 0, y: 0, width: s, height: s, color: RGBColor(hex: 0xff0000))
        try c.fill(x: w - s, y: 0, width: s, height: s, color: RGBColor(hex: 0x00ff00))
        try c.fill(x: 0, y: h - s, width: s, height: s, color: RGBColor(hex: 0x0000ff))
        try c.fill(x: w - s, y: h - s, width: s, height: s, color: RGBColor(hex: 0xffffff))
        let screen = scene.screen
        let lines = [
            (screen?.name ?? "window", 0.07),
            (screen?.displayDescription ?? "", 0.03),
            ("\(w)x\(h) pixels · scale \(screen?.scale ?? 1) · \(screen?.transform.description ?? "normal")", 0.03),
            (screen?.currentMode.map { "mode \($0)" } ?? "mode unknown", 0.03),
            (refreshLine(scene), 0.025),
        ]
        try c.drawText(lines: lines.map { ($0.0, Int(Double(h) * $0.1)) }, color: .white)
    }

    /// The refresh as known when the card is drawn. The card is drawn once
    /// per change of size, never again to show a count of its own frames
    /// (that redraw was itself the only frame there was to count); `--stats`
    /// counts the frames presented.
    private func refreshLine(_ scene: Scene) -> String {
        String(
            format: "refresh %.2f Hz (%@) · frames presented: --stats", 1 / scene.displayLink.duration,
            scene.displayLink.durationSource.rawValue)
    }
}
