import Foundation

/// Runs the main queue on the process's main thread, forever.
///
/// Not `dispatchMain()`: on Linux it exits the main thread and the main queue
/// is then drained by whichever pool thread is free. Blocks stay serial, but
/// they hop threads, and an EGL context is current per thread: a frame drawn
/// on another thread than the last one fails with EGL_BAD_ACCESS from
/// eglMakeCurrent (seen as soon as a background queue, such as the
/// presenter's page renderer, keeps pool threads busy). The main run loop
/// drains the main queue on this thread instead.
func runMainLoop() -> Never {
    // A run loop with no sources returns at once; this timer keeps it waiting.
    let keepAlive = Timer(timeInterval: 86_400, repeats: true) { _ in }
    RunLoop.main.add(keepAlive, forMode: .default)
    while true {
        _ = RunLoop.main.run(mode: .default, before: .distantFuture)
    }
}
