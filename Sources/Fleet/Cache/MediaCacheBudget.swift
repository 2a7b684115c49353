import Foundation
import Signage

/// One verified file in `media/`, as eviction sees it.
struct CachedFile: Equatable {
    var path: String
    var bytes: Int64
    /// Last use: set at download and again each time a complete playlist names it.
    var modified: Double
}

/// `--cache-size`: the cache's `media/` holds at most this many bytes.
/// Files named by neither the active playlist (the local copy `play`
/// reads) nor the pending one (the playlist being downloaded) are removed,
/// least recently used first, to make room; a pending playlist that cannot
/// fit beside the active one is refused, and the active one plays on.
///
/// Eviction only ever unlinks files neither playlist names, one at a time,
/// and the local copy is replaced only after every file of the new one is
/// in place; so a crash at any point of an eviction leaves a cache that
/// still holds all of the active playlist, and the next look plans again
/// from what is on disk.
struct MediaCacheBudget {
    let cache: MediaCache
    let limit: Int64

    /// What eviction found: either room was made, or the protected files
    /// and the bytes still to come do not fit whatever is removed.
    enum Outcome: Equatable {
        case fits(evicted: [String])
        case cannotFit(needed: Int64)
    }

    /// Which files to remove, oldest first, so that `incoming` more bytes
    /// fit in `limit` beside everything in `protected`; nil when they
    /// cannot fit even with every unprotected file gone. Pure: no disk.
    static func plan(files: [CachedFile], protected: Set<String>, incoming: Int64, limit: Int64) -> [String]? {
        let kept = files.filter { protected.contains($0.path) }.reduce(Int64(0)) { $0 + $1.bytes }
        guard kept + incoming <= limit else { return nil }
        var total = files.reduce(Int64(0)) { $0 + $1.bytes } + incoming
        var removed: [String] = []
        // Ties by path, so the order does not depend on the folder listing.
        let candidates = files.filter { !protected.contains($0.path) }
            .sorted { ($0.modified, $0.path) < ($1.modified, $1.path) }
        for file in candidates where total > limit {
            removed.append(file.path)
            total -= file.bytes
        }
        return removed
    }

    /// Bytes the protected files and `incoming` need together.
    static func needed(files: [CachedFile], protected: Set<String>, incoming: Int64) -> Int64 {
        files.filter { protected.contains($0.path) }.reduce(Int64(0)) { $0 + $1.bytes } + incoming
    }

    /// The files in `media/` now (temporary files of an atomic write are not the cache's).
    func files() -> [CachedFile] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: cache.media)) ?? []
        return names.filter { !$0.contains(".tmp-") }.compactMap { name in
            let path = cache.media + "/" + name
            var status = stat()
            guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
            let modified = Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
            return CachedFile(path: path, bytes: Int64(status.st_size), modified: modified)
        }
    }

    /// Makes room for `incoming` bytes beside `protected`, removing the
    /// planned files one by one.
    func makeRoom(protected: Set<String>, incoming: Int64) -> Outcome {
        let present = files()
        guard let plan = Self.plan(files: present, protected: protected, incoming: incoming, limit: limit) else {
            return .cannotFit(needed: Self.needed(files: present, protected: protected, incoming: incoming))
        }
        for path in plan { unlink(path) }
        if !plan.isEmpty { MediaCache.syncFolder(of: plan[0]) }
        return .fits(evicted: plan)
    }

    /// Marks `paths` as just used, so eviction takes them last.
    static func touch(_ paths: some Sequence<String>) {
        for path in paths { utimes(path, nil) }
    }

    /// The files of the playlist playing: the local copy's, and while its
    /// `activate_at` is still to come, those of the copy before it too.
    static func playing(localPath: String, previous: String) -> [String] {
        var files = paths(namedBy: localPath)
        if let data = FileManager.default.contents(atPath: localPath),
            let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let text = root["activate_at"] as? String, let at = SignageConfigLoader.activationTime(text),
            at > Date().timeIntervalSince1970
        {
            files += paths(namedBy: previous)
        }
        return files
    }

    /// The cached files the local copy at `path` names.
    static func paths(namedBy path: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: path),
            let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let playlists = root["playlists"] as? [String: [Any]]
        else { return [] }
        let entries = playlists.values.joined().compactMap { $0 as? [String: Any] }
        return entries.flatMap { entry in RemotePlaylistDocument.fileKeys.compactMap { entry[$0] as? String } }
    }
}
