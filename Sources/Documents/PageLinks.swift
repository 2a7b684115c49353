import CPoppler
import Foundation

/// A link or movie annotation on a page that points at a local file: where
/// it sits (a part of the page, from the top left) and the file.
public struct PageFileLink: Equatable, Sendable {
    public let region: PageRegion
    /// The absolute path (a relative one resolved against the PDF's folder).
    public let path: String
}

/// An internal link on a page (a table of contents entry, a "back to the
/// overview" button): where it sits and the page (0-based) it goes to.
public struct PageJumpLink: Equatable, Sendable {
    public let region: PageRegion
    public let page: Int
}

extension PDFDocument {
    /// The local files page `index` (0-based) points at: links that launch
    /// a file or open a `file://` URI (or a bare path), and movie
    /// annotations. Remote URIs are not files and are left out.
    public func fileLinks(page index: Int) -> [PageFileLink] { links(page: index).files }

    /// The links of page `index` (0-based) that go to another page of this
    /// document: GoTo actions with an explicit page or a named destination.
    public func jumpLinks(page index: Int) -> [PageJumpLink] { links(page: index).jumps }

    private func links(page index: Int) -> (files: [PageFileLink], jumps: [PageJumpLink]) {
        guard (0..<pageCount).contains(index) else { return ([], []) }
        let size = pageSize(index)
        guard size.width > 0, size.height > 0 else { return ([], []) }
        PopplerGate.shared.enter()
        defer { PopplerGate.shared.leave() }
        lock.lock()
        defer { lock.unlock() }
        guard let page = poppler_document_get_page(document, Int32(index)) else { return ([], []) }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var links: [PageFileLink] = []
        var jumps: [PageJumpLink] = []
        func region(_ area: PopplerRectangle) -> PageRegion? {
            // Poppler's areas are in points from the bottom left.
            let x1 = min(area.x1, area.x2), x2 = max(area.x1, area.x2)
            let y1 = min(area.y1, area.y2), y2 = max(area.y1, area.y2)
            let region = PageRegion(
                x: x1 / size.width, y: (size.height - y2) / size.height, width: (x2 - x1) / size.width,
                height: (y2 - y1) / size.height)
            return region.width > 0 && region.height > 0 ? region : nil
        }
        func add(_ area: PopplerRectangle, _ target: String?) {
            guard let target, let path = localPath(target), let region = region(area) else { return }
            links.append(PageFileLink(region: region, path: path))
        }
        let linkList = poppler_page_get_link_mapping(page)
        var node = linkList
        while let current = node {
            if let mapping = current.pointee.data?.assumingMemoryBound(to: PopplerLinkMapping.self).pointee,
                let action = mapping.action
            {
                switch action.pointee.type {
                case POPPLER_ACTION_LAUNCH:
                    add(mapping.area, action.pointee.launch.file_name.map { String(cString: $0) })
                case POPPLER_ACTION_URI: add(mapping.area, action.pointee.uri.uri.map { String(cString: $0) })
                case POPPLER_ACTION_GOTO_DEST:
                    if let target = destinationPage(action.pointee.goto_dest.dest), let region = region(mapping.area) {
                        jumps.append(PageJumpLink(region: region, page: target))
                    }
                default: break
                }
            }
            node = current.pointee.next
        }
        poppler_page_free_link_mapping(linkList)
        let annotList = poppler_page_get_annot_mapping(page)
        node = annotList
        while let current = node {
            if let mapping = current.pointee.data?.assumingMemoryBound(to: PopplerAnnotMapping.self).pointee,
                let annot = mapping.annot, poppler_annot_get_annot_type(annot) == POPPLER_ANNOT_MOVIE,
                let movie = poppler_annot_movie_get_movie(annot), let name = poppler_movie_get_filename(movie)
            {
                add(mapping.area, String(cString: name))
            }
            node = current.pointee.next
        }
        poppler_page_free_annot_mapping(annotList)
        return (links, jumps)
    }

    /// The page (0-based) a destination names: its own page number, or a
    /// named destination looked up in the document (beamer writes those).
    private func destinationPage(_ dest: UnsafeMutablePointer<PopplerDest>?) -> Int? {
        guard let dest else { return nil }
        if dest.pointee.type == POPPLER_DEST_NAMED {
            guard let name = dest.pointee.named_dest, let found = poppler_document_find_dest(document, name) else {
                return nil
            }
            defer { poppler_dest_free(found) }
            return (1...pageCount).contains(Int(found.pointee.page_num)) ? Int(found.pointee.page_num) - 1 : nil
        }
        return (1...pageCount).contains(Int(dest.pointee.page_num)) ? Int(dest.pointee.page_num) - 1 : nil
    }

    /// A link target as a local path: `file://` URIs and plain paths
    /// (relative to the PDF's folder); nil for other URIs (http, mailto).
    private func localPath(_ target: String) -> String? {
        if target.lowercased().hasPrefix("file:") {
            guard let raw = g_filename_from_uri(target, nil, nil) else { return nil }
            defer { g_free(raw) }
            return String(cString: raw)
        }
        if let colon = target.firstIndex(of: ":"),
            target[..<colon].allSatisfy({ $0.isLetter || $0 == "+" || $0 == "-" || $0 == "." }),
            target.distance(from: target.startIndex, to: colon) > 1
        {
            return nil  // another scheme
        }
        if target.hasPrefix("/") { return target }
        return ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
    }
}
