// Mode and power requests (screenplay.h: "Mode and power requests"): sent
// at once, answered through the caller's callback from a later dispatch.
public import CScreenplay
import Screenplay

/// The C code of a refused or failed request.
func code(_ error: ScreenConfigurationError) -> Int32 {
    switch error.kind {
    case .unsupported: Int32(SCREENPLAY_ERROR_UNSUPPORTED)
    case .notListed: Int32(SCREENPLAY_ERROR_NOT_LISTED)
    case .refused: Int32(SCREENPLAY_ERROR_REFUSED)
    case .unconfirmed: Int32(SCREENPLAY_ERROR_UNCONFIRMED)
    case .unknownScreen: Int32(SCREENPLAY_ERROR_UNKNOWN_SCREEN)
    case .shutDown: Int32(SCREENPLAY_ERROR_SHUT_DOWN)
    }
}

func cPower(_ state: ScreenPowerState?) -> Int32 {
    switch state {
    case .on: Int32(SCREENPLAY_POWER_ON)
    case .off: Int32(SCREENPLAY_POWER_OFF)
    case nil: Int32(SCREENPLAY_POWER_UNKNOWN)
    }
}

/// A screen of a live app, for a request.
@MainActor
private func requestScreen(_ handle: OpaquePointer?, _ function: String) throws(Failure) -> (CScreen, CApp) {
    let made = try Handles.shared.get(handle, CScreen.self, function)
    guard let app = made.app else {
        throw Failure(Int32(SCREENPLAY_ERROR_INVALID_HANDLE), "\(function): the screen's app was destroyed")
    }
    try app.refuseShutDown(function)
    return (made, app)
}

/// Asks for a mode.
@_cdecl("screenplay_screen_set_mode")
public func screenplayScreenSetMode(
    _ s: OpaquePointer?, _ width: Int32, _ height: Int32, _ refreshMilliHz: Int32,
    _ callback: screenplay_mode_callback?, _ user: UnsafeMutableRawPointer?
) -> Int32 {
    nonisolated(unsafe) let s = s
    nonisolated(unsafe) let user = user
    return entry("screenplay_screen_set_mode") { () throws(Failure) in
        let function = "screenplay_screen_set_mode"
        let (made, app) = try requestScreen(s, function)
        guard width > 0, height > 0, refreshMilliHz >= 0 else {
            throw Failure(
                Int32(SCREENPLAY_ERROR_INVALID_ARGUMENT),
                "\(function): \(width)x\(height) at \(refreshMilliHz) mHz is no mode; give a positive size and a refresh in millihertz (0: any)"
            )
        }
        let request = ScreenModeRequest(
            width: Int(width), height: Int(height), refreshHz: refreshMilliHz == 0 ? nil : Double(refreshMilliHz) / 1000
        )
        let answer = callback.map { CCallback(function: $0, user: user) }
        let handle: OpaquePointer = made.handle
        made.screen.setMode(request) { [weak app] result in
            guard let answer else { return }
            let call = {
                switch result {
                case let .success(mode):
                    if var mode = mode.map(cMode) {
                        answer.function(handle, Int32(SCREENPLAY_OK), &mode, nil, answer.user)
                    } else {
                        answer.function(handle, Int32(SCREENPLAY_OK), nil, nil, answer.user)
                    }
                case let .failure(error):
                    error.description.withCString { answer.function(handle, code(error), nil, $0, answer.user) }
                }
            }
            if let app { app.calling(call) } else { call() }
        }
    }
}

/// Delivers a power answer.
@MainActor
private func deliver(
    _ answer: CCallback<screenplay_power_callback>?, _ handle: OpaquePointer, _ app: CApp?,
    _ result: Result<ScreenPowerState?, ScreenConfigurationError>
) {
    guard let answer else { return }
    let call = {
        switch result {
        case let .success(state): answer.function(handle, Int32(SCREENPLAY_OK), cPower(state), nil, answer.user)
        case let .failure(error):
            error.description.withCString {
                answer.function(handle, code(error), Int32(SCREENPLAY_POWER_UNKNOWN), $0, answer.user)
            }
        }
    }
    if let app { app.calling(call) } else { call() }
}

/// Switches a panel on or off.
@_cdecl("screenplay_screen_set_power")
public func screenplayScreenSetPower(
    _ s: OpaquePointer?, _ power: Int32, _ callback: screenplay_power_callback?, _ user: UnsafeMutableRawPointer?
) -> Int32 {
    nonisolated(unsafe) let s = s
    nonisolated(unsafe) let user = user
    return entry("screenplay_screen_set_power") { () throws(Failure) in
        let function = "screenplay_screen_set_power"
        let (made, app) = try requestScreen(s, function)
        let state: ScreenPowerState
        switch power {
        case Int32(SCREENPLAY_POWER_ON): state = .on
        case Int32(SCREENPLAY_POWER_OFF): state = .off
        default:
            throw Failure(
                Int32(SCREENPLAY_ERROR_INVALID_ARGUMENT),
                "\(function): power \(power) is neither SCREENPLAY_POWER_ON (1) nor SCREENPLAY_POWER_OFF (0)")
        }
        let answer = callback.map { CCallback(function: $0, user: user) }
        let handle: OpaquePointer = made.handle
        made.screen.setPower(state) { [weak app] result in
            deliver(answer, handle, app, result.map { state })
        }
    }
}

/// Reads a panel's power.
@_cdecl("screenplay_screen_read_power")
public func screenplayScreenReadPower(
    _ s: OpaquePointer?, _ callback: screenplay_power_callback?, _ user: UnsafeMutableRawPointer?
) -> Int32 {
    nonisolated(unsafe) let s = s
    nonisolated(unsafe) let user = user
    return entry("screenplay_screen_read_power") { () throws(Failure) in
        let function = "screenplay_screen_read_power"
        let (made, app) = try requestScreen(s, function)
        guard let callback else { throw Failure.null(function, "callback") }
        let answer = CCallback(function: callback, user: user)
        let handle: OpaquePointer = made.handle
        made.screen.readPowerState { [weak app] state in deliver(answer, handle, app, .success(state)) }
    }
}
