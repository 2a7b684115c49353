import Foundation

/// Writes a page's notes into pdfpc's JSON notes file (`talk.pdfpc`), as
/// pdfpc 4.6 keeps it: the page's entry found as the reader finds it (by
/// label and overlay, else by index) or added with its index, label and
/// overlay number. Every other member, known to Screenplay or not, is kept
/// as it was; the file is replaced atomically, so a crash mid-write leaves
/// the old one.
enum PdfpcWriter {
    struct WriteError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "cannot save the notes to \(path): \(reason)" }
    }

    /// Sets (or, with an empty text, removes) the note of `page` (0-based).
    static func setNote(_ text: String, page: Int, pageLabels labels: [String], path: String) throws(WriteError) {
        var root: [String: Any] = ["pdfpcFormat": PdfpcFile.formatVersion, "disableMarkdown": false, "pages": []]
        if FileManager.default.fileExists(atPath: path) {
            guard let data = FileManager.default.contents(atPath: path),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else {
                throw WriteError(path: path, reason: "it is not a JSON object pdfpc wrote; fix or move it first")
            }
            root = object
        }
        var pages = root["pages"] as? [[String: Any]] ?? []
        let found = pages.firstIndex { entry in
            guard let idx = entry["idx"] as? Int else { return false }
            let resolved = PdfpcFile.resolve(
                idx: idx, label: entry["label"] as? String ?? "", overlay: entry["overlay"] as? Int ?? 0,
                labels: labels)
            return resolved == page
        }
        if let found {
            if text.isEmpty { pages[found]["note"] = nil } else { pages[found]["note"] = text }
        } else if !text.isEmpty {
            let label = labels.indices.contains(page) ? labels[page] : "\(page + 1)"
            // pdfpc counts a page's overlay among the pages sharing its label.
            let overlay = labels.prefix(page).reversed().prefix { $0 == label }.count
            let entry: [String: Any] = ["idx": page, "label": label, "overlay": overlay, "note": text]
            let at = pages.firstIndex { ($0["idx"] as? Int ?? 0) > page } ?? pages.count
            pages.insert(entry, at: at)
        }
        root["pages"] = pages
        let data: Data
        do {
            data = try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
        } catch {
            throw WriteError(path: path, reason: "\(error)")
        }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw WriteError(path: path, reason: "\(error.localizedDescription); check the folder can be written")
        }
    }
}
