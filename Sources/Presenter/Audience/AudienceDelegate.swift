import Documents
import Foundation
import Screenplay

/// The audience's view of the talk: the current page, black, white, or the
/// frozen page, edge to edge at the screen's pixel size.
@MainActor
final class AudienceDelegate: SceneDelegate {
    unowned let presenter: Presenter
    private var isConnected = false
    /// The shown page's videos, playing in their rectangles.
    private lazy var videos = SlideVideoPlayers(messages: presenter.messages)
    /// The slide's drawing, kept between whole frames (a moving pointer
    /// dot, a video's pictures redraw the whole screen).
    private let inkLayer = InkLayer()
    let placeholderDelay = PlaceholderDelay()

    init(presenter: Presenter) { self.presenter = presenter }

    func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        isConnected = true
        presenter.audienceConnected(scene)
    }

    func sceneDidDisconnect(_ scene: Scene) {
        videos.closeAll()
        guard isConnected else { return }
        isConnected = false
        presenter.audienceDisconnected(scene)
    }

    /// While videos play, a refresh draws only when one has a new picture.
    func sceneShouldDrawFrame(_ scene: Scene) -> Bool {
        videos.players.isEmpty ? true : videos.refreshIsDue()
    }

    func sceneDidResize(_ scene: Scene) { presenter.audienceResized(scene) }

    /// Only the --rehearse window gets keys; they drive the talk as the console's do.
    func scene(_ scene: Scene, didReceiveKey event: KeyEvent) { presenter.handle(event) }

    func draw(_ scene: Scene, in c: DrawingContext) throws {
        let content: String
        var pointer: String?
        var ink = 0
        switch presenter.state.audience {
        case .black:
            try c.clear(.black)
            content = "black"
        case .white:
            try c.clear(.white)
            content = "white"
        case let .page(p):
            syncVideos(page: p, scene: scene)
            let region = presenter.files.slideRegion
            let key = SlideKey(page: p, size: PixelSize(width: c.pixelWidth, height: c.pixelHeight), region: region)
            if let picture = presenter.cache.picture(key) {
                try c.draw(picture, x: 0, y: 0, width: c.pixelWidth, height: c.pixelHeight)
                content = "page \(p + 1)"
                try drawVideos(page: p, scene: scene, c)
                ink = try drawInk(page: p, c)
                pointer = try drawPointer(page: p, c)
            } else if let picture = presenter.cache.anyPicture(page: p, region: region) {
                // Another size of the page, scaled, until the exact one is rendered.
                try c.drawFitted(picture)
                content = "page \(p + 1) scaled"
                ink = try drawInk(page: p, c)
                pointer = try drawPointer(page: p, c)
            } else {
                try c.clear(.black)
                content = "rendering page \(p + 1)"
            }
        }
        if case .page = presenter.state.audience {} else { syncVideos(page: nil, scene: scene) }
        // Once per change, not per video frame. A drawing's change is a frame of
        // its own: `ink_version` and the part repainted say what each one cost.
        let drawn = Drawn(
            content: content, keyNs: presenter.lastKeyNs, pointer: pointer,
            inkVersion: ink > 0 ? presenter.state.drawings.version : nil)
        guard drawn != lastDrawn else { return }
        lastDrawn = drawn
        var line: [String: Any] = [
            "event": "drawn", "output": presenter.label(scene), "content": content, "key_ns": presenter.lastKeyNs,
            "lines": ink, "redraw_rect": [c.redrawRect.x, c.redrawRect.y, c.redrawRect.width, c.redrawRect.height],
        ]
        if let waited = placeholderDelay.waitedMs(nowNs: monotonicNanoseconds()) { line["waited_ms"] = waited }
        if let pointer { line["pointer"] = pointer }
        if let version = drawn.inkVersion {
            line["ink_version"] = version
            line["ink_rasterized_px"] = inkLayer.rasterizedPixels
        }
        presenter.emit(line)
    }

    private struct Drawn: Equatable {
        var content: String
        var keyNs: UInt64
        var pointer: String?
        var inkVersion: Int?
    }

    /// The lines drawn on the page's slide, over it; how many there are.
    private func drawInk(page: Int, _ c: DrawingContext) throws -> Int {
        let frame = presenter.audienceSlideFrame(page: page, width: c.pixelWidth, height: c.pixelHeight)
        return try presenter.drawInk(
            slide: presenter.state.slides.slide(ofPage: page), on: frame, layer: inkLayer, c)
    }
    private var lastDrawn: Drawn?

    /// The pointer dot or spotlight over the slide, where the speaker points
    /// on the console; says what it drew for `--stats`: the mode and the pixel
    /// of the point ("pointer 256,240").
    private func drawPointer(page: Int, _ c: DrawingContext) throws -> String? {
        guard let pointer = presenter.audiencePointer else { return nil }
        let slide = presenter.files.slideSize(page: page)
        let frame = SlideFrame(
            slideWidth: slide.width, slideHeight: slide.height,
            in: ConsoleLayout.Rect(x: 0, y: 0, width: c.pixelWidth, height: c.pixelHeight))
        try PointerLook.draw(pointer.mode, at: pointer.point, on: frame, c)
        let (x, y) = frame.position(of: pointer.point)
        return "\(pointer.mode.rawValue) \(Int(x.rounded(.down))),\(Int(y.rounded(.down)))"
    }

    /// The page's videos in their rectangles, muted unless the talk has --audio.
    private func drawVideos(page: Int, scene: Scene, _ c: DrawingContext) throws {
        syncVideos(page: page, scene: scene)
        guard videos.page == page else { return }
        let slide = presenter.files.slideSize(page: page)
        for (video, player) in videos.players where player.hasPicture {
            let r = video.pixelRect(
                slideWidth: slide.width, slideHeight: slide.height, in: (0, 0, c.pixelWidth, c.pixelHeight))
            try c.drawVideo(player, x: r.x, y: r.y, width: r.width, height: r.height)
        }
    }

    private func syncVideos(page: Int?, scene: Scene) {
        let list = page.flatMap { presenter.files.slideVideos[$0] } ?? []
        let wanted = list.isEmpty ? nil : page
        guard wanted != videos.page else { return }
        videos.showSoon { [weak self, weak scene] in
            guard let self, let scene, self.isConnected else { return }
            self.videos.show(
                page: wanted, videos: list, in: scene, play: true, audio: self.presenter.playsSound(scene), loops: true)
            if wanted == nil { scene.displayLink.isPaused = true }
            for (video, _) in self.videos.players {
                self.presenter.emit([
                    "event": "slide_video", "output": self.presenter.label(scene), "page": (wanted ?? 0) + 1,
                    "path": video.path,
                ])
            }
        }
    }
}
