/// Why an image could not be used: `isUnreadable` (missing, no permission)
/// or not an image Screenplay can show (corrupt, unsupported, too large).
public struct PictureError: Error, CustomStringConvertible, Sendable {
    /// True when the file is missing or cannot be read (exit 66 in the CLI), false when it is no image Screenplay can show (exit 65).
    public let isUnreadable: Bool
    /// One line naming the file and the reason.
    public let description: String
}
