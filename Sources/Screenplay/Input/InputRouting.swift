import WaylandClient

/// Which window an input record belongs to, and its delivery there in the
/// scene's device pixels: only application windows take input (external
/// scenes have an empty input region). Made for each record from the scenes
/// of that moment, since a handler may close windows or shut the
/// application down between two records.
@MainActor
struct InputRouting {
    /// Every scene now, in the order they were made.
    let scenes: [Scene]

    /// The application window whose surface is `surface`.
    private func window(for surface: Surface?) -> Scene? {
        guard let surface else { return nil }
        return scenes.first { $0.session.role == .application && $0.surface === surface }
    }

    /// Keys go to the application window whose surface has keyboard focus.
    /// External scenes take no input; but where one is a fullscreen window
    /// (no layer shell: GNOME) the compositor may give it the focus, and
    /// then its keys go to the application's first window, so a speaker's
    /// clicker keeps working whichever window has focus.
    func deliver(_ event: KeyboardEvent) {
        guard let focused = event.surface, let owner = scenes.first(where: { $0.surface === focused }) else { return }
        let target =
            owner.session.role == .application
            ? owner
            : owner.isFullscreenFallback ? scenes.first { $0.session.role == .application && $0.isConnected } : nil
        guard let scene = target else { return }
        let key = KeyEvent(
            keysym: event.keysym, text: event.text, isPressed: event.isPressed, shift: event.shift,
            control: event.control, alt: event.alt)
        scene.delegate.scene(scene, didReceiveKey: key)
    }

    /// Pointer events go to the window the pointer is over.
    func deliver(_ record: PointerRecord) {
        guard let scene = window(for: record.surface) else { return }
        let scale = scene.contentScale
        let kind: PointerEvent.Kind
        switch record.kind {
        case .enter: kind = .entered
        case .leave: kind = .left
        case .motion: kind = .moved
        case let .button(code, pressed):
            kind = pressed ? .pressed(PointerButton(rawValue: code)) : .released(PointerButton(rawValue: code))
        case let .axis(dx, dy): kind = .scrolled(dx: dx * scale, dy: dy * scale)
        }
        scene.delegate.scene(
            scene, didReceivePointer: PointerEvent(kind: kind, x: record.x * scale, y: record.y * scale))
    }

    /// Touch events go to the window each touch point went down on.
    func deliver(_ record: TouchRecord) {
        guard let scene = window(for: record.surface) else { return }
        let scale = scene.contentScale
        let kind: TouchEvent.Kind
        switch record.kind {
        case .down: kind = .began
        case .motion: kind = .moved
        case .up: kind = .ended
        case .cancel: kind = .cancelled
        }
        scene.delegate.scene(
            scene, didReceiveTouch: TouchEvent(kind: kind, id: Int(record.id), x: record.x * scale, y: record.y * scale)
        )
    }
}
