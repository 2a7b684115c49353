// Content for external screens (screenplay.h: "Content on external
// screens"): a registration whose scenes call the caller's functions.
public import CScreenplay
import Rendering
import Screenplay

/// The caller's three scene callbacks and their user pointer.
struct SceneCallbacks: @unchecked Sendable {
    let connect: screenplay_scene_callback?
    let draw: screenplay_draw_callback?
    let disconnect: screenplay_scene_callback?
    var key: screenplay_key_callback? = nil
    let user: UnsafeMutableRawPointer?
}

/// A registration behind a `screenplay_registration` handle.
@MainActor
final class CRegistration: HandleObject {
    static let kind = "registration"
    static let advice = "use the handle screenplay_register_content gave, until screenplay_unregister_content"
    let registration: SceneAccessoryRegistration
    weak var app: CApp?
    private(set) var handle: OpaquePointer!

    init(_ registration: SceneAccessoryRegistration, app: CApp) {
        self.registration = registration
        self.app = app
        handle = Handles.shared.add(self)
    }
}

/// A scene behind a `screenplay_scene` handle, from its connect to its disconnect.
@MainActor
final class CScene: HandleObject {
    static let kind = "scene"
    static let advice =
        "use the handle your connect or draw callback got, and drop it when the disconnect callback returns"
    weak var scene: Scene?
    weak var app: CApp?
    private(set) var handle: OpaquePointer!

    init(_ scene: Scene, app: CApp) {
        self.scene = scene
        self.app = app
        handle = Handles.shared.add(self)
    }

    func release() { Handles.shared.remove(handle) }
}

/// The delegate of each scene of a C registration: it hands every event
/// to the caller's functions with the scene's handle.
@MainActor
final class CSceneDelegate: SceneDelegate {
    let callbacks: SceneCallbacks
    weak var app: CApp?
    private var made: CScene?

    init(_ callbacks: SceneCallbacks, app: CApp?) {
        self.callbacks = callbacks
        self.app = app
    }

    /// Gives a window its handle before it connects: the caller has it
    /// from screenplay_open_window on.
    func adopt(_ scene: Scene) -> OpaquePointer? {
        guard let app else { return nil }
        let cScene = CScene(scene, app: app)
        made = cScene
        app.scenes[ObjectIdentifier(scene)] = cScene
        return cScene.handle
    }

    func scene(_ scene: Scene, didReceiveKey event: KeyEvent) {
        guard let key = callbacks.key, let cScene = made, let app else { return }
        event.keysym.withCString { keysym in
            event.text.withCString { text in
                app.calling { key(cScene.handle, keysym, text, event.isPressed ? 1 : 0, callbacks.user) }
            }
        }
    }

    func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        guard let app else { return }
        let cScene = made ?? CScene(scene, app: app)
        made = cScene
        app.scenes[ObjectIdentifier(scene)] = cScene
        guard let connect = callbacks.connect else { return }
        app.calling { connect(cScene.handle, callbacks.user) }
    }

    func sceneDidDisconnect(_ scene: Scene) {
        guard let cScene = made else { return }
        made = nil
        if let connect = callbacks.disconnect {
            if let app {
                app.calling { connect(cScene.handle, callbacks.user) }
            } else {
                connect(cScene.handle, callbacks.user)
            }
        }
        app?.scenes[ObjectIdentifier(scene)] = nil
        cScene.release()
    }

    func draw(_ scene: Scene, in context: DrawingContext) throws {
        guard let draw = callbacks.draw, let cScene = made, let app else { return }
        try context.withGL { drawable in
            let cDraw = CDraw(context, drawable)
            defer { cDraw.end() }
            app.calling { draw(cScene.handle, cDraw.handle, callbacks.user) }
        }
    }
}

/// Registers content.
@_cdecl("screenplay_register_content")
public func screenplayRegisterContent(
    _ app: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ onConnect: screenplay_scene_callback?,
    _ onDraw: screenplay_draw_callback?, _ onDisconnect: screenplay_scene_callback?,
    _ user: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    nonisolated(unsafe) let app = app
    nonisolated(unsafe) let name = name
    nonisolated(unsafe) let user = user
    nonisolated(unsafe) let out = out
    return entry("screenplay_register_content") { () throws(Failure) in
        let function = "screenplay_register_content"
        let made = try liveApp(app, function)
        guard let out else { throw Failure.null(function, "registration") }
        let sceneName = name == nil ? nil : try string(name, function, "name")
        let callbacks = SceneCallbacks(connect: onConnect, draw: onDraw, disconnect: onDisconnect, user: user)
        let configuration = SceneConfiguration(name: sceneName) { [weak made] in CSceneDelegate(callbacks, app: made) }
        let registration = made.app.registerSceneAccessory(
            .externalNonInteractive(sceneConfiguration: configuration))
        let cRegistration = CRegistration(registration, app: made)
        made.registrations.append(cRegistration)
        out.pointee = cRegistration.handle
    }
}

@MainActor
private func registration(_ handle: OpaquePointer?, _ function: String) throws(Failure) -> (CRegistration, CApp) {
    let made = try Handles.shared.get(handle, CRegistration.self, function)
    guard let app = made.app else {
        throw Failure(Int32(SCREENPLAY_ERROR_INVALID_HANDLE), "\(function): the registration's app was destroyed")
    }
    return (made, app)
}

/// Unregisters content.
@_cdecl("screenplay_unregister_content")
public func screenplayUnregisterContent(_ handle: OpaquePointer?) -> Int32 {
    nonisolated(unsafe) let handle = handle
    return entry("screenplay_unregister_content") { () throws(Failure) in
        let (made, app) = try registration(handle, "screenplay_unregister_content")
        app.app.unregisterSceneAccessory(made.registration)
        app.registrations.removeAll { $0 === made }
        Handles.shared.remove(made.handle)
    }
}

/// Enables or disables a registration.
@_cdecl("screenplay_registration_set_enabled")
public func screenplayRegistrationSetEnabled(_ handle: OpaquePointer?, _ enabled: Int32) -> Int32 {
    nonisolated(unsafe) let handle = handle
    return entry("screenplay_registration_set_enabled") { () throws(Failure) in
        try registration(handle, "screenplay_registration_set_enabled").0.registration.isEnabled = enabled != 0
    }
}

/// Whether a target screen is there.
@_cdecl("screenplay_registration_is_available")
public func screenplayRegistrationIsAvailable(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    nonisolated(unsafe) let handle = handle
    nonisolated(unsafe) let out = out
    return entry("screenplay_registration_is_available") { () throws(Failure) in
        let made = try registration(handle, "screenplay_registration_is_available").0
        try store(made.registration.isAvailable ? 1 : 0, out, "screenplay_registration_is_available", "available")
    }
}

@MainActor
private func scene(_ handle: OpaquePointer?, _ function: String) throws(Failure) -> (Scene, CApp) {
    let made = try Handles.shared.get(handle, CScene.self, function)
    guard let scene = made.scene, let app = made.app else {
        throw Failure(Int32(SCREENPLAY_ERROR_INVALID_HANDLE), "\(function): the scene is gone; \(CScene.advice)")
    }
    return (scene, app)
}

/// The scene's screen.
@_cdecl("screenplay_scene_screen")
public func screenplaySceneScreen(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    nonisolated(unsafe) let handle = handle
    nonisolated(unsafe) let out = out
    return entry("screenplay_scene_screen") { () throws(Failure) in
        let (scene, app) = try scene(handle, "screenplay_scene_screen")
        try store(scene.screen.map { app.handle(of: $0) }, out, "screenplay_scene_screen", "screen")
    }
}

/// The scene's size.
@_cdecl("screenplay_scene_size")
public func screenplaySceneSize(
    _ handle: OpaquePointer?, _ width: UnsafeMutablePointer<Int32>?, _ height: UnsafeMutablePointer<Int32>?
) -> Int32 {
    nonisolated(unsafe) let handle = handle
    nonisolated(unsafe) let width = width
    nonisolated(unsafe) let height = height
    return entry("screenplay_scene_size") { () throws(Failure) in
        let size = try scene(handle, "screenplay_scene_size").0.pixelSize
        try storePair((size.width, size.height), width, height, "screenplay_scene_size", ("width", "height"))
    }
}

/// The display link's preferred rate.
@_cdecl("screenplay_scene_set_preferred_fps")
public func screenplaySceneSetPreferredFps(_ handle: OpaquePointer?, _ fps: Int32) -> Int32 {
    nonisolated(unsafe) let handle = handle
    return entry("screenplay_scene_set_preferred_fps") { () throws(Failure) in
        let function = "screenplay_scene_set_preferred_fps"
        let scene = try scene(handle, function).0
        guard fps >= 0 else {
            throw Failure(
                Int32(SCREENPLAY_ERROR_INVALID_ARGUMENT),
                "\(function): \(fps) frames per second is negative; give 0 (the screen's refresh) or more")
        }
        scene.displayLink.preferredFramesPerSecond = Int(fps)
    }
}

/// Pauses or runs the display link.
@_cdecl("screenplay_scene_set_paused")
public func screenplaySceneSetPaused(_ handle: OpaquePointer?, _ paused: Int32) -> Int32 {
    nonisolated(unsafe) let handle = handle
    return entry("screenplay_scene_set_paused") { () throws(Failure) in
        try scene(handle, "screenplay_scene_set_paused").0.displayLink.isPaused = paused != 0
    }
}

/// Asks for a frame.
@_cdecl("screenplay_scene_set_needs_display")
public func screenplaySceneSetNeedsDisplay(_ handle: OpaquePointer?) -> Int32 {
    nonisolated(unsafe) let handle = handle
    return entry("screenplay_scene_set_needs_display") { () throws(Failure) in
        try scene(handle, "screenplay_scene_set_needs_display").0.setNeedsDisplay()
    }
}
