// The app's C functions (screenplay.h: "Version and errors", "The app").
// Each one's contract is its comment in the header.
public import CScreenplay
import Glibc
import Screenplay

/// The library's version, as `SCREENPLAY_VERSION` encodes it.
@_cdecl("screenplay_version")
public func screenplayVersion() -> UInt32 {
    UInt32(SCREENPLAY_VERSION_MAJOR << 16 | SCREENPLAY_VERSION_MINOR << 8 | SCREENPLAY_VERSION_PATCH)
}

/// The calling thread's last failure message.
@_cdecl("screenplay_last_error")
public func screenplayLastError() -> UnsafePointer<CChar> { lastError() }

/// Each code's name, made once, kept for the life of the process.
nonisolated(unsafe) private let resultNames: [Int32: UnsafePointer<CChar>] = {
    let names: [(Int32, String)] = [
        (Int32(SCREENPLAY_OK), "SCREENPLAY_OK"),
        (Int32(SCREENPLAY_ERROR_NULL_ARGUMENT), "SCREENPLAY_ERROR_NULL_ARGUMENT"),
        (Int32(SCREENPLAY_ERROR_INVALID_HANDLE), "SCREENPLAY_ERROR_INVALID_HANDLE"),
        (Int32(SCREENPLAY_ERROR_WRONG_THREAD), "SCREENPLAY_ERROR_WRONG_THREAD"),
        (Int32(SCREENPLAY_ERROR_INVALID_ARGUMENT), "SCREENPLAY_ERROR_INVALID_ARGUMENT"),
        (Int32(SCREENPLAY_ERROR_NO_COMPOSITOR), "SCREENPLAY_ERROR_NO_COMPOSITOR"),
        (Int32(SCREENPLAY_ERROR_CONNECTION_LOST), "SCREENPLAY_ERROR_CONNECTION_LOST"),
        (Int32(SCREENPLAY_ERROR_NOT_IN_DRAW), "SCREENPLAY_ERROR_NOT_IN_DRAW"),
        (Int32(SCREENPLAY_ERROR_DRAW_FAILED), "SCREENPLAY_ERROR_DRAW_FAILED"),
        (Int32(SCREENPLAY_ERROR_FILE), "SCREENPLAY_ERROR_FILE"),
        (Int32(SCREENPLAY_ERROR_IN_CALLBACK), "SCREENPLAY_ERROR_IN_CALLBACK"),
        (Int32(SCREENPLAY_ERROR_UNSUPPORTED), "SCREENPLAY_ERROR_UNSUPPORTED"),
        (Int32(SCREENPLAY_ERROR_NOT_LISTED), "SCREENPLAY_ERROR_NOT_LISTED"),
        (Int32(SCREENPLAY_ERROR_REFUSED), "SCREENPLAY_ERROR_REFUSED"),
        (Int32(SCREENPLAY_ERROR_UNCONFIRMED), "SCREENPLAY_ERROR_UNCONFIRMED"),
        (Int32(SCREENPLAY_ERROR_UNKNOWN_SCREEN), "SCREENPLAY_ERROR_UNKNOWN_SCREEN"),
        (Int32(SCREENPLAY_ERROR_SHUT_DOWN), "SCREENPLAY_ERROR_SHUT_DOWN"),
        (Int32(SCREENPLAY_ERROR_APP_SHUT_DOWN), "SCREENPLAY_ERROR_APP_SHUT_DOWN"),
        (Int32.min, "an unknown screenplay_result"),
    ]
    return Dictionary(uniqueKeysWithValues: names.map { ($0.0, UnsafePointer(strdup($0.1)!)) })
}()

/// A code's name.
@_cdecl("screenplay_result_name")
public func screenplayResultName(_ result: Int32) -> UnsafePointer<CChar> {
    resultNames[result] ?? resultNames[Int32.min]!
}

/// Fills options with the defaults.
@_cdecl("screenplay_app_options_init")
public func screenplayAppOptionsInit(_ options: UnsafeMutablePointer<screenplay_app_options>?) -> Int32 {
    guard let options else {
        setLastError("screenplay_app_options_init: `options` is NULL; pass the address of a screenplay_app_options")
        return Int32(SCREENPLAY_ERROR_NULL_ARGUMENT)
    }
    options.pointee = screenplay_app_options(
        struct_size: UInt32(MemoryLayout<screenplay_app_options>.size), reconnect: 0, reconnect_interval_ms: 100,
        targets: Int32(SCREENPLAY_TARGETS_EXTERNAL), display_name: nil, built_in_patterns: nil)
    return Int32(SCREENPLAY_OK)
}

/// Connects a new app.
@_cdecl("screenplay_app_create")
public func screenplayAppCreate(
    _ options: UnsafePointer<screenplay_app_options>?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    nonisolated(unsafe) let options = options
    nonisolated(unsafe) let out = out
    return entry("screenplay_app_create") { () throws(Failure) in
        let function = "screenplay_app_create"
        guard let out else { throw Failure.null(function, "app") }
        guard CApp.current == nil else {
            throw Failure(
                Int32(SCREENPLAY_ERROR_INVALID_ARGUMENT),
                "\(function): an app exists already (one per process: Screenplay's event loop is the process's); destroy it with screenplay_app_destroy first"
            )
        }
        let swiftOptions = try makeOptions(options, function)
        do throws(ApplicationError) {
            let app = try Application(options: swiftOptions)
            let made = CApp(app, reconnects: swiftOptions.whenCompositorGoes != .stop)
            CApp.current = made
            out.pointee = made.handle
        } catch {
            let code = error.kind == .noCompositor ? SCREENPLAY_ERROR_NO_COMPOSITOR : SCREENPLAY_ERROR_CONNECTION_LOST
            throw Failure(Int32(code), "\(function): \(error.description)")
        }
    }
}

/// Shuts down and releases the app.
@_cdecl("screenplay_app_destroy")
public func screenplayAppDestroy(_ app: OpaquePointer?) -> Int32 {
    nonisolated(unsafe) let app = app
    return entry("screenplay_app_destroy") { () throws(Failure) in
        let made = try Handles.shared.get(app, CApp.self, "screenplay_app_destroy")
        try made.refuseInCallback("screenplay_app_destroy")
        made.destroy()
    }
}

/// The app's event descriptor.
@_cdecl("screenplay_app_fd")
public func screenplayAppFd(_ app: OpaquePointer?, _ fd: UnsafeMutablePointer<Int32>?) -> Int32 {
    nonisolated(unsafe) let app = app
    nonisolated(unsafe) let fd = fd
    return entry("screenplay_app_fd") { () throws(Failure) in
        _ = try Handles.shared.get(app, CApp.self, "screenplay_app_fd")
        try store(EventPump.fileDescriptor, fd, "screenplay_app_fd", "fd")
    }
}

/// Does what is ready, without blocking.
@_cdecl("screenplay_app_dispatch")
public func screenplayAppDispatch(_ app: OpaquePointer?) -> Int32 {
    nonisolated(unsafe) let app = app
    return entry("screenplay_app_dispatch") { () throws(Failure) in
        let function = "screenplay_app_dispatch"
        let made = try liveApp(app, function)
        try made.refuseInCallback(function)
        EventPump.processEvents()
        if let lost = made.lost, !made.reconnects {
            throw Failure(
                Int32(SCREENPLAY_ERROR_CONNECTION_LOST),
                "\(function): \(lost.description) (set options.reconnect to wait for the compositor instead)")
        }
    }
}

/// The poll timeout before the next timer.
@_cdecl("screenplay_app_timeout")
public func screenplayAppTimeout(_ app: OpaquePointer?, _ limit: Int32, _ timeout: UnsafeMutablePointer<Int32>?)
    -> Int32
{
    nonisolated(unsafe) let app = app
    nonisolated(unsafe) let timeout = timeout
    return entry("screenplay_app_timeout") { () throws(Failure) in
        _ = try Handles.shared.get(app, CApp.self, "screenplay_app_timeout")
        let value = EventPump.timeoutMilliseconds(atMost: limit >= 0 ? limit : nil)
        try store(value, timeout, "screenplay_app_timeout", "timeout_ms")
    }
}

/// Runs until a signal or a shutdown.
@_cdecl("screenplay_app_run")
public func screenplayAppRun(_ app: OpaquePointer?) -> Int32 {
    nonisolated(unsafe) let app = app
    return entry("screenplay_app_run") { () throws(Failure) in
        let function = "screenplay_app_run"
        let made = try liveApp(app, function)
        try made.refuseInCallback(function)
        do throws(ApplicationError) {
            try made.app.run()
            made.isShutDown = true
        } catch {
            made.isShutDown = true
            throw Failure(Int32(SCREENPLAY_ERROR_CONNECTION_LOST), "\(function): \(error.description)")
        }
    }
}

/// Tears the app down; the handle stays for destroy.
@_cdecl("screenplay_app_shutdown")
public func screenplayAppShutdown(_ app: OpaquePointer?) -> Int32 {
    nonisolated(unsafe) let app = app
    return entry("screenplay_app_shutdown") { () throws(Failure) in
        try Handles.shared.get(app, CApp.self, "screenplay_app_shutdown").shutdown()
    }
}

/// Sets the screen callback.
@_cdecl("screenplay_app_set_screen_callback")
public func screenplayAppSetScreenCallback(
    _ app: OpaquePointer?, _ callback: screenplay_screen_callback?, _ user: UnsafeMutableRawPointer?
) -> Int32 {
    nonisolated(unsafe) let app = app
    nonisolated(unsafe) let user = user
    return entry("screenplay_app_set_screen_callback") { () throws(Failure) in
        let made = try Handles.shared.get(app, CApp.self, "screenplay_app_set_screen_callback")
        made.screenCallback = callback.map { CCallback(function: $0, user: user) }
    }
}

/// How many screens there are.
@_cdecl("screenplay_app_screen_count")
public func screenplayAppScreenCount(_ app: OpaquePointer?, _ count: UnsafeMutablePointer<Int32>?) -> Int32 {
    nonisolated(unsafe) let app = app
    nonisolated(unsafe) let count = count
    return entry("screenplay_app_screen_count") { () throws(Failure) in
        let made = try liveApp(app, "screenplay_app_screen_count")
        try store(Int32(made.app.screens.count), count, "screenplay_app_screen_count", "count")
    }
}

/// The screen at an index.
@_cdecl("screenplay_app_screen")
public func screenplayAppScreen(_ app: OpaquePointer?, _ index: Int32, _ screen: UnsafeMutablePointer<OpaquePointer?>?)
    -> Int32
{
    nonisolated(unsafe) let app = app
    nonisolated(unsafe) let screen = screen
    return entry("screenplay_app_screen") { () throws(Failure) in
        let function = "screenplay_app_screen"
        let made = try liveApp(app, function)
        guard let screen else { throw Failure.null(function, "screen") }
        let screens = made.app.screens
        guard index >= 0, Int(index) < screens.count else {
            throw Failure(
                Int32(SCREENPLAY_ERROR_INVALID_ARGUMENT),
                "\(function): index \(index) is outside 0..<\(screens.count); ask screenplay_app_screen_count first")
        }
        screen.pointee = made.handle(of: screens[Int(index)])
    }
}
