import Documents
import Screenplay

extension Presenter {
    /// Renders ahead (`RenderAhead`) at every size on screen; forgets pages far away.
    func prefetch() {
        guard let (sizes, notesSize) = scenes?.slideSizes(withNotes: files.notesPosition != nil) else { return }
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

    /// A slide arrived: redraw only the scenes it improves (`TalkScenes.redraw(for:)`).
    func slideRendered(_ key: SlideKey) {
        var audiencePage: Int?
        if case let .page(p) = state.audience { audiencePage = p }
        scenes?.redraw(
            for: key, audiencePage: audiencePage, region: files.slideRegion,
            consolePages: [state.page, state.nextPage, state.nextSlidePreview, audiencePage],
            isRendered: { [cache] in cache.picture($0) != nil })
    }
}
