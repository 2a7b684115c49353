/// What a file of a playlist (or `screenplay present`'s argument) is, as
/// the player and `present` recognise it alike.
public enum MediaKind: Equatable, Sendable {
    /// A GLSL ES fragment shader (`.frag`, `.glsl`).
    case shader
    /// A web page: an http(s) URL or a `.html` file.
    case web
    /// An image the image loader reads, recognised by content.
    case image
    /// A PDF document (`.pdf`, or `%PDF` content).
    case pdf
    /// Anything else that exists: libmpv's to judge.
    case video

    /// Classifies a file path: shaders by extension (case-insensitive),
    /// an existing file by its content (`ContentRecognition`), a missing
    /// one by an image or PDF extension; `nil` for an unsupported kind.
    public static func of(_ path: String) -> MediaKind? {
        let fileName = path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)
        // A leading dot marks a hidden file, not an extension.
        let dot = fileName.dropFirst().lastIndex(of: ".")
        let fileExtension = dot.map { fileName[fileName.index(after: $0)...].lowercased() } ?? ""
        if fileExtension == "frag" || fileExtension == "glsl" { return .shader }
        let lowered = path.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") { return .web }
        if fileExtension == "html" || fileExtension == "htm" { return .web }
        return ContentRecognition.classify(path: path, fileName: String(fileName), fileExtension: fileExtension)
    }
}
