import Foundation
import Screenplay

/// Editing the current slide's notes on the console, saved into pdfpc's
/// notes file as pdfpc does it (its Ctrl+n), so the next talk (here or in
/// pdfpc) has them.
@MainActor
final class ConsoleNotesEditing {
    private let files: TalkFiles
    private let messages: TalkMessages
    private let emit: ([String: Any]) -> Void
    /// The console shows the editor's text (or stops showing it).
    private let redraw: () -> Void
    /// The page's notes being edited, if any.
    private(set) var editor: NotesEditor?

    init(
        files: TalkFiles, messages: TalkMessages, emit: @escaping ([String: Any]) -> Void,
        redraw: @escaping () -> Void
    ) {
        self.files = files
        self.messages = messages
        self.emit = emit
        self.redraw = redraw
    }

    /// The notes file's name, for the console's editor label.
    var pdfpcFileName: String { (files.pdfpcPath as NSString).lastPathComponent }

    /// Opens the editor on the notes of the current slide's first page
    /// (`slide`): where pdfpc keeps a slide's note, and where the console
    /// reads an overlay's from.
    func open(slide: Int) {
        let page = files.slides.firstPage(ofSlide: slide)
        guard !files.markdownNotePages.contains(page) else {
            messages.info(
                "the notes of page \(page + 1) come from the talk's .notes.md file, which wins over pdfpc's: edit that file"
            )
            emit(["event": "notes-editor", "open": false, "reason": "markdown notes win"])
            return
        }
        editor = NotesEditor(page: page, text: files.notes.text(forPage: page))
        emit(["event": "notes-editor", "open": true, "page": page + 1])
        redraw()
    }

    /// A key while the editor is open: typing, or Escape to save and close.
    func key(_ event: KeyEvent) {
        guard var editor else { return }
        switch editor.key(keysym: event.keysym, text: event.text, control: event.control) {
        case .unchanged: return
        case .edited:
            self.editor = editor
        case .save, .cancel:
            self.editor = nil
            save(editor)
        }
        redraw()
    }

    private func save(_ editor: NotesEditor) {
        let text = editor.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text != files.notes.text(forPage: editor.page) else {
            emit(["event": "notes-editor", "open": false, "saved": false])
            return
        }
        do {
            try PdfpcWriter.setNote(
                text, page: editor.page, pageLabels: files.document.pageLabels, path: files.pdfpcPath)
            files.notes.set(text, forPage: editor.page)
            messages.info("notes of page \(editor.page + 1) saved to \(files.pdfpcPath)")
            emit(["event": "notes-editor", "open": false, "saved": true, "path": files.pdfpcPath])
        } catch {
            // Loud, and the text is kept: the editor opens again with it.
            messages.error("\(error)")
            self.editor = editor
            emit(["event": "notes-editor", "open": true, "saved": false, "error": "\(error)"])
        }
    }
}
