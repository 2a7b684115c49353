/// Why the application could not start or stopped.
public struct ApplicationError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, for code that reacts differently to each.
    public enum Kind: Sendable {
        /// No compositor to connect to: `WAYLAND_DISPLAY` unset or its socket missing.
        case noCompositor
        /// The compositor closed the connection or it broke (the compositor quit or crashed).
        case connectionLost
        /// The compositor reported a protocol error and dropped the client.
        case protocolError
        /// The compositor sent a message libwayland could not accept, and the
        /// connection was dropped on the app's side. The compositor is
        /// usually still running, so the app reconnects at once (see
        /// `CompositorLossBehavior`); this ends the app only when it repeats.
        case messageRefused
    }
    /// What went wrong.
    public let kind: Kind
    /// One line: what failed, why, and what to do about it.
    public let description: String
}
