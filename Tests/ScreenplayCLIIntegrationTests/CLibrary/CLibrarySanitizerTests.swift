import Foundation
import TestHarness
import TestSupport
import XCTest

/// The pinball example for a minute while its TV is unplugged and a new one
/// plugged in, twice, with a key now and then. Under scripts/sanitize.sh the
/// library is built with AddressSanitizer, and the example too: then any
/// invalid access anywhere, or a leak with a frame in libscreenplay, fails
/// (leaks that never pass through libscreenplay, SDL's or Mesa's, are
/// listed in the failure message only if libscreenplay leaks too).
final class CLibrarySanitizerTests: ScreenplayTestCase {
    /// Whether the built library is instrumented (built by scripts/sanitize.sh).
    static func libraryIsInstrumented() throws -> Bool {
        let nm = try runProcess("nm", ["-D", CLibrary.built], timeout: 20)
        return nm.stdout.contains("__asan_")
    }

    func testPinballThroughTwoUnplugsInAMinuteHasNoMemoryErrorOrLeak() throws {
        let install = try ScratchInstall(self)
        let sanitized = try Self.libraryIsInstrumented()
        let examples = install.prefix + "/share/doc/screenplay/examples/c-pinball"
        let pinball = examples + "/pinball"
        if sanitized {
            // The toolchain's clang: its ASan runtime is the one the Swift library was built against.
            let clang = try Self.toolchainClang()
            try install.buildC(
                examples + "/pinball.c", output: pinball, packages: "screenplay sdl2 glesv2", compiler: clang,
                flags: "-std=c99 -g -fsanitize=address -fno-omit-frame-pointer")
        } else {
            try install.buildC(examples + "/pinball.c", output: pinball, packages: "screenplay sdl2 glesv2")
        }
        let rig = try NestedSwayRig.start(outputs: 2)
        addTeardownBlock { rig.stop() }
        try rig.focusOutput("WL-1")
        var environment = rig.clientEnvironment
        environment["SCREENPLAY_BUILTIN"] = "WL-1"
        environment["LD_LIBRARY_PATH"] = install.prefix + "/lib"
        let logs = install.prefix + "/asan"
        if sanitized {
            // Mesa's driver kept loaded, as scripts/sanitize.sh does, so its frames are readable.
            environment["LD_PRELOAD"] = ProcessInfo.processInfo.environment["LD_PRELOAD"]
            // The fast unwinder (the slow one makes Mesa's start take minutes):
            // a stack ends at the first library without frame pointers (SDL,
            // xkbcommon, fontconfig), so such a leak is attributed by that library.
            environment["ASAN_OPTIONS"] = "detect_leaks=1:exitcode=86:log_path=\(logs)"
            environment["LSAN_OPTIONS"] =
                "suppressions=\(CLibrary.checkout)/scripts/lsan.supp:print_suppressions=0"
        }
        let p = try RunningProcess(pinball, [], environment: environment)
        addTeardownBlock { p.kill() }
        XCTAssertTrue(waitUntil(timeout: 30) { p.stderr.contains("backglass on WL-2") }, p.stderr)

        let start = Date()
        var tv = "WL-2"
        var presses = 0
        for cycle in 1...2 {
            for _ in 0..<2 {
                try typeKeys(["-k", "Left"], environment)
                presses += 1
                Thread.sleep(forTimeInterval: 2)
            }
            try rig.removeOutput(tv)
            XCTAssertTrue(
                waitUntil(timeout: 15) { p.stderr.contains("screen \(tv) disconnected") },
                "unplug \(cycle): \(p.stderr)")
            Thread.sleep(forTimeInterval: 5)
            tv = try rig.addOutput()
            XCTAssertTrue(
                waitUntil(timeout: 20) { p.stderr.contains("backglass on \(tv)") }, "plug \(cycle): \(p.stderr)")
        }
        // The rest of the minute with the TV in and a key now and then.
        while Date().timeIntervalSince(start) < 60 {
            try typeKeys(["-k", "Right"], environment)
            presses += 1
            Thread.sleep(forTimeInterval: 3)
        }
        XCTAssertTrue(p.isRunning, p.stderr)
        XCTAssertNotNil(p.waitForLine(containing: "score", timeout: 5), "keys reached the game")
        p.terminate()
        let status = p.wait(timeout: sanitized ? 60 : 10)
        let reports = ((try? FileManager.default.contentsOfDirectory(atPath: install.prefix)) ?? [])
            .filter { $0.hasPrefix("asan") }
            .compactMap { try? String(contentsOfFile: install.prefix + "/" + $0, encoding: .utf8) }
            .joined(separator: "\n")
        let (ours, others) = Self.attribute(reports)
        XCTAssertEqual(ours, [], "AddressSanitizer reports through libscreenplay:\n\(ours.joined(separator: "\n\n"))")
        if ours.isEmpty && !others.isEmpty {
            // Leaks of SDL or Mesa alone make LSan exit 86: not ours, and said so.
            XCTAssertTrue(
                others.allSatisfy { $0.contains("leak of") }, "memory errors outside libscreenplay:\n\(others.joined())"
            )
            print("LSan leaks outside libscreenplay (not failures):\n\(others.joined(separator: "\n\n"))")
            XCTAssertTrue(status == 0 || status == 86, "exit \(String(describing: status)); \(p.stderr)")
        } else {
            XCTAssertEqual(status, 0, "exit status; stderr:\n\(p.stderr)")
        }
        XCTAssertTrue(p.stderr.contains("stopped"), p.stderr)
    }

    /// The clang beside the swiftc on PATH.
    static func toolchainClang() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":")
        where FileManager.default.isExecutableFile(atPath: "\(directory)/swiftc") {
            let clang = "\(directory)/clang"
            if FileManager.default.isExecutableFile(atPath: clang) { return clang }
        }
        throw RigError(
            "no clang beside swiftc on PATH (\(path)): the Swift toolchain's clang builds the example with ASan")
    }

    /// Splits ASan/LSan reports into those with a frame in libscreenplay
    /// (or any memory error that is no leak) and the other leaks.
    static func attribute(_ reports: String) -> (ours: [String], others: [String]) {
        var ours: [String] = [], others: [String] = []
        // Each finding starts with "ERROR: AddressSanitizer" or a leak's "Direct/Indirect leak of".
        let blocks = reports.components(separatedBy: "\n\n").filter { $0.contains("#0 ") }
        for block in blocks {
            let isLeak = block.contains("leak of")
            // A frame of the library: its file when not symbolized, its sources or Swift symbols when it is.
            let throughUs = ["libscreenplay", "/Sources/", "$s1", "Screenplay"].contains { block.contains($0) }
            if !isLeak || throughUs { ours.append(block) } else { others.append(block) }
        }
        return (ours, others)
    }
}
