import EventLoop
import Glibc

/// Hands the memory of torn-down surfaces (multi-megabyte swap buffers
/// freed by Mesa) back to the system. Without it glibc keeps the freed
/// arenas and a signage box that sees displays come and go for months
/// grows for no reason.
///
/// Closed video players and a lost compositor ask for it too. A libmpv
/// core's threads and its render context's shader compiles (llvmpipe)
/// allocate in the one arena (`MallocTuning`) between long-lived blocks,
/// so what they free stays mapped below the top of the heap: a playlist
/// with a clip, across compositor restarts, kept 14 MB of free heap at
/// start and 37 MB after four restarts (glibc's `malloc_stats`; in-use
/// bytes the same as without restarts); RSS grew 18 % in six restarts,
/// 5 % when trimmed. A trim takes about 4 ms at that size.
@MainActor
final class MemoryTrimmer {
    private var isScheduled = false

    /// Trims half a second from now, once however often it is asked in between.
    func schedule() {
        guard !isScheduled else { return }
        isScheduled = true
        MainEventLoop.shared.after(ns: 500_000_000) { [weak self] in
            self?.isScheduled = false
            Self.releaseFreedMemory()
        }
    }

    /// Videos playing now, in every application of the process (the heap is the process's).
    private static var videosPlaying = 0
    private static var periodicTrimScheduled = false
    /// How often a process that plays video trims.
    static let playingTrimIntervalNs: UInt64 = 60_000_000_000

    /// A video started playing: while any plays, the process trims once a
    /// minute. Decoding and rendering make and free buffers every frame,
    /// and glibc keeps the pages they freed: one malloc_trim 20 minutes into
    /// a looping clip handed back 670 KiB (the soak, on a loaded machine).
    /// The steps of 300 to 400 KiB the soak still sees are not freed pages
    /// but decoded pictures the decoder's pool keeps after a display stall,
    /// which no trim returns (docs/performance.md). A trim takes a few
    /// milliseconds once a minute; no timer runs when no video plays.
    static func videoStarted() {
        videosPlaying += 1
        schedulePeriodicTrim()
    }

    /// A video stopped (closed): the periodic trim ends with the last one.
    static func videoEnded() { videosPlaying = max(0, videosPlaying - 1) }

    private static func schedulePeriodicTrim() {
        guard !periodicTrimScheduled, videosPlaying > 0 else { return }
        periodicTrimScheduled = true
        MainEventLoop.shared.after(ns: playingTrimIntervalNs) {
            periodicTrimScheduled = false
            guard videosPlaying > 0 else { return }
            releaseFreedMemory()
            schedulePeriodicTrim()
        }
    }

    /// glibc's malloc_trim, looked up at run time: Swift's Glibc module does
    /// not export malloc.h.
    private static func releaseFreedMemory() {
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
}
