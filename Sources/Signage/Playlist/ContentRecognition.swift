import Foundation

/// Tells images, PDFs and videos apart by what a file holds, not by its
/// name; a file that does not exist (yet) is judged by its extension, so
/// its error is "cannot read" (66) rather than "unsupported content" (64).
/// A file named `.pdf` is always a PDF, so a damaged one gets poppler's
/// reason. An existing file that is neither a PDF nor an image by its first
/// bytes and not named as an image goes to libmpv, which probes it before
/// anything shows (a file that is no video then exits 65 with its reason).
public enum ContentRecognition {
    /// Extensions of the formats the image loader reads, for missing files.
    static let imageExtensions: Set<String> = [
        "png", "jpg", "jpeg", "jpe", "gif", "webp", "svg", "svgz", "bmp", "tif", "tiff", "ico",
    ]

    /// Extensions taken for video without looking inside (libmpv still
    /// probes the file before anything shows).
    static let videoExtensions: Set<String> = [
        "mp4", "m4v", "mkv", "webm", "mov", "avi", "ogv", "ogg", "mpg", "mpeg", "ts", "m2ts", "wmv", "flv", "3gp",
    ]

    /// What the file at `path` holds (`fileName` its last path component,
    /// `fileExtension` lower case): an image, a PDF or, failing both, a
    /// video; nil for no name or a folder.
    public static func classify(path: String, fileName: String, fileExtension: String) -> MediaKind? {
        guard !fileName.isEmpty else { return nil }
        // A damaged file named .pdf gets poppler's reason, as before.
        if fileExtension == "pdf" { return .pdf }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            if imageExtensions.contains(fileExtension) { return .image }
            if videoExtensions.contains(fileExtension) { return .video }
            return nil
        }
        if isDirectory.boolValue { return nil }
        // An unreadable file is an image to the loader, which says why it cannot be read.
        guard let handle = FileHandle(forReadingAtPath: path) else { return .image }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 1024)) ?? Data()
        // PDF readers accept the signature anywhere in the first kilobyte.
        if head.range(of: Data("%PDF-".utf8)) != nil { return .pdf }
        if looksLikeImage(head) || imageExtensions.contains(fileExtension) { return .image }
        return .video
    }

    /// The signatures of the formats the image loader reads (gdk-pixbuf's
    /// loaders and librsvg), from a file's first kilobyte.
    static func looksLikeImage(_ head: Data) -> Bool {
        let bytes = [UInt8](head.prefix(16))
        func starts(_ magic: [UInt8]) -> Bool {
            bytes.count >= magic.count && Array(bytes.prefix(magic.count)) == magic
        }
        if starts([0x89, 0x50, 0x4E, 0x47]) || starts([0xFF, 0xD8, 0xFF]) || starts(Array("GIF8".utf8))
            || starts(Array("BM".utf8)) || starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A])
            || starts([0x00, 0x00, 0x01, 0x00])
        {
            return true
        }
        if starts(Array("RIFF".utf8)), bytes.count >= 12, Array(bytes[8..<12]) == Array("WEBP".utf8) { return true }
        // SVG is text: an <svg element (perhaps after an XML declaration).
        let text = String(decoding: head, as: UTF8.self).lowercased()
        return text.contains("<svg")
    }
}
