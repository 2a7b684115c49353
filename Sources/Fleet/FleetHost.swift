public import Foundation
public import Signage

/// What the fleet client takes from the app it runs in: it writes no
/// stderr and keeps no state folder of its own, so the app says where its
/// messages go, which version its requests carry, where files kept across
/// restarts live and how one of them is replaced whole.
public struct FleetHost: Sendable {
    /// Where the client's log lines go (a server unreachable, a playlist
    /// taken over, the broker connected); each names the thing, the reason and the fix.
    public var messages: SignageMessages
    /// The app's version, sent in the User-Agent (`screenplay/VERSION (box ID)`)
    /// so a server's logs tell boxes and versions apart.
    public var version: String
    /// The folder kept across restarts (`$XDG_STATE_HOME/screenplay`), where
    /// proof-of-play lines wait for the broker; nil keeps them in memory only.
    public var stateFolder: String?
    /// Replaces the file at the path with the data so that a crash leaves the
    /// old file or the new one, never a part (and makes its folder); the
    /// reason, naming the file, when it could not.
    public var writeAtomically: @Sendable (Data, String) -> String?

    /// A host from its parts.
    public init(
        messages: SignageMessages, version: String, stateFolder: String?,
        writeAtomically: @escaping @Sendable (Data, String) -> String?
    ) {
        self.messages = messages
        self.version = version
        self.stateFolder = stateFolder
        self.writeAtomically = writeAtomically
    }
}
