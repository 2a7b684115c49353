import CPixbuf
import Foundation

/// What a file's first bytes and a decoder's GError say about an image
/// file, before and after decoding: the format by content (never the
/// name), cut WebP files the decoder would pad silently, and the error
/// cases (unreadable, damaged, unsupported) that decide the exit status.
enum ImageFileProbe {
    /// Opens the file (the reasons for 66 come from here) and returns its
    /// first bytes for recognising the format.
    static func readHead(_ path: String) throws(ImageError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .unreadable(path: path, reason: "it is a directory") }
        var head = [UInt8](repeating: 0, count: 4096)
        let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        if count == 0 { throw .corrupt(path: path, reason: "the file is empty") }
        head.removeLast(head.count - count)
        return head
    }

    /// XML text whose first element is `<svg`, after any XML declaration,
    /// comments and doctype.
    static func looksLikeSVG(_ head: [UInt8]) -> Bool {
        var text = String(decoding: head, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var rest = Substring(text)
        while true {
            rest = rest.drop(while: \.isWhitespace)
            if rest.hasPrefix("<svg") { return true }
            if rest.hasPrefix("<?") || rest.hasPrefix("<!--") || rest.hasPrefix("<!") {
                let end = rest.hasPrefix("<!--") ? "-->" : ">"
                guard let close = rest.range(of: end) else { return false }
                rest = rest[close.upperBound...]
                continue
            }
            return false
        }
    }

    static func isGzip(_ head: [UInt8]) -> Bool { head.count >= 2 && head[0] == 0x1f && head[1] == 0x8b }

    /// A WebP file is a RIFF container that states its own length. The
    /// WebP loader decodes a cut file as far as it goes and pads it with
    /// black, without an error; the stated length tells a cut file apart.
    static func checkWebPLength(_ head: [UInt8], path: String) throws(ImageError) {
        guard head.count >= 12, Array(head[0..<4]) == Array("RIFF".utf8), Array(head[8..<12]) == Array("WEBP".utf8)
        else { return }
        let stated = Int(head[4]) | Int(head[5]) << 8 | Int(head[6]) << 16 | Int(head[7]) << 24
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        let actual = Int(info.st_size)
        if actual < stated + 8 {
            throw .corrupt(
                path: path,
                reason: "the WebP file is cut short: its header says \(stated + 8) bytes, the file has \(actual)")
        }
    }

    static func translate(_ error: UnsafeMutablePointer<GError>?, path: String) -> ImageError {
        guard let error else { return .corrupt(path: path, reason: "the decoder gave no reason") }
        defer { g_error_free(error) }
        // One line: librsvg's XML errors span several.
        let message = (error.pointee.message.map { String(cString: $0) } ?? "unknown error")
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
        if error.pointee.domain == g_file_error_quark() {
            return .unreadable(path: path, reason: message)
        }
        if error.pointee.domain == gdk_pixbuf_error_quark() {
            let code = UInt32(bitPattern: error.pointee.code)
            if code == GDK_PIXBUF_ERROR_UNKNOWN_TYPE.rawValue || code == GDK_PIXBUF_ERROR_UNSUPPORTED_OPERATION.rawValue
            {
                return .unsupported(path: path, reason: message)
            }
        }
        return .corrupt(path: path, reason: message)
    }
}
