import Dispatch
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
            FileHandle.standardError.write(Data("screenplay: \(error.message)\n\n\(error.usage)\n".utf8))
            exit(ExitCode.usage.rawValue)
        }
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
            case let .present(command):
                let runner = PresentRunner(command)
                try runner.start()
                running = runner
                runMainLoop()
            case let .play(command):
                let runner = PlayRunner(command)
                try runner.start()
                running = runner
                runMainLoop()
            case let .demo(command):
                let runner = DemoRunner(command)
                try runner.start()
                running = runner
                runMainLoop()
            }
        } catch let failure as CommandFailure {
            exitWith(failure)
        } catch {
            exitWith(CommandFailure(.software, "\(error)"))
        }
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

// MARK: outputs

@MainActor
enum OutputsRunner {
    static func run(_ command: OutputsCommand) throws {
        let app = try ScreenplayTool.connect(ApplicationOptions())
        defer { app.shutdown() }
        if command.json {
            let array = app.screens.map(json(for:))
            let data = try JSONSerialization.data(withJSONObject: array, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        if app.screens.isEmpty { print("no outputs (the compositor announced none)") }
        for screen in app.screens { print(text(for: screen)) }
    }

    static func modeJSON(_ mode: ScreenMode) -> [String: Any] {
        ["width": mode.width, "height": mode.height, "refresh_mhz": mode.refreshMilliHz]
    }

    static func json(for screen: Screen) -> [String: Any] {
        let info = screen.info
        return [
            "name": info.name, "description": info.description, "make": info.make, "model": info.model,
            "serial": info.serial as Any? ?? NSNull(), "builtin": screen.isBuiltIn,
            "external": screen.classification.isExternal, "x": info.logicalX, "y": info.logicalY,
            "logical_width": info.logicalWidth, "logical_height": info.logicalHeight,
            "mode": info.currentMode.map(modeJSON) as Any? ?? NSNull(), "modes": info.modes.map(modeJSON),
            "scale": info.scale, "transform": info.transform.description,
            "physical_width_mm": info.physicalWidthMillimeters, "physical_height_mm": info.physicalHeightMillimeters,
        ]
    }

    static func text(for screen: Screen) -> String {
        let info = screen.info
        var lines = ["\(info.name) \"\(info.description)\""]
        lines.append("  Make: \(info.make.isEmpty ? "unknown" : info.make)")
        lines.append("  Model: \(info.model.isEmpty ? "unknown" : info.model)")
        lines.append("  Serial: \(info.serial ?? "unknown")")
        lines.append("  Kind: \(screen.classification.kind.rawValue) (\(screen.classification.reason))")
        lines.append("  Physical size: \(info.physicalWidthMillimeters)x\(info.physicalHeightMillimeters) mm")
        lines.append("  Position: \(info.logicalX),\(info.logicalY)")
        lines.append("  Logical size: \(info.logicalWidth)x\(info.logicalHeight)")
        lines.append("  Modes:")
        for mode in info.modes {
            var flags: [String] = []
            if mode.isPreferred { flags.append("preferred") }
            if let current = info.currentMode, current.width == mode.width, current.height == mode.height,
                current.refreshMilliHz == mode.refreshMilliHz
            { flags.append("current") }
            lines.append("    \(mode)\(flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))")")
        }
        lines.append("  Transform: \(info.transform)")
        lines.append("  Scale: \(info.scale)")
        return lines.joined(separator: "\n")
    }
}
