import Signage

extension StatsWriter {
    /// The `--stats` destination: nothing, stdout, or a file made empty
    /// (exit 66 when it cannot be opened, before anything shows).
    static func open(_ destination: PresentCommand.StatsDestination?) throws(CommandFailure) -> StatsWriter? {
        switch destination {
        case nil: nil
        case .standardOutput: StatsWriter(handle: .standardOutput, messages: .log)
        case let .file(path): try appending(to: path, role: "the stats file", truncate: true)
        }
    }

    /// Lines appended to the file at `path`, its failures in the tool's
    /// log; exit 66 when it cannot be opened.
    static func appending(to path: String, role: String, truncate: Bool = false) throws(CommandFailure)
        -> StatsWriter
    {
        do {
            return try StatsWriter(appendingTo: path, role: role, truncate: truncate, messages: .log)
        } catch {
            throw CommandFailure(.noInput, error.description)
        }
    }
}

extension ServiceMonitor {
    /// The monitor with the tool's words: `--stall-grace`, and the stall's
    /// line as an error.
    convenience init(
        stallGrace: Double, panels: @escaping () -> [SignagePanelHealth], isReady: @escaping () -> Bool,
        nothingShown: @escaping () -> String? = { nil }
    ) {
        self.init(
            stallGrace: stallGrace, graceSetting: "--stall-grace", panels: panels, isReady: isReady,
            nothingShown: nothingShown, reportStall: { printError($0) })
    }
}
