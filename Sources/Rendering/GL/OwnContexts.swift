import CEGL
import Synchronization

/// The EGL contexts Screenplay made and has not destroyed
/// (`GraphicsContext`), so that `CurrentContext` tells its own from an
/// app's by the current context alone. A context goes in only once it is
/// fully made and out before it is destroyed, so an app's context that
/// EGL later hands the same address is never taken for Screenplay's.
enum OwnContexts {
    private static let contexts = Mutex<Set<UInt>>([])

    static func insert(_ context: EGLContext) {
        _ = contexts.withLock { $0.insert(UInt(bitPattern: context)) }
    }

    static func remove(_ context: EGLContext) {
        _ = contexts.withLock { $0.remove(UInt(bitPattern: context)) }
    }

    static func contains(_ context: EGLContext) -> Bool {
        contexts.withLock { $0.contains(UInt(bitPattern: context)) }
    }
}
