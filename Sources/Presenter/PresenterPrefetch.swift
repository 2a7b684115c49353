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
            if files.notesPosition != nil { notes = layout.notes.size }
        }
        return (
            sizes.filter { $0.width > 0 && $0.height > 0 }, notes.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil }
        )
    }

    /// Renders ahead (`RenderAhead`) at every size on screen; forgets pages far away.
    func prefetch() {
        let (sizes, notesSize) = wantedSizes
        let keys = RenderAhead.keys(
            pages: RenderAhead.pages(state, pageCount: files.document.pageCount), sizes: sizes,
            region: files.slideRegion, notesSize: notesSize, notesRegion: files.notesPosition?.notesRegion)
        cache.want(keys) { [weak self] picture in self?.app?.releaseResources(of: picture) }
    }

    /// Thumbnails for the overview at `size`, from the selected slide outwards.
    func wantThumbnails(size: PixelSize) {
        let pages = RenderAhead.overviewOrder(state).map { state.slides.lastPage(ofSlide: $0) }
        thumbnails.want(pages: pages, size: size, region: files.slideRegion) { [weak self] picture in
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
                region: files.slideRegion)
            if key == exact || cache.picture(exact) == nil { scene.setNeedsDisplay() }
        }
        // The console shows the current page, the next slide and the notes
        // (and the --rehearse window the audience page).
        let shown: Set<Int?> = [state.page, state.nextPage, state.nextSlidePreview, audiencePage]
        if shown.contains(key.page) {
            for window in scenes?.windows ?? [] { window.setNeedsDisplay() }
        }
    }
}
