import EventLoop
import WaylandClient

/// One connection to the compositor and what lives on it: the bound
/// globals (`Compositor`) and the shared EGL context and GL objects. It
/// connects, starts, and frees them together; after the compositor goes,
/// a new link is made by `retry(every:_:isOver:adopt:)` and the old one released.
@MainActor
final class CompositorLink {
    let connection: Connection
    let compositor: Compositor
    /// The EGL context and GL objects made on this connection.
    let graphics: SharedGraphics

    /// Connects to the socket `options` name; nothing is bound yet.
    init(_ options: ApplicationOptions) throws(ApplicationError) {
        do {
            connection = try Connection(name: options.displayName)
        } catch {
            throw ApplicationError(kind: .noCompositor, description: error.description)
        }
        var limits = Compositor.VersionLimits()
        limits.output = options.maxOutputVersion
        limits.xdgOutputManager = options.maxXdgOutputVersion
        limits.layerShell = options.maxLayerShellVersion
        compositor = Compositor(connection: connection, limits: limits)
        graphics = SharedGraphics(waylandDisplay: connection.display)
    }

    /// Hooks the event flow to the connection and binds the globals:
    /// `batch` runs after each batch of events, `lost` once the connection
    /// fails, each only while `isCurrent` says this link is still the one
    /// in use.
    func start(
        isCurrent: @escaping @MainActor (CompositorLink) -> Bool, batch: @escaping @MainActor () -> Void,
        lost: @escaping @MainActor (ConnectionError) -> Void
    ) throws(ApplicationError) {
        connection.addAfterDispatch { [weak self] in
            guard let self, isCurrent(self) else { return }
            batch()
        }
        connection.onLost { [weak self] error in
            guard let self, isCurrent(self) else { return }
            lost(error)
        }
        do {
            try compositor.start()
        } catch {
            throw ApplicationError(kind: .connectionLost, description: error.description)
        }
        connection.startEventSource()
    }

    /// Frees the GL objects and the EGL display made on the connection,
    /// every proxy, the connection itself.
    func release() {
        graphics.destroy()
        compositor.destroy()
        connection.disconnect()
    }

    /// Tries the socket `options` name every `interval` (a timer of the
    /// main event loop, no busy loop) until a compositor answers and
    /// `adopt` takes its link, or `isOver` says to stop. `adopt` answers
    /// false when the link failed while it was being started: it is then
    /// released and tried again.
    static func retry(
        every interval: Duration, _ options: ApplicationOptions, isOver: @escaping @MainActor () -> Bool,
        adopt: @escaping @MainActor (CompositorLink) -> Bool
    ) {
        let delayNs = UInt64(
            clamping: interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000)
        MainEventLoop.shared.after(ns: delayNs) {
            guard !isOver() else { return }
            guard let link = try? CompositorLink(options) else {
                return retry(every: interval, options, isOver: isOver, adopt: adopt)
            }
            guard adopt(link) else {
                // It went again during the set-up: start over.
                link.release()
                return retry(every: interval, options, isOver: isOver, adopt: adopt)
            }
        }
    }
}
