import Foundation

/// Where notes come from: our own markdown file and pdfpc's JSON file,
/// and which of them the speaker named (that one must exist).
struct NotesSources {
    var markdown: String
    var pdfpc: String
    var markdownRequired = false
    var pdfpcRequired = false

    init(notesPath: String?, pdf: String) {
        markdown = SpeakerNotes.sidecarPath(for: pdf)
        pdfpc = PdfpcFile.sidecarPath(for: pdf)
        if let named = notesPath {
            // `--notes talk.pdfpc` names pdfpc's file; anything else is ours.
            if named.lowercased().hasSuffix(".pdfpc") {
                pdfpc = named
                pdfpcRequired = true
            } else {
                markdown = named
                markdownRequired = true
            }
        }
    }

    func loadNotes(pageCount: Int) throws(TalkError) -> SpeakerNotes {
        let path = markdown
        guard let text = try Self.readText(path, required: markdownRequired) else { return SpeakerNotes() }
        do {
            return try SpeakerNotes.parse(text, pageCount: pageCount, path: path)
        } catch {
            throw TalkError(.invalid, "bad notes file: \(error.description)")
        }
    }

    func loadPdfpc(labels: [String], messages: TalkMessages) throws(TalkError) -> PdfpcFile? {
        let path = pdfpc
        guard let text = try Self.readText(path, required: pdfpcRequired) else { return nil }
        do {
            let file = try PdfpcFile.parse(Data(text.utf8), path: path, pageLabels: labels)
            var read = ["notes for \(file.notes.count) page\(file.notes.count == 1 ? "" : "s")"]
            if let duration = file.duration { read.append("duration \(Int(duration)) min") }
            if let end = file.endTime { read.append("end time \(end)") }
            if let last = file.lastMinutes { read.append("last minutes \(Int(last))") }
            if let position = file.notesPosition { read.append("notes position \(position.rawValue)") }
            var line = "\(path): \(read.joined(separator: ", "))"
            if !file.unused.isEmpty { line += "; not used here: \(file.unused.joined(separator: ", "))" }
            messages.info(line)
            return file
        } catch {
            throw TalkError(.invalid, "bad pdfpc file: \(error.description)")
        }
    }

    /// The file's text; nil when it is not there and nobody asked for it.
    /// A file that opens but cannot be read (a directory) is "not a
    /// readable text file"; one that does not open says open(2)'s reason.
    private static func readText(_ path: String, required: Bool) throws(TalkError) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            if required { throw TalkError(.unreadable, "cannot read the notes file \(path): \(reason)") }
            return nil
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        guard let data = try? handle.readToEnd() ?? Data() else {
            if required { throw TalkError(.unreadable, "cannot read the notes file \(path): not a readable text file") }
            return nil
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw TalkError(.invalid, "\(path): not UTF-8 text")
        }
        return text
    }
}
