/// Why a scene could not be shown: the screen, the reason and the fix.
public struct SceneError: Error, CustomStringConvertible, Sendable {
    /// The screen's name, when the error concerns one.
    public let screen: String?
    /// What went wrong.
    public let reason: String
    /// What to do about it.
    public let fix: String
    /// `screen NAME: reason; fix` on one line.
    public var description: String {
        "\(screen.map { "screen \($0): " } ?? "")\(reason); \(fix)"
    }
}
