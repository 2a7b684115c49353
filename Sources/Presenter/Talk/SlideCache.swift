import Dispatch
import Documents
import Screenplay

/// Pixel size of a slide image.
struct PixelSize: Hashable, Sendable {
    var width: Int
    var height: Int
}

/// One rendered slide: page (0-based) at an exact pixel size; `region` is
/// the part of the page (the slide or notes half of a beamer page).
struct SlideKey: Hashable, Sendable {
    var page: Int
    var size: PixelSize
    var region: PageRegion = .whole
}

/// Rendered slides by page and size. Pages render one at a time on a
/// background queue, most wanted first, so the main thread never waits for
/// poppler and a key press finds the next page ready.
@MainActor
final class SlideCache {
    private let document: PDFDocument
    private let messages: TalkMessages
    private var pictures: [SlideKey: Picture] = [:]
    /// Failed renders keep their reason; the placeholder is the picture.
    private(set) var failures: [Int: String] = [:]
    private var wanted: [SlideKey] = []
    private var inFlight: SlideKey?
    private let queue = DispatchQueue(label: "screenplay.slides", qos: .userInitiated)
    var onRendered: ((SlideKey) -> Void)?

    init(document: PDFDocument, messages: TalkMessages) {
        self.document = document
        self.messages = messages
    }

    /// The slide if it is rendered.
    func picture(_ key: SlideKey) -> Picture? { pictures[key] }

    /// Any rendered size of `page`, to show scaled while the exact size renders.
    func anyPicture(page: Int, region: PageRegion = .whole) -> Picture? {
        pictures.first { $0.key.page == page && $0.key.region == region }?.value
    }

    /// Asks for `keys` in order; drops slides not wanted any more.
    func want(_ keys: [SlideKey], release: (Picture) -> Void) {
        wanted = keys
        let keep = Set(keys)
        for (key, picture) in pictures where !keep.contains(key) {
            release(picture)
            pictures[key] = nil
        }
        pump()
    }

    private func pump() {
        guard inFlight == nil, let key = wanted.first(where: { pictures[$0] == nil }) else { return }
        inFlight = key
        let document = document
        queue.async {
            let rgba: [UInt8]
            var failure: String?
            do {
                rgba = try document.render(
                    page: key.page, width: key.size.width, height: key.size.height, region: key.region)
            } catch {
                failure = "\(error)"
                rgba = Placeholder.render(
                    page: key.page, reason: "\(error)", width: key.size.width, height: key.size.height)
            }
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self.finished(key, rgba: rgba, failure: failure) }
            }
        }
    }

    private func finished(_ key: SlideKey, rgba: [UInt8], failure: String?) {
        inFlight = nil
        if let failure {
            failures[key.page] = failure
            messages.warning("page \(key.page + 1) could not be rendered: \(failure); showing a placeholder")
        }
        // A slide nobody wants any more (the speaker moved on) is dropped.
        if wanted.contains(key) {
            pictures[key] = Picture(width: key.size.width, height: key.size.height, rgba: rgba)
            onRendered?(key)
        }
        pump()
    }
}
