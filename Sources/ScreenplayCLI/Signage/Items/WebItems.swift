import Dispatch
import Foundation
import Screenplay

/// The playlist's `"web"` object: which origins pages may reach, and each
/// web process's memory limit.
struct WebRules: Equatable {
    static let defaultMemoryLimitMB = 1536
    static let keys: Set<String> = ["allow", "memory_limit_mb"]

    /// `"allow"`: origins ("https://host[:port]"), normalised; nil when not
    /// given (each page may then reach its own origin only).
    var allow: [String]?
    var memoryLimitMB = defaultMemoryLimitMB

    init() {}

    init(_ value: Any?, _ fail: (String, String) -> PlaylistError) throws(PlaylistError) {
        guard let value else { return }
        let object = try SignageConfigLoader.dictionary(value, at: "web", fail)
        try SignageConfigLoader.rejectUnknownKeys(object, allowed: Self.keys, at: "web", fail)
        if let list = object["allow"] {
            guard let entries = list as? [Any] else {
                throw fail(
                    "web.allow",
                    "expected a list of origins such as [\"https://dash.example.com\"], got \(SignageConfigLoader.describe(list))"
                )
            }
            allow = try entries.enumerated().map { index, entry throws(PlaylistError) in
                guard let text = entry as? String, let origin = WebItem.origin(of: text),
                    origin + "/" == text || origin == text
                else {
                    throw fail(
                        "web.allow[\(index)]",
                        "expected an origin: http:// or https://, a host and an optional port, no path (e.g. \"https://dash.example.com\"), got \(SignageConfigLoader.describe(entry))"
                    )
                }
                return origin
            }
        }
        if let limit = object["memory_limit_mb"] {
            guard let number = SignageConfigLoader.integer(limit), (100...65536).contains(number) else {
                throw fail(
                    "web.memory_limit_mb",
                    "expected megabytes between 100 and 65536, got \(SignageConfigLoader.describe(limit))")
            }
            memoryLimitMB = number
        }
    }
}

/// A `"web"` item: a page by URL, or a local `.html` file inside the playlist's folder.
struct WebItem: Equatable {
    var url: String
    /// The origins its page and requests may reach ("null" only, for a local page without `web.allow`).
    var allowedOrigins: [String]
    /// Local pages: the playlist's folder, the only place file:// may read.
    var fileRoot: String?
    /// The local file, for the file watcher.
    var localFile: String?
    /// `web.memory_limit_mb`: WebKit ends a web process past this (the page is then reloaded).
    var memoryLimitMB = WebRules.defaultMemoryLimitMB

    /// The item's source, or why it cannot be one (exit 65 naming `at`).
    static func source(
        _ value: Any, at: String, folder: String, rules: WebRules, _ fail: (String, String) -> PlaylistError
    ) throws(PlaylistError) -> PlayItem.Source {
        guard let text = value as? String, !text.isEmpty else {
            throw fail(
                at,
                "expected a page: an http:// or https:// URL, or a .html file in the playlist's folder, got \(SignageConfigLoader.describe(value))"
            )
        }
        let lower = text.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            guard let origin = origin(of: text) else { throw fail(at, "\"\(text)\" is not a URL with a host") }
            if let allow = rules.allow, !allow.contains(origin) {
                throw fail(
                    at,
                    "the page's origin \(origin) is not in web.allow (\(allow.joined(separator: ", "))); add it there")
            }
            return .web(
                WebItem(
                    url: text, allowedOrigins: rules.allow ?? [origin], fileRoot: nil, localFile: nil,
                    memoryLimitMB: rules.memoryLimitMB))
        }
        if lower.hasPrefix("file:") || text.contains("://") {
            throw fail(
                at,
                "\"\(text)\": give a local page as a path relative to the playlist (\"board.html\"), or an http(s) URL")
        }
        // `play p.json` names the playlist relative to the working directory:
        // its folder is then "" or relative, and the page's root must be a
        // whole path for the prefix check and for file:// alike.
        let base =
            folder.hasPrefix("/")
            ? folder : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(folder)
        let path = ((text.hasPrefix("/") ? text : (base as NSString).appendingPathComponent(text)) as NSString)
            .standardizingPath
        let root = (base as NSString).standardizingPath
        guard path.hasPrefix(root + "/") else {
            throw fail(at, "\(path) is outside the playlist's folder \(root); pages may read files only inside it")
        }
        guard ["html", "htm"].contains((path as NSString).pathExtension.lowercased()) else {
            throw fail(at, "\(path) is not a .html file")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            return .missing(path: path, reason: "no such file (\(at)); it plays once it is there")
        }
        return .web(
            WebItem(
                url: URL(fileURLWithPath: path).absoluteString, allowedOrigins: rules.allow ?? ["null"],
                fileRoot: root, localFile: path, memoryLimitMB: rules.memoryLimitMB))
    }

    /// "scheme://host[:port]" in lower case, the default port left out; nil
    /// for anything but an http(s) URL with a host.
    static func origin(of text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host?.lowercased(), !host.isEmpty,
            components.user == nil
        else { return nil }
        let port = components.port.flatMap {
            ($0 == 80 && scheme == "http") || ($0 == 443 && scheme == "https") ? nil : $0
        }
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(shownHost)\(port.map { ":\($0)" } ?? "")"
    }
}

/// A web page as a playlist item: loaded ahead of its slot like any item
/// (ready once it has painted, so a slow server keeps the item before on
/// screen), drawn from the scene's own GL context, a frame only when the
/// page sent one. A web process that crashes or passes its memory limit is
/// reloaded in a fresh one after a backoff (1 s, doubling to a minute).
@MainActor
final class WebMedia: PlayMedia {
    private var page: WebPage?
    private(set) var failure: String?
    var onChange: (() -> Void)?
    /// New frames ask for a redraw themselves (`attach(redraw:)`), so a static page costs nothing.
    var isAnimated: Bool { false }
    let item: WebItem
    private let place: String
    private var redraw: (() -> Void)?
    private var restarts = 0
    private var restartTimer: (any DispatchSourceTimer)?

    private weak var scene: Scene?

    init(_ item: WebItem, width: Int, height: Int, scene: Scene) {
        self.item = item
        self.scene = scene
        place = scene.screen?.name ?? "a window"
        Self.configureEngine(memoryLimitMB: item.memoryLimitMB, readable: item.fileRoot)
        // Refused, WebKit would neither paint nor fail: the item waits for its slot forever.
        if let refusal = Self.sandboxRefusal {
            failure = refusal
            return
        }
        // A panel not configured yet has no size: the page is made at the first draw's.
        if width > 0, height > 0 { makePage(width: width, height: height, scene: scene) }
    }

    private func makePage(width: Int, height: Int, scene: Scene) {
        do {
            let page = try WebPage(
                url: item.url, scene: scene, width: width, height: height, allowedOrigins: item.allowedOrigins,
                fileRoot: item.fileRoot)
            self.page = page
            Self.sayOnce(memoryLimitMB: item.memoryLimitMB)
            page.onPaint = { [weak self] in
                guard let self else { return }
                if self.restarts > 0 {
                    log("web page \(self.item.url) on \(self.place): painted again after a restart")
                }
                self.onChange?()
            }
            page.onFrame = { [weak self] in self?.redraw?() }
            page.onFailure = { [weak self] reason in self?.failed(reason) }
            page.onBlocked = { [place, url = item.url] uri in
                warn("web page \(url) on \(place): blocked \(uri): its origin is not in the playlist's web.allow")
            }
            page.onWebProcessTerminated = { [weak self] why in self?.terminated(why) }
        } catch {
            failure = error.description
        }
    }

    var isReady: Bool { failure == nil && page?.hasPainted == true }

    func prepare(in context: DrawingContext) {
        if page == nil, failure == nil, let scene {
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
        restartTimer?.cancel()
        restartTimer = nil
        page?.close()
        page = nil
    }

    /// Before its first paint a failure makes it a bad item (skipped with the
    /// reason); after, the page on screen stays and the failure is logged.
    private func failed(_ reported: String) {
        guard failure == nil else { return }
        // WebKit's network process shares play's sandbox: a refused socket there is one here.
        let remote = item.url.hasPrefix("http://") || item.url.hasPrefix("https://")
        let reason = remote ? NetworkSandbox.explained(reported, error: nil) : reported
        if page?.hasPainted == true {
            warn("web page on \(place): \(reason); the page as last shown stays")
            return
        }
        failure = reason
        onChange?()
    }

    private func terminated(_ why: String) {
        guard page != nil else { return }
        let delay = min(60, pow(2, Double(restarts)))
        restarts += 1
        warn(
            "web page \(item.url) on \(place): \(why); reloading it in a fresh web process in \(Int(delay)) s (restart \(restarts)); the last frame stays until it paints"
        )
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + delay)
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                self?.restartTimer = nil
                self?.page?.reload()
            }
        }
        timer.resume()
        restartTimer?.cancel()
        restartTimer = timer
    }

    /// WebKit's settings for every page, set before the first: the sandbox
    /// on, the playlist's folder readable in it, the memory limit.
    private static var engineConfigured = false
    private static func configureEngine(memoryLimitMB: Int, readable: String?) {
        guard !engineConfigured else { return }
        engineConfigured = true
        WebPage.configureEngine(sandbox: true, memoryLimitMB: memoryLimitMB, readablePath: readable)
    }

    /// Why WebKit's sandbox cannot start here, asked once (``WebSandboxProbe``).
    private static let sandboxRefusal = WebSandboxProbe.refusal()

    private static var said = false
    private static func sayOnce(memoryLimitMB: Int) {
        guard !said else { return }
        said = true
        log(
            "web pages: WPE WebKit, WebKit's sandbox \(WebPage.isSandboxed ? "on" : "OFF (bubblewrap missing?)"), \(memoryLimitMB) MB per web process; Debian 12's WPE WebKit gets no security updates: show only pages you trust"
        )
    }
}
