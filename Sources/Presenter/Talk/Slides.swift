import Foundation

/// Slides as the speaker counts them: consecutive pages that share a PDF
/// page label are overlays of one slide (LaTeX beamer labels every step of
/// `\pause` with the frame's number), as pdfpc groups them. A document
/// without labels has one page per slide.
struct Slides: Equatable, Sendable {
    /// Slide (0-based) of each page.
    let slideOfPage: [Int]
    /// First page of each slide.
    let firstPages: [Int]

    /// `forcedOverlays`: pages pdfpc was told belong to the page before.
    init(labels: [String], forcedOverlays: Set<Int> = []) {
        var slideOfPage: [Int] = []
        var firstPages: [Int] = []
        for (i, label) in labels.enumerated() {
            let joins = i > 0 && ((!label.isEmpty && label == labels[i - 1]) || forcedOverlays.contains(i))
            if !joins { firstPages.append(i) }
            slideOfPage.append(firstPages.count - 1)
        }
        if slideOfPage.isEmpty {
            slideOfPage = [0]
            firstPages = [0]
        }
        self.slideOfPage = slideOfPage
        self.firstPages = firstPages
    }

    /// One slide per page.
    init(pageCount: Int) { self.init(labels: (0..<max(1, pageCount)).map { String($0 + 1) }) }

    var count: Int { firstPages.count }
    var pageCount: Int { slideOfPage.count }
    var hasOverlays: Bool { count < pageCount }

    func slide(ofPage page: Int) -> Int { slideOfPage[min(max(0, page), pageCount - 1)] }

    func firstPage(ofSlide slide: Int) -> Int { firstPages[slide] }

    /// The slide fully built: its last overlay.
    func lastPage(ofSlide slide: Int) -> Int { slide + 1 < count ? firstPages[slide + 1] - 1 : pageCount - 1 }

    /// 1-based position of `page` within its slide, and how many pages the slide has.
    func overlay(ofPage page: Int) -> (step: Int, steps: Int) {
        let slide = slide(ofPage: page)
        return (page - firstPage(ofSlide: slide) + 1, lastPage(ofSlide: slide) - firstPage(ofSlide: slide) + 1)
    }
}
