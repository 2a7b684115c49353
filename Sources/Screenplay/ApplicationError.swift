/// Why the application could not start or stopped.
public struct ApplicationError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable { case noCompositor, connectionLost, protocolError }
    public let kind: Kind
    public let description: String
}
