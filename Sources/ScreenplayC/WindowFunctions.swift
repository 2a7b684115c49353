// The app's own windows (screenplay.h: screenplay_open_window): a keypad
// or control window on the laptop, drawn like any scene, hearing keys.
public import CScreenplay
import Screenplay

/// Opens an app window.
@_cdecl("screenplay_open_window")
public func screenplayOpenWindow(
    _ app: OpaquePointer?, _ title: UnsafePointer<CChar>?, _ onConnect: screenplay_scene_callback?,
    _ onDraw: screenplay_draw_callback?, _ onKey: screenplay_key_callback?, _ onDisconnect: screenplay_scene_callback?,
    _ user: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    nonisolated(unsafe) let app = app
    nonisolated(unsafe) let title = title
    nonisolated(unsafe) let user = user
    nonisolated(unsafe) let out = out
    return entry("screenplay_open_window") { () throws(Failure) in
        let function = "screenplay_open_window"
        let made = try liveApp(app, function)
        guard let out else { throw Failure.null(function, "window") }
        let name = title == nil ? nil : try string(title, function, "title")
        var callbacks = SceneCallbacks(connect: onConnect, draw: onDraw, disconnect: onDisconnect, user: user)
        callbacks.key = onKey
        let delegate = CSceneDelegate(callbacks, app: made)
        do {
            let scene = try made.app.openWindow(configuration: SceneConfiguration(name: name) { delegate })
            out.pointee = delegate.adopt(scene)
        } catch {
            throw Failure(Int32(SCREENPLAY_ERROR_DRAW_FAILED), "\(function): \(error)")
        }
    }
}

/// Closes an app window.
@_cdecl("screenplay_window_close")
public func screenplayWindowClose(_ window: OpaquePointer?) -> Int32 {
    nonisolated(unsafe) let window = window
    return entry("screenplay_window_close") { () throws(Failure) in
        let function = "screenplay_window_close"
        let made = try Handles.shared.get(window, CScene.self, function)
        guard let scene = made.scene, let app = made.app else {
            throw Failure(Int32(SCREENPLAY_ERROR_INVALID_HANDLE), "\(function): the window is gone already")
        }
        guard scene.session.role == .application else {
            throw Failure(
                Int32(SCREENPLAY_ERROR_INVALID_ARGUMENT),
                "\(function): the scene is content on an external screen, not a window; unregister or disable its registration instead"
            )
        }
        app.app.close(scene)
        // A window closed before it connected hears no disconnect.
        app.scenes.removeValue(forKey: ObjectIdentifier(scene))?.release()
    }
}
