import Foundation

/// Tells images from PDFs by what a file holds, not by its name; a file
/// that does not exist (yet) is judged by its extension, so its error is
/// "cannot read" (66) rather than "unsupported content" (64). A file
/// named `.pdf` is always a PDF, so a damaged one gets poppler's reason.
enum ContentRecognition {
    /// Extensions of the formats the image loader reads, for missing files.
    static let imageExtensions: Set<String> = [
        "png", "jpg", "jpeg", "jpe", "gif", "webp", "svg", "svgz", "bmp", "tif", "tiff", "ico",
    ]

    static func classify(path: String, fileName: String, fileExtension: String) -> PresentCommand.Content? {
        guard !fileName.isEmpty else { return nil }
        // A damaged file named .pdf gets poppler's reason, as before.
        if fileExtension == "pdf" { return .pdf(path: path) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return imageExtensions.contains(fileExtension) ? .image(path: path) : nil
        }
        if isDirectory.boolValue { return nil }
        // An unreadable file is an image to the loader, which says why it cannot be read.
        guard let handle = FileHandle(forReadingAtPath: path) else { return .image(path: path) }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 1024)) ?? Data()
        // PDF readers accept the signature anywhere in the first kilobyte.
        if head.range(of: Data("%PDF-".utf8)) != nil { return .pdf(path: path) }
        return .image(path: path)
    }
}
