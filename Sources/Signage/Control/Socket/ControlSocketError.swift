/// Why a control socket cannot be served, naming the path, the reason and
/// the fix.
public struct ControlSocketError: Error, CustomStringConvertible, Sendable {
    /// Whose mistake it is.
    public enum Kind: Sendable {
        /// The path given cannot be a socket (too long, another user's folder).
        case usage
        /// The system refused (a file in the way, another process listening).
        case unavailable
    }

    /// Whose mistake it is.
    public let kind: Kind
    /// One line: the path, the reason, the fix.
    public let description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
