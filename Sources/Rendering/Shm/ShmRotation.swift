/// What `ShmRotation` needs to know of one of a window's wl_shm buffers.
protocol ShmRotatingBuffer: AnyObject {
    /// Attached and not yet released by the compositor.
    var isBusy: Bool { get }
    /// Of a size no longer drawn.
    var isStale: Bool { get }
    /// Holds a staged frame, out of the rotation.
    var isStaged: Bool { get }
    /// The frame it holds, nil: none.
    var contentFrame: UInt64? { get }
    /// The presenter's frame number when it was last attached (or made).
    var lastAttachedFrame: UInt64 { get }
}

/// Which of a window's wl_shm buffers the next frame goes into, and which
/// ones to let go: `ShmPresenter`'s bookkeeping, apart from the buffers
/// themselves so it can be checked without a compositor.
///
/// A compositor that holds buffers longer for a while (a loaded machine, a
/// repaint that came late) makes the window allocate a third or fourth
/// buffer, each a whole frame of shared memory in the client and mapped by
/// the compositor too. Kept for ever, that is a step of megabytes in both
/// processes' memory that never comes back (the memory soak saw
/// 1280x720's 3.6 MB in `play` and in sway at once). A buffer the
/// compositor has let go that no frame needed for `idleFrames` is
/// destroyed instead, as Mesa's own wl_shm swap chain does; the wait keeps
/// a machine that needs the extra buffer now and then from making and
/// destroying it every few frames.
enum ShmRotation {
    /// Buffers made before one still held by the compositor is reused: a
    /// compositor that never releases (a hidden output) must not make the
    /// client allocate without bound.
    static let maximumBuffers = 4
    /// Frames a released buffer may go unused before it is destroyed:
    /// 2 s at 60 Hz. Double buffering uses each buffer every other frame.
    static let idleFrames: UInt64 = 120

    /// Where the next frame goes.
    enum Choice<Buffer> {
        /// Draw into this one (what it lacks is copied).
        case reuse(Buffer)
        /// Make a new buffer.
        case make
    }

    /// The buffers to destroy before `frame` picks one: stale ones and ones
    /// idle for over `idleFrames`, once the compositor has let them go.
    /// The buffer attached last is never idle, so a window keeps one.
    static func toDestroy<Buffer: ShmRotatingBuffer>(_ buffers: [Buffer], frame: UInt64) -> [Buffer] {
        buffers.filter { buffer in
            guard !buffer.isBusy, !buffer.isStaged else { return false }
            return buffer.isStale || frame &- buffer.lastAttachedFrame > idleFrames
        }
    }

    /// The buffer a drawn frame goes into: a free one holding the newest
    /// frame (the least to copy), else a new one, and past
    /// `maximumBuffers` the one held longest.
    static func choose<Buffer: ShmRotatingBuffer>(from buffers: [Buffer]) -> Choice<Buffer> {
        let current = buffers.filter { !$0.isStale && !$0.isStaged }
        if let free = current.filter({ !$0.isBusy }).max(by: { ($0.contentFrame ?? 0) < ($1.contentFrame ?? 0) }) {
            return .reuse(free)
        }
        if current.count >= maximumBuffers,
            let oldest = current.min(by: { ($0.contentFrame ?? 0) < ($1.contentFrame ?? 0) })
        {
            return .reuse(oldest)
        }
        return .make
    }
}
