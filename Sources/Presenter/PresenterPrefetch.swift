import Documents
import Screenplay

extension Presenter {
    /// Slide sizes on screen now: every audience scene and the console's
    /// two slide views; and the console's notes view for beamer notes.
    private var wantedSizes: (slides: [PixelSize], notes: PixelSize?) {
        var sizes = audienceScenes.values.filter(\.isConnected).map {
            PixelSize(width: $0.pixelSize.width, height: $0.pixelSize.height)
        }
        var notes: PixelSize?
        if let console, console.isConnected {
            let layout = ConsoleLayout(width: console.pixelSize.width, height: console.pixelSize.height)
            sizes.append(layout.current.size)
            sizes.append(layout.next.size)
            if notesPosition != nil { notes = layout.notes.size }
        }
        return (
            sizes.filter { $0.width > 0 && $0.height > 0 }, notes.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil }
        )
    }

    /// Renders ahead: the current page first, then the pages the next keys
    /// show (the next step, the next slide, back) and the next slide's
    /// preview, at every size on screen; forgets pages far away.
    func prefetch() {
        let (sizes, notesSize) = wantedSizes
        let slides = state.slides
        let slide = state.slide
        var pages = [state.page, state.page + 1, state.nextSlidePreview ?? -1, state.page + 2, state.page - 1]
        if slide + 1 < slides.count { pages.append(slides.firstPage(ofSlide: slide + 1)) }
        if slide > 0 { pages.append(slides.firstPage(ofSlide: slide - 1)) }
        if case let .page(p) = state.audience { pages.insert(p, at: 0) }
        let valid = pages.filter { (0..<document.pageCount).contains($0) }
        var keys: [SlideKey] = []
        func add(_ key: SlideKey) { if !keys.contains(key) { keys.append(key) } }
        // Audience sizes first: they are what the room sees.
        for page in valid {
            for size in sizes { add(SlideKey(page: page, size: size, region: slideRegion)) }
            if let notesSize, let position = notesPosition {
                add(SlideKey(page: page, size: notesSize, region: position.notesRegion))
            }
        }
        cache.want(keys) { [weak self] picture in self?.app?.releaseResources(of: picture) }
    }

    /// Thumbnails for the overview at `size`, from the selected slide outwards.
    func wantThumbnails(size: PixelSize) {
        let slides = state.slides
        let selected = state.overviewSelection ?? state.slide
        var order = [selected]
        for distance in 1..<max(1, slides.count) {
            for slide in [selected + distance, selected - distance] where (0..<slides.count).contains(slide) {
                order.append(slide)
            }
        }
        thumbnails.want(pages: order.map { slides.lastPage(ofSlide: $0) }, size: size, region: slideRegion) {
            [weak self] picture in
            self?.app?.releaseResources(of: picture)
        }
    }

    /// A slide arrived: redraw only the scenes it improves. Pages rendered
    /// ahead (and other sizes of a page already shown exactly) change
    /// nothing on screen; redrawing for them drew page 1 nine times at start.
    func slideRendered(_ key: SlideKey) {
        var audiencePage: Int?
        if case let .page(p) = state.audience { audiencePage = p }
        for scene in audienceScenes.values where key.page == audiencePage {
            let exact = SlideKey(
                page: key.page, size: PixelSize(width: scene.pixelSize.width, height: scene.pixelSize.height),
                region: slideRegion)
            if key == exact || cache.picture(exact) == nil { scene.setNeedsDisplay() }
        }
        // The console shows the current page, the next slide and the notes
        // (and the --rehearse window the audience page).
        let shown: Set<Int?> = [state.page, state.nextPage, state.nextSlidePreview, audiencePage]
        if shown.contains(key.page) {
            for window in windows { window.setNeedsDisplay() }
        }
    }

}
