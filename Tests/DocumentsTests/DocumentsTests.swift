import Documents
import Foundation
import TestHarness
import TestSupport
import XCTest

/// PDF opening, rendering at exact sizes with black letterboxing, the
/// placeholder, and the sample deck, with poppler and cairo for real.
final class DocumentsTests: ScreenplayTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "screenplay-docs-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func pixel(_ rgba: [UInt8], width: Int, x: Int, y: Int) -> [UInt8] {
        let o = (y * width + x) * 4
        return Array(rgba[o..<o + 4])
    }

    func near(_ a: [UInt8], _ hex: UInt32, _ tolerance: Int = 3) -> Bool {
        let b = [UInt8(hex >> 16 & 0xff), UInt8(hex >> 8 & 0xff), UInt8(hex & 0xff)]
        return zip(a.prefix(3), b).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
    }

    /// Page labels as LaTeX beamer writes them for overlays (every step of a
    /// frame carries the frame's number) come back from poppler; a page
    /// without one gets its page number.
    ///
    /// cairo 1.16 leaves out the label entries that plain numbering would
    /// give, the first page's too, and the label tree then lacks the entry
    /// for page 0 that PDF requires: poppler reads such a tree shifted. So
    /// the first page here has a label plain numbering would not give, as
    /// beamer's title pages do not need (pdfTeX always writes page 0).
    func testPageLabelsAndRegionsOfAPage() throws {
        let path = dir + "/labels.pdf"
        let labels: [String?] = ["Title", "2", "2", "2", "iv", nil]
        try DeckWriter.write(
            labels.map {
                DeckPage(
                    width: 320, height: 90, label: $0,
                    fills: [
                        .init(.leftHalf, color: 0x1f4e9c), .init(.rightHalf, color: 0xd4a017),
                    ])
            }, to: path)
        let doc = try PDFDocument.open(path: path)
        XCTAssertEqual(doc.pageLabels, ["Title", "2", "2", "2", "iv", "6"])
        let left = try doc.render(page: 0, width: 160, height: 90, region: .leftHalf)
        let right = try doc.render(page: 0, width: 160, height: 90, region: .rightHalf)
        for (x, y) in [(2, 2), (80, 45), (157, 87)] {
            XCTAssertTrue(
                near(pixel(left, width: 160, x: x, y: y), 0x1f4e9c),
                "left half at \(x),\(y): \(pixel(left, width: 160, x: x, y: y))")
            XCTAssertTrue(near(pixel(right, width: 160, x: x, y: y), 0xd4a017), "right half at \(x),\(y)")
        }
        let unlabelled = dir + "/plain.pdf"
        try DeckWriter.write((0..<3).map { _ in DeckPage(width: 100, height: 100, fills: []) }, to: unlabelled)
        XCTAssertEqual(try PDFDocument.open(path: unlabelled).pageLabels, ["1", "2", "3"])
    }

    /// Internal links (a table of contents, a "back" button) come back with
    /// the part of the page they cover and the page they go to, by number
    /// or by a named destination as beamer writes them; file links are not
    /// among them.
    func testJumpLinksGoToTheirPage() throws {
        let path = dir + "/links.pdf"
        var pages = (1...4).map { n in
            DeckPage(width: 400, height: 300, fills: [.init(.whole, color: 0x202020)], caption: "page \(n)")
        }
        // Forward links by name: cairo 1.16 writes no /Dest for a page it has
        // not reached yet. The link back from page 4 is by number.
        pages[0].links = [
            .init(PageRegion(x: 0, y: 0, width: 0.5, height: 0.5), to: .named("three")),
            .init(PageRegion(x: 0.5, y: 0.5, width: 0.5, height: 0.5), to: .named("the-end")),
        ]
        pages[2].destinations = ["three"]
        pages[3].destinations = ["the-end"]
        pages[3].links = [.init(PageRegion(x: 0.25, y: 0.75, width: 0.5, height: 0.25), to: .page(1))]
        try DeckWriter.write(pages, to: path)
        let document = try PDFDocument.open(path: path)
        let links = document.jumpLinks(page: 0).sorted { $0.page < $1.page }
        XCTAssertEqual(links.map(\.page), [2, 3])
        func close(_ a: PageRegion, _ b: PageRegion) -> Bool {
            abs(a.x - b.x) < 0.01 && abs(a.y - b.y) < 0.01 && abs(a.width - b.width) < 0.01
                && abs(a.height - b.height) < 0.01
        }
        XCTAssertTrue(close(links[0].region, PageRegion(x: 0, y: 0, width: 0.5, height: 0.5)), "\(links[0])")
        XCTAssertTrue(close(links[1].region, PageRegion(x: 0.5, y: 0.5, width: 0.5, height: 0.5)), "\(links[1])")
        XCTAssertEqual(document.jumpLinks(page: 3).map(\.page), [0])
        XCTAssertEqual(document.jumpLinks(page: 1), [])
        XCTAssertEqual(document.fileLinks(page: 0), [], "jumps are not files")
        XCTAssertEqual(document.jumpLinks(page: 9), [], "no such page")
    }

    func testSampleDeckOpensWithItsPagesAndNotes() throws {
        let written = try SampleDeck.write(to: dir)
        let doc = try PDFDocument.open(path: written.pdf)
        XCTAssertEqual(doc.pageCount, SampleDeck.pageCount)
        XCTAssertEqual(doc.pageSize(0).width, 960, accuracy: 0.5)
        XCTAssertEqual(doc.pageSize(0).height, 540, accuracy: 0.5)
        let notes = try String(contentsOfFile: written.notes, encoding: .utf8)
        XCTAssertTrue(notes.contains("## 1"))
    }

    /// 16:9 pages into 4:3 pixels: exact size, bars above and below in black,
    /// the page's own background in between.
    func testRenderIsExactSizeAndLetterboxedInBlack() throws {
        let path = dir + "/deck.pdf"
        try SampleDeck.writePDF(to: path)
        let doc = try PDFDocument.open(path: path)
        let (w, h) = (800, 600)
        let rgba = try doc.render(page: 1, width: w, height: h)
        XCTAssertEqual(rgba.count, w * h * 4)
        // 960x540 -> 800x450, centred: 75-px bars.
        XCTAssertTrue(near(pixel(rgba, width: w, x: 400, y: 10), 0x000000), "\(pixel(rgba, width: w, x: 400, y: 10))")
        XCTAssertTrue(near(pixel(rgba, width: w, x: 400, y: 590), 0x000000))
        XCTAssertTrue(
            near(pixel(rgba, width: w, x: 5, y: 80), SampleDeck.backgrounds[1]), "\(pixel(rgba, width: w, x: 5, y: 80))"
        )
        XCTAssertTrue(near(pixel(rgba, width: w, x: 795, y: 520), SampleDeck.backgrounds[1]))
        XCTAssertEqual(pixel(rgba, width: w, x: 5, y: 80)[3], 255)
        // Pillarbox the other way.
        let tall = try doc.render(page: 2, width: 300, height: 600)
        XCTAssertTrue(near(pixel(tall, width: 300, x: 150, y: 20), 0x000000))
        XCTAssertTrue(near(pixel(tall, width: 300, x: 150, y: 300), SampleDeck.backgrounds[2]))
    }

    func testFitRect() {
        XCTAssertTrue(fitRect(contentWidth: 16, contentHeight: 9, width: 1280, height: 720) == (0, 0, 1280, 720))
        XCTAssertTrue(fitRect(contentWidth: 16, contentHeight: 9, width: 800, height: 600) == (0, 75, 800, 450))
        XCTAssertTrue(fitRect(contentWidth: 4, contentHeight: 3, width: 1920, height: 1080) == (240, 0, 1440, 1080))
        // A4 in points on a 1080p panel: 763.66 px wide, to the nearest pixel.
        XCTAssertTrue(
            fitRect(contentWidth: 595.28, contentHeight: 841.89, width: 1920, height: 1080) == (578, 0, 764, 1080))
        // An exact half rounds up, as Rendering's pictures do (the same function).
        XCTAssertTrue(fitRect(contentWidth: 2, contentHeight: 1, width: 5, height: 5) == (0, 1, 5, 3))
    }

    func testMissingFileIsUnreadable() {
        XCTAssertThrowsError(try PDFDocument.open(path: dir + "/nope.pdf")) { error in
            XCTAssertEqual((error as? DocumentError)?.kind, .unreadable)
            XCTAssertTrue("\(error)".contains("No such file"), "\(error)")
        }
        XCTAssertThrowsError(try PDFDocument.open(path: dir)) { error in
            XCTAssertEqual((error as? DocumentError)?.kind, .unreadable)
        }
    }

    func testGarbageIsCorrupt() throws {
        let path = dir + "/bad.pdf"
        try Data("this is not a PDF at all\n".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try PDFDocument.open(path: path)) { error in
            XCTAssertEqual((error as? DocumentError)?.kind, .corrupt, "\(error)")
        }
    }

    func testEncryptedNeedsPassword() throws {
        let path = dir + "/locked.pdf"
        try Data(TestPDF.encrypted).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try PDFDocument.open(path: path)) { error in
            XCTAssertEqual((error as? DocumentError)?.kind, .encrypted, "\(error)")
            XCTAssertTrue("\(error)".contains("--password"), "\(error)")
        }
        XCTAssertThrowsError(try PDFDocument.open(path: path, password: "wrong")) { error in
            XCTAssertEqual((error as? DocumentError)?.kind, .encrypted, "\(error)")
        }
    }

    func testRenderOutOfRangeFailsAndPlaceholderHasExactSize() throws {
        let path = dir + "/deck.pdf"
        try SampleDeck.writePDF(to: path)
        let doc = try PDFDocument.open(path: path)
        XCTAssertThrowsError(try doc.render(page: 99, width: 100, height: 100)) { error in
            XCTAssertEqual((error as? DocumentError)?.kind, .renderFailed)
        }
        let placeholder = Placeholder.render(page: 3, reason: "broken", width: 640, height: 360)
        XCTAssertEqual(placeholder.count, 640 * 360 * 4)
        XCTAssertTrue(near(pixel(placeholder, width: 640, x: 5, y: 5), 0x333333))
        // The text (page number and reason) is drawn: some pixels are light.
        let light = stride(from: 0, to: placeholder.count, by: 4).filter { placeholder[$0] > 200 }.count
        XCTAssertGreaterThan(light, 100)
    }
}
