import Foundation

/// An item's `"sha256"` and `"bytes"`: what a file downloaded for it must
/// be. Named `bytes`, not `size`, because a text item's `"size"` is its
/// font size. A local playlist may carry them too (so the file uploaded is
/// the file tested); they are checked when the playlist comes from a URL.
public struct FileIntegrity: Equatable {
    /// The item keys this reads.
    public static let keys: Set<String> = ["sha256", "bytes"]
    /// 64 lowercase hex digits.
    public var sha256: String?
    /// The file's size in bytes.
    public var bytes: Int64?

    /// What a file must be: its SHA-256 (lower-case hex) and size, each optional.
    public init(sha256: String? = nil, bytes: Int64? = nil) {
        self.sha256 = sha256
        self.bytes = bytes
    }

    /// Reads and checks the two keys of an item.
    public init(_ entry: [String: Any], at: String, _ fail: (String, String) -> PlaylistError) throws(PlaylistError) {
        if let value = entry["sha256"] {
            guard let text = value as? String, text.count == 64, text.allSatisfy(\.isHexDigit) else {
                throw fail(
                    "\(at).sha256",
                    "expected the file's SHA-256 as 64 hex digits (sha256sum prints it), got \(JSONValues.describe(value))"
                )
            }
            sha256 = text.lowercased()
        }
        if let value = entry["bytes"] {
            guard let number = JSONValues.number(value), number >= 0, number == number.rounded(),
                number < 9e15
            else {
                throw fail(
                    "\(at).bytes",
                    "expected the file's size in bytes, a whole number, got \(JSONValues.describe(value))")
            }
            bytes = Int64(number)
        }
    }
}
