import Foundation
import TestHarness
import TestSupport
import XCTest

/// scripts/install.sh lays out what a box needs (binary, a man page per
/// command, bash completion), and the completion follows the binary's own
/// help. The .deb on a fresh Debian 12 is scripts/deb-install-check.sh
/// (minutes: not a test).
final class InstallTests: ScreenplayTestCase {
    private var checkout: String {
        // Tests/ScreenplayCLIIntegrationTests/InstallTests.swift -> the checkout.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    func testInstallLaysOutBinaryManPagesAndCompletion() throws {
        try CLI.requireBinary()
        let stage = NSTemporaryDirectory() + "screenplay-install-\(getpid())-\(UUID().uuidString.prefix(6))"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: stage) }
        var environment = ProcessInfo.processInfo.environment
        environment["DESTDIR"] = stage
        let result = try runProcess(
            checkout + "/scripts/install.sh", ["--prefix", "/opt/sp", "--binary", CLI.binary], environment: environment,
            timeout: 120)
        XCTAssertEqual(result.status, 0, result.stderr)
        let root = stage + "/opt/sp"
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: root + "/bin/screenplay"))
        let version = try runProcess(root + "/bin/screenplay", ["--version"], environment: [:], timeout: 10)
        XCTAssertEqual(
            version.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
            try CLI.run(["--version"], environment: [:]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        let pages = try FileManager.default.contentsOfDirectory(atPath: root + "/share/man/man1").sorted()
        XCTAssertEqual(
            pages,
            [
                "screenplay-ctl.1.gz", "screenplay-demo.1.gz", "screenplay-doctor.1.gz", "screenplay-outputs.1.gz",
                "screenplay-play.1.gz",
                "screenplay-power.1.gz", "screenplay-present.1.gz", "screenplay.1.gz",
            ])
        // The page is the help text: an option added to `play` is in it.
        let play = try runProcess(
            "/bin/sh", ["-c", "gzip -dc '\(root)/share/man/man1/screenplay-play.1.gz'"],
            environment: ["PATH": "/usr/bin:/bin"], timeout: 10
        ).stdout
        XCTAssertTrue(play.contains(#"\-\-stall\-grace"#), play)
        XCTAssertTrue(play.contains(".SH NAME\nscreenplay-play \\- Play playlists"), play)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/share/bash-completion/completions/screenplay"))
    }

    func testBashCompletionReadsCommandsAndOptionsFromTheBinary() throws {
        try CLI.requireBinary()
        let script = """
            source '\(checkout)/contrib/bash-completion/screenplay'
            complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_WORDS[0]='\(CLI.binary)'; COMPREPLY=(); _screenplay; echo "${COMPREPLY[*]}"; }
            complete_words screenplay p
            complete_words screenplay present --st
            complete_words screenplay play --re
            complete_words screenplay present --layer b
            """
        let result = try runProcess("/bin/bash", ["-c", script], environment: ["PATH": "/usr/bin:/bin"], timeout: 20)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
            ["present play power", "--stall-grace --stats", "--reconnect", "bottom background", ""], result.stdout)
    }
}
