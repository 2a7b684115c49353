import Dispatch
import Foundation

/// Calls back when the playlist file (or a folder's contents) or a media
/// file it names changes, appears or goes, through inotify on their
/// folders, so editors that save by writing a new file and renaming it, and
/// copies written under a temporary name and renamed in (rsync), are seen
/// too. Bursts (a save is several events) are debounced: one call 300 ms
/// after the last event. A folder that does not exist yet is looked for
/// every 2 s (on the main queue) and reported when it appears.
@MainActor
public final class FileWatcher {
    private let fd: Int32
    private var source: (any DispatchSourceRead)?
    private var debounce: DispatchWorkItem?
    private var poll: (any DispatchSourceTimer)?
    private let onChange: @MainActor () -> Void
    private let messages: SignageMessages
    /// Per watch descriptor, the names in its folder that matter; nil: every
    /// name but hidden ones (a watched playlist folder, where rsync writes
    /// `.name.XXXXXX` before renaming it in).
    private var names: [Int32: Set<String>?] = [:]

    /// Watches `path` (a playlist file or folder) and `files`; nil when
    /// inotify is refused (told to `messages`: a reload then needs SIGHUP).
    public init?(
        path: String, files: Set<String> = [], messages: SignageMessages,
        onChange: @escaping @MainActor () -> Void
    ) {
        self.onChange = onChange
        self.messages = messages
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else {
            messages.warning(
                "cannot watch \(path) for changes (inotify: \(String(cString: strerror(errno)))); send SIGHUP to reload"
            )
            return nil
        }
        var folders: [String: Set<String>?] = [:]
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            folders[path] = .some(nil)
        }
        for file in files.union(isDirectory.boolValue ? [] : [path]) {
            let folder = Self.folder(of: file)
            guard let existing = folders[folder] else {
                folders[folder] = [(file as NSString).lastPathComponent]
                continue
            }
            if let names = existing { folders[folder] = names.union([(file as NSString).lastPathComponent]) }
        }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB)
        var absent: [String] = []
        for (folder, wanted) in folders {
            let wd = inotify_add_watch(fd, folder, mask)
            if wd >= 0 {
                names[wd] = wanted
            } else if errno == ENOENT {
                absent.append(folder)
            } else {
                messages.warning(
                    "cannot watch \(folder) for changes (inotify: \(String(cString: strerror(errno)))); send SIGHUP to reload after changing files there"
                )
            }
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.drain() } }
        source.setCancelHandler { [fd] in close(fd) }
        source.resume()
        self.source = source
        if !absent.isEmpty { pollFor(absent) }
    }

    /// Stops watching (a reload makes a new watcher for the new files).
    public func stop() {
        source?.cancel()
        source = nil
        poll?.cancel()
        poll = nil
        debounce?.cancel()
    }

    private static func folder(of file: String) -> String {
        let folder = (file as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// inotify cannot watch a folder that is not there: look every 2 s.
    private func pollFor(_ folders: [String]) {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + 2, repeating: 2, leeway: .milliseconds(500))
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self, folders.contains(where: { FileManager.default.fileExists(atPath: $0) }) else { return }
                self.poll?.cancel()
                self.poll = nil
                self.changed()
            }
        }
        timer.resume()
        poll = timer
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var relevant = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len, then len bytes of name.
            while offset + 16 <= count {
                func int32(at: Int) -> Int32 {
                    Int32(
                        bitPattern: UInt32(buffer[at]) | UInt32(buffer[at + 1]) << 8 | UInt32(buffer[at + 2]) << 16
                            | UInt32(buffer[at + 3]) << 24)
                }
                let wd = int32(at: offset)
                let length = Int(int32(at: offset + 12))
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                let eventName = String(decoding: nameBytes, as: UTF8.self)
                if let wanted = names[wd] {
                    if let wanted {
                        relevant = relevant || wanted.contains(eventName)
                    } else {
                        relevant = relevant || !eventName.hasPrefix(".")
                    }
                }
                offset += 16 + length
            }
        }
        if relevant { changed() }
    }

    private func changed() {
        debounce?.cancel()
        let work = DispatchWorkItem { [weak self] in MainActor.assumeIsolated { self?.onChange() } }
        debounce = work
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(300), execute: work)
    }
}
