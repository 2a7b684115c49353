import CCairo
import CPoppler
import Foundation
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
    // Not private: the page links (PageLinks.swift) read the same document under the same lock.
    let document: OpaquePointer
    let lock = NSLock()
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
