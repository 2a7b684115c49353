import Foundation
import TestHarness
import TestSupport
import XCTest

/// ARCHITECTURE.md's tables send a reader to files, and its layer list says
/// what each module depends on; both must stay true (a renamed file once
/// stayed named there, and the layer picture once left out two of Video's
/// four dependencies).
final class ArchitectureDocTests: ScreenplayTestCase {
    func testEveryFileArchitectureNamesExists() throws {
        let text = try String(contentsOfFile: PackageCheckout.root + "/ARCHITECTURE.md", encoding: .utf8)
        let sources =
            try FileManager.default.subpathsOfDirectory(atPath: PackageCheckout.root + "/Sources")
            + FileManager.default.subpathsOfDirectory(atPath: PackageCheckout.root + "/Tests").map { "../Tests/" + $0 }
        let names = Set(sources.map { ($0 as NSString).lastPathComponent } + ["Package.swift"])
        // `Path/To/File.swift` or `File.swift` in backticks.
        let regex = try NSRegularExpression(pattern: "`([A-Za-z0-9_./-]+\\.(swift|c|h|sh|md|modulemap))`")
        let matches = regex.matches(in: text, range: NSRange(text.startIndex..., in: text))
        let named = matches.compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } }
        XCTAssertGreaterThan(named.count, 20, "the file names ARCHITECTURE.md's tables carry were not found")
        var missing: [String] = []
        for path in Set(named) {
            let exists =
                path.contains("/")
                ? FileManager.default.fileExists(atPath: PackageCheckout.root + "/" + path)
                : names.contains(path)
            if !exists { missing.append(path) }
        }
        XCTAssertEqual(missing.sorted(), [], "ARCHITECTURE.md names files that do not exist")
    }

    /// Every `A ─► B, C` line of the layer list names exactly A's target
    /// dependencies in Package.swift, and every target outside Tests/ that
    /// depends on anything has its line.
    func testLayerListMatchesPackageManifest() throws {
        let text = try String(contentsOfFile: PackageCheckout.root + "/ARCHITECTURE.md", encoding: .utf8)
        let documented = Self.layerEdges(in: text)
        XCTAssertGreaterThan(documented.count, 8, "ARCHITECTURE.md's layer list (`A ─► B, C` lines) was not found")
        let declared = try Self.manifestEdges()
        var wrong: [String] = []
        for (module, dependencies) in declared.sorted(by: { $0.key < $1.key }) {
            guard let listed = documented[module] else {
                if !dependencies.isEmpty {
                    wrong.append("\(module) is missing (Package.swift: \(dependencies.sorted()))")
                }
                continue
            }
            if listed != dependencies {
                wrong.append(
                    "\(module): ARCHITECTURE.md says \(listed.sorted()), Package.swift \(dependencies.sorted())")
            }
        }
        for module in documented.keys.sorted() where declared[module] == nil {
            wrong.append("\(module) is no target of Package.swift (outside Tests/)")
        }
        XCTAssertEqual(wrong, [], "ARCHITECTURE.md's layer list and Package.swift disagree")
    }

    /// `A (note) ─► B, C (note)` lines: A's name to the names after the arrow.
    static func layerEdges(in text: String) -> [String: Set<String>] {
        var edges: [String: Set<String>] = [:]
        for line in text.components(separatedBy: "\n") where line.hasPrefix("    ") && line.contains("─►") {
            let sides = line.components(separatedBy: "─►")
            guard sides.count == 2, let module = sides[0].split(separator: " ").first else { continue }
            // Notes in parentheses may hold commas and names of their own.
            var right = ""
            var depth = 0
            for character in sides[1] {
                if character == "(" { depth += 1 }
                if depth == 0 { right.append(character) }
                if character == ")" { depth = max(0, depth - 1) }
            }
            let names = right.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            edges[String(module)] = Set(names.filter { !$0.isEmpty })
        }
        return edges
    }

    /// Package.swift's targets outside Tests/ (not plugins) with their target
    /// dependencies, from `swift package dump-package` (its own scratch
    /// path: the checkout's .build may be locked by the running `swift test`).
    static func manifestEdges() throws -> [String: Set<String>] {
        let scratch = try PackageCheckout.scratchDirectory("manifest")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let dump = try runProcess(
            "swift", ["package", "--package-path", PackageCheckout.root, "--scratch-path", scratch, "dump-package"],
            timeout: 300, directory: PackageCheckout.root)
        guard dump.status == 0, let data = dump.stdout.data(using: .utf8),
            let manifest = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let targets = manifest["targets"] as? [[String: Any]]
        else {
            throw CheckoutError("swift package dump-package failed (status \(dump.status)):\n\(dump.stderr)")
        }
        var edges: [String: Set<String>] = [:]
        for target in targets {
            guard let name = target["name"] as? String, let type = target["type"] as? String,
                type != "test", type != "plugin", !((target["path"] as? String)?.hasPrefix("Tests/") ?? false)
            else { continue }
            var dependencies: Set<String> = []
            for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
                // {"byName": [name, condition]}, {"target": [name, condition]}, {"product": [name, package, ...]}
                for key in ["byName", "target", "product"] {
                    if let value = dependency[key] as? [Any], let dependencyName = value.first as? String {
                        dependencies.insert(dependencyName)
                    }
                }
            }
            edges[name] = dependencies
        }
        return edges
    }
}

/// The scene and the application stay in parts with one job each, and a
/// scene's view of its owner stays small.
final class SmallPartsTests: XCTestCase {
    private var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/Screenplay")
    }

    func testSceneAndApplicationPartsStayUnderAboutThreeHundredLines() throws {
        let names = try FileManager.default.subpathsOfDirectory(atPath: sources.path).filter {
            let name = ($0 as NSString).lastPathComponent
            let part = name.hasPrefix("Scene") || name.hasPrefix("Application")
            let shared = name == "AccessoryScenes.swift" || name == "SharedGraphics.swift"
            return (part || shared) && name.hasSuffix(".swift")
        }
        XCTAssertTrue(
            names.contains("Scenes/Scene.swift") && names.contains("Application/Application.swift"), "\(names)")
        for name in names {
            let text = try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
            XCTAssertLessThanOrEqual(lines, 340, "\(name) has \(lines) lines: split it along its jobs")
        }
    }

    /// The presenter module stays in files of one job each, and its
    /// folders (Talk, Console, Audience, Input, Drawing) show its parts: no
    /// folder holds more than 20 files.
    func testPresenterPartsStayUnderAboutThreeHundredLinesInFoldersByConcept() throws {
        try assertSmallFilesInFoldersByConcept("Presenter", minimumFolders: 4)
    }

    /// The tool's module is sorted the same way: its commands, the signage
    /// player's wiring, the fleet options, the control socket, the
    /// presenter's wiring and the process's services each in a folder,
    /// every file under 340 lines.
    func testTheToolsPartsStayInFoldersByConcept() throws {
        try assertSmallFilesInFoldersByConcept("ScreenplayCLI", minimumFolders: 6)
    }

    /// The signage player's module too: the player, the playlist, items'
    /// settings, the clock, control, overrides, panels, media and state,
    /// each in a folder of at most 20 files, every file under 340 lines.
    func testTheSignagePlayersPartsStayInFoldersByConcept() throws {
        try assertSmallFilesInFoldersByConcept("Signage", minimumFolders: 8)
    }

    /// Any module of more than 20 files shows its parts as folders: none
    /// holds more than 20 files, so a newcomer sees the concepts first.
    func testEveryModuleOfMoreThanTwentyFilesIsSortedIntoFolders() throws {
        let root = sources.deletingLastPathComponent()
        var sorted = 0
        for module in try FileManager.default.contentsOfDirectory(atPath: root.path) {
            let folder = root.appendingPathComponent(module)
            let paths = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter {
                $0.hasSuffix(".swift")
            }
            guard paths.count > 20 else { continue }
            sorted += 1
            let byFolder = Dictionary(grouping: paths) { ($0 as NSString).deletingLastPathComponent }
            for (subfolder, files) in byFolder {
                XCTAssertLessThanOrEqual(
                    files.count, 20, "\(module)/\(subfolder) holds \(files.count) files: sort them by concept")
            }
        }
        // Screenplay, Rendering, WaylandClient, Presenter, Signage, the tool and the bench at least.
        XCTAssertGreaterThanOrEqual(sorted, 6, "modules of more than 20 files under \(root.path)")
    }

    private func assertSmallFilesInFoldersByConcept(
        _ module: String, minimumFolders: Int, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let root = sources.deletingLastPathComponent().appendingPathComponent(module)
        let paths = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".swift") }
        XCTAssertGreaterThan(paths.count, 20, "Sources/\(module): \(paths)", file: file, line: line)
        for path in paths {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
            XCTAssertLessThanOrEqual(
                lines, 340, "\(module)/\(path) has \(lines) lines: split it along its jobs", file: file, line: line)
        }
        let byFolder = Dictionary(grouping: paths) { ($0 as NSString).deletingLastPathComponent }
        XCTAssertGreaterThanOrEqual(
            byFolder.count, minimumFolders, "\(module)'s files by folder: \(byFolder.keys.sorted())", file: file,
            line: line)
        for (folder, files) in byFolder {
            XCTAssertLessThanOrEqual(
                files.count, 20, "\(module)/\(folder) holds \(files.count) files: sort them by concept", file: file,
                line: line)
        }
    }

    /// Every hand-written Swift file of every module stays within 340
    /// lines, so no file gathers more than one job.
    func testEverySourceFileStaysWithinThreeHundredFortyLines() throws {
        let root = sources.deletingLastPathComponent()
        // CWaylandProtocols is generated by wayland-scanner (C, no Swift).
        let skipped: Set<String> = ["CWaylandProtocols"]
        let modules = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { !skipped.contains($0) }
        var checked = 0
        for module in modules.sorted() {
            let folder = root.appendingPathComponent(module)
            let paths = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter {
                $0.hasSuffix(".swift")
            }
            for path in paths {
                let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
                XCTAssertLessThanOrEqual(lines, 340, "\(module)/\(path) has \(lines) lines: split it along its jobs")
                checked += 1
            }
        }
        // The library's modules, the bench, the presenter and the tool: well over a hundred files.
        XCTAssertGreaterThan(checked, 100, "Swift files found under \(root.path): \(checked)")
        XCTAssertTrue(
            modules.contains("Screenplay") && modules.contains("Rendering") && modules.contains("ScreenplayCLI"),
            "\(modules)")
    }

    /// Test files keep to the same 340 lines as the sources: a file per
    /// job, named for what its tests guard.
    func testEveryTestFileStaysWithinThreeHundredFortyLines() throws {
        let root = sources.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tests")
        let paths = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".swift") }
        for path in paths.sorted() {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
            XCTAssertLessThanOrEqual(lines, 340, "Tests/\(path) has \(lines) lines: split it along its jobs")
        }
        // Every test target and the support code: well over a hundred files.
        XCTAssertGreaterThan(paths.count, 100, "Swift files found under \(root.path): \(paths.count)")
    }

    func testSceneHostNamesOnlyWhatASceneNeeds() throws {
        let text = try String(contentsOf: sources.appendingPathComponent("Scenes/SceneHost.swift"), encoding: .utf8)
        let members = text.split(separator: "\n").filter {
            let line = $0.trimmingCharacters(in: .whitespaces)
            return line.hasPrefix("func ") || line.hasPrefix("var ")
        }
        XCTAssertLessThanOrEqual(members.count, 6, "SceneHost: \(members)")
        // A scene closes by answering its batch, never by calling its owner.
        for name in ["Scenes/Scene.swift", "Scenes/SceneChanges.swift"] {
            let scene = try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)
            XCTAssertTrue(scene.contains("host."), "\(name) no longer reaches its host: where did it go?")
            XCTAssertFalse(scene.contains("host.close") || scene.contains("sceneDidClose"), name)
        }
    }
}
