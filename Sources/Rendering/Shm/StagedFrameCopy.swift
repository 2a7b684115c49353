extension StagedFrame {
    /// Copies the pixels, row by row, into a buffer of the same size at
    /// `stride` (another window's wl_shm buffer): the frame shown on a
    /// second screen of its size for one memcpy, not a draw and a
    /// read-back. Nothing to do when `memory` is this frame's own.
    package func copyPixels(into memory: UnsafeMutableRawPointer, stride targetStride: Int) {
        guard UnsafeRawPointer(memory) != pixels else { return }
        for row in 0..<height {
            (memory + row * targetStride).copyMemory(from: pixels + row * stride, byteCount: width * 4)
        }
    }

    /// Whether it lies in `window`'s own buffers: another window's frame
    /// is not presented there, only copied (`copyPixels`).
    package func belongs(to window: WindowSurface) -> Bool {
        window.shmPresenter.map { isStaged(by: $0) } ?? false
    }
}
