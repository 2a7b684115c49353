internal import CWPE

/// What the C callbacks' `data` points at: a weak way back to the view, so
/// a callback after `close()` finds nothing.
final class CallbackBox {
    weak var view: WebView?
    nonisolated static func of(_ data: UnsafeMutableRawPointer?) -> CallbackBox? {
        data.map { Unmanaged<CallbackBox>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The C callbacks of a view whose `data` is `box`: each finds the view
    /// (if still open) and hands it the event on the main thread.
    @MainActor static func callbacks(for box: Unmanaged<CallbackBox>) -> sp_web_callbacks {
        var callbacks = sp_web_callbacks()
        callbacks.data = box.toOpaque()
        callbacks.egl_frame = { data, image, width, height, handle in
            MainActor.assumeIsolated { CallbackBox.of(data)?.view?.received(image: image, width, height, handle) }
        }
        callbacks.shm_frame = { data, pixels, stride, width, height, opaque in
            MainActor.assumeIsolated {
                CallbackBox.of(data)?.view?.received(pixels: pixels, stride: stride, width, height, opaque: opaque)
            }
        }
        callbacks.load_changed = { data, event in
            MainActor.assumeIsolated { CallbackBox.of(data)?.view?.onLoadEvent?(Int(event)) }
        }
        callbacks.load_failed = { data, uri, reason in
            let uri = uri.map { String(cString: $0) } ?? ""
            let reason = reason.map { String(cString: $0) } ?? "unknown"
            MainActor.assumeIsolated { CallbackBox.of(data)?.view?.onFailure?(uri, reason) }
        }
        callbacks.terminated = { data, reason in
            MainActor.assumeIsolated { CallbackBox.of(data)?.view?.terminated(reason) }
        }
        callbacks.blocked = { data, uri in
            let uri = uri.map { String(cString: $0) } ?? ""
            MainActor.assumeIsolated { CallbackBox.of(data)?.view?.onBlocked?(uri) }
        }
        return callbacks
    }
}
