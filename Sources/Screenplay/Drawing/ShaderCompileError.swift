import Rendering

/// A shader that did not compile or link: the driver's log with the lines
/// of the user's file.
public struct ShaderCompileError: Error, CustomStringConvertible, Sendable {
    /// (line in the user's file, message) for every diagnostic the driver gave.
    public let diagnostics: [(line: Int, message: String)]
    /// The driver's log with line numbers of the user's file.
    public let description: String

    init(_ error: ShaderError) {
        diagnostics = error.diagnostics.map { ($0.line, $0.message) }
        description = error.description
    }
}
