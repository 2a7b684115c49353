internal import CWPE
import EventLoop
import Glibc
package import Rendering

/// One WPE WebKit view: a page in its own web process, laid out at a size
/// and scale, whose frames arrive as a texture on Rendering's context. All
/// of it runs on the main thread through `GLibLoop`.
@MainActor
package final class WebView {
    /// Why the web process went away.
    package enum Termination: Sendable, Equatable {
        case crashed, exceededMemoryLimit, terminatedByRequest
    }

    /// A new frame arrived (and is the texture now).
    package var onFrame: (() -> Void)?
    /// The main document started (0), redirected (1), committed (2) or finished (3) loading.
    package var onLoadEvent: ((Int) -> Void)?
    /// Loading failed: the URI and WebKit's reason.
    package var onFailure: ((String, String) -> Void)?
    package var onTerminated: ((Termination) -> Void)?
    /// A navigation outside the allowed origins was refused: its URI.
    package var onBlocked: ((String) -> Void)?

    /// Where a frame that fills it is written as it arrives, to be
    /// presented without drawing (`stagedFrame`): the window the page fills,
    /// asked afresh for each frame. Nil or a window that declines: uploaded.
    package var stagingWindow: (() -> WindowSurface?)?

    /// The latest frame when it went straight into a window's buffer, while
    /// that buffer still holds it; `texture` then lags until `drawable()`.
    package var stagedFrame: StagedFrame? {
        guard let staged, staged.isReadable else { return nil }
        return staged
    }
    private var staged: StagedFrame?

    /// The latest frame, nil before the first. After a staged frame it is
    /// the frame before: use `drawable()` to draw.
    package private(set) var texture: Texture?
    /// Whether the texture's alpha is meaningless (XRGB).
    package private(set) var isOpaque = true
    /// Frames received from the web process.
    package private(set) var framesReceived = 0

    /// The GL context textures are made on, asked for at the first upload.
    private let context: @MainActor () throws -> GraphicsContext
    private var view: OpaquePointer?
    private var box: Unmanaged<CallbackBox>?
    /// EGL images no longer drawn, released once the frame after them is shown.
    private var retiredImages: [UnsafeMutableRawPointer] = []
    private var currentImage: UnsafeMutableRawPointer?
    private var awaitingComplete = false

    /// A view of `width` x `height` device pixels at `scale` (so laid out
    /// at width/scale x height/scale CSS pixels). `allowedOrigins`
    /// ("https://host[:port]", lower case) limit navigations (empty: any);
    /// `fileRoot` is the only folder file:// may read.
    package init(
        context: @escaping @MainActor () throws -> GraphicsContext, width: Int, height: Int, scale: Double,
        allowedOrigins: [String], fileRoot: String?
    ) {
        self.context = context
        let box = Unmanaged.passRetained(CallbackBox())
        self.box = box
        var callbacks = CallbackBox.callbacks(for: box)
        let origins = allowedOrigins.map { strdup($0) } + [nil]
        defer { for origin in origins { free(origin) } }
        view = origins.withUnsafeBufferPointer { list in
            list.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: list.count) { pointer in
                sp_web_view_new(
                    &callbacks, UInt32(max(1, Double(width) / scale).rounded()),
                    UInt32(max(1, Double(height) / scale).rounded()), Float(scale), pointer, fileRoot)
            }
        }
        box.takeUnretainedValue().view = self
        GLibLoop.shared.kick()
    }

    package func load(_ uri: String) {
        guard let view else { return }
        sp_web_view_load(view, uri)
        GLibLoop.shared.kick()
    }

    /// Lays the page out again at `width` x `height` device pixels and `scale`.
    package func resize(width: Int, height: Int, scale: Double) {
        guard let view else { return }
        sp_web_view_resize(
            view, UInt32(max(1, (Double(width) / scale).rounded())), UInt32(max(1, (Double(height) / scale).rounded())),
            Float(scale))
        GLibLoop.shared.kick()
    }

    package func reload() {
        guard let view else { return }
        sp_web_view_reload(view)
        GLibLoop.shared.kick()
    }

    /// Kills the web process (tests, and a page past its memory limit);
    /// `onTerminated` follows with `.terminatedByRequest`.
    package func terminateWebProcess() {
        guard let view else { return }
        sp_web_view_terminate_web_process(view)
        GLibLoop.shared.kick()
    }

    /// The frame that drew the latest texture was shown (or, for a page not
    /// on screen, would have been): the web process may render the next
    /// one, and images no longer drawn go back to it.
    package func frameShown() {
        guard let view else { return }
        for image in retiredImages { sp_web_view_release_image(view, image) }
        retiredImages.removeAll()
        if awaitingComplete {
            awaitingComplete = false
            sp_web_view_frame_complete(view)
        }
        GLibLoop.shared.kick()
    }

    /// Whether a frame arrived that was not yet reported shown.
    package var hasNewFrame: Bool { awaitingComplete }

    /// Input in device pixels of the view (WebKit divides by the scale itself) and XKB keysyms.
    package func pointerMoved(x: Int, y: Int, scale: Double) {
        guard let view else { return }
        sp_web_view_pointer_motion(view, Int32(x), Int32(y))
        GLibLoop.shared.kick()
    }

    package func pointerButton(x: Int, y: Int, scale: Double, button: UInt32, pressed: Bool) {
        guard let view else { return }
        sp_web_view_pointer_button(view, Int32(x), Int32(y), button, pressed)
        GLibLoop.shared.kick()
    }

    package func scrolled(x: Int, y: Int, scale: Double, dx: Int, dy: Int) {
        guard let view else { return }
        sp_web_view_scroll(view, Int32(x), Int32(y), Int32(dx), Int32(dy))
        GLibLoop.shared.kick()
    }

    package func key(keysym: UInt32, keycode: UInt32, pressed: Bool, modifiers: UInt32) {
        guard let view else { return }
        sp_web_view_key(view, keysym, keycode, pressed, modifiers)
        GLibLoop.shared.kick()
    }

    /// Ends the view and its web process; frees the texture. Idempotent.
    package func close() {
        guard let view else { return }
        CurrentContext.preserving {
            texture?.destroy()
            texture = nil
        }
        staged?.release()
        staged = nil
        for image in retiredImages { sp_web_view_release_image(view, image) }
        retiredImages.removeAll()
        if let currentImage { sp_web_view_release_image(view, currentImage) }
        currentImage = nil
        sp_web_view_destroy(view)
        self.view = nil
        box?.takeUnretainedValue().view = nil
        box?.release()
        box = nil
        GLibLoop.shared.kick()
    }

    func received(
        image: UnsafeMutableRawPointer?, _ width: UInt32, _ height: UInt32, _ handle: UnsafeMutableRawPointer?
    ) {
        guard let view, let handle else { return }
        guard let image else {
            sp_web_view_release_image(view, handle)
            return
        }
        do {
            let made = try CurrentContext.preserving {
                try Texture(context: context(), width: Int(width), height: Int(height), eglImage: image)
            }
            CurrentContext.preserving { texture?.destroy() }
            texture = made
            isOpaque = false
            if let currentImage { retiredImages.append(currentImage) }
            currentImage = handle
            arrived()
        } catch {
            sp_web_view_release_image(view, handle)
            onFailure?("", "its frame could not become a texture: \(error)")
        }
    }

    /// The latest frame as a texture: a staged frame is uploaded from its
    /// buffer and the buffer handed back (it will not be presented as is).
    package func drawable() throws -> Texture? {
        guard let staged else { return texture }
        self.staged = nil
        staged.release()
        // Written again since (the window resized or was destroyed): the
        // frame before stays until the next arrives.
        guard staged.isReadable else { return texture }
        try upload(
            staged.pixels.assumingMemoryBound(to: UInt8.self), stride: Int32(staged.stride), UInt32(staged.width),
            UInt32(staged.height), opaque: true)
        return texture
    }

    func received(
        pixels: UnsafeRawPointer?, stride: Int32, _ width: UInt32, _ height: UInt32, opaque: Bool
    ) {
        guard let pixels else { return }
        let previous = staged
        staged = nil
        // XRGB buffers show alpha as opaque: a page's own frame is opaque
        // (WebKit's default background), so both formats go as they are.
        if let window = stagingWindow?(),
            let made = try? window.stageFrame(
                width: Int(width), height: Int(height), replacing: previous,
                fill: { memory, targetStride in
                    Self.copyRows(from: pixels, stride: Int(stride), to: memory, stride: targetStride, width, height)
                })
        {
            staged = made
            isOpaque = true
            arrived()
            return
        }
        previous?.release()
        do {
            try upload(pixels.assumingMemoryBound(to: UInt8.self), stride: stride, width, height, opaque: opaque)
            arrived()
        } catch {
            onFailure?("", "its frame could not be uploaded: \(error)")
        }
    }

    private static func copyRows(
        from source: UnsafeRawPointer, stride: Int, to target: UnsafeMutableRawPointer, stride targetStride: Int,
        _ width: UInt32, _ height: UInt32
    ) {
        let rowBytes = Int(width) * 4
        if stride == targetStride {
            memcpy(target, source, rowBytes + (Int(height) - 1) * stride)
            return
        }
        for row in 0..<Int(height) { memcpy(target + row * targetStride, source + row * stride, rowBytes) }
    }

    private func upload(
        _ bytes: UnsafePointer<UInt8>, stride: Int32, _ width: UInt32, _ height: UInt32, opaque: Bool
    ) throws {
        try CurrentContext.preserving {
            if let texture, texture.width == Int(width), texture.height == Int(height) {
                try texture.update(cairoPixels: bytes, stride: Int(stride))
            } else {
                texture?.destroy()
                texture = nil
                texture = try Texture(
                    context: context(), width: Int(width), height: Int(height), cairoPixels: bytes,
                    stride: Int(stride))
                if opaque { try texture?.ignoreAlpha() }
            }
        }
        isOpaque = opaque
    }

    private func arrived() {
        framesReceived += 1
        awaitingComplete = true
        onFrame?()
    }

    func terminated(_ reason: Int32) {
        // The old process's images die with it; a new one starts from scratch.
        retiredImages.removeAll()
        currentImage = nil
        awaitingComplete = false
        let why: Termination =
            switch reason {
            case Int32(SP_WEB_EXCEEDED_MEMORY.rawValue): .exceededMemoryLimit
            case Int32(SP_WEB_TERMINATED_BY_API.rawValue): .terminatedByRequest
            default: .crashed
            }
        onTerminated?(why)
    }
}
