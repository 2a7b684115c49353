import Signage

extension SignageMessages {
    /// The tool's log: events as `log` lines, problems as `warn` lines.
    static let log = SignageMessages(
        info: { Log.write($0, level: .info) }, warning: { Log.write($0, level: .warning) })
}
