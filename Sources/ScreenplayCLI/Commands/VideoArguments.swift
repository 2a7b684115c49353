extension PresentCommand.Content {
    /// Extensions taken for video without looking inside (libmpv still
    /// probes the file before anything shows).
    static let videoExtensions: Set<String> = [
        "mp4", "m4v", "mkv", "webm", "mov", "avi", "ogv", "ogg", "mpg", "mpeg", "ts", "m2ts", "wmv", "flv", "3gp",
    ]

    var isVideo: Bool {
        if case .video = self { return true }
        return false
    }
}
