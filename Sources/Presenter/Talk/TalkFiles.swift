import Documents
import Foundation

/// What a talk's files say, read once when it opens: the PDF, its notes
/// (talk.notes.md and pdfpc's file), pdfpc's settings and the speaker's key
/// bindings. Errors come before any window opens.
@MainActor
final class TalkFiles {
    let document: PDFDocument
    /// The file's name, for the windows' titles.
    let title: String
    /// The speaker's key bindings over the defaults.
    let keys: PresenterKeyMap
    var notes: SpeakerNotes
    /// Pages whose notes come from talk.notes.md (ours win over pdfpc's):
    /// the console's editor writes pdfpc's file, so it leaves these alone.
    let markdownNotePages: Set<Int>
    /// pdfpc's notes file the editor writes (`talk.pdfpc`, or `--notes FILE.pdfpc`).
    let pdfpcPath: String
    /// Notes are pdfpc's Markdown unless its file says `disableMarkdown`.
    let notesAreMarkdown: Bool
    /// Notes as Pango markup by their text: the console redraws each second.
    private var markedUpNotes: [String: String] = [:]
    /// Pages grouped into slides (overlays share a page label).
    let slides: Slides
    /// Beamer notes pages: which half holds the notes (nil: pages are slides).
    let notesPosition: NotesPosition?
    /// The countdown: a duration or an end time, and when it turns amber.
    let timing: TalkTiming
    /// Videos placed on pages (links and movie annotations), by page.
    let slideVideos: [Int: [SlideVideo]]
    /// Internal links by page, read once at start: a click must not wait
    /// for poppler's lock while a slide renders.
    let jumpLinks: [Int: [PageJumpLink]]

    init(path: String, options: TalkOptions) throws(TalkError) {
        let messages = options.messages
        do {
            document = try PDFDocument.open(path: path, password: options.password)
        } catch {
            throw TalkError(error.kind == .unreadable ? .unreadable : .invalid, error.description)
        }
        keys = try PresenterKeyMap.load(
            path: options.keysPath ?? PresenterKeyMap.defaultPath(), required: options.keysPath != nil,
            messages: messages)
        let sources = NotesSources(notesPath: options.notesPath, pdf: path)
        let pdfpc = try sources.loadPdfpc(labels: document.pageLabels, messages: messages)
        var notes = try sources.loadNotes(pageCount: document.pageCount)
        markdownNotePages = Set((0..<document.pageCount).filter { !notes.text(forPage: $0).isEmpty })
        pdfpcPath = sources.pdfpc
        if let pdfpc { notes.fill(from: pdfpc.notes) }
        notesAreMarkdown = !(pdfpc?.disableMarkdown ?? false)
        self.notes = notes
        title = URL(fileURLWithPath: path).lastPathComponent
        slides = Slides(labels: document.pageLabels, forcedOverlays: pdfpc?.forcedOverlays ?? [])
        notesPosition = options.notesPosition ?? pdfpc?.notesPosition
        timing = TalkTiming(options: options, pdfpc: pdfpc, now: Date())
        slideVideos = SlideVideoFinder.find(
            in: document, slideRegion: notesPosition?.slideRegion ?? .whole, isVideo: options.isVideo,
            messages: messages)
        var links: [Int: [PageJumpLink]] = [:]
        for page in 0..<document.pageCount {
            let found = document.jumpLinks(page: page)
            if !found.isEmpty { links[page] = found }
        }
        jumpLinks = links
        if notesPosition == nil {
            let size = document.pageSize(0)
            if let hint = NotesPosition.hint(pageWidth: size.width, pageHeight: size.height) {
                messages.info("hint: \(title): \(hint)")
            }
        }
        if slides.hasOverlays {
            messages.info(
                "\(document.pageCount) pages make \(slides.count) slides (pages sharing a page label are overlays of one slide)"
            )
        }
    }

    /// The notes as the console draws them, and whether that is Pango markup.
    func notesForDrawing(page: Int) -> (text: String, markup: Bool) {
        let text = notesText(page: page)
        guard notesAreMarkdown else { return (text, false) }
        if let known = markedUpNotes[text] { return (known, true) }
        let markup = NotesMarkdown.pangoMarkup(text)
        if markedUpNotes.count > 64 { markedUpNotes.removeAll() }
        markedUpNotes[text] = markup
        return (markup, true)
    }

    /// The notes for `page`; a step of an overlay without notes of its own
    /// shows those of the slide's first page.
    func notesText(page: Int) -> String {
        let own = notes.text(forPage: page)
        if !own.isEmpty { return own }
        return notes.text(forPage: slides.firstPage(ofSlide: slides.slide(ofPage: page)))
    }

    /// The part of each page the audience sees: all of it, or the slide half of a beamer page.
    var slideRegion: PageRegion { notesPosition?.slideRegion ?? .whole }

    /// Width over height of a slide (its part of the page), for the overview's cells.
    var overviewAspect: Double {
        let size = document.pageSize(0)
        let region = slideRegion
        return size.height > 0 ? (size.width * region.width) / (size.height * region.height) : 16.0 / 9
    }

    /// The slide's size in points (the audience's part of the page).
    func slideSize(page: Int) -> (width: Double, height: Double) {
        let size = document.pageSize(page)
        return (size.width * slideRegion.width, size.height * slideRegion.height)
    }
}
