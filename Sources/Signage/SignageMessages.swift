import Foundation

/// Where the player's messages go: Signage writes no stderr of its own, so
/// an app shows them as it likes and the tool writes them as its log lines.
public struct SignageMessages: Sendable {
    /// An event worth knowing (a page painted again after a restart).
    public let info: @Sendable (String) -> Void
    /// Something went wrong and the player goes on (a file mid-save, a
    /// folder it cannot watch); the text names the thing, the reason and the fix.
    public let warning: @Sendable (String) -> Void

    /// Events to `info`, problems to `warning`.
    public init(info: @escaping @Sendable (String) -> Void, warning: @escaping @Sendable (String) -> Void) {
        self.info = info
        self.warning = warning
    }

    /// One line each on standard error, whatever it is.
    public static let standardError: SignageMessages = {
        let write: @Sendable (String) -> Void = { text in
            try? FileHandle.standardError.write(contentsOf: Data((text + "\n").utf8))
        }
        return SignageMessages(info: write, warning: write)
    }()
}
