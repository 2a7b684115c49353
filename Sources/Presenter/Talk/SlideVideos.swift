import Documents
import Foundation
import Screenplay

/// A video placed on a slide: a PDF link (launch, or a `file://` URI or
/// path) or a movie annotation that points at a video file, and where it
/// sits, as a part of the slide the audience sees (from the top left).
struct SlideVideo: Equatable {
    let path: String
    let region: PageRegion

    /// `region` in pixels, for a slide drawn letterboxed into `rect`.
    func pixelRect(slideWidth: Double, slideHeight: Double, in rect: (x: Int, y: Int, width: Int, height: Int))
        -> (x: Int, y: Int, width: Int, height: Int)
    {
        let page = fitRect(contentWidth: slideWidth, contentHeight: slideHeight, width: rect.width, height: rect.height)
        let x = Int((Double(page.width) * region.x).rounded()), y = Int((Double(page.height) * region.y).rounded())
        let w = Int((Double(page.width) * region.width).rounded()),
            h = Int((Double(page.height) * region.height).rounded())
        return (rect.x + page.x + x, rect.y + page.y + y, w, h)
    }
}

enum SlideVideoFinder {
    /// Every page's videos. A link to a file that is no playable video (an
    /// image, another PDF, a missing or damaged file) stays a plain link:
    /// one stderr line names the page, the file and libmpv's reason.
    static func find(
        in document: PDFDocument, slideRegion: PageRegion, isVideo: (@Sendable (String) -> Bool)?,
        messages: TalkMessages
    ) -> [Int: [SlideVideo]] {
        var videos: [Int: [SlideVideo]] = [:]
        var probed: [String: String?] = [:]
        for page in 0..<document.pageCount {
            for link in document.fileLinks(page: page) {
                if let isVideo, !isVideo(link.path) { continue }
                let problem: String?
                if let known = probed[link.path] {
                    problem = known
                } else {
                    do {
                        _ = try VideoPlayer.probe(path: link.path)
                        problem = nil
                    } catch {
                        problem = error.reason
                        messages.info(
                            "page \(page + 1) links to \(link.path), which does not play as video (\(error.reason)); it shows as the page draws it"
                        )
                    }
                    probed[link.path] = problem
                }
                guard problem == nil else { continue }
                // Into the slide's part of the page (all of it, or a beamer page's slide half).
                let r = link.region
                let region = PageRegion(
                    x: (r.x - slideRegion.x) / slideRegion.width, y: (r.y - slideRegion.y) / slideRegion.height,
                    width: r.width / slideRegion.width, height: r.height / slideRegion.height)
                let centre = (region.x + region.width / 2, region.y + region.height / 2)
                guard (0...1).contains(centre.0), (0...1).contains(centre.1) else { continue }
                videos[page, default: []].append(SlideVideo(path: link.path, region: region))
            }
        }
        return videos
    }
}

/// The players of one scene for the videos of the page it shows: made when
/// the page changes (outside drawing), closed when it changes again or the
/// scene goes. The owner runs the display link while any plays.
@MainActor
final class SlideVideoPlayers {
    private(set) var page: Int?
    private(set) var players: [(video: SlideVideo, player: VideoPlayer)] = []
    private var syncQueued = false
    private let messages: TalkMessages

    init(messages: TalkMessages) { self.messages = messages }

    /// Makes the players for `page` (nil: none) if it is not the page they are for.
    /// `play`: start them (audience) or keep their first picture (console still).
    func show(page: Int?, videos: [SlideVideo], in scene: Scene, play: Bool, audio: Bool, loops: Bool) {
        guard page != self.page else { return }
        closeAll()
        self.page = page
        for video in videos {
            do {
                let player = try VideoPlayer(
                    path: video.path, scene: scene, loops: loops, audio: audio, startsPaused: true)
                player.onPicture = { [weak scene] in scene?.setNeedsDisplay() }
                if play { player.play() }
                players.append((video, player))
            } catch {
                messages.info("\(video.path): \(error.reason)")
            }
        }
        if play { scene.displayLink.isPaused = players.isEmpty }
        scene.setNeedsDisplay()
    }

    /// From a draw call that found the page changed: the players are made
    /// on the next turn of the main queue, never inside drawing.
    func showSoon(_ body: @escaping @MainActor () -> Void) {
        guard !syncQueued else { return }
        syncQueued = true
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
                self?.syncQueued = false
                body()
            }
        }
    }

    /// Steps every player (each must hear about every refresh): true when
    /// any has a new picture.
    func refreshIsDue() -> Bool {
        var due = false
        for entry in players where entry.player.frameIsDue() { due = true }
        return due
    }

    func closeAll() {
        for entry in players { entry.player.close() }
        players.removeAll()
        page = nil
    }
}
