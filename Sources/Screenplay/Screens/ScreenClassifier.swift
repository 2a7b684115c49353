import Foundation
package import WaylandClient

/// Decides which screens are built-in. Pure, so it is unit tested alone.
public struct ScreenClassifier: Sendable {
    /// Connector prefixes of panels wired inside the machine.
    public static let builtInConnectorPrefixes = ["eDP", "LVDS", "DSI"]
    /// Patterns (see `ScreenPattern`) the app (or `SCREENPLAY_BUILTIN`) marks built-in.
    public var builtInPatterns: [String]

    /// A classifier that also counts screens matching `builtInPatterns` as built-in.
    public init(builtInPatterns: [String] = []) { self.builtInPatterns = builtInPatterns }

    /// Reads `SCREENPLAY_BUILTIN` (comma-separated names or globs).
    public static func environmentPatterns(_ environment: [String: String]) -> [String] {
        guard let value = environment["SCREENPLAY_BUILTIN"] else { return [] }
        return value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Classifies every screen together: when none is built-in, the one at
    /// (0,0), else the first announced, is the main screen.
    package func classify(_ outputs: [OutputInfo]) -> [ScreenClassification] {
        var result = outputs.map { info in
            builtInReason(for: info).map {
                ScreenClassification(kind: .builtIn, reason: $0.reason, markingPattern: $0.pattern)
            }
        }
        if result.allSatisfy({ $0 == nil }), !outputs.isEmpty {
            let mainIndex = outputs.firstIndex { $0.logicalX == 0 && $0.logicalY == 0 }
            let index = mainIndex ?? 0
            let why =
                mainIndex != nil
                ? "no built-in panel found, so the screen at logical position (0,0) keeps the app's controls"
                : "no built-in panel found and none at (0,0), so the first announced screen keeps the app's controls"
            result[index] = ScreenClassification(
                kind: .main, reason: why + " (mark the real panel with --builtin or SCREENPLAY_BUILTIN)")
        }
        return result.map {
            $0 ?? ScreenClassification(kind: .external, reason: "not built-in: external-display scenes go here")
        }
    }

    private func builtInReason(for info: OutputInfo) -> (reason: String, pattern: String?)? {
        for pattern in builtInPatterns where ScreenPattern(pattern).matches(info) {
            return ("marked built-in by the pattern \"\(pattern)\"", pattern)
        }
        if info.hasConnectorName,
            let prefix = Self.builtInConnectorPrefixes.first(where: { info.name.hasPrefix($0) })
        {
            return ("connector \(info.name) is a \(prefix) panel, wired inside the machine", nil)
        }
        return nil
    }
}
