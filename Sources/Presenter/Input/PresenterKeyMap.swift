import Foundation

/// A key as a binding names it: an xkbcommon keysym name with Shift,
/// Control and Alt, written as pdfpcrc writes it (`S+Next`, `C+q`, `A+b`).
struct KeyChord: Hashable, Sendable, CustomStringConvertible {
    var keysym: String
    var shift = false
    var control = false
    var alt = false

    /// Shift turns `n` into `N`: single letters compare without case, so
    /// `S+n` in a file is the key a speaker presses with Shift.
    init(keysym: String, shift: Bool = false, control: Bool = false, alt: Bool = false) {
        self.keysym = keysym.count == 1 ? keysym.lowercased() : keysym
        self.shift = shift
        self.control = control
        self.alt = alt
    }

    /// `S+C+Next`; nil when a prefix is not S, C or A, or the key is empty.
    init?(parsing text: String) {
        var parts = text.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        // `plus` is the keysym of "+": a lone "+" or a trailing "++" means it.
        if text.hasSuffix("++") || text == "+" { parts = Array(parts.dropLast(2)) + ["plus"] }
        guard let key = parts.popLast(), !key.isEmpty else { return nil }
        var (shift, control, alt) = (false, false, false)
        for prefix in parts {
            switch prefix {
            case "S": shift = true
            case "C": control = true
            case "A": alt = true
            default: return nil
            }
        }
        self.init(keysym: key, shift: shift, control: control, alt: alt)
    }

    var description: String {
        (shift ? "S+" : "") + (control ? "C+" : "") + (alt ? "A+" : "") + keysym
    }
}

/// The presenter's keys with a speaker's own bindings over the defaults
/// (`PresenterKeys`): read from `presenter.conf` in pdfpcrc's syntax,
/// `bind KEY ACTION` and `unbind KEY`, one a line, `#` comments.
struct PresenterKeyMap: Sendable {
    private var bound: [KeyChord: PresenterAction] = [:]
    private var unbound: Set<KeyChord> = []

    /// The defaults alone.
    init() {}

    /// Where a speaker's bindings are looked for when `--keys` names none.
    static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory() + "/.config"
        return config + "/screenplay/presenter.conf"
    }

    /// A mistake in a bindings file, with its line (1-based).
    struct LineError: Error, CustomStringConvertible {
        var path: String
        var line: Int
        var reason: String
        var description: String { "\(path):\(line): \(reason)" }
    }

    /// Parses a bindings file; the first bad line is the error, so a talk
    /// never starts with keys other than the speaker wrote.
    init(parsing text: String, path: String) throws(LineError) {
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words =
                raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first?
                .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init) ?? []
            func fail(_ reason: String) -> LineError { LineError(path: path, line: index + 1, reason: reason) }
            guard let verb = words.first else { continue }
            switch verb {
            case "bind":
                guard words.count == 3 else {
                    throw fail(
                        "expected 'bind KEY ACTION' (e.g. 'bind S+Next nextSlide'), found \(words.count - 1) words")
                }
                guard let chord = KeyChord(parsing: words[1]) else {
                    throw fail("'\(words[1])' is no key: write an xkb keysym name, optionally after S+, C+ or A+")
                }
                guard let action = PresenterKeyNames.action(named: words[2]) else {
                    throw fail(PresenterKeyNames.unknownActionReason(words[2]))
                }
                bound[chord] = action
                unbound.remove(chord)
            case "unbind":
                guard words.count == 2, let chord = KeyChord(parsing: words[1]) else {
                    throw fail("expected 'unbind KEY' (e.g. 'unbind F5')")
                }
                bound[chord] = nil
                unbound.insert(chord)
            case "mouse":
                throw fail("mouse bindings are not read yet: remove the line")
            default:
                throw fail("unknown '\(verb)': a line is 'bind KEY ACTION', 'unbind KEY' or a # comment")
            }
        }
    }

    /// Reads `path`; a missing file is no error unless the speaker named it.
    static func load(path: String, required: Bool, messages: TalkMessages) throws(TalkError) -> PresenterKeyMap {
        guard FileManager.default.fileExists(atPath: path) else {
            if required { throw TalkError(.unreadable, "cannot read the key bindings \(path): no such file") }
            return PresenterKeyMap()
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TalkError(.unreadable, "cannot read the key bindings \(path): permission denied")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw TalkError(.invalid, "\(path): not UTF-8 text")
        }
        do {
            let map = try PresenterKeyMap(parsing: text, path: path)
            if !map.isEmpty { messages.info("keys: \(path): " + map.described.joined(separator: ", ")) }
            return map
        } catch {
            throw TalkError(.invalid, "bad key bindings: \(error.description)")
        }
    }

    /// What a pressed key does: the speaker's binding, else the default
    /// (unless unbound). Overview keys (arrows by row, Escape) stay.
    func action(for event: KeyChord, text: String, overview: Bool) -> PresenterAction? {
        if let action = bound[event] { return action }
        if unbound.contains(event) { return nil }
        return PresenterKeys.action(
            keysym: event.keysym, text: text, shift: event.shift, control: event.control, overview: overview)
    }

    /// The speaker's own lines as the console's key list shows them,
    /// sorted so the list stays put: "x: next", "Right: (nothing)".
    var described: [String] {
        let names = Dictionary(PresenterKeyNames.actions.map { ("\($0.action)", $0.name) }) { first, _ in first }
        return bound.map { "\($0.key): \(names["\($0.value)"] ?? "\($0.value)")" }.sorted()
            + unbound.map { "\($0): (nothing)" }.sorted()
    }
    var isEmpty: Bool { bound.isEmpty && unbound.isEmpty }
}
