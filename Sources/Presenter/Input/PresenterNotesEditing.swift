import Foundation
import Screenplay

/// Editing the current slide's notes on the console, saved into pdfpc's
/// notes file as pdfpc does it (its Ctrl+n), so the next talk (here or in
/// pdfpc) has them.
extension Presenter {
    /// The notes of the current slide's first page: where pdfpc keeps a
    /// slide's note, and where the console reads an overlay's from.
    var notesPage: Int { state.slides.firstPage(ofSlide: state.slide) }

    /// The notes file's name, for the console's editor label.
    var pdfpcFileName: String { (pdfpcPath as NSString).lastPathComponent }

    func openNotesEditor() {
        let page = notesPage
        guard !markdownNotePages.contains(page) else {
            messages.info(
                "the notes of page \(page + 1) come from the talk's .notes.md file, which wins over pdfpc's: edit that file"
            )
            emit(["event": "notes-editor", "open": false, "reason": "markdown notes win"])
            return
        }
        notesEditor = NotesEditor(page: page, text: notes.text(forPage: page))
        emit(["event": "notes-editor", "open": true, "page": page + 1])
        console?.setNeedsDisplay()
    }

    /// A key while the editor is open: typing, or Escape to save and close.
    func editNotes(_ event: KeyEvent) {
        guard var editor = notesEditor else { return }
        switch editor.key(keysym: event.keysym, text: event.text, control: event.control) {
        case .unchanged: return
        case .edited:
            notesEditor = editor
        case .save, .cancel:
            notesEditor = nil
            saveNotes(editor)
        }
        console?.setNeedsDisplay()
    }

    private func saveNotes(_ editor: NotesEditor) {
        let text = editor.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text != notes.text(forPage: editor.page) else {
            emit(["event": "notes-editor", "open": false, "saved": false])
            return
        }
        do {
            try PdfpcWriter.setNote(text, page: editor.page, pageLabels: document.pageLabels, path: pdfpcPath)
            notes.set(text, forPage: editor.page)
            messages.info("notes of page \(editor.page + 1) saved to \(pdfpcPath)")
            emit(["event": "notes-editor", "open": false, "saved": true, "path": pdfpcPath])
        } catch {
            // Loud, and the text is kept: the editor opens again with it.
            messages.error("\(error)")
            notesEditor = editor
            emit(["event": "notes-editor", "open": true, "saved": false, "error": "\(error)"])
        }
    }
}
