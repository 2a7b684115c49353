import Dispatch
import Foundation

/// Calls back when a file (or a folder's contents) changes, through inotify
/// on its folder, so editors that save by writing a new file and renaming it
/// are seen too. Bursts (a save is several events) are debounced: one call
/// 300 ms after the last event.
@MainActor
final class FileWatcher {
    private let fd: Int32
    private var source: (any DispatchSourceRead)?
    private var debounce: DispatchWorkItem?
    private let onChange: @MainActor () -> Void

    init?(path: String, onChange: @escaping @MainActor () -> Void) {
        self.onChange = onChange
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        let folder = isDirectory.boolValue ? path : (path as NSString).deletingLastPathComponent
        let name = isDirectory.boolValue ? nil : (path as NSString).lastPathComponent
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else {
            warn(
                "cannot watch \(path) for changes (inotify: \(String(cString: strerror(errno)))); send SIGHUP to reload"
            )
            return nil
        }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
        guard inotify_add_watch(fd, folder.isEmpty ? "." : folder, mask) >= 0 else {
            warn(
                "cannot watch \(folder) for changes (inotify: \(String(cString: strerror(errno)))); send SIGHUP to reload"
            )
            close(fd)
            return nil
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.drain(name: name) } }
        source.resume()
        self.source = source
    }

    private func drain(name: String?) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var relevant = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len, then len bytes of name.
            while offset + 16 <= count {
                let length =
                    Int(buffer[offset + 12]) | Int(buffer[offset + 13]) << 8 | Int(buffer[offset + 14]) << 16 | Int(
                        buffer[offset + 15]) << 24
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                let eventName = String(decoding: nameBytes, as: UTF8.self)
                if name == nil || eventName == name { relevant = true }
                offset += 16 + length
            }
        }
        guard relevant else { return }
        debounce?.cancel()
        let work = DispatchWorkItem { [weak self] in MainActor.assumeIsolated { self?.onChange() } }
        debounce = work
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(300), execute: work)
    }
}
