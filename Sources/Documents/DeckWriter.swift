import CCairo
import CPoppler
import Foundation

/// One page of a deck that `DeckWriter` writes: its size in points, its
/// page label, and solid rectangles (a background first, then whatever
/// marks the parts a test looks for).
public struct DeckPage: Sendable {
    /// A solid rectangle, in fractions of the page.
    public struct Fill: Sendable {
        public var region: PageRegion
        /// 0xRRGGBB
        public var color: UInt32
        public init(_ region: PageRegion, color: UInt32) {
            self.region = region
            self.color = color
        }
    }

    /// An internal link: a clickable part of the page (fractions) that goes
    /// to a page (1-based, as PDF viewers count) or to a named destination.
    /// Cairo 1.16 writes no destination for a page it has not reached yet:
    /// link forward by name.
    public struct Link: Sendable {
        public enum Target: Sendable {
            case page(Int)
            case named(String)
        }
        public var region: PageRegion
        public var target: Target
        public init(_ region: PageRegion, to target: Target) {
            self.region = region
            self.target = target
        }
    }

    public var width: Double
    public var height: Double
    /// Links on this page, and the named destinations it holds (beamer
    /// names its frames; a table of contents links to the names).
    public var links: [Link] = []
    public var destinations: [String] = []
    /// The `/PageLabels` entry of the page; nil leaves it unlabelled.
    public var label: String?
    public var fills: [Fill]
    /// Text drawn at the top, to tell pages apart by eye.
    public var caption: String?

    public init(width: Double, height: Double, label: String? = nil, fills: [Fill], caption: String? = nil) {
        self.width = width
        self.height = height
        self.label = label
        self.fills = fills
        self.caption = caption
    }
}

/// Writes PDFs page by page with cairo's PDF surface: page sizes, page
/// labels (`cairo_pdf_surface_set_page_label`, as LaTeX beamer writes them
/// for overlays) and coloured areas. Decks for tests and demos, made here
/// rather than committed.
public enum DeckWriter {
    public static func write(_ pages: [DeckPage], to path: String) throws(DocumentError) {
        guard let first = pages.first else {
            throw DocumentError(
                kind: .renderFailed, description: "cannot write \(path): a deck needs at least one page")
        }
        let surface = cairo_pdf_surface_create(path, first.width, first.height)!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        for page in pages {
            // Size and label apply to the page about to be drawn.
            cairo_pdf_surface_set_size(surface, page.width, page.height)
            if let label = page.label { cairo_pdf_surface_set_page_label(surface, label) }
            for fill in page.fills {
                let c = fill.color
                cairo_set_source_rgb(
                    cr, Double(c >> 16 & 0xff) / 255, Double(c >> 8 & 0xff) / 255, Double(c & 0xff) / 255)
                cairo_rectangle(
                    cr, fill.region.x * page.width, fill.region.y * page.height, fill.region.width * page.width,
                    fill.region.height * page.height)
                cairo_fill(cr)
            }
            for name in page.destinations {
                cairo_tag_begin(cr, CAIRO_TAG_DEST, "name='\(name)' x=0 y=0")
                cairo_tag_end(cr, CAIRO_TAG_DEST)
            }
            for link in page.links {
                let r = link.region
                let rect =
                    "rect=[\(r.x * page.width) \(r.y * page.height) \(r.width * page.width) \(r.height * page.height)]"
                let target: String
                switch link.target {
                case let .page(number): target = "page=\(number) pos=[0 0]"
                case let .named(name): target = "dest='\(name)'"
                }
                cairo_tag_begin(cr, CAIRO_TAG_LINK, "\(rect) \(target)")
                cairo_tag_end(cr, CAIRO_TAG_LINK)
            }
            if let caption = page.caption {
                Draw.text(
                    cr, caption, font: "Sans \(Int(page.height / 20))px", x: 0, y: page.height / 40, width: page.width,
                    rgb: (1, 1, 1))
            }
            cairo_show_page(cr)
        }
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw DocumentError(
                kind: .renderFailed,
                description: "cannot write \(path): \(String(cString: cairo_status_to_string(status)))")
        }
    }
}
