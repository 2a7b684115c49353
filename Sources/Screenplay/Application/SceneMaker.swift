/// Makes the scenes of one application on its connection: a window, or an
/// external scene on a screen for the presented registration, warning once
/// when external scenes have to be fullscreen windows (no layer shell).
/// `AccessoryScenes` decides which scenes should exist; this makes them.
@MainActor
final class SceneMaker {
    private var warnedFallback = false

    /// A scene on `app`'s connection: an external one on `screen`, or a
    /// window.
    func scene(_ session: SceneSession, delegate: any SceneDelegate, screen: Screen?, app: Application)
        throws(SceneError) -> Scene
    {
        try Scene(
            host: app, compositor: app.compositor, session: session, delegate: delegate, screen: screen,
            layer: screen == nil ? .top : session.configuration.layer.layer,
            readsPanelPower: app.compositor.powerManager != nil,
            drawWatch: app.options.drawWatch)
    }

    /// A window (role `application`) for `configuration`.
    func window(_ configuration: SceneConfiguration, app: Application) throws(SceneError) -> Scene {
        let session = SceneSession(
            role: .application, configuration: configuration, userInfo: [:],
            identifier: "\(configuration.name ?? "window")")
        return try scene(session, delegate: configuration.delegateFactory(), screen: nil, app: app)
    }

    /// `registration`'s scene on `screen`, named after both.
    func accessoryScene(for registration: SceneAccessoryRegistration, on screen: Screen, app: Application)
        throws(SceneError) -> Scene
    {
        if app.compositor.layerShell == nil && !warnedFallback {
            warnedFallback = true
            let why =
                app.options.maxLayerShellVersion == 0
                ? "layer shell is turned off (fullscreen window asked for)"
                : "the compositor has no zwlr_layer_shell_v1 (GNOME has none)"
            app.report(
                SceneError(
                    screen: nil, reason: "warning: \(why), so external scenes are fullscreen windows instead",
                    fix:
                        "they may take keyboard focus, show in task switchers, and the compositor may place them on another screen than asked"
                ))
        }
        let configuration = registration.accessory.sceneConfiguration
        let session = SceneSession(
            role: .externalDisplayNonInteractive, configuration: configuration,
            userInfo: registration.accessory.userInfo, identifier: "\(configuration.name ?? "scene")@\(screen.name)")
        return try scene(session, delegate: configuration.delegateFactory(), screen: screen, app: app)
    }
}
