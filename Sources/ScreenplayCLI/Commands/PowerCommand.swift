import Foundation
import Screenplay

/// `screenplay power on|off|status [--output PATTERN]... [--json]`: switches
/// panels through `zwlr_output_power_manager_v1`, as wlopm does.
public struct PowerCommand: CLICommand {
    public var invocation: Invocation { .power(self) }

    /// What to do.
    public enum Action: String, CaseIterable, Equatable, Sendable {
        /// Switch the panels on.
        case on
        /// Switch the panels off (the outputs stay in the layout).
        case off
        /// Report each panel's power.
        case status
    }

    /// What to do.
    public var action: Action
    /// `--output` globs; empty means every screen.
    public var outputPatterns: [String] = []
    /// `--json` (status only).
    public var json = false

    /// Creates the command with explicit values.
    public init(action: Action, outputPatterns: [String] = [], json: Bool = false) {
        self.action = action
        self.outputPatterns = outputPatterns
        self.json = json
    }

    public static let commandName = "power"
    public static let abstract = "Switch panels on or off, or report their power."
    public static let options: [OptionSpec] = [.value("output"), .flag("json")]
    public static let usage = """
        OVERVIEW: \(abstract)
        Uses zwlr_output_power_manager_v1 (wlroots compositors such as sway,
        labwc, river, Hyprland; what wlopm uses). A panel switched off stays
        in the layout: scenes on it pause and show their content again when
        it comes back on.

        USAGE: screenplay power on|off|status [--output PATTERN]... [--json]

        OPTIONS:
          --output PATTERN        Only outputs whose name or description matches
                                  PATTERN (repeatable; glob: * ? [...]; default:
                                  every output).
          --json                  With status: print machine-readable JSON.
          -h, --help              Show this help.

        EXAMPLES:
          screenplay power status
          screenplay power off --output 'HDMI-*'
          screenplay power on
        """

    public init(parsing arguments: ParsedArguments) throws(UsageError) {
        guard let word = arguments.positionals.first else {
            throw Self.usageError("missing action: expected on, off or status")
        }
        guard let action = Action(rawValue: word) else {
            throw Self.usageError("invalid action '\(word)': expected on, off or status")
        }
        if arguments.positionals.count > 1 {
            throw Self.usageError("unexpected argument '\(arguments.positionals[1])'")
        }
        self.action = action
        outputPatterns = arguments.all("output")
        json = arguments.flag("json")
    }

    public func validate() throws(UsageError) {
        if json, action != .status { throw Self.usageError("'--json' only applies to 'power status'") }
    }
}

@MainActor
enum PowerRunner {
    static func run(_ command: PowerCommand) throws -> Int32 {
        let app = try ScreenplayTool.connect(ApplicationOptions())
        defer { app.shutdown() }
        guard app.compositorInfo.canControlPower else {
            throw CommandFailure(
                .unavailable,
                "cannot switch panels: "
                    + ScreenplayTool.missingProtocol("switch a panel on or off", "zwlr_output_power_manager_v1"))
        }
        let screens = try ScreenplayTool.select(app.screens, patterns: command.outputPatterns)
        switch command.action {
        case .status:
            let states = try ScreenplayTool.answer(from: app) {
                var states: [(String, ScreenPowerState?)] = []
                for screen in screens { states.append((screen.name, await screen.readPowerState())) }
                return states
            }
            if command.json {
                let array: [[String: Any]] = states.map { ["name": $0.0, "power": $0.1?.rawValue as Any? ?? NSNull()] }
                let data = try JSONSerialization.data(withJSONObject: array, options: [.prettyPrinted, .sortedKeys])
                print(String(decoding: data, as: UTF8.self))
            } else {
                for (name, state) in states {
                    print("\(name): \(state?.rawValue ?? "unknown (the compositor answered failed)")")
                }
            }
            return 0
        case .on, .off:
            let wanted: ScreenPowerState = command.action == .on ? .on : .off
            let failures = try ScreenplayTool.answer(from: app) {
                var failures: [String] = []
                for screen in screens {
                    do {
                        try await screen.setPower(wanted)
                        print("\(screen.name): \(wanted.rawValue)")
                    } catch {
                        failures.append("\(error)")
                    }
                }
                return failures
            }
            guard failures.isEmpty else { throw CommandFailure(.unavailable, failures.joined(separator: "\n")) }
            return 0
        }
    }
}

extension ScreenplayTool {
    /// Runs `app` until `body` (its requests to the compositor, whose
    /// answers arrive in later batches) has finished, then shuts it down
    /// and returns what `body` returned.
    static func answer<T>(from app: Application, _ body: @escaping @MainActor () async -> T) throws(CommandFailure)
        -> T
    {
        let outcome = Outcome<T>()
        Task { @MainActor in
            outcome.value = await body()
            app.shutdown()
        }
        do {
            try app.run()
        } catch {
            throw CommandFailure(.unavailable, error.description)
        }
        guard let value = outcome.value else {
            throw CommandFailure(.unavailable, "interrupted before the compositor answered")
        }
        return value
    }

    /// "The compositor cannot do this from a client; its own settings can."
    static func missingProtocol(_ what: String, _ interface: String) -> String {
        CompositorInfo.missingProtocolSentence(what, interface)
    }

    /// The screens `--output` names (all without patterns); a pattern
    /// matching nothing is a usage error that lists the screens.
    static func select(_ screens: [Screen], patterns: [String]) throws(CommandFailure) -> [Screen] {
        guard !patterns.isEmpty else { return screens }
        let chosen = screens.filter { screen in
            patterns.contains { ScreenPattern($0).matches(screen) }
        }
        guard chosen.isEmpty else { return chosen }
        let list = screens.map { "  \($0.name) \"\($0.displayDescription)\"" }.joined(separator: "\n")
        throw CommandFailure(
            .usage,
            "--output \(patterns.joined(separator: ", ")) matches no screen; the screens are:\n\(list.isEmpty ? "  (none)" : list)"
        )
    }
}

/// What an asynchronous step handed back, read once the loop has returned.
@MainActor
private final class Outcome<T> {
    var value: T?
}
