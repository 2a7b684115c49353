import Foundation

/// glibc malloc settings for processes that run for days while making and
/// freeing big buffers and decoders (signage, video, slides).
enum MallocTuning {
    /// Decoded images and rendered pages are megabytes each, made and freed
    /// at every switch. glibc serves such blocks with mmap until the first
    /// is freed, then raises its threshold and serves them from the heap,
    /// where freed ones fragment it: a 0.15 s playlist grew from 0.6 to
    /// 1.6 GB in two minutes (the fast play in MemoryFlatTests, once PlaySoakTests). A fixed 128 KiB threshold
    /// keeps them in mmap, returned to the system when freed.
    ///
    /// Every libmpv core starts its own threads (demuxer, decoder, video
    /// output), and glibc gives threads their own arenas; a playlist makes
    /// and frees a core per video item, and the arenas those threads leave
    /// fragmented grow without any live allocation growing. With one arena
    /// the threads share one heap lock, which costs little next to decoding.
    ///
    /// Call it before any thread exists (right after reading the command line). glibc
    /// reads M_ARENA_MAX only while it has not yet fixed its arena limit,
    /// and fixes it (8 per core) as soon as a ninth arena is made; arenas
    /// made before stay in use. `play` once called this after loading the
    /// playlist, whose video probe had already run an mpv core: 11 arenas
    /// existed, the limit was 16, and the playlist grew 34 KiB/s with
    /// flat in-use bytes (MemoryFlatTests).
    ///
    /// The heap's top is handed back once 1 MiB of it is free, not glibc's
    /// 128 KiB. The presenter's clock and notes make and free a few hundred
    /// KiB of small blocks every second; with 128 KiB the top was handed
    /// back and taken again all the time, and RSS moved in a 500 KiB band
    /// that a 30-minute soak read as -8 to +5 KiB a minute. Kept, those
    /// pages are reused and RSS stays level (docs/performance.md).
    ///
    /// mallopt is looked up at run time: Swift's Glibc module does not
    /// export malloc.h.
    static func forLongRuns() {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD
        let arenaMax: Int32 = -8  // M_ARENA_MAX
        let trimThreshold: Int32 = -1  // M_TRIM_THRESHOLD
        _ = mallopt(mmapThreshold, 128 * 1024)
        _ = mallopt(arenaMax, 1)
        _ = mallopt(trimThreshold, 1024 * 1024)
    }
}
