public import Foundation

/// The player's memory across restarts (and the tool's):
/// `$XDG_STATE_HOME/screenplay/` (`~/.local/state/screenplay/` by default).
public enum StateDirectory {
    /// The folder under `environment`'s XDG_STATE_HOME or HOME; nil when
    /// neither is set (nothing is remembered then).
    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/screenplay" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/state/screenplay" }
        return nil
    }

    /// One file name per playlist path: its absolute path with '/' written
    /// '%2F' and '%' '%25', so every state file of a playlist is found again.
    static func fileName(forPath playlist: String) -> String {
        let absolute =
            playlist.hasPrefix("/")
            ? playlist : FileManager.default.currentDirectoryPath + "/" + playlist
        return absolute.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
    }

    /// Replaces `path` with `data` so that a crash, a power cut or a full
    /// disk leaves either the old file or the new one, never a part: a
    /// temporary file in the same folder, fsync, rename, fsync of the
    /// folder. Plain system calls only (the hang guard calls it while the
    /// main thread is stuck). Returns why it could not, or nil.
    public static func writeAtomically(_ data: Data, to path: String) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            return "cannot write \(path): cannot make its folder (\(readReason(folder)))"
        }
        let temporary = "\(folder)/.\((path as NSString).lastPathComponent).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return "cannot write \(path): \(String(cString: strerror(errno))) (making \(temporary))" }
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if count < 0, errno == EINTR { continue }
                if count <= 0 {
                    failure = count < 0 ? errno : EIO
                    return
                }
                offset += count
            }
        }
        if failure == 0, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            return "cannot write \(path): \(String(cString: strerror(failure)))"
        }
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            // The rename itself survives a power cut only once the folder is on disk.
            fsync(directory)
            close(directory)
        }
        return nil
    }
}

/// The last playlist file that parsed, kept so that a box whose playlist
/// was saved broken (or cut short by a failed copy) plays what it played
/// before, after a restart too, instead of exiting.
///
/// One file per playlist path: `$XDG_STATE_HOME/screenplay/last-good/`,
/// named after the playlist's absolute path ('/' written '%2F', '%' '%25').
struct LastGoodPlaylist {
    /// Where the copy of `playlist`'s last good contents is kept.
    let path: String

    init?(playlist: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let directory = StateDirectory.path(environment: environment) else { return nil }
        path = directory + "/last-good/" + StateDirectory.fileName(forPath: playlist)
    }

    /// The kept contents and when they were kept, if any.
    func load() -> (data: Data, saved: Date)? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let saved = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? nil
        return (data, saved ?? Date(timeIntervalSince1970: 0))
    }

    /// Keeps `data` unless it is what is kept already; returns why it
    /// could not, or nil.
    func save(_ data: Data) -> String? {
        if FileManager.default.contents(atPath: path) == data { return nil }
        return StateDirectory.writeAtomically(data, to: path)
    }
}
