/// Why an image could not be used: `isUnreadable` (missing, no permission)
/// or not an image Screenplay can show (corrupt, unsupported, too large).
public struct PictureError: Error, CustomStringConvertible, Sendable {
    public let isUnreadable: Bool
    public let description: String
}
