import Dispatch
import Foundation
import Screenplay

/// A web page as a playlist item: loaded ahead of its slot like any item
/// (ready once it has painted, so a slow server keeps the item before on
/// screen), drawn from the scene's own GL context, a frame only when the
/// page sent one. Panels that show the same page at the same size at the
/// same time (a wall's tiles, mirrored panels) share one (`SharedWebPage`),
/// which also reloads a web process that crashed.
@MainActor
final class WebMedia: PlayMedia {
    private var shared: SharedWebPage?
    private var page: WebPage? { shared?.page }
    private(set) var failure: String?
    var onChange: (() -> Void)?
    /// New frames ask for a redraw themselves (`attach(redraw:)`), so a static page costs nothing.
    var isAnimated: Bool { false }
    let item: WebItem
    private let place: String
    private var redraw: (() -> Void)?

    private weak var scene: Scene?
    private let messages: SignageMessages
    private let sandbox: WebSandboxPolicy

    init(
        _ item: WebItem, width: Int, height: Int, scene: Scene, messages: SignageMessages, sandbox: WebSandboxPolicy
    ) {
        self.item = item
        self.scene = scene
        self.messages = messages
        self.sandbox = sandbox
        place = scene.screen?.name ?? "a window"
        Self.configureEngine(memoryLimitMB: item.memoryLimitMB, readable: item.fileRoot)
        // Refused, WebKit would neither paint nor fail: the item waits for its slot forever.
        if let refusal = Self.sandboxRefusal(asking: sandbox) {
            failure = refusal
            return
        }
        // A panel not configured yet has no size: the page is made at the first draw's.
        if width > 0, height > 0 { makePage(width: width, height: height, scene: scene) }
    }

    private func makePage(width: Int, height: Int, scene: Scene) {
        do {
            shared = try SharedWebPage.join(
                item, width: width, height: height, scene: scene, member: self, place: place, messages: messages,
                onPaint: { [weak self] in self?.onChange?() },
                onFrame: { [weak self] in self?.redraw?() },
                onFailure: { [weak self] reason in self?.failed(reason) })
            Self.sayOnce(memoryLimitMB: item.memoryLimitMB, to: messages)
        } catch {
            failure = error.description
        }
    }

    var isReady: Bool { failure == nil && page?.hasPainted == true }

    func prepare(in context: DrawingContext) {
        if shared == nil, failure == nil, let scene {
            makePage(width: context.pixelWidth, height: context.pixelHeight, scene: scene)
        }
    }

    func attach(redraw: @escaping @MainActor () -> Void) { self.redraw = redraw }

    func draw(in context: DrawingContext, seconds: Double, frame: Int) throws {
        if let page { try context.drawWebPage(page) }
    }

    func draw(in context: DrawingContext, rect: SceneRect, seconds: Double, frame: Int) throws -> Bool {
        guard let page else { return false }
        try context.drawWebPage(page, x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        return true
    }

    func refreshIsDue() -> Bool { page?.frameIsDue() ?? false }

    func release(from app: Application?) {
        shared?.leave(self)
        shared = nil
    }

    /// Before its first paint a failure makes it a bad item (skipped with the
    /// reason); after, the page on screen stays and the failure is logged.
    private func failed(_ reported: String) {
        guard failure == nil else { return }
        // WebKit's network process shares play's sandbox: a refused socket there is one here.
        let remote = item.url.hasPrefix("http://") || item.url.hasPrefix("https://")
        let reason = remote ? sandbox.explainLoadFailure(reported) : reported
        if page?.hasPainted == true {
            messages.warning("web page on \(place): \(reason); the page as last shown stays")
            return
        }
        failure = reason
        onChange?()
    }

    /// WebKit's settings for every page, set before the first: the sandbox
    /// on, the playlist's folder readable in it, the memory limit.
    private static var engineConfigured = false
    private static func configureEngine(memoryLimitMB: Int, readable: String?) {
        guard !engineConfigured else { return }
        engineConfigured = true
        WebPage.configureEngine(sandbox: true, memoryLimitMB: memoryLimitMB, readablePath: readable)
    }

    /// Why WebKit's sandbox cannot start here (`WebSandboxPolicy.refusal`), asked once.
    private static var sandboxRefused: String??
    private static func sandboxRefusal(asking policy: WebSandboxPolicy) -> String? {
        if let known = sandboxRefused { return known }
        let refusal = policy.refusal()
        sandboxRefused = .some(refusal)
        return refusal
    }

    private static var said = false
    private static func sayOnce(memoryLimitMB: Int, to messages: SignageMessages) {
        guard !said else { return }
        said = true
        messages.info(
            "web pages: WPE WebKit, WebKit's sandbox \(WebPage.isSandboxed ? "on" : "OFF (bubblewrap missing?)"), \(memoryLimitMB) MB per web process; Debian 12's WPE WebKit gets no security updates: show only pages you trust"
        )
    }
}
