import Foundation
import Signage

/// The cache of `play URL`, laid out so that a power cut at any moment
/// leaves something the next start can use:
///
///     media/SHA256-NAME        complete, verified files, named by content
///     partial/KEY.part         a download under way (KEY: hash of its URL)
///     partial/KEY.json         its URL and validator, for a Range resume
///     urls/KEY.json            a finished URL's validators and hash (files without "sha256")
///     playlists/KEY.json       the local copy `play` reads (KEY: hash of the playlist URL)
///     playlists/KEY.source.json  the URL, ETag, Last-Modified and time of that copy
///
/// A file enters `media/` or `playlists/` only by rename after fsync, so
/// either the old or the new one is there, never half of one; content
/// naming means a new version of a file never replaces one the playing
/// playlist still shows.
struct MediaCache {
    let root: String

    /// `$XDG_CACHE_HOME/screenplay`, else `$HOME/.cache/screenplay`.
    static func defaultRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/screenplay" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.cache/screenplay" }
        return nil
    }

    var media: String { root + "/media" }
    var partial: String { root + "/partial" }
    var urls: String { root + "/urls" }
    var playlists: String { root + "/playlists" }

    /// The first 16 hex digits of the URL's SHA-256: a file name for it.
    static func key(_ url: String) -> String { String(SHA256Digest.hex(of: url).prefix(16)) }

    func playlistPath(_ url: String) -> String { playlists + "/" + Self.key(url) + ".json" }
    func sourcePath(_ url: String) -> String { playlists + "/" + Self.key(url) + ".source.json" }
    func mediaPath(sha256: String, name: String) -> String { media + "/" + sha256 + "-" + name }

    /// Makes the folders; the error names the folder and the fix.
    func create() throws(FleetFailure) {
        for folder in [media, partial, urls, playlists] {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw FleetFailure(
                    .cannotCreate,
                    "cannot make the cache folder \(folder): \(readReason(folder)); give a writable --cache DIR")
            }
        }
    }

    /// Writes `data` to `path` so that a crash leaves the old file or the
    /// new one: a temporary file in the same folder, fsync, rename, fsync
    /// of the folder. Returns the errno text on failure.
    @discardableResult
    static func writeAtomically(_ data: Data, to path: String) -> String? {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        let written = data.withUnsafeBytes { buffer in
            buffer.isEmpty ? 0 : write(fd, buffer.baseAddress, buffer.count)
        }
        let failure =
            written != data.count
            ? String(cString: strerror(errno)) : (fsync(fd) != 0 ? String(cString: strerror(errno)) : nil)
        close(fd)
        if let failure {
            unlink(temporary)
            return failure
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return reason
        }
        syncFolder(of: path)
        return nil
    }

    /// fsync of the folder holding `path`: makes a rename in it durable.
    static func syncFolder(of path: String) {
        let fd = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// A small JSON record (validators, sources), or nil.
    static func readRecord(_ path: String) -> [String: String]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: String]
    }

    static func writeRecord(_ record: [String: String], to path: String) {
        guard let data = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) else { return }
        writeAtomically(data, to: path)
    }

    static func fileSize(_ path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int64(status.st_size)
    }
}
