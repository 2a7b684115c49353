import Foundation
import Signage

/// Where `play` listens and `ctl` connects unless `--socket` says otherwise.
enum ControlSocketPath {
    /// `$XDG_RUNTIME_DIR/screenplay/play.sock`; nil without `XDG_RUNTIME_DIR`.
    static var `default`: String? {
        guard let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return nil }
        return runtime + "/screenplay/play.sock"
    }
}

extension ControlServer.Naming {
    /// `play`'s socket: its messages name `screenplay play` and `--socket`, as they always have.
    static let tool = ControlServer.Naming(program: "screenplay play", shortName: "play", pathSetting: "--socket")
}
