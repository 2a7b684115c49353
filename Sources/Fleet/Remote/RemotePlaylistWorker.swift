import Foundation
import Signage

/// What one look at the playlist URL came to, for the main actor.
struct RemoteReport: Sendable {
    enum Outcome: Sendable, Equatable {
        /// 304: the copy held is current.
        case unchanged
        /// Every file is cached and verified and the local copy is written
        /// (`changed`: it differs from the one before, so `play` reloads).
        case complete(files: Int, bytes: Int64, changed: Bool)
        /// Nothing changed on the box; `reachable` tells a server that
        /// answered (a 404, a bad file) from one that did not.
        case failed(String, reachable: Bool)
    }
    var outcome: Outcome
    /// Seconds until the next look (the poll interval, or the backoff).
    var nextTry: Double
}

/// Wakes the source's thread early to stop; the thread sleeps on it between looks.
final class Wakeup: @unchecked Sendable {
    // Every field is read and written under `condition`'s lock.
    private let condition = NSCondition()
    private var stopRequested = false
    private var askRequested = false

    var stopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopRequested
    }

    func stop() {
        condition.lock()
        stopRequested = true
        condition.broadcast()
        condition.unlock()
    }

    /// Ends the current sleep early without stopping: look now.
    func askNow() {
        condition.lock()
        askRequested = true
        condition.broadcast()
        condition.unlock()
    }

    /// Sleeps `seconds`, or less when stopped or asked to look now.
    func wait(seconds: Double) {
        condition.lock()
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !stopRequested, !askRequested, condition.wait(until: deadline) {}
        askRequested = false
        condition.unlock()
    }
}

/// The playlist source's thread: asks the URL, downloads what a new
/// playlist needs, and writes the local copy only when all of it is
/// there; then sleeps the poll interval (a failure: a backoff that doubles
/// up to a cap), with jitter so a fleet that booted together does not ask
/// in step. Everything here blocks (libcurl, hashing, fsync), which is why
/// it is not the main thread.
final class RemotePlaylistWorker {
    let url: String
    let cache: MediaCache
    let localPath: String
    let options: RemoteOptions
    let fetcher: HTTPFetcher
    let wakeup: Wakeup
    let report: @Sendable (RemoteReport) -> Void
    /// The playlist document itself (not its media) at most this large.
    static let maxPlaylistDocumentBytes: Int64 = 4 << 20

    init(
        url: String, cache: MediaCache, localPath: String, options: RemoteOptions, fetcher: HTTPFetcher,
        wakeup: Wakeup, report: @escaping @Sendable (RemoteReport) -> Void
    ) {
        self.url = url
        self.cache = cache
        self.localPath = localPath
        self.options = options
        self.fetcher = fetcher
        self.wakeup = wakeup
        self.report = report
    }

    func run() {
        var failures = 0
        while !wakeup.stopped {
            let outcome = lookOnce()
            if wakeup.stopped { return }
            let delay: Double
            if case .failed = outcome {
                failures += 1
                delay = Self.backoff(failures: failures, poll: options.pollSeconds)
            } else {
                failures = 0
                delay = options.pollSeconds
            }
            let jittered = delay * Double.random(in: 0.9...1.1)
            report(RemoteReport(outcome: outcome, nextTry: jittered))
            wakeup.wait(seconds: jittered)
        }
    }

    /// Seconds before the next try after `failures` failures in a row:
    /// from the poll interval (5 s at most) doubling to a cap of the poll
    /// interval or 5 minutes, whichever is longer.
    static func backoff(failures: Int, poll: Double) -> Double {
        let first = min(poll, 5)
        let cap = max(poll, 300)
        return min(first * pow(2, Double(min(failures, 30) - 1)), cap)
    }

    /// `depth`: how many newer playlists already replaced the one being downloaded in this look.
    private func lookOnce(depth: Int = 0) -> RemoteReport.Outcome {
        let source = MediaCache.readRecord(cache.sourcePath(url))
        // Conditional only while the copy held is whole: a file removed
        // from the cache by hand must not hide behind a 304.
        let held = source != nil && localCopyIsComplete()
        let response: HTTPResponse
        switch fetcher.get(
            url, etag: held ? source?["etag"] : nil, lastModified: held ? source?["last_modified"] : nil,
            limit: Self.maxPlaylistDocumentBytes)
        {
        case let .failure(failure) where failure.kind == .tooLarge:
            return .failed(
                "the playlist \(url) is larger than \(Self.maxPlaylistDocumentBytes) bytes; a playlist file must be smaller (split it per panel)",
                reachable: true)
        case let .failure(failure):
            return .failed(
                "cannot fetch the playlist \(failure.description)",
                reachable: failure.kind != .transport && failure.kind != .truncated)
        case let .success(answer): response = answer
        }
        if response.status == 304 { return .unchanged }
        let document: RemotePlaylistDocument
        do {
            // Relative names resolve against where the playlist came from, after redirects.
            document = try RemotePlaylistDocument(data: response.body, url: response.url)
        } catch {
            return .failed("\(error.description); fix the playlist on the server", reachable: true)
        }
        let declared = document.files.compactMap(\.integrity.bytes).reduce(0, +)
        if declared > options.maxPlaylistBytes {
            return .failed(tooLarge(declared), reachable: true)
        }
        let budget = MediaCacheBudget(cache: cache, limit: options.cacheBytes)
        let active = Set(MediaCacheBudget.playing(localPath: localPath, previous: previousPath))
        var pending = Set(document.files.compactMap(cachedPath))
        // Room first, for what the playlist declares; files without "bytes" are counted as they arrive.
        func stillToCome(after index: Int) -> Int64 {
            document.files.dropFirst(index).filter { cachedPath($0) == nil }.compactMap(\.integrity.bytes)
                .reduce(0, +)
        }
        if case let .cannotFit(needed) = budget.makeRoom(
            protected: active.union(pending), incoming: stillToCome(after: 0))
        {
            return .failed(cannotFit(needed), reachable: true)
        }
        let download = MediaDownload(cache: cache, fetcher: fetcher, maxFileBytes: options.maxFileBytes)
        var paths: [String: String] = [:]
        var problems: [String] = []
        var total: Int64 = 0
        for (index, file) in document.files.enumerated() {
            if wakeup.stopped { return .failed("stopped", reachable: true) }
            switch download.fetch(file) {
            case let .success(path):
                paths[file.url] = path
                pending.insert(path)
                total += MediaCache.fileSize(path) ?? 0
            case let .failure(failure):
                problems.append("\(file.jsonPath): \(failure.description)")
            }
            if total > options.maxPlaylistBytes { return .failed(tooLarge(total), reachable: true) }
            if case let .cannotFit(needed) = budget.makeRoom(
                protected: active.union(pending), incoming: stillToCome(after: index + 1))
            {
                return .failed(cannotFit(needed), reachable: true)
            }
        }
        guard problems.isEmpty else {
            return .failed(
                "the new playlist from \(url) is not complete, so it is not used: \(problems.joined(separator: "; "))",
                reachable: true)
        }
        // A playlist published while these files came supersedes this one:
        // it is never switched to, not even for a moment; the newer one is fetched now.
        if depth < 3, superseded(response) { return lookOnce(depth: depth + 1) }
        MediaCacheBudget.touch(paths.values)
        let local = document.rewritten(paths: paths)
        let changed = FileManager.default.contents(atPath: localPath) != local
        if changed, let text = document.root["activate_at"] as? String,
            let at = SignageConfigLoader.activationTime(text), at > Date().timeIntervalSince1970,
            let current = FileManager.default.contents(atPath: localPath)
        {
            // The copy now in use plays on until activate_at: its files stay protected.
            MediaCache.writeAtomically(current, to: previousPath)
        }
        if changed, let failure = MediaCache.writeAtomically(local, to: localPath) {
            return .failed("cannot write \(localPath): \(failure); check the cache folder", reachable: true)
        }
        var record = ["url": url, "fetched_at": iso8601(wallSeconds: Date().timeIntervalSince1970)]
        record["etag"] = response.etag
        record["last_modified"] = response.lastModified
        MediaCache.writeRecord(record, to: cache.sourcePath(url))
        return .complete(files: document.files.count, bytes: total, changed: changed)
    }

    /// Whether the server now has another playlist than `response` (an
    /// unreachable server says nothing: the complete one is used).
    private func superseded(_ response: HTTPResponse) -> Bool {
        guard
            case let .success(again) = fetcher.get(
                url, etag: response.etag, lastModified: response.lastModified, limit: Self.maxPlaylistDocumentBytes)
        else { return false }
        return again.status == 200 && again.body != response.body
    }

    /// The local copy before one whose `activate_at` is still to come.
    private var previousPath: String { (localPath as NSString).deletingPathExtension + ".previous.json" }

    /// Whether the local copy exists and every file it names is in the cache.
    private func localCopyIsComplete() -> Bool {
        FileManager.default.fileExists(atPath: localPath)
            && MediaCacheBudget.paths(namedBy: localPath).allSatisfy { FileManager.default.fileExists(atPath: $0) }
    }

    /// Where `file` already is in the cache, verified, or nil: by its
    /// hash, else by what its URL last downloaded to.
    private func cachedPath(_ file: RemoteFile) -> String? {
        let path: String
        if let sha = file.integrity.sha256 {
            path = cache.mediaPath(sha256: sha, name: file.name)
        } else {
            guard let record = MediaCache.readRecord(cache.urls + "/" + MediaCache.key(file.url) + ".json"),
                record["url"] == file.url, let sha = record["sha256"], let name = record["name"]
            else { return nil }
            path = cache.mediaPath(sha256: sha, name: name)
        }
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    private func cannotFit(_ needed: Int64) -> String {
        "the new playlist from \(url) does not fit in --cache-size \(options.cacheBytes): with the playlist playing it needs \(needed) bytes of media, so it is not used; raise --cache-size or make the playlist smaller"
    }

    private func tooLarge(_ bytes: Int64) -> String {
        "the playlist \(url) needs \(bytes) bytes of files, more than --max-playlist-size \(options.maxPlaylistBytes); make it smaller or raise the limit"
    }
}
