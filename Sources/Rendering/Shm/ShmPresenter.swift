import CEGL
import CWayland
import Glibc

/// Presents a window's frames through its own `wl_shm` buffers, where GL
/// renders in software (llvmpipe): the frame is drawn into a framebuffer
/// object that always holds the last frame, and only the rows that changed
/// since a buffer last held a frame are read back into it.
///
/// Why: Mesa's software path over Wayland (Debian 12's 22.3) offers no
/// buffer age, so every swap copies the whole window into a new wl_shm
/// buffer and every frame must be drawn whole, or drawn into a copy that
/// is then copied whole. A ticker's 80 rows under a video cost the video's
/// whole panel. Here they cost their own rows, and the compositor is told
/// exactly those (`damage_buffer`). With a GPU the EGL window stays: its
/// buffers live on the GPU, and reading them back would cost more.
///
/// Not thread-safe: use on the thread that owns the Wayland connection.
final class ShmPresenter {
    /// How many frames of damage are remembered; a buffer older than this
    /// is filled whole (a compositor holds at most two or three).
    private static let historyDepth = 8
    /// `WL_SHM_FORMAT_XRGB8888`: always supported, and little-endian BGRX
    /// is what GL_BGRA_EXT reads.
    private static let format: UInt32 = 1

    /// Nil until the window first draws with GL: frames presented as they
    /// are (`present(staged:)`) need neither a context nor a backing.
    private var context: GraphicsContext?
    private let surface: OpaquePointer
    private let shm: OpaquePointer
    private let damagesInBufferCoordinates: Bool
    /// The framebuffer GL draws into; nil until `attach(_:)`.
    private(set) var backing: OffscreenTarget?
    private(set) var pixelWidth: Int
    private(set) var pixelHeight: Int
    /// Whether `backing` holds a presented frame (0 age until it does).
    private(set) var backingHoldsFrame = false
    private var buffers: [ShmBuffer] = []
    private var frame: UInt64 = 0
    /// Newest last: each presented frame and its damage (nil: all of it).
    private var history: [(frame: UInt64, rects: [PixelRect]?)] = []
    /// Nil until GL is attached.
    private var readback: FrameReadback?
    /// Frames written straight into a buffer (a web page's), not yet
    /// presented or handed back.
    private var staged: [StagedFrame] = []

    /// Whether `context` draws in software and can read back in the
    /// buffer's byte order; otherwise the EGL window surface is used.
    /// `SCREENPLAY_SHM_PRESENT=0` keeps the EGL window surface, to tell
    /// whether a compositor's trouble comes from this path.
    static func suits(_ context: GraphicsContext) -> Bool {
        getenv("SCREENPLAY_SHM_PRESENT").map { String(cString: $0) } != "0"
            && context.platform == .wayland && !context.offersBufferAge && context.rendersInSoftware
            && context.offersBGRARenderAndReadback
    }

    /// Whether windows will present through wl_shm, told without loading
    /// the GL driver: GL can only render in software where there is no GPU
    /// render node (/dev/dri/renderD*, or NVIDIA's own /dev/nvidiactl), or
    /// where LIBGL_ALWAYS_SOFTWARE asks for it. A scene that only shows
    /// frames as they are (a web page) then never loads it (llvmpipe's LLVM
    /// alone is about 30 MiB of a process's memory).
    static func suitsWithoutGL() -> Bool {
        guard getenv("SCREENPLAY_SHM_PRESENT").map({ String(cString: $0) }) != "0" else { return false }
        if let software = getenv("LIBGL_ALWAYS_SOFTWARE").map({ String(cString: $0) }),
            !["", "0", "false"].contains(software.lowercased())
        {
            return true
        }
        if access("/dev/nvidiactl", F_OK) == 0 { return false }
        guard let directory = opendir("/dev/dri") else { return true }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix("renderD") { return false }
        }
        return true
    }

    /// `context` nil: GL comes later, with `attach(_:)`.
    init(context: GraphicsContext?, surface: OpaquePointer, shm: OpaquePointer, width: Int, height: Int) throws {
        self.surface = surface
        self.shm = shm
        pixelWidth = width
        pixelHeight = height
        damagesInBufferCoordinates = wl_proxy_get_version(surface) >= 4
        if let context { try attach(context) }
    }

    /// Gives the presenter its GL context and a backing of the window's size.
    func attach(_ context: GraphicsContext) throws {
        guard backing == nil else { return }
        backing = try OffscreenTarget(context: context, width: pixelWidth, height: pixelHeight, bgra: true)
        self.context = context
        readback = FrameReadback(context: context)
    }

    /// The backing, made current: GL is attached.
    private func currentBacking() throws -> OffscreenTarget {
        guard let backing else { throw RenderingError.destroyed(what: "wl_shm window's framebuffer (no GL yet)") }
        try backing.makeCurrent()
        return backing
    }

    /// A new size: a new backing (drawn whole next) and new buffers.
    func resize(width: Int, height: Int) throws {
        guard width != pixelWidth || height != pixelHeight else { return }
        if let context, let old = backing {
            let made = try OffscreenTarget(context: context, width: width, height: height, bgra: true)
            old.destroy()
            backing = made
        }
        pixelWidth = width
        pixelHeight = height
        backingHoldsFrame = false
        history = []
        for frame in staged { unstage(frame) }
        for buffer in buffers { buffer.isStale = true }
        buffers.removeAll { buffer in
            guard !buffer.isBusy else { return false }
            buffer.destroy()
            return true
        }
    }

    /// Copies what changed into a free buffer, attaches it with `damage`
    /// (top-left pixels; nil: all) and commits the surface.
    func present(damage: [PixelRect]?) throws {
        let backing = try currentBacking()
        let bounds = PixelRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight)
        let frameDamage = backingHoldsFrame ? damage : nil
        frame += 1
        history.append((frame, frameDamage))
        if history.count > Self.historyDepth { history.removeFirst(history.count - Self.historyDepth) }
        let buffer = try freeBuffer()
        let copy = rectsToCopy(into: buffer).compactMap { $0.intersection(bounds) }
        if !copy.isEmpty { buffer.generation &+= 1 }
        try readback?.read(
            copy, of: backing.framebufferObject, height: pixelHeight, into: buffer.memory, stride: buffer.stride)
        buffer.contentFrame = frame
        buffer.lastAttachedFrame = frame
        buffer.isBusy = true
        wl_surface_attach(surface, buffer.proxy, 0, 0)
        for rect in frameDamage ?? [bounds] {
            if damagesInBufferCoordinates {
                wl_surface_damage_buffer(surface, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height))
            } else {
                // Before wl_surface v4 damage is in surface coordinates,
                // which a scale or transform changes: damage everything.
                wl_surface_damage(surface, 0, 0, Int32.max, Int32.max)
                break
            }
        }
        wl_surface_commit(surface)
        backingHoldsFrame = true
    }

    /// A frame reached the surface another way (the EGL swap): the backing
    /// no longer holds what is shown, so the next frame is drawn and copied
    /// whole. Buffers the frames since have not needed are let go as usual.
    func frameShownElsewhere() {
        frame += 1
        backingHoldsFrame = false
        history = []
        destroyUnneededBuffers()
    }

    /// The rectangles `buffer` lacks: the damage of every frame since it
    /// last held one, or all of it.
    private func rectsToCopy(into buffer: ShmBuffer) -> [PixelRect] {
        let all = [PixelRect(x: 0, y: 0, width: pixelWidth, height: pixelHeight)]
        guard let held = buffer.contentFrame, let oldest = history.first, oldest.frame <= held + 1 else { return all }
        var rects: [PixelRect] = []
        for entry in history where entry.frame > held {
            guard let damage = entry.rects else { return all }
            rects += damage
        }
        return rects
    }

    /// A buffer of the current size the compositor is not reading, made if
    /// there is none (`ShmRotation`).
    private func freeBuffer() throws -> ShmBuffer {
        destroyUnneededBuffers()
        if case let .reuse(buffer) = ShmRotation.choose(from: buffers) { return buffer }
        let made = try ShmBuffer(shm: shm, width: pixelWidth, height: pixelHeight, format: Self.format, frame: frame)
        buffers.append(made)
        return made
    }

    /// Destroys the buffers of an old size and those no frame needed for a
    /// while, once the compositor has let them go (`ShmRotation`).
    private func destroyUnneededBuffers() {
        let unneeded = ShmRotation.toDestroy(buffers, frame: frame)
        guard !unneeded.isEmpty else { return }
        for buffer in unneeded { buffer.destroy() }
        buffers.removeAll { buffer in unneeded.contains { $0 === buffer } }
    }

    /// Writes a frame's pixels with `fill` (memory, stride) straight into
    /// a buffer of the window's size, kept out of the rotation until it is
    /// presented as it is (`present(staged:)`) or handed back; `replacing`,
    /// the same source's previous frame not yet presented, gives its buffer.
    /// Nil when the size is not the window's or every buffer is taken.
    func stage(
        width: Int, height: Int, replacing previous: StagedFrame?, fill: (UnsafeMutableRawPointer, Int) -> Void
    ) throws -> StagedFrame? {
        guard width == pixelWidth, height == pixelHeight else { return nil }
        destroyUnneededBuffers()
        let buffer: ShmBuffer
        if let previous, previous.isStaged, staged.contains(where: { $0 === previous }) {
            buffer = previous.buffer
            unstage(previous)
        } else if let free = buffers.first(where: { !$0.isStale && !$0.isStaged && !$0.isBusy }) {
            buffer = free
        } else if buffers.count < ShmRotation.maximumBuffers {
            buffer = try ShmBuffer(shm: shm, width: pixelWidth, height: pixelHeight, format: Self.format, frame: frame)
            buffers.append(buffer)
        } else {
            return nil
        }
        buffer.isStaged = true
        // It no longer holds any frame of the backing's.
        buffer.contentFrame = nil
        buffer.generation &+= 1
        fill(buffer.memory, buffer.stride)
        let made = StagedFrame(buffer: buffer, presenter: self, width: width, height: height)
        staged.append(made)
        return made
    }

    /// Reads a whole frame of the window's size back from `source` (the
    /// backing, the EGL window's back buffer or another target, made
    /// current by the caller) into a buffer staged as `stage` does: a frame
    /// other windows may copy as it is. With `placed`, `source` is that
    /// size and lies at that place in the frame, black around it (a wall's
    /// tile). Nil as `stage` answers nil.
    func stage(readingBack source: UInt32, placed: PixelRect? = nil) throws -> StagedFrame? {
        guard readback != nil else { throw RenderingError.destroyed(what: "wl_shm window's read-back (no GL yet)") }
        let (w, h) = (pixelWidth, pixelHeight)
        let place = placed ?? PixelRect(x: 0, y: 0, width: w, height: h)
        var failure: (any Error)?
        let made = try stage(width: w, height: h, replacing: nil) { memory, stride in
            do {
                try self.readback?.read(
                    (source, place.width, place.height), at: (place.x, place.y), width: w, height: h, into: memory,
                    stride: stride)
            } catch {
                failure = error
            }
        }
        if let failure {
            made.map(unstage)
            throw failure
        }
        return made
    }

    /// Attaches a staged frame's buffer as the whole frame and commits.
    /// The backing does not hold it, so the next drawn frame is drawn whole.
    func present(staged stagedFrame: StagedFrame) throws {
        guard stagedFrame.isStaged, staged.contains(where: { $0 === stagedFrame }) else {
            throw RenderingError.destroyed(what: "staged frame (handed back before it was presented)")
        }
        let buffer = stagedFrame.buffer
        unstage(stagedFrame)
        guard let proxy = buffer.proxy else { throw RenderingError.destroyed(what: "wl_shm buffer") }
        frame += 1
        buffer.lastAttachedFrame = frame
        buffer.isBusy = true
        wl_surface_attach(surface, proxy, 0, 0)
        if damagesInBufferCoordinates {
            wl_surface_damage_buffer(surface, 0, 0, Int32(pixelWidth), Int32(pixelHeight))
        } else {
            wl_surface_damage(surface, 0, 0, Int32.max, Int32.max)
        }
        wl_surface_commit(surface)
        backingHoldsFrame = false
    }

    /// Takes a staged frame's buffer back into the rotation (its pixels
    /// stay readable until the buffer is written again).
    func unstage(_ frame: StagedFrame) {
        guard let index = staged.firstIndex(where: { $0 === frame }) else { return }
        staged.remove(at: index)
        frame.buffer.isStaged = false
    }

    func destroy() {
        for frame in staged { unstage(frame) }
        for buffer in buffers { buffer.destroy() }
        buffers = []
        backing?.destroy()
        backing = nil
    }
}

/// A frame written straight into one of a window's wl_shm buffers (a web
/// page's, from its process's shared memory): presented as it is, with no
/// GL work, or read back for drawing when something else shares the frame.
package final class StagedFrame {
    fileprivate let buffer: ShmBuffer
    private weak var presenter: ShmPresenter?
    private let generation: UInt64
    package let width: Int
    package let height: Int

    fileprivate init(buffer: ShmBuffer, presenter: ShmPresenter, width: Int, height: Int) {
        self.buffer = buffer
        self.presenter = presenter
        generation = buffer.generation
        self.width = width
        self.height = height
    }

    /// Still waiting in its buffer, to be presented as it is.
    package var isStaged: Bool { buffer.isStaged && isReadable }

    /// Whether the buffer still holds these pixels (presented or not); false
    /// once it was written again or destroyed.
    package var isReadable: Bool { buffer.proxy != nil && buffer.generation == generation }

    /// The pixels (B, G, R, X bytes, rows top to bottom) while `isReadable`.
    package var pixels: UnsafeRawPointer { UnsafeRawPointer(buffer.memory) }
    package var stride: Int { buffer.stride }

    /// Whether it lies in `presenter`'s buffers (only they present it).
    func isStaged(by presenter: ShmPresenter) -> Bool { self.presenter === presenter }

    /// Hands the buffer back to the window's rotation: the frame will be
    /// drawn, not presented as it is.
    package func release() { presenter?.unstage(self) }
}
