import Foundation
import TestHarness
import TestSupport
import XCTest

/// libscreenplay's promises to a C programmer that need no compositor: the
/// exports are exactly the header's functions, the soname and the version
/// agree everywhere, the header compiles under strict C and C++, the install
/// lays out library, header and pkg-config file, and the guide's program
/// builds as written.
final class CLibraryTests: ScreenplayTestCase {
    func testTheLibraryExportsExactlyTheFunctionsTheHeaderDeclares() throws {
        try CLibrary.requireBuilt()
        let declared = try CLibrary.declaredFunctions()
        XCTAssertGreaterThan(declared.count, 40, "the header's declarations were not found")
        let nm = try runProcess("nm", ["-D", "--defined-only", "--extern-only", CLibrary.built], timeout: 20)
        XCTAssertEqual(nm.status, 0, nm.stderr)
        // "ADDRESS T name@@SCREENPLAY_0"; the version node itself is an absolute symbol.
        let exported = nm.stdout.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[1] != "A" else { return nil }
            return String(fields[2].split(separator: "@").first ?? fields[2])
        }
        XCTAssertFalse(exported.isEmpty, nm.stdout)
        let exportedSet = Set(exported)
        XCTAssertEqual(
            exportedSet.subtracting(declared).sorted(), [],
            "exported but not in screenplay.h (a Swift or runtime symbol leaking out?)")
        XCTAssertEqual(declared.subtracting(exportedSet).sorted(), [], "declared in screenplay.h but not exported")
        XCTAssertTrue(nm.stdout.split(separator: "\n").allSatisfy { $0.hasSuffix("SCREENPLAY_0") }, nm.stdout)
    }

    func testSonameVersionAndPkgConfigAgree() throws {
        let install = try ScratchInstall(self)
        let readelf = try install.shell("readelf -d '\(install.prefix)/lib/libscreenplay.so.0'").stdout
        XCTAssertTrue(readelf.contains("Library soname: [libscreenplay.so.0]"), readelf)
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: install.prefix + "/lib/libscreenplay.so")
        XCTAssertEqual(link, "libscreenplay.so.0")
        let version = try CLibrary.headerVersion()
        XCTAssertEqual(
            try install.shell("pkg-config --modversion screenplay").stdout.trimmingCharacters(
                in: .whitespacesAndNewlines),
            version)
        XCTAssertEqual(
            try install.shell("pkg-config --variable=prefix screenplay").stdout.trimmingCharacters(
                in: .whitespacesAndNewlines), install.prefix)
        // The installed header is the checkout's, and the runtime version is the header's.
        XCTAssertEqual(
            FileManager.default.contents(atPath: install.prefix + "/include/screenplay/screenplay.h"),
            FileManager.default.contents(atPath: CLibrary.header))
        let source = install.prefix + "/version.c"
        try """
        #include <screenplay/screenplay.h>
        #include <stdio.h>
        int main(void) {
            unsigned v = screenplay_version();
            printf("%u.%u.%u %d\\n", v >> 16, (v >> 8) & 0xff, v & 0xff, v == SCREENPLAY_VERSION);
            return 0;
        }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        try install.buildC(source, output: install.prefix + "/version")
        let output = try install.shell("'\(install.prefix)/version'").stdout
        XCTAssertEqual(output, "\(version) 1\n")
    }

    func testTheHeaderCompilesAsStrictC99AndAsCxx17() throws {
        let directory = NSTemporaryDirectory() + "screenplay-header-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        let include = URL(fileURLWithPath: CLibrary.header).deletingLastPathComponent().deletingLastPathComponent().path
        for (file, compiler, standard) in [("a.c", "cc", "-std=c99"), ("a.cpp", "c++", "-std=c++17")] {
            let source = directory + "/" + file
            // Every declaration used once, so a C++-hostile construct anywhere shows.
            try
                "#include <screenplay/screenplay.h>\nint main(void) { return screenplay_version() == SCREENPLAY_VERSION ? 0 : 1; }\n"
                .write(toFile: source, atomically: true, encoding: .utf8)
            let result = try runProcess(
                compiler,
                [
                    standard, "-Wall", "-Wextra", "-Werror", "-pedantic", "-I", include, "-c", source, "-o",
                    source + ".o",
                ], timeout: 60)
            XCTAssertEqual(result.status, 0, "\(compiler) \(standard): \(result.stderr)")
        }
    }

    func testTheGuidesProgramBuildsAsWrittenAgainstTheInstalledLibrary() throws {
        let install = try ScratchInstall(self)
        let (guide, program) = try CLibrary.guideProgram()
        try (program + "\n").write(toFile: install.prefix + "/guide.c", atomically: true, encoding: .utf8)
        // The command line the guide gives.
        XCTAssertTrue(
            guide.contains(
                "cc -std=c99 -Wall -Wextra -Werror -pedantic guide.c -o guide $(pkg-config --cflags --libs screenplay)")
        )
        try install.shell(
            "cd '\(install.prefix)' && cc -std=c99 -Wall -Wextra -Werror -pedantic guide.c -o guide $(pkg-config --cflags --libs screenplay)"
        )
        // Without a compositor it fails loudly: the reason and the fix, exit 1.
        var environment = install.environment
        environment["WAYLAND_DISPLAY"] = "no-such-socket"
        let run = try runProcess(install.prefix + "/guide", [], environment: environment, timeout: 20)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("no-such-socket"), run.stderr)
    }
}
