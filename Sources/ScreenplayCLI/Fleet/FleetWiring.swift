import Fleet
import Foundation
import Signage

/// The fleet client (`Fleet`) in the tool: its messages as the tool's log
/// lines, its state under the tool's state folder, and its failures as the
/// tool's exit statuses, so `play URL` and `play --mqtt` say and do what
/// they did when the client was part of the tool.
extension FleetHost {
    /// The tool's log, version, `$XDG_STATE_HOME/screenplay` and atomic writes
    /// (read when asked: the state folder follows the environment of the moment).
    static var tool: FleetHost {
        FleetHost(
            messages: .log, version: ScreenplayCommandLine.version, stateFolder: StateDirectory.path(),
            writeAtomically: { data, path in StateDirectory.writeAtomically(data, to: path) })
    }
}

extension RemotePlaylistSource {
    /// A source when `command.path` is a URL, else nil.
    static func make(for command: PlayCommand) -> RemotePlaylistSource? {
        guard RemoteOptions.isURL(command.path) else { return nil }
        return RemotePlaylistSource(url: command.path, options: command.remote, host: .tool)
    }

    /// `command` reading the local copy instead of the URL.
    func localCommand(_ command: PlayCommand) -> PlayCommand {
        var local = command
        local.path = localPath
        return local
    }
}

extension MQTTBox {
    /// The box with the tool's host; a failure is the tool's (exits 64, 65, 66 or 69).
    convenience init(
        options: RemoteOptions, boxID: String, answer: @escaping ControlHandler, statusLine: @escaping () -> Data
    ) throws(CommandFailure) {
        do {
            try self.init(options: options, boxID: boxID, host: .tool, answer: answer, statusLine: statusLine)
        } catch {
            throw CommandFailure(error)
        }
    }
}

extension CommandFailure {
    /// The fleet client's failure with the exit status its kind names.
    init(_ failure: FleetFailure) {
        let code: ExitCode =
            switch failure.kind {
            case .usage: .usage
            case .dataError: .dataError
            case .noInput: .noInput
            case .unavailable: .unavailable
            case .cannotCreate: .cannotCreate
            }
        self.init(code, failure.description)
    }
}
