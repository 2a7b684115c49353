import CCairo
import CPoppler
import Foundation
import Geometry
import Glibc

/// Why a document could not be opened or a page not rendered.
public struct DocumentError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        /// Missing, a directory, or no permission: the input is not there (exit 66).
        case unreadable
        /// Encrypted, and no password or a wrong one was given (exit 65).
        case encrypted
        /// Not a PDF, truncated or damaged beyond repair (exit 65).
        case corrupt
        /// One page could not be rendered; the rest of the document may be fine.
        case renderFailed
    }
    public let kind: Kind
    public let description: String

    public init(kind: Kind, description: String) {
        self.kind = kind
        self.description = description
    }
}

/// A PDF opened with poppler-glib, rendered page by page into RGBA pixels.
///
/// Poppler documents must not be used from two threads at once; every call
/// here takes the document's lock, so one document may be rendered on a
/// background queue while the main thread asks for sizes.
public final class PDFDocument: @unchecked Sendable {
    public let path: String
    /// Number of pages (at least 1: poppler refuses documents without pages).
    public let pageCount: Int
    private let document: OpaquePointer
    private let lock = NSLock()
    private let sizes: [(width: Double, height: Double)]
    /// Each page's label (`/PageLabels`), as a viewer shows it: "iii", "4",
    /// "A-1". Without labels in the document poppler gives the page numbers
    /// ("1", "2", ...); a page it cannot read has "".
    public let pageLabels: [String]

    private init(path: String, document: OpaquePointer) {
        self.path = path
        self.document = document
        pageCount = Int(poppler_document_get_n_pages(document))
        var sizes: [(Double, Double)] = []
        var labels: [String] = []
        for i in 0..<pageCount {
            var w = 0.0, h = 0.0
            var label = ""
            if let page = poppler_document_get_page(document, Int32(i)) {
                poppler_page_get_size(page, &w, &h)
                if let text = poppler_page_get_label(page) {
                    label = String(cString: text)
                    g_free(text)
                }
                g_object_unref(UnsafeMutableRawPointer(page))
            }
            sizes.append((w, h))
            labels.append(label)
        }
        self.sizes = sizes
        pageLabels = labels
    }

    deinit {
        let document = document
        PopplerGate.shared.run { g_object_unref(UnsafeMutableRawPointer(document)) }
    }

    /// Opens `path`, telling apart a file that is not there (`.unreadable`)
    /// from one that is not a usable PDF (`.encrypted`, `.corrupt`).
    public static func open(path: String, password: String? = nil) throws(DocumentError) -> PDFDocument {
        var info = stat()
        if stat(path, &info) != 0 {
            throw DocumentError(
                kind: .unreadable, description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            throw DocumentError(kind: .unreadable, description: "cannot read \(path): it is a directory")
        }
        let fd = Glibc.open(path, O_RDONLY)
        if fd < 0 {
            throw DocumentError(
                kind: .unreadable, description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        close(fd)
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var gerror: UnsafeMutablePointer<GError>?
        guard let uri = g_filename_to_uri(absolute, nil, &gerror) else {
            let message = gerror.map { String(cString: $0.pointee.message) } ?? "bad file name"
            g_clear_error(&gerror)
            throw DocumentError(kind: .unreadable, description: "cannot read \(path): \(message)")
        }
        defer { g_free(uri) }
        let document = PopplerGate.shared.run { poppler_document_new_from_file(uri, password, &gerror) }
        guard let document else {
            let code = gerror?.pointee.code ?? Int32(POPPLER_ERROR_INVALID.rawValue)
            let message = gerror.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&gerror)
            if code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) {
                let why =
                    password == nil
                    ? "\(path) is encrypted; give its password with --password"
                    : "\(path) is encrypted and the password given does not open it"
                throw DocumentError(kind: .encrypted, description: why)
            }
            throw DocumentError(kind: .corrupt, description: "\(path) is not a readable PDF: \(message)")
        }
        let made = PopplerGate.shared.run { PDFDocument(path: path, document: document) }
        if made.pageCount == 0 {
            throw DocumentError(kind: .corrupt, description: "\(path) has no pages")
        }
        return made
    }

    /// Size of page `index` (0-based) in points; (0, 0) for a broken page.
    public func pageSize(_ index: Int) -> (width: Double, height: Double) {
        sizes.indices.contains(index) ? sizes[index] : (0, 0)
    }

    /// Renders page `index` (0-based) at exactly `width`x`height` pixels:
    /// scaled to fit with its aspect kept, centred, the rest black. Returns
    /// straight RGBA rows, top first (opaque). `region` picks part of the
    /// page (the slide or the notes half of a beamer page) to fit instead.
    public func render(page index: Int, width: Int, height: Int, region: PageRegion = .whole) throws(DocumentError)
        -> [UInt8]
    {
        guard width > 0, height > 0, width <= 16384, height <= 16384 else {
            throw DocumentError(kind: .renderFailed, description: "page \(index + 1): bad size \(width)x\(height)")
        }
        guard (0..<pageCount).contains(index) else {
            throw DocumentError(
                kind: .renderFailed, description: "page \(index + 1) does not exist (the document has \(pageCount))")
        }
        let pageSize = pageSize(index)
        guard pageSize.width > 0, pageSize.height > 0 else {
            throw DocumentError(kind: .renderFailed, description: "page \(index + 1) has no size (a damaged page)")
        }
        let size = (width: pageSize.width * region.width, height: pageSize.height * region.height)
        let image = try CairoImage(width: width, height: height)
        let cr = image.cairo
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_paint(cr)
        let rect = fitRect(contentWidth: size.width, contentHeight: size.height, width: width, height: height)
        // Poppler draws only the page's content: paper is white unless the
        // page paints it, as every PDF viewer assumes.
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_rectangle(cr, Double(rect.x), Double(rect.y), Double(rect.width), Double(rect.height))
        cairo_fill(cr)
        cairo_save(cr)
        cairo_rectangle(cr, Double(rect.x), Double(rect.y), Double(rect.width), Double(rect.height))
        cairo_clip(cr)
        cairo_translate(cr, Double(rect.x), Double(rect.y))
        cairo_scale(cr, Double(rect.width) / size.width, Double(rect.height) / size.height)
        cairo_translate(cr, -region.x * pageSize.width, -region.y * pageSize.height)
        let rendered = PopplerGate.shared.run {
            lock.lock()
            defer { lock.unlock() }
            guard let page = poppler_document_get_page(document, Int32(index)) else { return false }
            poppler_page_render(page, cr)
            g_object_unref(UnsafeMutableRawPointer(page))
            return true
        }
        cairo_restore(cr)
        guard rendered else {
            throw DocumentError(
                kind: .renderFailed, description: "page \(index + 1) could not be read from the document")
        }
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw DocumentError(
                kind: .renderFailed,
                description: "page \(index + 1): cairo: \(String(cString: cairo_status_to_string(status)))")
        }
        return image.rgba()
    }
}

/// A part of a page in fractions of its size (0...1, from the top left).
public struct PageRegion: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole page.
    public static let whole = PageRegion(x: 0, y: 0, width: 1, height: 1)
    public static let leftHalf = PageRegion(x: 0, y: 0, width: 0.5, height: 1)
    public static let rightHalf = PageRegion(x: 0.5, y: 0, width: 0.5, height: 1)
    public static let topHalf = PageRegion(x: 0, y: 0, width: 1, height: 0.5)
    public static let bottomHalf = PageRegion(x: 0, y: 0.5, width: 1, height: 0.5)
}

/// The largest rectangle of the content's aspect that fits, centred, in
/// whole pixels (the package's one aspect-fit, `Geometry.aspectFitRect`).
public func fitRect(contentWidth: Double, contentHeight: Double, width: Int, height: Int) -> (
    x: Int, y: Int, width: Int, height: Int
) {
    aspectFitRect(contentWidth: contentWidth, contentHeight: contentHeight, intoWidth: width, intoHeight: height)
}

/// A cairo ARGB32 image surface with its context, freed on deinit.
final class CairoImage {
    let width: Int
    let height: Int
    let surface: OpaquePointer
    let cairo: OpaquePointer

    init(width: Int, height: Int) throws(DocumentError) {
        self.width = width
        self.height = height
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            cairo = OpaquePointer(bitPattern: 1)!
            throw DocumentError(
                kind: .renderFailed, description: "cannot make a \(width)x\(height) image (out of memory?)")
        }
        cairo = cairo_create(surface)
    }

    deinit {
        cairo_destroy(cairo)
        cairo_surface_destroy(surface)
    }

    /// Straight RGBA rows, top first, from cairo's premultiplied native-endian ARGB words.
    func rgba() -> [UInt8] {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        var out = [UInt8](repeating: 0, count: width * height * 4)
        out.withUnsafeMutableBufferPointer { rgba in
            for row in 0..<height {
                let line = data + row * stride
                for column in 0..<width {
                    let word = line.loadUnaligned(fromByteOffset: column * 4, as: UInt32.self)
                    let alpha = word >> 24
                    let o = (row * width + column) * 4
                    if alpha == 255 {
                        rgba[o] = UInt8(truncatingIfNeeded: word >> 16)
                        rgba[o + 1] = UInt8(truncatingIfNeeded: word >> 8)
                        rgba[o + 2] = UInt8(truncatingIfNeeded: word)
                    } else if alpha > 0 {
                        func straight(_ v: UInt32) -> UInt8 { UInt8(min(255, ((v & 0xff) * 255 + alpha / 2) / alpha)) }
                        rgba[o] = straight(word >> 16)
                        rgba[o + 1] = straight(word >> 8)
                        rgba[o + 2] = straight(word)
                    }
                    rgba[o + 3] = UInt8(alpha)
                }
            }
        }
        return out
    }
}

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

/// Poppler's globals (its GlobalParams with the font and Unicode caches)
/// are C++ statics that `exit` destroys, in whatever thread calls it, while
/// a page may still be rendering on another: that render then reads freed
/// memory. Seen as a crash at SIGTERM during the presenter's first renders
/// (a slide worker in poppler's Unicode map cache, the main thread in
/// libsmime3's exit handlers). Every poppler call passes this gate; an exit
/// handler, registered after poppler's own so it runs before them, closes
/// it and waits for the calls in flight. A call that comes after waits for
/// good: the process is ending.
final class PopplerGate: @unchecked Sendable {
    // @unchecked: `inFlight` and `closed` are read and written only with `condition` locked.
    static let shared: PopplerGate = {
        let gate = PopplerGate()
        atexit { PopplerGate.shared.close() }
        return gate
    }()
    private let condition = NSCondition()
    private var inFlight = 0
    private var closed = false
    /// How long the exit handler waits for a render in flight; one stuck in
    /// poppler must not hang the exit.
    private static let exitWait: TimeInterval = 5

    func enter() {
        condition.lock()
        while closed { condition.wait() }
        inFlight += 1
        condition.unlock()
    }

    func leave() {
        condition.lock()
        inFlight -= 1
        condition.broadcast()
        condition.unlock()
    }

    func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        enter()
        defer { leave() }
        return try body()
    }

    private func close() {
        condition.lock()
        closed = true
        let deadline = Date(timeIntervalSinceNow: Self.exitWait)
        while inFlight > 0, condition.wait(until: deadline) {}
        condition.unlock()
    }
}
