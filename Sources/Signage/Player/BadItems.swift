import Foundation
import Screenplay

/// The items the player passes over: those that failed to load or play, and
/// those that hung the renderer in an earlier run (`HungItems`). Each is
/// remembered with its file's state then, so it is tried again only once
/// the file changes, and reported once rather than per panel or cycle.
@MainActor
final class BadItems {
    private let records: PlayRecorder
    private let messages: SignageMessages
    /// Media that failed is freed from this application's GL context.
    weak var app: Application?
    /// Items that failed, with the file's state when they did.
    private var failures: [String: (stamp: String, reason: String)] = [:]
    /// Where items that hung the renderer are remembered; nil without HOME.
    private let hungItems = HungItems()
    /// Those items, read at start and at each reload.
    private var hung: [String: HungItems.Entry] = [:]

    init(records: PlayRecorder, messages: SignageMessages) {
        self.records = records
        self.messages = messages
    }

    /// At start and at each reload: every item gets a fresh chance, except
    /// those still remembered as hung.
    func forgetFailures() {
        failures.removeAll()
        hung = hungItems?.load() ?? [:]
    }

    /// What the hang guard does with a draw that never returned: remembers
    /// its item's file, so the restart skips it. Runs off the main thread.
    var remembersHungDraw: @Sendable (DrawWatch.Draw) -> String? {
        { [hungItems] draw in
            guard let hungItems, let file = HungItems.file(ofLabel: draw.content),
                FileManager.default.fileExists(atPath: file)
            else {
                return nil
            }
            if let failure = hungItems.remember(label: draw.content, output: draw.screen) { return failure }
            return "\(draw.content) is remembered in \(hungItems.path) and skipped after the restart"
        }
    }

    private func stamp(_ item: PlayItem) -> String { fileStamp(item.path) }

    func knownBad(_ item: PlayItem) -> Bool {
        // A layout fails on a panel too small for it, not everywhere: each panel checks it anew.
        if case .layout = item.source { return false }
        if let failure = failures[item.label], failure.stamp == stamp(item) { return true }
        guard let entry = hung[item.label], entry.stamp == stamp(item), let hungItems else { return false }
        reportBad(
            item,
            "it hung the renderer on \(entry.output) at \(entry.at) (remembered in \(hungItems.path); change the file or delete its entry there to try it again)"
        )
        return true
    }

    func failureReason(_ item: PlayItem) -> String? { failures[item.label]?.reason }

    /// One stderr line per failure (not per panel or per cycle).
    func reportBad(_ item: PlayItem, _ reason: String) {
        let stamp = stamp(item)
        if let known = failures[item.label], known.stamp == stamp, known.reason == reason { return }
        failures[item.label] = (stamp, reason)
        messages.warning("\(item.label): skipped: \(reason)")
        records.write(["event": "skipped", "source": item.label, "reason": reason])
    }

    /// Media that failed as it was made or loaded: freed, and its item
    /// reported (once); true when it had failed.
    func releaseIfFailed(_ media: any PlayMedia, of item: PlayItem) -> Bool {
        guard let failure = media.failure else { return false }
        media.release(from: app)
        reportBad(item, failure)
        return true
    }
}
