import Foundation
import TestHarness
import TestSupport
import XCTest

/// libscreenplay as a C programmer meets it: built next to the test bundle
/// (libScreenplayC.so), installed by scripts/install.sh into a scratch
/// prefix, and programs built against it with pkg-config.
enum CLibrary {
    static let checkout = checkoutRoot
    static let header = checkout + "/Sources/CScreenplay/include/screenplay/screenplay.h"

    /// The library `swift build` made beside the `screenplay` binary.
    static var built: String {
        URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().appendingPathComponent("libScreenplayC.so").path
    }

    static func requireBuilt() throws {
        try CLI.requireBinary()
        guard FileManager.default.fileExists(atPath: built) else {
            throw RigError(
                "\(built) is missing: run `swift build` (it builds the ScreenplayC product) before `swift test`")
        }
    }

    /// The functions screenplay.h declares (every line that starts a declaration).
    static func declaredFunctions() throws -> Set<String> {
        let text = try String(contentsOfFile: header, encoding: .utf8)
        let pattern = try NSRegularExpression(
            pattern: #"^(?!typedef)(?:const )?[a-z_0-9]+ \*?(screenplay_[a-z_0-9]+)\("#, options: .anchorsMatchLines)
        let range = NSRange(text.startIndex..., in: text)
        return Set(
            pattern.matches(in: text, range: range).compactMap {
                Range($0.range(at: 1), in: text).map { String(text[$0]) }
            })
    }

    /// docs/c-library.md and its first ```c block, the complete program.
    static func guideProgram() throws -> (guide: String, program: String) {
        let guide = try String(contentsOfFile: checkout + "/docs/c-library.md", encoding: .utf8)
        guard let start = guide.range(of: "```c\n"),
            let end = guide.range(of: "\n```", range: start.upperBound..<guide.endIndex)
        else { throw RigError("docs/c-library.md has no ```c block") }
        let program = String(guide[start.upperBound..<end.lowerBound])
        guard program.contains("int main") else { throw RigError("the guide's first C block is no whole program") }
        return (guide, program)
    }

    /// The header's SCREENPLAY_VERSION_MAJOR.MINOR.PATCH.
    static func headerVersion() throws -> String {
        let text = try String(contentsOfFile: header, encoding: .utf8)
        return try ["MAJOR", "MINOR", "PATCH"].map { part in
            guard
                let line = text.split(separator: "\n").first(where: {
                    $0.hasPrefix("#define SCREENPLAY_VERSION_\(part) ")
                }),
                let number = line.split(separator: " ").last
            else { throw RigError("screenplay.h has no SCREENPLAY_VERSION_\(part)") }
            return String(number)
        }.joined(separator: ".")
    }
}

/// A scratch prefix with everything scripts/install.sh installs (the built
/// binary and library), removed when the test ends.
struct ScratchInstall {
    let prefix: String

    init(_ test: XCTestCase) throws {
        try CLibrary.requireBuilt()
        let prefix = NSTemporaryDirectory() + "screenplay-clib-\(getpid())-\(UUID().uuidString.prefix(6))"
        test.addTeardownBlock { try? FileManager.default.removeItem(atPath: prefix) }
        let result = try runProcess(
            CLibrary.checkout + "/scripts/install.sh",
            ["--prefix", prefix, "--binary", CLI.binary, "--library", CLibrary.built],
            environment: ProcessInfo.processInfo.environment, timeout: 120)
        guard result.status == 0 else { throw RigError("install.sh --prefix \(prefix) failed: \(result.stderr)") }
        self.prefix = prefix
    }

    /// What a program built against the scratch prefix needs: pkg-config
    /// finds screenplay.pc there, and the loader finds the library there (a
    /// prefix outside the loader's path, as /opt would be).
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        // scripts/sanitize.sh preloads Mesa's driver and sets ASan's options
        // for the processes under test; compilers must not get them.
        for name in ["LD_PRELOAD", "ASAN_OPTIONS", "LSAN_OPTIONS"] { environment[name] = nil }
        environment["PKG_CONFIG_PATH"] = prefix + "/lib/pkgconfig"
        environment["LD_LIBRARY_PATH"] = prefix + "/lib"
        return environment
    }

    /// Runs a shell command line with `environment`, failing with its output on a non-zero exit.
    @discardableResult
    func shell(_ command: String, timeout: TimeInterval = 120) throws -> ProcessResult {
        let result = try runProcess("/bin/sh", ["-c", command], environment: environment, timeout: timeout)
        guard result.status == 0 else {
            throw RigError("`\(command)` exited \(result.status):\n\(result.stdout)\n\(result.stderr)")
        }
        return result
    }

    /// Builds one C source file into `output` with pkg-config's flags for `packages`.
    func buildC(
        _ source: String, output: String, packages: String = "screenplay", compiler: String = "cc",
        flags: String = "-std=c99 -Wall -Wextra -Werror -pedantic"
    ) throws {
        try shell("\(compiler) \(flags) '\(source)' -o '\(output)' $(pkg-config --cflags --libs \(packages))")
    }
}

extension ScreenplayTestCase {
    /// Types `keys` with wtype into the focused window of the compositor in `environment`.
    func typeKeys(_ keys: [String], _ environment: [String: String], file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        // -s 150 first: each wtype call makes a new virtual keyboard, which
        // the client must bind before the first key arrives.
        let result = try runProcess("wtype", ["-s", "150"] + keys, environment: environment, timeout: 5)
        XCTAssertEqual(result.status, 0, "wtype \(keys): \(result.stderr)", file: file, line: line)
    }
}
