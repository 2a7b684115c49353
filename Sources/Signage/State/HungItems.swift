import Foundation

/// Playlist items that hung the renderer, remembered across restarts so
/// `play` skips them instead of hanging again after systemd restarts it.
///
/// One JSON file, `$XDG_STATE_HOME/screenplay/hung-items.json` (default
/// `~/.local/state/screenplay/`): an array of entries, each with the item's
/// label (its file, with `#page=N` for a PDF page), the file's modification
/// time and size when it hung, the output and the time. An entry counts
/// only while the file is unchanged: a fixed file is tried again.
struct HungItems: Sendable {
    struct Entry: Codable, Sendable, Equatable {
        /// `PlayItem.label`.
        var source: String
        /// `fileStamp` of the item's file when it hung.
        var stamp: String
        var output: String
        /// ISO 8601, UTC.
        var at: String
    }

    let path: String

    /// The state file under `environment`'s XDG_STATE_HOME or HOME; nil
    /// when neither is set (nothing is remembered then).
    init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let directory = StateDirectory.path(environment: environment) else { return nil }
        path = directory + "/hung-items.json"
    }

    init(path: String) { self.path = path }

    /// Entries whose file is unchanged since it hung, by label.
    func load() -> [String: Entry] {
        guard let data = FileManager.default.contents(atPath: path),
            let entries = try? JSONDecoder().decode([Entry].self, from: data)
        else { return [:] }
        var current: [String: Entry] = [:]
        for entry in entries where fileStamp(Self.file(ofLabel: entry.source)) == entry.stamp {
            current[entry.source] = entry
        }
        return current
    }

    /// Adds `label` (replacing an older entry for it, dropping entries
    /// whose file changed since). Called from the hang guard's thread while
    /// the main thread is stuck: plain file calls only. Returns why it
    /// could not write, or nil.
    func remember(label: String, output: String, now: Date = Date()) -> String? {
        var entries = Array(load().values.filter { $0.source != label })
        let at = ISO8601DateFormatter().string(from: now)
        entries.append(Entry(source: label, stamp: fileStamp(Self.file(ofLabel: label)), output: output, at: at))
        entries.sort { $0.source < $1.source }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(entries) else { return "cannot encode the entries for \(path)" }
        return StateDirectory.writeAtomically(data, to: path)
    }

    /// The file a label names: the label itself, or without its `#page=N`.
    static func file(ofLabel label: String) -> String? {
        if label.hasPrefix("#") { return nil }  // a colour
        if FileManager.default.fileExists(atPath: label) { return label }
        if let range = label.range(of: "#page=", options: .backwards) { return String(label[..<range.lowerBound]) }
        return label
    }
}

/// A file's modification time and size ("missing" when it cannot be
/// read): an item that failed counts as failed while this is unchanged.
func fileStamp(_ path: String?) -> String {
    guard let path, let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return "missing" }
    let date = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
    return "\(date)/\(attributes[.size] ?? 0)"
}
