import CWayland
import CWaylandProtocols

/// What `wp_presentation_feedback` said about one commit.
package enum PresentationEvent: Sendable {
    /// Shown at `timestampNs` (the presentation clock), `refreshNs` until the
    /// next possible refresh (0 when unknown), on output `syncOutput`.
    case presented(timestampNs: UInt64, refreshNs: UInt64, sequence: UInt64, flags: UInt32, syncOutput: UInt32?)
    case discarded
}

/// A `wl_surface` with its frame callbacks and presentation feedbacks.
@MainActor
package final class Surface {
    package let compositor: Compositor
    let proxy: OpaquePointer
    /// The protocol object id, unique among live objects of the connection.
    let objectID: UInt32
    private var frameCallback: CallbackBox?
    /// Feedback requests in flight, by the caller's token (see
    /// `FeedbackBudget`, which keeps their number small).
    private var feedbacks: [UInt64: FeedbackBox] = [:]
    private var viewport: OpaquePointer?
    package private(set) var isDestroyed = false
    /// Outputs the surface is on now, as registry names, in enter order.
    package private(set) var enteredOutputs: [UInt32] = []
    /// Hears enter and leave; `enter` for an unknown output is ignored.
    package var onOutputsChanged: (() -> Void)?

    package init(compositor: Compositor) throws(SurfaceError) {
        guard let wlCompositor = compositor.compositor else {
            throw SurfaceError("the compositor offers no wl_compositor (or removed it)")
        }
        self.compositor = compositor
        proxy = wl_compositor_create_surface(wlCompositor)
        objectID = wl_proxy_get_id(proxy)
        wl_surface_add_listener(proxy, &surfaceListener, userData(self))
        compositor.register(self)
    }

    /// The raw `wl_surface*` for EGL and role objects.
    package var rawProxy: OpaquePointer { proxy }

    func entered(_ outputProxy: OpaquePointer?) {
        // enter may name an output we never saw or already removed (Smithay
        // #2120 shows it even arriving as NULL): ignore it rather than guess.
        guard let output = compositor.output(forProxy: outputProxy), output.info != nil else { return }
        guard !enteredOutputs.contains(output.globalName) else { return }
        enteredOutputs.append(output.globalName)
        onOutputsChanged?()
    }

    func left(_ outputProxy: OpaquePointer?) {
        guard let output = compositor.output(forProxy: outputProxy) else { return }
        enteredOutputs.removeAll { $0 == output.globalName }
        onOutputsChanged?()
    }

    /// Forgets an output that went away without a `leave`.
    package func forget(outputNamed name: UInt32) {
        let before = enteredOutputs.count
        enteredOutputs.removeAll { $0 == name }
        if before != enteredOutputs.count { onOutputsChanged?() }
    }

    /// Asks for one frame callback; replaces an outstanding one's handler.
    /// Takes effect with the next commit.
    package func requestFrame(_ handler: @escaping (UInt32) -> Void) {
        if let frameCallback {
            frameCallback.handler = handler
            return
        }
        let box = CallbackBox(handler: handler)
        box.proxy = wl_surface_frame(proxy)
        box.onDone = { [weak self] box in
            if self?.frameCallback === box { self?.frameCallback = nil }
        }
        wl_callback_add_listener(box.proxy, &callbackListener, userData(box))
        frameCallback = box
    }

    /// Whether the compositor offers `wp_presentation`.
    package var offersPresentationFeedback: Bool { compositor.presentation != nil }

    /// Asks for presentation feedback for the next commit, under the
    /// caller's `token`. Returns false when the compositor has no
    /// wp_presentation. The caller bounds how many are in flight: the
    /// protocol has no way to cancel one.
    @discardableResult
    package func requestPresentationFeedback(token: UInt64, _ handler: @escaping (PresentationEvent) -> Void) -> Bool {
        guard let presentation = compositor.presentation else { return false }
        let box = FeedbackBox(handler: handler, compositor: compositor)
        box.proxy = wp_presentation_feedback(presentation, proxy)
        box.onDone = { [weak self] _ in self?.feedbacks[token] = nil }
        wp_presentation_feedback_add_listener(box.proxy, &feedbackListener, userData(box))
        feedbacks[token] = box
        return true
    }

    /// Gives up feedback requests the compositor has not answered: their
    /// proxies are freed here (a late answer is then dropped by libwayland);
    /// the compositor's side lives until it answers or the surface goes.
    package func abandonPresentationFeedback(_ tokens: [UInt64]) {
        for token in tokens { feedbacks.removeValue(forKey: token)?.destroy() }
    }

    package func setBufferScale(_ scale: Int) {
        wl_surface_set_buffer_scale(proxy, Int32(scale))
    }

    /// Scenes take no pointer or touch input: an empty input region passes
    /// every event through to what lies below.
    package func setEmptyInputRegion() {
        guard let wlCompositor = compositor.compositor else { return }
        let region = wl_compositor_create_region(wlCompositor)
        wl_surface_set_input_region(proxy, region)
        wl_region_destroy(region)
    }

    /// Marks the whole surface opaque so the compositor can skip what is below.
    package func setOpaque(width: Int, height: Int) {
        guard let wlCompositor = compositor.compositor else { return }
        let region = wl_compositor_create_region(wlCompositor)
        wl_region_add(region, 0, 0, Int32(width), Int32(height))
        wl_surface_set_opaque_region(proxy, region)
        wl_region_destroy(region)
    }

    /// Shows a buffer of any size at `width`x`height` surface units, when the
    /// compositor offers wp_viewporter. Returns false when it does not.
    @discardableResult
    package func setDestinationSize(width: Int, height: Int) -> Bool {
        guard let viewporter = compositor.viewporter else { return false }
        if viewport == nil { viewport = wp_viewporter_get_viewport(viewporter, proxy) }
        wp_viewport_set_destination(viewport, Int32(width), Int32(height))
        return true
    }

    package func commit() { wl_surface_commit(proxy) }

    /// Destroys the callbacks, feedbacks, viewport and the surface, once.
    /// Role objects (layer surface, xdg surface) and the EGL window must be
    /// destroyed before.
    package func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        compositor.unregister(self)
        frameCallback?.destroy()
        frameCallback = nil
        for box in feedbacks.values { box.destroy() }
        feedbacks.removeAll()
        if let viewport { wp_viewport_destroy(viewport) }
        viewport = nil
        wl_surface_destroy(proxy)
    }
}

/// Why a surface or its role could not be made.
package struct SurfaceError: Error, CustomStringConvertible, Sendable {
    package let description: String
    package init(_ description: String) { self.description = description }
}

@MainActor
final class CallbackBox {
    var proxy: OpaquePointer?
    var handler: (UInt32) -> Void
    var onDone: ((CallbackBox) -> Void)?
    init(handler: @escaping (UInt32) -> Void) { self.handler = handler }

    func fire(_ time: UInt32) {
        destroy()
        onDone?(self)
        handler(time)
    }

    func destroy() {
        if let proxy { wl_callback_destroy(proxy) }
        proxy = nil
    }
}

@MainActor
final class FeedbackBox {
    var proxy: OpaquePointer?
    let handler: (PresentationEvent) -> Void
    var onDone: ((FeedbackBox) -> Void)?
    var syncOutput: UInt32?
    let compositor: Compositor
    init(handler: @escaping (PresentationEvent) -> Void, compositor: Compositor) {
        self.handler = handler
        self.compositor = compositor
    }

    func finish(_ event: PresentationEvent) {
        destroy()
        onDone?(self)
        handler(event)
    }

    func destroy() {
        if let proxy { wp_presentation_feedback_destroy(proxy) }
        proxy = nil
    }
}

private nonisolated(unsafe) var surfaceListener = wl_surface_listener(
    enter: { data, _, output in
        let raw = output.map { UInt(bitPattern: $0) }
        deliver(data, to: Surface.self) { $0.entered(raw.flatMap { OpaquePointer(bitPattern: $0) }) }
    },
    leave: { data, _, output in
        let raw = output.map { UInt(bitPattern: $0) }
        deliver(data, to: Surface.self) { $0.left(raw.flatMap { OpaquePointer(bitPattern: $0) }) }
    }
)

private nonisolated(unsafe) var callbackListener = wl_callback_listener(
    done: { data, _, time in
        deliver(data, to: CallbackBox.self) { $0.fire(time) }
    }
)

private nonisolated(unsafe) var feedbackListener = wp_presentation_feedback_listener(
    sync_output: { data, _, output in
        let raw = output.map { UInt(bitPattern: $0) }
        deliver(data, to: FeedbackBox.self) { box in
            box.syncOutput = box.compositor.output(forProxy: raw.flatMap { OpaquePointer(bitPattern: $0) })?.globalName
        }
    },
    presented: { data, _, secHi, secLo, nsec, refresh, seqHi, seqLo, flags in
        let seconds = UInt64(secHi) << 32 | UInt64(secLo)
        let timestamp = seconds &* 1_000_000_000 &+ UInt64(nsec)
        let sequence = UInt64(seqHi) << 32 | UInt64(seqLo)
        deliver(data, to: FeedbackBox.self) { box in
            box.finish(
                .presented(
                    timestampNs: timestamp, refreshNs: UInt64(refresh), sequence: sequence, flags: flags,
                    syncOutput: box.syncOutput))
        }
    },
    discarded: { data, _ in
        deliver(data, to: FeedbackBox.self) { $0.finish(.discarded) }
    }
)
