import Foundation

/// What an emergency override (`screenplay ctl override`) shows in place of
/// the schedule, on which panels and until when. Kept in the state folder
/// so a box that reboots shows it again until it expires or is cleared.
public struct OverrideEntry: Codable, Equatable, Sendable {
    /// What it shows: a playlist of the running configuration, a media file
    /// (an absolute path) or a full-screen text message.
    public enum Kind: String, Codable, Sendable {
        /// A playlist of the running configuration, by name.
        case playlist
        /// A media file, by its absolute path.
        case file
        /// A full-screen text message.
        case text
    }

    /// What kind of content `what` names.
    public var kind: Kind
    /// The playlist's name, the file's path or the message.
    public var what: String
    /// The `--output` pattern it was given; nil: every panel, those that
    /// connect later too.
    public var output: String?
    /// Outputs a later `--clear --output` took out of it, so a notice on
    /// every panel can be lifted from one.
    public var except: [String] = []
    /// Wall-clock seconds it began.
    public var since: Double
    /// Wall-clock seconds it ends (`--for`); nil: until `--clear`.
    public var until: Double?

    /// An override of `kind` showing `what` on the outputs `output` matches
    /// (nil: every one), from `since` to `until` (nil: until cleared).
    public init(
        kind: Kind, what: String, output: String? = nil, except: [String] = [], since: Double, until: Double? = nil
    ) {
        self.kind = kind
        self.what = what
        self.output = output
        self.except = except
        self.since = since
        self.until = until
    }

    /// For logs, proof of play and status: the file, the playlist or the text.
    public var label: String {
        switch kind {
        case .playlist: "playlist:\(what)"
        case .file: what
        case .text: "text:" + (what.count > 40 ? String(what.prefix(40)) + "…" : what)
        }
    }

    /// Whether it covers the output named `name`, given whether its pattern matches.
    public func covers(_ name: String, patternMatches: Bool) -> Bool {
        !except.contains(name) && (output == nil || patternMatches)
    }
}

/// `--for` durations: `90s`, `20m`, `1h`, `1h30m`, `1h30m15s` (hours,
/// minutes and seconds in that order, each at most once, whole numbers).
public enum OverrideDuration {
    /// Seconds, or nil when `text` is not a duration.
    public static func parse(_ text: String) -> Double? {
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
    public static func format(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        let parts = [(whole / 3600, "h"), (whole / 60 % 60, "m"), (whole % 60, "s")].filter { $0.0 > 0 }
        return parts.isEmpty ? "0s" : parts.map { "\($0.0)\($0.1)" }.joined()
    }
}
