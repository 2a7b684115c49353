import Fleet
import Foundation
import Signage

/// Exit statuses, as sysexits.h: scripts and tests rely on them.
enum ExitCode: Int32 {
    case ok = 0
    case failure = 1
    case usage = 64
    case dataError = 65
    case noInput = 66
    case unavailable = 69
    case software = 70
    /// An output file cannot be written (EX_CANTCREAT).
    case cannotCreate = 73
}

extension ExitCode {
    /// A playlist that cannot be used: 65 for bad data, 66 for a file that cannot be read.
    init(_ code: PlaylistError.Code) {
        switch code {
        case .dataError: self = .dataError
        case .noInput: self = .noInput
        }
    }
}

/// A failure that ends the command: a one-line reason and its status.
struct CommandFailure: Error, CustomStringConvertible {
    let code: ExitCode
    let description: String
    init(_ code: ExitCode, _ description: String) {
        self.code = code
        self.description = description
    }
}

func exitWith(_ failure: CommandFailure) -> Never {
    printError(failure.description)
    exit(failure.code.rawValue)
}

/// Ends the command for `error`: its own status for a `CommandFailure`, 70 otherwise.
func exitWith(_ error: any Error) -> Never {
    if let failure = error as? CommandFailure { exitWith(failure) }
    if let failure = error as? FleetFailure { exitWith(CommandFailure(failure)) }
    exitWith(CommandFailure(.software, "\(error)"))
}
