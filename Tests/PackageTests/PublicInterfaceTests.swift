import Foundation
import TestHarness
import XCTest

/// Screenplay's public interface, read from the symbol graph of a build, names
/// no type of the modules under it (WaylandClient, FrameTiming, Rendering, Video)
/// and no C type: users see Screenplay's own types only.
final class PublicInterfaceTests: ScreenplayTestCase {
    /// Swift USRs name their module (`s:13WaylandClient10OutputInfoV`); C ones start with `c:`.
    static let hiddenModules = ["WaylandClient", "FrameTiming", "Rendering", "Video", "EventLoop"]

    static func isHidden(_ usr: String) -> Bool {
        usr.hasPrefix("c:") || hiddenModules.contains { usr.contains("s:\($0.utf8.count)\($0)") }
    }

    func testHiddenModuleRecognisesWaylandClientAndCTypesOnly() {
        XCTAssertTrue(Self.isHidden("s:13WaylandClient10OutputInfoV"))
        XCTAssertTrue(Self.isHidden("c:@S@wl_output"))
        XCTAssertTrue(Self.isHidden("s:11FrameTiming19PresentationHistoryV"))
        XCTAssertFalse(Self.isHidden("s:10Screenplay10ScreenModeV"))
        XCTAssertFalse(Self.isHidden("s:Si"))
    }

    func testNoPublicSymbolMentionsAWaylandClientOrCType() throws {
        let docs = try DocsBuild.outcome.get()
        let files = try FileManager.default.contentsOfDirectory(atPath: docs.symbolGraphs)
        XCTAssertTrue(files.contains("Screenplay.symbols.json"), "no symbol graph for Screenplay:\n\(docs.log)")
        var leaks: [String] = []
        for file in files where file.hasSuffix(".symbols.json") {
            // Screenplay@Other.symbols.json holds public extensions of Other's types.
            if let extended = file.split(separator: "@").dropFirst().first?.split(separator: ".").first,
                Self.hiddenModules.contains(String(extended))
            {
                leaks.append("\(file): Screenplay publicly extends types of \(extended)")
            }
            let data = try Data(contentsOf: URL(fileURLWithPath: docs.symbolGraphs + "/" + file))
            let graph = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
            for symbol in graph["symbols"] as? [[String: Any]] ?? [] {
                let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
                for usr in Self.identifiers(in: symbol) where Self.isHidden(usr) {
                    leaks.append("\(path) mentions \(usr)")
                }
            }
            for relation in graph["relationships"] as? [[String: Any]] ?? [] {
                if let target = relation["target"] as? String, Self.isHidden(target) {
                    leaks.append("\(relation["source"] ?? "?") \(relation["kind"] ?? "?") \(target)")
                }
            }
        }
        XCTAssertEqual(
            leaks, [], "Screenplay's public interface shows types it should wrap:\n" + leaks.joined(separator: "\n"))
    }

    /// Every `preciseIdentifier` in a symbol's declaration, signature and generics.
    static func identifiers(in value: Any) -> [String] {
        if let dictionary = value as? [String: Any] {
            return dictionary.flatMap { key, inner in
                key == "preciseIdentifier" ? [inner as? String].compactMap { $0 } : identifiers(in: inner)
            }
        }
        if let array = value as? [Any] { return array.flatMap(identifiers(in:)) }
        return []
    }
}
