internal import CScreenplay
import Foundation
import Screenplay

/// A C caller's function pointer and user pointer. Only ever called on the
/// main thread (every entry checks), which is why it may cross into the
/// `@Sendable` closures Screenplay's configuration asks for.
struct CCallback<Function>: @unchecked Sendable {
    let function: Function
    let user: UnsafeMutableRawPointer?
}

/// The app behind a `screenplay_app` handle: the Swift `Application` and
/// the handles of what it reported to C.
@MainActor
final class CApp: HandleObject {
    static let kind = "app"
    static let advice = "use the handle screenplay_app_create gave, until screenplay_app_destroy"
    /// One app at a time: Screenplay's event loop is one per process.
    static var current: CApp?

    let app: Application
    let reconnects: Bool
    private(set) var handle: OpaquePointer!
    var screenCallback: CCallback<screenplay_screen_callback>?
    /// Screens with a handle, by identity.
    private var screens: [ObjectIdentifier: CScreen] = [:]
    /// Scenes with a handle, by identity.
    var scenes: [ObjectIdentifier: CScene] = [:]
    var registrations: [CRegistration] = []
    var pictures: [CPicture] = []
    /// Why the compositor went away, while it is away.
    var lost: ApplicationError?
    var isShutDown = false
    /// How many C callbacks are running: calls that would re-enter the loop
    /// or free what a callback stands on are refused meanwhile.
    private(set) var callbackDepth = 0

    init(_ app: Application, reconnects: Bool) {
        self.app = app
        self.reconnects = reconnects
        handle = Handles.shared.add(self)
        app.onScreenConnect = { [weak self] screen in self?.report(screen, Int32(SCREENPLAY_SCREEN_CONNECTED)) }
        app.onScreenChange = { [weak self] screen in self?.report(screen, Int32(SCREENPLAY_SCREEN_CHANGED)) }
        app.onScreenDisconnect = { [weak self] screen in
            guard let self else { return }
            report(screen, Int32(SCREENPLAY_SCREEN_DISCONNECTED))
            screens.removeValue(forKey: ObjectIdentifier(screen))?.release()
        }
        app.onConnectionLost = { [weak self] error in self?.lost = error }
        app.onReconnect = { [weak self] in self?.lost = nil }
    }

    /// The handle of `screen`, made on first use.
    func handle(of screen: Screen) -> OpaquePointer {
        if let known = screens[ObjectIdentifier(screen)] { return known.handle }
        let made = CScreen(screen, app: self)
        screens[ObjectIdentifier(screen)] = made
        return made.handle
    }

    private func report(_ screen: Screen, _ event: Int32) {
        let screenHandle = handle(of: screen)
        guard let callback = screenCallback else { return }
        calling { callback.function(handle, screenHandle, event, callback.user) }
    }

    /// Runs a C callback, counted.
    func calling(_ body: () -> Void) {
        callbackDepth += 1
        defer { callbackDepth -= 1 }
        body()
    }

    func refuseInCallback(_ function: String) throws(Failure) {
        guard callbackDepth == 0 else {
            throw Failure(
                Int32(SCREENPLAY_ERROR_IN_CALLBACK),
                "\(function) was called from inside a libscreenplay callback; return from the callback first (set a flag and make the call from your loop)"
            )
        }
    }

    func refuseShutDown(_ function: String) throws(Failure) {
        guard !isShutDown else {
            throw Failure(
                Int32(SCREENPLAY_ERROR_APP_SHUT_DOWN),
                "\(function): the app was shut down (screenplay_app_shutdown, or SIGINT/SIGTERM under screenplay_app_run); destroy it with screenplay_app_destroy and create a new one"
            )
        }
    }

    func shutdown() {
        isShutDown = true
        app.shutdown()
    }

    /// Shuts down and releases every handle of the app.
    func destroy() {
        shutdown()
        app.onScreenConnect = nil
        app.onScreenChange = nil
        app.onScreenDisconnect = nil
        app.onConnectionLost = nil
        app.onReconnect = nil
        for scene in scenes.values { scene.release() }
        for screen in screens.values { screen.release() }
        for registration in registrations { Handles.shared.remove(registration.handle) }
        for picture in pictures { Handles.shared.remove(picture.handle) }
        scenes = [:]
        screens = [:]
        registrations = []
        pictures = []
        Handles.shared.remove(handle)
        if Self.current === self { Self.current = nil }
    }
}

/// Looks up an app handle that is not shut down.
@MainActor
func liveApp(_ handle: OpaquePointer?, _ function: String) throws(Failure) -> CApp {
    let app = try Handles.shared.get(handle, CApp.self, function)
    try app.refuseShutDown(function)
    return app
}

func makeOptions(_ options: UnsafePointer<screenplay_app_options>?, _ function: String) throws(Failure)
    -> ApplicationOptions
{
    var result = ApplicationOptions()
    guard let options = options?.pointee else { return result }
    guard options.struct_size >= UInt32(MemoryLayout<screenplay_app_options>.size) else {
        throw Failure(
            Int32(SCREENPLAY_ERROR_INVALID_ARGUMENT),
            "\(function): options.struct_size is \(options.struct_size), not \(MemoryLayout<screenplay_app_options>.size); fill the options with screenplay_app_options_init first"
        )
    }
    if options.reconnect != 0 {
        guard options.reconnect_interval_ms > 0 else {
            throw Failure(
                Int32(SCREENPLAY_ERROR_INVALID_ARGUMENT),
                "\(function): options.reconnect_interval_ms is \(options.reconnect_interval_ms); give a positive number of milliseconds (100 is the default)"
            )
        }
        result.whenCompositorGoes = .reconnect(every: .milliseconds(Int(options.reconnect_interval_ms)))
    }
    switch options.targets {
    case Int32(SCREENPLAY_TARGETS_EXTERNAL): result.targets = .externalScreens
    case Int32(SCREENPLAY_TARGETS_ALL_BUT_MARKED): result.targets = .everyScreenExceptMarkedBuiltIn
    case Int32(SCREENPLAY_TARGETS_ALL): result.targets = .everyScreen
    default:
        throw Failure(
            Int32(SCREENPLAY_ERROR_INVALID_ARGUMENT),
            "\(function): options.targets is \(options.targets); use SCREENPLAY_TARGETS_EXTERNAL, _ALL_BUT_MARKED or _ALL"
        )
    }
    if options.display_name != nil {
        result.displayName = try string(options.display_name, function, "options.display_name")
    }
    if options.built_in_patterns != nil {
        result.builtInPatterns = try string(options.built_in_patterns, function, "options.built_in_patterns")
            .split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
    return result
}
