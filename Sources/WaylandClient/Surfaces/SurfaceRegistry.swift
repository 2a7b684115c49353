import CWayland

/// Live surfaces by protocol object id, so an event naming a wl_surface
/// (keyboard focus) finds the Surface without comparing pointers; held
/// weakly, so an entry never keeps a surface alive.
@MainActor
struct SurfaceRegistry {
    private var surfaces: [UInt32: WeakSurface] = [:]

    mutating func register(_ surface: Surface) { surfaces[surface.objectID] = WeakSurface(surface) }
    mutating func unregister(_ surface: Surface) { surfaces[surface.objectID] = nil }

    /// The live Surface whose `wl_surface*` is `proxy`, if it is one of ours.
    func surface(forProxy proxy: OpaquePointer?) -> Surface? {
        guard let proxy else { return nil }
        return surfaces[wl_proxy_get_id(proxy)]?.surface
    }
}

/// A surface held without keeping it alive.
private struct WeakSurface {
    weak var surface: Surface?
    init(_ surface: Surface) { self.surface = surface }
}
