import Foundation

/// What an emergency override (`screenplay ctl override`) shows in place of
/// the schedule, on which panels and until when. Kept in the state folder
/// so a box that reboots shows it again until it expires or is cleared.
struct OverrideEntry: Codable, Equatable, Sendable {
    /// What it shows: a playlist of the running configuration, a media file
    /// (an absolute path) or a full-screen text message.
    enum Kind: String, Codable, Sendable {
        case playlist, file, text
    }

    var kind: Kind
    /// The playlist's name, the file's path or the message.
    var what: String
    /// The `--output` pattern it was given; nil: every panel, those that
    /// connect later too.
    var output: String?
    /// Outputs a later `--clear --output` took out of it, so a notice on
    /// every panel can be lifted from one.
    var except: [String] = []
    /// Wall-clock seconds it began.
    var since: Double
    /// Wall-clock seconds it ends (`--for`); nil: until `--clear`.
    var until: Double?

    /// For logs, proof of play and status: the file, the playlist or the text.
    var label: String {
        switch kind {
        case .playlist: "playlist:\(what)"
        case .file: what
        case .text: "text:" + (what.count > 40 ? String(what.prefix(40)) + "…" : what)
        }
    }

    /// Whether it covers the output named `name`, given whether its pattern matches.
    func covers(_ name: String, patternMatches: Bool) -> Bool {
        !except.contains(name) && (output == nil || patternMatches)
    }
}

/// `--for` durations: `90s`, `20m`, `1h`, `1h30m`, `1h30m15s` (hours,
/// minutes and seconds in that order, each at most once, whole numbers).
enum OverrideDuration {
    /// Seconds, or nil when `text` is not a duration.
    static func parse(_ text: String) -> Double? {
        var total = 0
        var digits = ""
        var lastUnit = -1
        let units: [Character: (rank: Int, seconds: Int)] = ["h": (0, 3600), "m": (1, 60), "s": (2, 1)]
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            guard let unit = units[character], !digits.isEmpty, unit.rank > lastUnit, digits.count <= 6,
                let value = Int(digits)
            else { return nil }
            total += value * unit.seconds
            lastUnit = unit.rank
            digits = ""
        }
        guard digits.isEmpty, lastUnit >= 0, total > 0 else { return nil }
        return Double(total)
    }

    /// `1h30m` from seconds (for messages).
    static func format(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        let parts = [(whole / 3600, "h"), (whole / 60 % 60, "m"), (whole % 60, "s")].filter { $0.0 > 0 }
        return parts.isEmpty ? "0s" : parts.map { "\($0.0)\($0.1)" }.joined()
    }
}

/// The overrides of one playlist file under the state folder:
/// `$XDG_STATE_HOME/screenplay/override/` named after the playlist's
/// absolute path (as `last-good/`), so two `play`s on one box keep theirs
/// apart. Written whole (`StateDirectory.writeAtomically`); deleted when
/// no override is left.
struct OverrideStore {
    /// The state file.
    let path: String

    init?(playlist: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let directory = StateDirectory.path(environment: environment) else { return nil }
        path = directory + "/override/" + StateDirectory.fileName(forPath: playlist) + ".json"
    }

    private struct File: Codable {
        var playlist: String
        var overrides: [OverrideEntry]
    }

    /// The overrides kept, or why the file could not be read (it is then
    /// left where it is, for a person to look at).
    func load() -> (entries: [OverrideEntry], problem: String?) {
        guard let data = FileManager.default.contents(atPath: path) else { return ([], nil) }
        do {
            return (try JSONDecoder().decode(File.self, from: data).overrides, nil)
        } catch {
            return ([], "\(path) is not an override state file (\(error)); delete it to start without overrides")
        }
    }

    /// Keeps `entries` (deletes the file when empty); returns why it could not, or nil.
    func save(_ entries: [OverrideEntry], playlist: String) -> String? {
        guard !entries.isEmpty else {
            if unlink(path) != 0, errno != ENOENT {
                return "cannot delete \(path): \(String(cString: strerror(errno)))"
            }
            return nil
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(File(playlist: playlist, overrides: entries)) else {
            return "cannot encode the overrides for \(path)"
        }
        return StateDirectory.writeAtomically(data, to: path)
    }
}
