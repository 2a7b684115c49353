import Dispatch
import Documents
import Foundation
import Screenplay

/// The overview's thumbnails, one per slide. They render from a second
/// copy of the document on their own low-priority queue: poppler allows
/// one render per document at a time, so sharing the slides' document
/// would make a key press wait for a thumbnail. The copy opens only when
/// the overview is first shown, off the main thread.
@MainActor
final class ThumbnailCache {
    private let path: String
    private let password: String?
    private var document: PDFDocument?
    private var opening = false
    private var openFailed = false
    private var pictures: [Int: Picture] = [:]
    private var size = PixelSize(width: 0, height: 0)
    private var region: PageRegion = .whole
    private var wanted: [Int] = []
    private var inFlight: Int?
    private let queue = DispatchQueue(label: "screenplay.thumbnails", qos: .utility)
    var onRendered: (() -> Void)?

    private let messages: TalkMessages

    init(path: String, password: String?, messages: TalkMessages) {
        self.messages = messages
        self.path = path
        self.password = password
    }

    /// The thumbnail of `page` at the size last asked for, if rendered.
    func picture(page: Int) -> Picture? { pictures[page] }

    var readyCount: Int { pictures.count }

    /// Renders `pages` in this order at `size`; a new size starts over.
    func want(pages: [Int], size: PixelSize, region: PageRegion, release: (Picture) -> Void) {
        if size != self.size || region != self.region {
            for picture in pictures.values { release(picture) }
            pictures = [:]
            self.size = size
            self.region = region
        }
        wanted = pages
        pump()
    }

    private func pump() {
        guard inFlight == nil, size.width > 0, size.height > 0 else { return }
        guard let document else {
            openDocument()
            return
        }
        guard let page = wanted.first(where: { pictures[$0] == nil }) else { return }
        inFlight = page
        let key = SlideKey(page: page, size: size, region: region)
        queue.async {
            let rgba =
                (try? document.render(
                    page: key.page, width: key.size.width, height: key.size.height, region: key.region))
                ?? Placeholder.render(page: key.page, reason: "", width: key.size.width, height: key.size.height)
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self.finished(key, rgba: rgba) }
            }
        }
    }

    private func openDocument() {
        guard !opening, !openFailed else { return }
        opening = true
        let path = path, password = password
        queue.async {
            let document = try? PDFDocument.open(path: path, password: password)
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    self.opening = false
                    guard let document else {
                        self.openFailed = true
                        self.messages.warning(
                            "the overview cannot open a second copy of \(path); it shows no thumbnails")
                        return
                    }
                    self.document = document
                    self.pump()
                }
            }
        }
    }

    private func finished(_ key: SlideKey, rgba: [UInt8]) {
        inFlight = nil
        // Rendered for a size the console no longer has: dropped.
        if key.size == size, key.region == region {
            pictures[key.page] = Picture(width: key.size.width, height: key.size.height, rgba: rgba)
            onRendered?()
        }
        pump()
    }
}
