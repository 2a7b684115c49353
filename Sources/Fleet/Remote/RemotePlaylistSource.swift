import Foundation
import Signage

/// `play URL`: the playlist and its files come from a web server into a
/// cache, and `play` plays the local copy (`localPath`) through its
/// ordinary file path: the copy is replaced by rename only when every file
/// the new playlist needs is cached and verified, so the file watcher's
/// reload (which refuses a bad playlist and keeps the old one playing)
/// switches to a complete playlist or to none.
///
/// Transfers run on a thread of their own (`RemotePlaylistWorker`), not on
/// the main thread's event loop through libcurl's multi interface: the
/// slow parts are not only sockets but hashing a large video and fsync on
/// an SD card, which block whatever drives them. The thread only reports;
/// the main actor logs and answers `ctl status` and `STATUS=`.
@MainActor
public final class RemotePlaylistSource {
    /// The playlist's URL.
    public let url: String
    let options: RemoteOptions
    let cache: MediaCache?
    let host: FleetHost
    /// The local copy the player reads: a playlist file like any other,
    /// replaced whole when a new playlist is complete.
    public let localPath: String
    private let wakeup = Wakeup()
    private var worker: Thread?
    private var settings: HTTPSettings?
    /// "starting", "up to date", "unreachable" or "refused".
    private var state = "starting"
    private var lastError: String?
    private var lastSuccess: String?
    private var nextTry: Double?
    private var lastWarning: String?

    /// The source of the playlist at `url` (see `RemoteOptions.isURL`), its
    /// cache in `options.cacheFolder` or the default; `prepare()` makes it.
    public init(url: String, options: RemoteOptions, host: FleetHost) {
        self.url = url
        self.options = options
        self.host = host
        cache = (options.cacheFolder ?? MediaCache.defaultRoot()).map(MediaCache.init)
        localPath = cache?.playlistPath(url) ?? "/nonexistent/screenplay-cache/playlist.json"
    }

    /// Before anything shows: the cache folders, the token and CA files
    /// (errors exit naming the file and the fix), and a local copy to
    /// start with: the last complete playlist, or with none a playlist
    /// whose one missing file makes the panels show the placeholder.
    public func prepare() throws(FleetFailure) {
        guard let cache else {
            throw FleetFailure(
                .usage, "neither XDG_CACHE_HOME nor HOME is set, so there is no cache for \(url); give --cache DIR")
        }
        try cache.create()
        var settings = HTTPSettings(userAgent: "screenplay/\(host.version) (box \(Self.boxID(options)))")
        if let caFile = options.caFile {
            guard access(caFile, R_OK) == 0 else {
                throw FleetFailure(
                    .noInput, "cannot read --ca-file \(caFile): \(readReason(caFile)); give a PEM file")
            }
            settings.caFile = caFile
        }
        if let tokenFile = options.tokenFile {
            guard let data = FileManager.default.contents(atPath: tokenFile),
                let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
                !text.isEmpty, !text.contains(where: \.isNewline)
            else {
                throw FleetFailure(
                    .noInput,
                    "cannot read a token from --token-file \(tokenFile) (\(readReason(tokenFile))); it must hold one line"
                )
            }
            settings.authorization = text.contains(" ") ? text : "Bearer \(text)"
        }
        self.settings = settings
        if MediaCache.readRecord(cache.sourcePath(url)) != nil, FileManager.default.fileExists(atPath: localPath) {
            host.messages.info(
                "\(url): starting with the playlist cached at \(cachedAt ?? "an unknown time") (\(localPath))")
            return
        }
        let name = "waiting for \(url)"
        let waiting: [String: Any] = [
            "playlists": [name: [["file": cache.playlists + "/" + MediaCache.key(url) + ".first-download"]]],
            "default": name,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: waiting, options: [.sortedKeys])) ?? Data()
        if let failure = MediaCache.writeAtomically(data, to: localPath) {
            throw FleetFailure(.cannotCreate, "cannot write \(localPath): \(failure); give a writable --cache DIR")
        }
        host.messages.info(
            "\(url): nothing cached yet; the panels show a placeholder until the first download is complete")
    }

    /// Starts the thread that polls the URL.
    public func start() {
        guard let cache, let settings else { return }
        let (url, localPath, options, wakeup) = (self.url, self.localPath, self.options, self.wakeup)
        let report: @Sendable (RemoteReport) -> Void = { [weak self] report in
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.handle(report) } }
        }
        let thread = Thread {
            guard let fetcher = HTTPFetcher(settings: settings, cancelled: { wakeup.stopped }) else {
                report(RemoteReport(outcome: .failed("libcurl cannot start", reachable: false), nextTry: 0))
                return
            }
            RemotePlaylistWorker(
                url: url, cache: cache, localPath: localPath, options: options, fetcher: fetcher, wakeup: wakeup,
                report: report
            ).run()
        }
        thread.name = "screenplay-fetch"
        thread.start()
        worker = thread
    }

    /// Ends the thread's sleep and any transfer at its next progress callback.
    public func stop() { wakeup.stop() }

    /// Asks the server now instead of at the next poll (`ctl reload`,
    /// SIGHUP): an operator who just published wants it taken up at once.
    /// A look under way is not interrupted; the next one follows it.
    public func askNow() { wakeup.askNow() }

    private func handle(_ report: RemoteReport) {
        nextTry = report.nextTry
        let retry = String(format: "%.0f", report.nextTry)
        switch report.outcome {
        case .unchanged, .complete:
            if state == "unreachable" || state == "refused" { host.messages.info("\(url): reachable again") }
            if case let .complete(files, bytes, changed) = report.outcome, changed {
                host.messages.info(
                    "\(url): new playlist complete (\(files) files, \(bytes) bytes, each checked); it takes over at each panel's next item"
                )
            }
            state = "up to date"
            lastError = nil
            lastWarning = nil
            lastSuccess = iso8601(wallSeconds: Date().timeIntervalSince1970)
        case let .failed(message, reachable):
            state = reachable ? "refused" : "unreachable"
            lastError = message
            let playing =
                cachedAt.map { "the playlist cached at \($0) keeps playing" }
                ?? "nothing cached yet: the placeholder stays"
            let line = "\(message); \(playing); trying again in \(retry) s"
            // The same failure again is said again only when the wait grew past a minute.
            if message != lastWarning || report.nextTry >= 60 { host.messages.warning(line) }
            lastWarning = message
        }
    }

    /// When the local copy was fetched, or nil while nothing is cached.
    private var cachedAt: String? {
        cache.flatMap { MediaCache.readRecord($0.sourcePath(url)) }?["fetched_at"]
    }

    /// `ctl status`'s "source": the URL, the state ("starting", "up to
    /// date", "unreachable", "refused"), the local copy, what plays, the last
    /// error and success, and the seconds until the next try.
    public var status: [String: Any] {
        var fields: [String: Any] = [
            "url": url, "state": state, "local_copy": localPath,
            "playing": cachedAt.map { "the playlist cached at \($0)" } ?? "a placeholder (nothing cached yet)",
        ]
        fields["last_error"] = lastError
        fields["last_success"] = lastSuccess
        fields["next_try_s"] = nextTry.map { ($0 * 10).rounded() / 10 }
        return fields
    }

    /// A note for systemd's `STATUS=` while the server fails; nil while it answers.
    public var statusNote: String? {
        guard state == "unreachable" || state == "refused" else { return nil }
        let playing = cachedAt.map { "playing the copy cached at \($0)" } ?? "nothing cached yet"
        return "\(url) \(state == "unreachable" ? "unreachable" : "refused"): \(playing)"
    }

    /// `--box-id`, else the first 12 hex digits of a hash of /etc/machine-id
    /// (systemd asks that the id itself not be sent out), else the host name.
    public static func boxID(_ options: RemoteOptions) -> String {
        if let id = options.boxID { return id }
        if let data = FileManager.default.contents(atPath: "/etc/machine-id"),
            let id = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines), !id.isEmpty
        {
            return String(SHA256Digest.hex(of: "screenplay box " + id).prefix(12))
        }
        return ProcessInfo.processInfo.hostName
    }
}
