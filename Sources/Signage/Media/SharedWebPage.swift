import Dispatch
import Foundation
import Screenplay

/// One web page for the panels that show the same page at the same size at
/// the same time: a wall's tiles (each draws its part of the canvas-sized
/// page) and mirrored panels. One web process renders it and each frame is
/// uploaded once; every member is told of paints, frames and failures. A
/// page is shared only between different screens: the next item on the
/// same panel, even of the same address, loads a page of its own, as a new
/// item always has. A web process that crashes or passes its memory limit
/// is reloaded in a fresh one after a backoff (1 s, doubling to a minute),
/// once for every member.
@MainActor
final class SharedWebPage {
    struct Key: Hashable {
        var url: String
        var width: Int
        var height: Int
    }

    struct Member {
        weak var scene: Scene?
        var place: String
        var onPaint: () -> Void
        var onFrame: () -> Void
        var onFailure: (String) -> Void
    }

    let page: WebPage
    private let key: Key
    private var members: [ObjectIdentifier: Member] = [:]
    private let messages: SignageMessages
    private var restarts = 0
    private var restartTimer: (any DispatchSourceTimer)?
    /// Pages with members now, by address and size.
    private static var open: [Key: SharedWebPage] = [:]

    private init(_ item: WebItem, key: Key, scene: Scene, place: String, messages: SignageMessages) throws(WebPageError)
    {
        self.key = key
        self.messages = messages
        page = try WebPage(
            url: item.url, scene: scene, width: key.width, height: key.height, allowedOrigins: item.allowedOrigins,
            fileRoot: item.fileRoot)
        page.onPaint = { [weak self] in
            guard let self else { return }
            if self.restarts > 0 {
                messages.info("web page \(item.url) on \(self.places): painted again after a restart")
            }
            for member in self.members.values { member.onPaint() }
        }
        page.onFrame = { [weak self] in
            for member in self?.members.values.map({ $0 }) ?? [] { member.onFrame() }
        }
        page.onFailure = { [weak self] reason in
            for member in self?.members.values.map({ $0 }) ?? [] { member.onFailure(reason) }
        }
        page.onBlocked = { [weak self] uri in
            messages.warning(
                "web page \(item.url) on \(self?.places ?? place): blocked \(uri): its origin is not in the playlist's web.allow"
            )
        }
        page.onWebProcessTerminated = { [weak self] why in self?.terminated(why, url: item.url) }
    }

    /// The open page of `item` at this size shown on other screens, or a
    /// new one made on `scene`'s context; `member` holds it until `leave`.
    static func join(
        _ item: WebItem, width: Int, height: Int, scene: Scene, member: AnyObject, place: String,
        messages: SignageMessages, onPaint: @escaping () -> Void, onFrame: @escaping () -> Void,
        onFailure: @escaping (String) -> Void
    ) throws(WebPageError) -> SharedWebPage {
        let key = Key(url: item.url, width: width, height: height)
        let shared: SharedWebPage
        if let existing = open[key], !existing.members.values.contains(where: { $0.scene === scene }) {
            shared = existing
        } else {
            shared = try SharedWebPage(item, key: key, scene: scene, place: place, messages: messages)
            // A page of the same address on the same screen (the next item)
            // has a page of its own; later screens join the newest.
            open[key] = shared
        }
        shared.members[ObjectIdentifier(member)] = Member(
            scene: scene, place: place, onPaint: onPaint, onFrame: onFrame, onFailure: onFailure)
        return shared
    }

    /// How many members hold it.
    var memberCount: Int { members.count }

    /// `member` lets go; the last to leave closes the page and its web process.
    func leave(_ member: AnyObject) {
        members[ObjectIdentifier(member)] = nil
        guard members.isEmpty else { return }
        restartTimer?.cancel()
        restartTimer = nil
        if Self.open[key] === self { Self.open[key] = nil }
        page.close()
    }

    /// The screens showing it, for messages.
    private var places: String {
        members.values.map(\.place).sorted().joined(separator: ", ")
    }

    private func terminated(_ why: String, url: String) {
        let delay = min(60, pow(2, Double(restarts)))
        restarts += 1
        messages.warning(
            "web page \(url) on \(places): \(why); reloading it in a fresh web process in \(Int(delay)) s (restart \(restarts)); the last frame stays until it paints"
        )
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + delay)
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                self?.restartTimer = nil
                self?.page.reload()
            }
        }
        timer.resume()
        restartTimer?.cancel()
        restartTimer = timer
    }
}
