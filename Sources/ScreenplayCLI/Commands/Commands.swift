import Dispatch
import Fleet
import Foundation
import Screenplay

/// The `screenplay` tool: parses, then runs one command. Never returns.
@MainActor
public enum ScreenplayTool {
    /// Keeps the running command (and so its connection) alive while the
    /// main queue runs.
    private static var running: AnyObject?

    public static func main(_ arguments: [String]) -> Never {
        let invocation: Invocation
        do {
            invocation = try ScreenplayCommandLine.parse(arguments)
        } catch {
            // The mistake is the event (one line); the usage after it is help for a person.
            printError(error.message)
            try? FileHandle.standardError.write(contentsOf: Data("\n\(error.usage)\n".utf8))
            exit(ExitCode.usage.rawValue)
        }
        // Reading the command line starts no thread; anything after may (a
        // playlist's video probe alone starts a dozen), and arenas threads
        // made stay in use however M_ARENA_MAX is set later.
        if invocation.makesAndFreesDecoders { MallocTuning.forLongRuns() }
        do {
            switch invocation {
            case let .help(text):
                print(text)
                exit(0)
            case let .version(text):
                print(text)
                exit(0)
            case let .outputs(command):
                try OutputsRunner.run(command)
                exit(0)
            case let .doctor(command):
                exit(DoctorRunner.run(command))
            case let .power(command):
                exit(try PowerRunner.run(command))
            case let .ctl(command):
                exit(try CtlRunner.run(command))
            case let .present(command):
                try run(PresentRunner(command))
            case let .play(command):
                try run(PlayService(command))
            case let .demo(command):
                try run(DemoRunner(command))
            }
        } catch let failure as CommandFailure {
            exitWith(failure)
        } catch let failure as FleetFailure {
            // `play URL`'s cache or token, `--mqtt`'s credentials: the same statuses as the tool's own.
            exitWith(CommandFailure(failure))
        } catch {
            exitWith(CommandFailure(.software, "\(error)"))
        }
    }

    /// Starts a command that shows scenes and runs its application
    /// (`Application.run`) until a signal's teardown, then exits 0.
    private static func run(_ runner: some SceneCommand) throws -> Never {
        try runner.start()
        running = runner
        guard let app = runner.application else {
            throw CommandFailure(.software, "\(type(of: runner)) started without an application to run")
        }
        do {
            try app.run(HangGuard.runOptions { [weak runner] signal in runner?.stop(signal: signal) })
        } catch {
            throw CommandFailure(.unavailable, error.description)
        }
        exit(0)
    }

    /// Connects, turning "no compositor" into exit 69 with the socket named.
    static func connect(_ options: ApplicationOptions) throws(CommandFailure) -> Application {
        do {
            return try Application(options: options)
        } catch {
            throw CommandFailure(.unavailable, error.description)
        }
    }
}

/// A command that shows scenes until a signal (present, play, demo).
@MainActor
protocol SceneCommand: AnyObject, Sendable {
    /// Reads and checks its input, connects and starts showing; the
    /// application runs after it returns.
    func start() throws
    /// The application `ScreenplayTool` runs once `start()` returned.
    var application: Application? { get }
    /// SIGINT or SIGTERM: tears down what the command made and shuts the
    /// application down, so `Application.run` returns.
    func stop(signal: StopSignal)
}

// MARK: outputs

@MainActor
enum OutputsRunner {
    static func run(_ command: OutputsCommand) throws {
        let app = try ScreenplayTool.connect(ApplicationOptions())
        defer { app.shutdown() }
        // Read before the reads below end the connection.
        let (disabledHeads, powerKnown) = (app.compositorInfo.disabledHeads, app.compositorInfo.canControlPower)
        // Read each panel's power once (null where the protocol is missing).
        let power = try ScreenplayTool.answer(from: app) {
            var power: [UInt32: ScreenPowerState?] = [:]
            for screen in app.screens { power[screen.id] = await screen.readPowerState() }
            return power
        }
        if command.json {
            let array =
                app.screens.map { json(for: $0, power: power[$0.id] ?? nil) } + disabledHeads.map(json(for:))
            let data = try JSONSerialization.data(withJSONObject: array, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        if app.screens.isEmpty && disabledHeads.isEmpty { print("no outputs (the compositor announced none)") }
        for screen in app.screens {
            print(text(for: screen, power: power[screen.id] ?? nil, powerKnown: powerKnown))
        }
        for head in disabledHeads { print(text(for: head)) }
    }

    static func modeJSON(_ mode: ScreenMode) -> [String: Any] {
        ["width": mode.width, "height": mode.height, "refresh_mhz": mode.refreshMilliHz, "preferred": mode.isPreferred]
    }

    static func json(for screen: Screen, power: ScreenPowerState?) -> [String: Any] {
        let bounds = screen.bounds
        return [
            "name": screen.name, "description": screen.displayDescription, "make": screen.make,
            "model": screen.model, "serial": screen.serial as Any? ?? NSNull(), "builtin": screen.isBuiltIn,
            "external": screen.classification.isExternal, "x": bounds.x, "y": bounds.y,
            "logical_width": bounds.width, "logical_height": bounds.height,
            "mode": screen.currentMode.map(modeJSON) as Any? ?? NSNull(), "modes": screen.availableModes.map(modeJSON),
            "scale": screen.scale, "transform": screen.transform.description,
            "physical_width_mm": screen.physicalSizeMillimeters.width,
            "physical_height_mm": screen.physicalSizeMillimeters.height,
            "enabled": screen.isEnabled, "adaptive_sync": screen.adaptiveSync as Any? ?? NSNull(),
            "power": power?.rawValue as Any? ?? NSNull(),
        ]
    }

    /// A head the compositor has disabled: no wl_output, so no scene.
    static func json(for head: ScreenHead) -> [String: Any] {
        [
            "name": head.name, "description": head.description, "make": head.make, "model": head.model,
            "serial": head.serialNumber as Any? ?? NSNull(), "enabled": false, "builtin": false, "external": false,
            "mode": NSNull(), "modes": head.modes.map(modeJSON), "physical_width_mm": head.physicalWidthMillimeters,
            "physical_height_mm": head.physicalHeightMillimeters,
            "adaptive_sync": head.adaptiveSync as Any? ?? NSNull(),
            "power": NSNull(),
        ]
    }

    static func text(for head: ScreenHead) -> String {
        var lines = ["\(head.name) \"\(head.description)\" (disabled)"]
        lines.append("  Enabled: no (the compositor has this output disabled: no scene goes here)")
        lines.append("  Make: \(head.make.isEmpty ? "unknown" : head.make)")
        lines.append("  Model: \(head.model.isEmpty ? "unknown" : head.model)")
        lines.append("  Serial: \(head.serialNumber ?? "unknown")")
        lines.append("  Modes:")
        for mode in head.modes { lines.append("    \(mode)\(mode.isPreferred ? " (preferred)" : "")") }
        return lines.joined(separator: "\n")
    }

    static func text(for screen: Screen, power: ScreenPowerState?, powerKnown: Bool) -> String {
        let bounds = screen.bounds
        var lines = ["\(screen.name) \"\(screen.displayDescription)\"\(screen.isEnabled ? "" : " (disabled)")"]
        lines.append("  Make: \(screen.make.isEmpty ? "unknown" : screen.make)")
        lines.append("  Model: \(screen.model.isEmpty ? "unknown" : screen.model)")
        lines.append("  Serial: \(screen.serial ?? "unknown")")
        lines.append("  Kind: \(screen.classification.kind.rawValue) (\(screen.classification.reason))")
        lines.append(
            "  Enabled: \(screen.isEnabled ? "yes" : "no (the compositor has this output disabled: no scene goes here)")"
        )
        lines.append(
            "  Power: \(power?.rawValue ?? (powerKnown ? "unknown (the compositor answered failed)" : "unknown (no zwlr_output_power_manager_v1)"))"
        )
        lines.append("  Adaptive sync: \(screen.adaptiveSync.map { $0 ? "enabled" : "disabled" } ?? "unknown")")
        lines.append(
            "  Physical size: \(screen.physicalSizeMillimeters.width)x\(screen.physicalSizeMillimeters.height) mm")
        lines.append("  Position: \(bounds.x),\(bounds.y)")
        lines.append("  Logical size: \(bounds.width)x\(bounds.height)")
        lines.append("  Modes:\(screen.availableModes.isEmpty ? " none listed (a virtual output: custom modes)" : "")")
        for mode in screen.availableModes {
            var flags: [String] = []
            if mode.isPreferred { flags.append("preferred") }
            if let current = screen.currentMode, current.width == mode.width, current.height == mode.height,
                current.refreshMilliHz == mode.refreshMilliHz
            {
                flags.append("current")
            }
            lines.append("    \(mode)\(flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))")")
        }
        if screen.availableModes.isEmpty, let current = screen.currentMode {
            lines.append("  Current mode: \(current)")
        }
        lines.append("  Transform: \(screen.transform)")
        lines.append("  Scale: \(screen.scale)")
        return lines.joined(separator: "\n")
    }
}

extension Invocation {
    /// Signage and video (and slides with videos) make and free decoders
    /// and megabyte buffers for days: they get `MallocTuning`.
    fileprivate var makesAndFreesDecoders: Bool {
        switch self {
        case .play: true
        case let .present(command):
            switch command.content {
            case .pdf, .video: true
            default: false
            }
        default: false
        }
    }
}
