import Documents
import Foundation
import Screenplay

extension ConsoleDelegate {
    /// What the top bar shows at `now` (monotonic seconds) and `date`.
    func bar(at now: Double, date: Date) -> ConsoleBar {
        ConsoleBar(
            state: presenter.state, pageCount: presenter.files.document.pageCount, timing: presenter.files.timing,
            clock: presenter.options.showsClock ? clockFormat.string(from: date) : nil, now: now, date: date)
    }

    func drawBar(_ bar: ConsoleBar, _ layout: ConsoleLayout, _ c: DrawingContext) throws {
        try c.fill(x: 0, y: 0, width: layout.width, height: layout.bar.height, color: ConsoleColors.bar)
        let big = layout.bar.height * 6 / 10
        let barY = (layout.bar.height - big * 5 / 4) / 2
        let third = layout.width / 3
        try c.drawText(
            bar.page, x: layout.margin, y: barY, maxWidth: third, pixelHeight: big, color: ConsoleColors.text)
        try c.drawText(
            bar.timer, x: third / 2, y: barY, maxWidth: third * 2,
            pixelHeight: bar.timerIsBig ? big : max(layout.textSize, big * 2 / 3), color: bar.timerColor,
            alignment: .center)
        if let clock = bar.clock {
            try c.drawText(
                clock, x: layout.width - third - layout.margin, y: barY, maxWidth: third, pixelHeight: big,
                color: ConsoleColors.text, alignment: .right)
        }
        drawnBar = bar
    }

    /// The overview grid: one thumbnail per slide (fully built), the
    /// selection framed. Returns what `--stats` reports of it.
    func drawOverview(_ layout: ConsoleLayout, selection: Int, _ c: DrawingContext) throws -> [String: Any] {
        let slides = presenter.state.slides
        let grid = layout.overview(count: slides.count, aspect: presenter.files.overviewAspect, selected: selection)
        presenter.setOverviewColumns(grid.columns)
        presenter.wantThumbnails(size: grid.thumbnail)
        var selectedRect: ConsoleLayout.Rect?
        let border = max(3, layout.margin / 2)
        for cell in grid.cells {
            let r = cell.rect
            if cell.slide == selection {
                selectedRect = r
                try c.fill(
                    x: r.x - border, y: r.y - border, width: r.width + 2 * border, height: r.height + 2 * border,
                    color: ConsoleColors.amber)
            }
            if let picture = presenter.thumbnails.picture(page: slides.lastPage(ofSlide: cell.slide)) {
                try c.draw(picture, x: r.x, y: r.y, width: r.width, height: r.height)
            } else {
                try c.fill(x: r.x, y: r.y, width: r.width, height: r.height, color: ConsoleColors.slotEmpty)
            }
        }
        var line: [String: Any] = ["thumbnails": presenter.thumbnails.readyCount, "columns": grid.columns]
        if let selectedRect { line["selected_rect"] = selectedRect.array }
        return line
    }

    /// The current slide's videos as stills (their first picture, not
    /// playing) with a play marker, where the audience sees them play.
    func drawStills(page: Int, in rect: ConsoleLayout.Rect, scene: Scene, _ c: DrawingContext) throws {
        let videos = presenter.files.slideVideos[page] ?? []
        if stills.page != page, !videos.isEmpty || stills.page != nil {
            stills.showSoon { [weak self, weak scene] in
                guard let self, let scene else { return }
                self.stills.show(
                    page: videos.isEmpty ? nil : page, videos: videos, in: scene, play: false, audio: false,
                    loops: false)
            }
        }
        guard stills.page == page else { return }
        let slide = presenter.files.slideSize(page: page)
        for (video, player) in stills.players {
            let r = video.pixelRect(
                slideWidth: slide.width, slideHeight: slide.height, in: (rect.x, rect.y, rect.width, rect.height))
            guard r.width > 0, r.height > 0 else { continue }
            if player.hasPicture {
                try c.drawVideo(player, x: r.x, y: r.y, width: r.width, height: r.height)
            } else {
                try c.fill(x: r.x, y: r.y, width: r.width, height: r.height, color: ConsoleColors.slotEmpty)
            }
            // The play marker: a white triangle on a dark disc-like square.
            let side = max(8, min(r.width, r.height) / 3)
            try c.fill(
                x: r.x + (r.width - side) / 2, y: r.y + (r.height - side) / 2, width: side, height: side,
                color: RGBColor(hex: 0x202020))
            try c.drawText(
                "▶", x: r.x, y: r.y + (r.height - side) / 2, maxWidth: r.width, pixelHeight: side * 4 / 5,
                color: .white, alignment: .center)
        }
    }

    func drawSlide(page: Int, in rect: ConsoleLayout.Rect, region: PageRegion? = nil, _ c: DrawingContext)
        throws
    {
        let region = region ?? presenter.files.slideRegion
        if let picture = presenter.cache.picture(SlideKey(page: page, size: rect.size, region: region)) {
            try c.draw(picture, x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        } else if let picture = presenter.cache.anyPicture(page: page, region: region) {
            let fit = fitRect(
                contentWidth: Double(picture.width), contentHeight: Double(picture.height), width: rect.width,
                height: rect.height)
            try c.fill(x: rect.x, y: rect.y, width: rect.width, height: rect.height, color: .black)
            try c.draw(picture, x: rect.x + fit.x, y: rect.y + fit.y, width: fit.width, height: fit.height)
        } else {
            try c.fill(x: rect.x, y: rect.y, width: rect.width, height: rect.height, color: ConsoleColors.slotEmpty)
        }
    }
}
