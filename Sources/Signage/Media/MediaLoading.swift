public import Screenplay

extension PlayItem {
    /// Loads the item for a panel of `width`x`height` pixels (as drawn,
    /// after any turn). Colours, pictures, PDF pages, shaders and text are
    /// drawn here; a video and a web page have players of their own, which
    /// the app makes: `video` gets the file and whether it loops, `web` the
    /// page. A file's text and a ticker tell `messages` when it cannot be read.
    @MainActor
    public func makeMedia(
        width: Int, height: Int, synchronously: Bool, scene: Scene, messages: SignageMessages,
        video: (_ path: String, _ loops: Bool) -> any PlayMedia, web: (WebItem) -> any PlayMedia
    ) -> any PlayMedia {
        switch source {
        case let .color(color): ColorMedia(color)
        case let .image(path): PictureMedia(path: path)
        case let .pdfPage(path, page):
            PDFPageMedia(path: path, page: page, width: width, height: height, synchronously: synchronously)
        case let .shader(path): ShaderMedia(path: path)
        case let .video(_, _, problem?), let .missing(_, problem): FailedMedia(problem)
        case let .video(path, loops, nil): video(path, loops)
        case let .text(item):
            if case .ticker = item.content {
                TickerMedia(item, scene: scene, messages: messages)
            } else {
                TextMedia(item, messages: messages)
            }
        // The loader lets a layout be a panel's content only; the panel makes its media.
        case let .layout(layout): FailedMedia("layout \"\(layout.name)\" can only be a panel's content")
        case let .web(page): web(page)
        }
    }
}
