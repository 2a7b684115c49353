import Dispatch
import Glibc

/// Hands the memory of torn-down surfaces (multi-megabyte swap buffers
/// freed by Mesa) back to the system. Without it glibc keeps the freed
/// arenas and a signage box that sees displays come and go for months
/// grows for no reason.
@MainActor
final class MemoryTrimmer {
    private var isScheduled = false

    /// Trims half a second from now, once however often it is asked in between.
    func schedule() {
        guard !isScheduled else { return }
        isScheduled = true
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(500)) { [weak self] in
            MainActor.assumeIsolated {
                self?.isScheduled = false
                Self.releaseFreedMemory()
            }
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
