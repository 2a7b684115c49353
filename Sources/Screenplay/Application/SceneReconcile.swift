import Rendering

/// Makes the set of accessory scenes match (presented registration ×
/// target screens), after a registration or a screen changed: scenes that
/// no longer belong go first, then the target screens without one get
/// theirs. `AccessoryScenes` keeps the record; this acts on it.
@MainActor
struct SceneReconcile {
    unowned let app: Application

    func run() {
        guard !app.isShutDown else { return }
        let targets = app.externalScreens
        for scene in app.accessories.takeStaleScenes(targets: targets) { app.remove(scene) }
        if let presented = app.accessories.presented, app.compositor.connection.failure == nil {
            for screen in app.accessories.screensWithoutScene(targets) {
                do {
                    let scene = try app.sceneMaker.accessoryScene(for: presented, on: screen, app: app)
                    app.scenes.append(scene)
                    app.accessories.add(scene, on: screen)
                } catch {
                    app.report(error)
                }
            }
        }
        app.accessories.setAvailable(!targets.isEmpty)
        app.connection.flush()
    }
}
