import Documents

/// Which slides to render before they are asked for, most wanted first, so
/// a key press finds its page ready and the main thread never waits for
/// poppler.
enum RenderAhead {
    /// The page the audience sees, the current page, then the pages the
    /// next keys show (the next step, the next slide's preview, two ahead,
    /// back, the next and previous slides), all in the document; a page
    /// may come twice, `keys` keeps its first place.
    static func pages(_ state: PresenterState, pageCount: Int) -> [Int] {
        let slides = state.slides
        let slide = state.slide
        var pages = [state.page, state.page + 1, state.nextSlidePreview ?? -1, state.page + 2, state.page - 1]
        if slide + 1 < slides.count { pages.append(slides.firstPage(ofSlide: slide + 1)) }
        if slide > 0 { pages.append(slides.firstPage(ofSlide: slide - 1)) }
        if case let .page(p) = state.audience { pages.insert(p, at: 0) }
        return pages.filter { (0..<pageCount).contains($0) }
    }

    /// Each page at every size on screen (audience sizes first: they are
    /// what the room sees), and its notes half at `notesSize` for beamer notes.
    static func keys(
        pages: [Int], sizes: [PixelSize], region: PageRegion, notesSize: PixelSize?, notesRegion: PageRegion?
    ) -> [SlideKey] {
        var keys: [SlideKey] = []
        func add(_ key: SlideKey) { if !keys.contains(key) { keys.append(key) } }
        for page in pages {
            for size in sizes { add(SlideKey(page: page, size: size, region: region)) }
            if let notesSize, let notesRegion { add(SlideKey(page: page, size: notesSize, region: notesRegion)) }
        }
        return keys
    }

    /// The overview's slides from the selected one outwards.
    static func overviewOrder(_ state: PresenterState) -> [Int] {
        let count = state.slides.count
        let selected = state.overviewSelection ?? state.slide
        var order = [selected]
        for distance in 1..<max(1, count) {
            for slide in [selected + distance, selected - distance] where (0..<count).contains(slide) {
                order.append(slide)
            }
        }
        return order
    }
}
