import Dispatch
import Foundation
import Screenplay

/// The player's playlist file over time: read at start (falling back to the
/// last one that parsed), watched with every file it names, and read again
/// on a change, SIGHUP or `ctl reload`. A valid one is handed on at once or
/// at its `activate_at`; an invalid one is refused and the old one plays on.
@MainActor
final class PlaylistReloader {
    private let path: String
    private let itemSeconds: Double
    private let records: PlayRecorder
    private let messages: SignageMessages
    /// The last playlist file that parsed, for a start with a broken one.
    private let lastGood: LastGoodPlaylist?
    private var lastGoodComplaints = Throttle(seconds: 60)
    private var watcher: FileWatcher?
    /// A reloaded playlist waiting for its `activate_at`.
    private var activation: (any DispatchSourceTimer)?
    /// Makes a configuration play: with the `activate_at` that has come,
    /// on every panel at once; with nil, at each panel's next item.
    private let take: @MainActor (SignageConfig, Double?) -> Void

    init(
        options: PlayerOptions, records: PlayRecorder, take: @escaping @MainActor (SignageConfig, Double?) -> Void
    ) {
        path = options.path
        itemSeconds = options.itemSeconds
        self.records = records
        messages = options.messages
        self.take = take
        lastGood = LastGoodPlaylist(playlist: options.path)
    }

    /// The configuration to start with. A playlist file that does not
    /// parse (a bad save, a copy cut short) falls back to the last one
    /// that did, kept under XDG_STATE_HOME, so a restart does not darken
    /// the screens; only without one does it throw (the tool exits 65).
    func readAtStart() throws(PlaylistError) -> SignageConfig {
        do {
            let (config, json) = try SignageConfigLoader.read(
                path: path, itemSeconds: itemSeconds, warn: messages.warning)
            keepAsLastGood(json)
            return config
        } catch  where error.code == .dataError {
            guard let lastGood, let kept = lastGood.load() else {
                throw PlaylistError(
                    code: error.code,
                    description:
                        "\(error.description) (no last good playlist to fall back to\(lastGood.map { " in \($0.path)" } ?? ": neither XDG_STATE_HOME nor HOME is set"); fix the file)"
                )
            }
            let old: SignageConfig
            do {
                old = try SignageConfigLoader.parse(kept.data, file: path, itemSeconds: itemSeconds)
            } catch let keptError {
                throw PlaylistError(
                    code: error.code,
                    description:
                        "\(error.description) (the last good playlist in \(lastGood.path) does not parse either: \(keptError.description); fix the file)"
                )
            }
            messages.warning(
                "\(error.description); playing the last good playlist instead (kept \(iso8601(wallSeconds: kept.saved.timeIntervalSince1970)) in \(lastGood.path)); fix the file and save it, and it reloads"
            )
            return old
        } catch {
            throw error
        }
    }

    /// Keeps a playlist file that parsed (nothing for a folder).
    private func keepAsLastGood(_ json: Data?) {
        guard let json, let lastGood, let failure = lastGood.save(json) else { return }
        guard lastGoodComplaints.allows() else { return }
        messages.warning(
            "cannot keep the last good playlist: \(failure); playback goes on, but a restart with a broken \(path) would exit (free space there; said at most once a minute)"
        )
    }

    /// Watches the playlist and every file it names, so a file that
    /// arrives, is replaced or is fixed plays from its next slot.
    func watch(_ files: Set<String>) {
        watcher?.stop()
        watcher = FileWatcher(path: path, files: files, messages: messages) { [weak self] in
            _ = self?.reload(because: "\(self?.path ?? "") or a file it names changed")
        }
    }

    /// Re-reads the configuration; a valid one takes over at each panel's
    /// next item boundary, an invalid one is refused and the old one plays on.
    @discardableResult
    func reload(because reason: String) -> String? {
        do {
            let (fresh, json) = try SignageConfigLoader.read(
                path: path, itemSeconds: itemSeconds, warn: messages.warning)
            activation?.cancel()
            activation = nil
            if let at = fresh.activateAt, at > PlayTicker.now() {
                // The old playlist plays on until then; its files stay watched.
                messages.info(
                    "loaded \(path) (\(reason)); it takes over on every panel at once at \(iso8601(wallSeconds: at)) (activate_at)"
                )
                records.write(["event": "reload", "ok": true, "path": path, "activate_at": at])
                activation = activationTimer(at: at) { [weak self] in
                    self?.activation = nil
                    self?.adopt(fresh, json, at: at)
                }
                return nil
            }
            messages.info("reloaded \(path) (\(reason)); it takes over at each panel's next item")
            records.write(["event": "reload", "ok": true, "path": path])
            adopt(fresh, json, at: nil)
            return nil
        } catch {
            messages.warning("reload refused (\(reason)): \(error.description); the previous playlist keeps playing")
            records.write(["event": "reload", "ok": false, "path": path, "error": error.description])
            return error.description
        }
    }

    /// No more watching, nor a pending `activate_at` (the player stops).
    func stop() {
        watcher?.stop()
        watcher = nil
        activation?.cancel()
        activation = nil
    }

    /// A configuration that parsed: kept for a start with a broken file, its files watched, then handed on.
    private func adopt(_ fresh: SignageConfig, _ json: Data?, at activation: Double?) {
        keepAsLastGood(json)
        watch(fresh.mediaFiles)
        take(fresh, activation)
    }

    /// A one-shot timer at wall-clock `at`, armed on the monotonic clock
    /// like the item timer (a step of the clock is the clock watch's).
    private func activationTimer(at: Double, _ fire: @escaping @MainActor () -> Void) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        let delay = max(0, at - wallSeconds())
        timer.schedule(deadline: .now() + .nanoseconds(Int(delay * 1e9)), leeway: .nanoseconds(0))
        timer.setEventHandler { MainActor.assumeIsolated { fire() } }
        timer.resume()
        return timer
    }
}
