package import WaylandClient

/// A pattern naming screens, as `--output`, `--builtin` and
/// `SCREENPLAY_BUILTIN` take it: the screen's name (`HDMI-A-1`), description
/// (`Dell Inc. DELL U2720Q (DP-2)`), make, model or serial, given exactly or
/// as a glob (`*`, `?`, `[abc]`, `[a-z]`, `[!a]`; `\` escapes).
///
/// Matching ignores case, because people type names from memory
/// ("hdmi-a-1"), and tries equality before the glob, so a description that
/// contains `[` or `*` still matches itself. The one matcher for every place
/// that picks screens by name, so they all agree.
public struct ScreenPattern: Hashable, Sendable, CustomStringConvertible {
    /// The pattern as given.
    public let description: String
    private let folded: [Character]

    /// A pattern from its text: a name, description, make, model or serial, or a glob of one.
    public init(_ pattern: String) {
        description = pattern
        folded = Array(pattern.lowercased())
    }

    /// Whether the pattern names a screen with these fields; empty or
    /// missing fields (make, model, serial the compositor did not send)
    /// take no part.
    public func matches(
        name: String, description screenDescription: String, make: String = "", model: String = "",
        serial: String? = nil
    ) -> Bool {
        [name, screenDescription, make, model, serial ?? ""].contains { field in
            guard !field.isEmpty else { return false }
            let candidate = Array(field.lowercased())
            return candidate == folded || Self.globMatches(pattern: folded, text: candidate)
        }
    }

    /// Whether the pattern names the output `info` describes.
    package func matches(_ info: OutputInfo) -> Bool {
        matches(name: info.name, description: info.description, make: info.make, model: info.model, serial: info.serial)
    }

    /// Whether the pattern names `screen` (make, model and serial from its
    /// output-management head where the compositor offers one).
    @MainActor
    public func matches(_ screen: Screen) -> Bool {
        matches(
            name: screen.name, description: screen.info.description, make: screen.make, model: screen.model,
            serial: screen.serial)
    }

    /// Shell-style glob matching over characters, with backtracking on the
    /// most recent `*` only, which is linear-ish and cannot blow up
    /// exponentially.
    static func globMatches(pattern: [Character], text: [Character]) -> Bool {
        var p = 0
        var t = 0
        var starPattern: Int?
        var starText = 0
        while t < text.count {
            if p < pattern.count {
                if pattern[p] == "*" {
                    starPattern = p
                    starText = t
                    p += 1
                    continue
                }
                if let next = matchSingle(pattern: pattern, at: p, character: text[t]) {
                    p = next
                    t += 1
                    continue
                }
            }
            // Mismatch: let the last `*` swallow one more character.
            guard let star = starPattern else { return false }
            p = star + 1
            starText += 1
            t = starText
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// If the pattern element at `index` (not `*`) matches `character`, the
    /// index after that element; otherwise `nil`.
    private static func matchSingle(pattern: [Character], at index: Int, character: Character) -> Int? {
        switch pattern[index] {
        case "?":
            return index + 1
        case "\\" where index + 1 < pattern.count:
            return pattern[index + 1] == character ? index + 2 : nil
        case "[":
            guard let (matched, next) = matchClass(pattern: pattern, at: index, character: character) else {
                // No closing bracket: a literal '[', as in fnmatch.
                return character == "[" ? index + 1 : nil
            }
            return matched ? next : nil
        case let literal:
            return literal == character ? index + 1 : nil
        }
    }

    /// Evaluates the bracket expression starting at `index`; `nil` if unclosed.
    private static func matchClass(pattern: [Character], at index: Int, character: Character) -> (
        matched: Bool, next: Int
    )? {
        var i = index + 1
        var negated = false
        if i < pattern.count, pattern[i] == "!" || pattern[i] == "^" {
            negated = true
            i += 1
        }
        var matched = false
        var first = true
        while i < pattern.count {
            let low = pattern[i]
            // A ']' right after '[' or '[!' is a member, not the end.
            if low == "]", !first { return (matched != negated, i + 1) }
            first = false
            if i + 2 < pattern.count, pattern[i + 1] == "-", pattern[i + 2] != "]" {
                let high = pattern[i + 2]
                if low <= character, character <= high { matched = true }
                i += 3
            } else {
                if low == character { matched = true }
                i += 1
            }
        }
        return nil
    }
}
