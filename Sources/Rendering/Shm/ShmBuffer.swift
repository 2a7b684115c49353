import CWayland
import Glibc

/// One `wl_buffer` over its own memfd mapping.
final class ShmBuffer: ShmRotatingBuffer {
    private(set) var proxy: OpaquePointer?
    let memory: UnsafeMutableRawPointer
    let stride: Int
    private let size: Int
    /// Attached and not yet released by the compositor.
    var isBusy = false
    /// The frame it holds, nil: none yet.
    var contentFrame: UInt64?
    /// Of a size no longer drawn: destroyed once released.
    var isStale = false
    /// Holds a staged frame: out of the rotation until presented or handed back.
    var isStaged = false
    /// Bumped whenever its pixels are written.
    var generation: UInt64 = 0
    /// The presenter's frame number when it was last attached (or made).
    var lastAttachedFrame: UInt64

    /// `frame`: the presenter's frame number now, so a buffer just made
    /// does not count as idle.
    init(shm: OpaquePointer, width: Int, height: Int, format: UInt32, frame: UInt64) throws {
        lastAttachedFrame = frame
        stride = width * 4
        size = stride * height
        let fd = screenplay_shm_file()
        guard fd >= 0 else {
            throw RenderingError.egl(
                call: "memfd_create", error: String(cString: strerror(errno)), hint: "out of file descriptors?")
        }
        defer { close(fd) }
        guard ftruncate(fd, off_t(size)) == 0 else {
            throw RenderingError.egl(
                call: "ftruncate(wl_shm pool, \(size) bytes)", error: String(cString: strerror(errno)),
                hint: "out of memory (the pool lives in RAM)")
        }
        guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapped != MAP_FAILED else {
            throw RenderingError.egl(
                call: "mmap(wl_shm pool)", error: String(cString: strerror(errno)), hint: "out of address space?")
        }
        memory = mapped
        guard let pool = wl_shm_create_pool(shm, fd, Int32(size)) else {
            munmap(mapped, size)
            throw RenderingError.egl(call: "wl_shm_create_pool", error: "returned NULL", hint: "out of memory?")
        }
        proxy = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride), format)
        wl_shm_pool_destroy(pool)
        guard let proxy else {
            munmap(mapped, size)
            throw RenderingError.egl(call: "wl_shm_pool_create_buffer", error: "returned NULL", hint: "out of memory?")
        }
        wl_buffer_add_listener(proxy, &shmBufferListener, Unmanaged.passUnretained(self).toOpaque())
    }

    func destroy() {
        guard let proxy else { return }
        wl_buffer_destroy(proxy)
        self.proxy = nil
        munmap(memory, size)
    }

    deinit { destroy() }
}

private nonisolated(unsafe) var shmBufferListener = wl_buffer_listener(
    release: { data, _ in
        guard let data else { return }
        Unmanaged<ShmBuffer>.fromOpaque(data).takeUnretainedValue().isBusy = false
    })
