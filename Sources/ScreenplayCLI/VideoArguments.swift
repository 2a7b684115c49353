import Glibc

extension PresentCommand.Content {
    /// Extensions taken for video without looking inside (libmpv still
    /// probes the file before anything shows).
    static let videoExtensions: Set<String> = [
        "mp4", "m4v", "mkv", "webm", "mov", "avi", "ogv", "ogg", "mpg", "mpeg", "ts", "m2ts", "wmv", "flv", "3gp",
    ]

    /// A file with no known extension that exists is handed to libmpv,
    /// which recognises video by content (`clip`, `clip.bin`); a file that
    /// is not video then fails the probe with libmpv's reason (exit 65).
    /// Names of no file stay usage errors (a mistyped `test-card`).
    static func existingVideo(_ path: String) -> Self? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return .video(path: path)
    }

    var isVideo: Bool {
        if case .video = self { return true }
        return false
    }
}
