import Foundation
import TestHarness
import TestSupport
import XCTest

/// scripts/install.sh lays out what a box needs (binary, a man page per
/// command, bash completion), and the completion follows the binary's own
/// help. The .deb on a fresh Debian 12 is scripts/deb-install-check.sh
/// (minutes: not a test).
final class InstallTests: ScreenplayTestCase {
    private var checkout: String { checkoutRoot }

    /// A scratch folder (removed after the test) and scripts/install.sh run
    /// with the built binary, `arguments` and `DESTDIR` (nil: none).
    private func install(_ arguments: (String) -> [String], destdir: (String) -> String?) throws -> String {
        try CLI.requireBinary()
        let scratch = NSTemporaryDirectory() + "screenplay-install-\(getpid())-\(UUID().uuidString.prefix(6))"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: scratch) }
        var environment = ProcessInfo.processInfo.environment
        environment["DESTDIR"] = destdir(scratch)
        let result = try runProcess(
            checkout + "/scripts/install.sh",
            arguments(scratch) + ["--binary", CLI.binary, "--library", CLibrary.built], environment: environment,
            timeout: 120)
        XCTAssertEqual(result.status, 0, result.stderr)
        return scratch
    }

    func testInstallLaysOutBinaryManPagesAndCompletion() throws {
        let root = try install({ _ in ["--prefix", "/opt/sp"] }, destdir: { $0 }) + "/opt/sp"
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
        // ... and so is the playlist format (ArgumentsTests holds the help to the parser's keys).
        XCTAssertTrue(play.contains("PLAYLIST FILE (JSON"), play)
        for key in ["playlists", "panels", "default", "sync", "pages", "rotate", "seconds"] {
            XCTAssertTrue(play.contains("\n\(key)\n") || play.contains("\n\(key) "), "no \(key) in the man page")
        }
        XCTAssertTrue(play.contains(".SH NAME\nscreenplay-play \\- Play playlists"), play)
        // The presenter's keys are where a speaker looks: `man screenplay-present`.
        let present = try runProcess(
            "/bin/sh", ["-c", "gzip -dc '\(root)/share/man/man1/screenplay-present.1.gz'"],
            environment: ["PATH": "/usr/bin:/bin"], timeout: 10
        ).stdout
        XCTAssertTrue(present.contains("KEYS"), present)
        for row in [
            "Shift+F5", "swap screens", "ask to end the talk", "this list on the console",
            "clear the drawings of every slide",
        ] {
            XCTAssertTrue(present.contains(row), "no \(row) in screenplay-present(1)")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/share/bash-completion/completions/screenplay"))
        XCTAssertEqual(
            FileManager.default.contents(atPath: root + "/share/screenplay/playlist.schema.json"),
            FileManager.default.contents(atPath: checkout + "/docs/playlist.schema.json"), "the playlist schema")
    }

    func testBashCompletionReadsCommandsAndOptionsFromTheBinary() throws {
        try CLI.requireBinary()
        let script = """
            source '\(checkout)/contrib/bash-completion/screenplay'
            complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_WORDS[0]='\(CLI.binary)'; COMPREPLY=(); _screenplay; echo "${COMPREPLY[*]}"; }
            complete_words screenplay p
            complete_words screenplay present --st
            complete_words screenplay play --re
            complete_words screenplay play --no
            complete_words screenplay present --ta
            complete_words screenplay present --layer b
            """
        let result = try runProcess("/bin/bash", ["-c", script], environment: ["PATH": "/usr/bin:/bin"], timeout: 20)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
            [
                "present play power", "--stall-grace --start-time --stats", "", "--no-reconnect", "--talk-minutes",
                "bottom background", "",
            ], result.stdout)
    }

    /// The project's licence is Apache-2.0 in full, and the .deb's copyright
    /// file (contrib/debian/copyright, which package-deb.sh installs) is in
    /// Debian's machine-readable format: python3-debian's strict parser, the
    /// one Debian's tools use, reads it and finds Apache-2.0 for every file,
    /// and for the binary also the Swift runtime's exception and ICU's
    /// Unicode License V3 with its text.
    func testLicenceIsApacheAndTheCopyrightFileIsMachineReadable() throws {
        let licence = try String(contentsOfFile: checkout + "/LICENSE", encoding: .utf8)
        let debian = try String(contentsOfFile: "/usr/share/common-licenses/Apache-2.0", encoding: .utf8)
        XCTAssertEqual(
            licence.trimmingCharacters(in: .newlines), debian.trimmingCharacters(in: .newlines),
            "LICENSE must be the standard Apache License 2.0 text (Debian's /usr/share/common-licenses/Apache-2.0)")
        let script = """
            import sys
            from debian.copyright import Copyright
            with open(sys.argv[1], encoding="utf-8") as f:
                c = Copyright(f, strict=True)
            print(c.header.format)
            print(c.header.upstream_name)
            for p in c.all_files_paragraphs():
                print(" ".join(p.files), "=", p.license.synopsis)
            print("standalone:", ",".join(p.license.synopsis for p in c.all_license_paragraphs()))
            print("screenplay:", c.find_files_paragraph("usr/bin/screenplay").license.synopsis)
            print("other:", c.find_files_paragraph("usr/share/doc/screenplay/changelog.Debian.gz").license.synopsis)
            # ICU (in the binary through Foundation) needs its licence's full text.
            unicode = [p for p in c.all_license_paragraphs() if p.license.synopsis == "Unicode-3.0"]
            print("unicode:", unicode[0].license.text.splitlines()[0] if unicode else "missing")
            """
        let result = try runProcess(
            "/usr/bin/python3", ["-c", script, checkout + "/contrib/debian/copyright"],
            environment: ["PATH": "/usr/bin:/bin"], timeout: 20)
        XCTAssertEqual(result.status, 0, "python3-debian refused contrib/debian/copyright: \(result.stderr)")
        XCTAssertEqual(
            result.stdout.split(separator: "\n").map(String.init),
            [
                "https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/", "Screenplay", "* = Apache-2.0",
                "usr/bin/screenplay = Apache-2.0 with Runtime Library Exception and Unicode-3.0",
                "standalone: Apache-2.0,Apache-2.0 with Runtime Library Exception,Unicode-3.0",
                "screenplay: Apache-2.0 with Runtime Library Exception and Unicode-3.0",
                "other: Apache-2.0", "unicode: UNICODE LICENSE V3",
            ], result.stdout)
    }

    /// `--version` names the program, the release and the commit the binary
    /// was built from (scripts/build-commit.sh, run by Plugins/BuildCommit
    /// before every build): a commit of this checkout. The script itself
    /// says "modified" for a changed tracked file, and nothing made up where
    /// there is no git checkout.
    func testVersionNamesTheCommitItWasBuiltFrom() throws {
        try CLI.requireBinary()
        let line = try CLI.run(["--version"], environment: [:]).stdout.trimmingCharacters(in: .newlines)
        let pattern = try NSRegularExpression(
            pattern: #"^screenplay [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]{7,})(, modified)?\)$"#)
        let match = try XCTUnwrap(
            pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
            "--version printed \"\(line)\", not \"screenplay VERSION (commit HASH)\"")
        let hash = String(line[Range(match.range(at: 1), in: line)!])
        let git = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        let kind = try runProcess(
            "/usr/bin/git", ["-C", checkout, "cat-file", "-t", hash], environment: git, timeout: 10)
        XCTAssertEqual(kind.stdout, "commit\n", "\(hash) is no commit of \(checkout): \(kind.stderr)")

        let scratch = NSTemporaryDirectory() + "screenplay-commit-\(getpid())-\(UUID().uuidString.prefix(6))"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch + "/repo", withIntermediateDirectories: true)
        func record(_ checkout: String) throws -> [String] {
            let result = try runProcess(
                "/bin/sh", [self.checkout + "/scripts/build-commit.sh", checkout, scratch + "/out"], environment: git,
                timeout: 10)
            XCTAssertEqual(result.status, 0, result.stderr)
            let text = try String(contentsOfFile: scratch + "/out/BuildCommit.swift", encoding: .utf8)
            return text.split(separator: "\n").dropFirst().map(String.init)
        }
        XCTAssertEqual(
            try record(scratch + "/repo"), ["let buildCommit: String? = nil", "let buildTreeModified = false"],
            "no git checkout: no commit")
        let setUp = try runProcess(
            "/bin/sh",
            [
                "-c",
                "cd '\(scratch)/repo' && git init -q && echo a >f && git add f && "
                    + "git -c user.name=t -c user.email=t@localhost commit -qm one && git rev-parse --short=7 HEAD",
            ], environment: git, timeout: 10)
        XCTAssertEqual(setUp.status, 0, setUp.stderr)
        let commit = setUp.stdout.trimmingCharacters(in: .newlines)
        XCTAssertEqual(
            try record(scratch + "/repo"),
            ["let buildCommit: String? = \"\(commit)\"", "let buildTreeModified = false"])
        try "b\n".write(toFile: scratch + "/repo/f", atomically: true, encoding: .utf8)
        XCTAssertEqual(
            try record(scratch + "/repo"), ["let buildCommit: String? = \"\(commit)\"", "let buildTreeModified = true"])
    }

    /// Every unit in contrib/ passes `systemd-analyze verify` (no error, no
    /// warning) as `install.sh --kiosk` installs it, under a real prefix so
    /// the binaries and man pages it names exist; the kiosk's template as an
    /// instance. The kiosk unit keeps `systemd-analyze security`'s exposure
    /// at 2.0 or below (9.4 without its hardening), and at 2.4 or below with
    /// its network drop-in (IP sockets, no address filter), at 3.2 or below
    /// with its web drop-in too (bubblewrap's namespaces and mounts), which
    /// verify too; its PAM service and settings example are installed, and nothing
    /// enables it.
    func testEveryUnitInContribVerifiesAsInstalledAndTheKioskStaysHardened() throws {
        let root = try install(
            { ["--prefix", $0 + "/usr", "--sysconfdir", $0 + "/etc", "--kiosk"] }, destdir: { _ in nil })
        try FileManager.default.createDirectory(atPath: root + "/run", withIntermediateDirectories: true)
        chmod(root + "/run", 0o700)
        let analyze = [
            "PATH": "/usr/bin:/bin", "MANPATH": root + "/usr/share/man", "HOME": root, "XDG_RUNTIME_DIR": root + "/run",
        ]

        let contrib = try FileManager.default.contentsOfDirectory(atPath: checkout + "/contrib")
            .filter { $0.hasSuffix(".service") }.sorted()
        var verified: [String] = []
        for (folder, scope) in [("system", [String]()), ("user", ["--user"])] {
            let units = root + "/usr/lib/systemd/" + folder
            for name in try FileManager.default.contentsOfDirectory(atPath: units).sorted() {
                // A template verifies as an instance: %i is the kiosk's user.
                let copy = root + "/verify-\(folder)/" + name.replacingOccurrences(of: "@.", with: "@signage.")
                try FileManager.default.createDirectory(
                    atPath: (copy as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: units + "/" + name, toPath: copy)
                let verify = try runProcess(
                    "/usr/bin/systemd-analyze", scope + ["verify", copy], environment: analyze, timeout: 60)
                XCTAssertEqual(verify.status, 0, "\(name): \(verify.stderr)")
                XCTAssertEqual(verify.stderr, "", "systemd-analyze warns about \(name)")
                verified.append(name)
            }
        }
        XCTAssertEqual(verified.sorted(), contrib, "every unit of contrib/ is installed and verified")

        let kiosk = root + "/verify-system/screenplay-kiosk@signage.service"
        let security = try runProcess(
            "/usr/bin/systemd-analyze", ["security", "--offline=true", "--threshold=20", kiosk], environment: analyze,
            timeout: 60)
        XCTAssertEqual(security.status, 0, "the kiosk unit's exposure rose above 2.0:\n\(security.stdout)")
        XCTAssertTrue(security.stdout.contains("Overall exposure level"), security.stdout)
        XCTAssertTrue(
            security.stdout.contains("✓ RestrictAddressFamilies=~AF_(INET|INET6)"), "offline, no IP sockets")

        // The network drop-in, linked for the instance as docs/kiosk.md enables
        // it: it verifies, opens IP sockets and the address filter, and the
        // exposure stays at 2.4 or below (2.0 without it).
        let dropIns = kiosk + ".d"
        try FileManager.default.createDirectory(atPath: dropIns, withIntermediateDirectories: true)
        let network = root + "/usr/share/screenplay/kiosk-network.conf"
        try FileManager.default.createSymbolicLink(atPath: dropIns + "/network.conf", withDestinationPath: network)
        // The kiosk with its drop-ins as linked now: it verifies without a
        // warning, and its exposure is at most `threshold` tenths.
        func rated(_ what: String, threshold: Int) throws -> String {
            let verify = try runProcess(
                "/usr/bin/systemd-analyze", ["verify", kiosk], environment: analyze, timeout: 60)
            XCTAssertEqual(verify.status, 0, verify.stderr)
            XCTAssertEqual(verify.stderr, "", "systemd-analyze warns about the kiosk with \(what)")
            let security = try runProcess(
                "/usr/bin/systemd-analyze", ["security", "--offline=true", "--threshold=\(threshold)", kiosk],
                environment: analyze, timeout: 60)
            XCTAssertEqual(
                security.status, 0, "the kiosk's exposure with \(what) rose above \(threshold):\n\(security.stdout)")
            return security.stdout
        }
        let networked = try rated("its network drop-in", threshold: 24)
        for line in ["✗ RestrictAddressFamilies=~AF_(INET|INET6)", "✗ IPAddressDeny="] {
            XCTAssertTrue(networked.contains(line), "the drop-in does not open the network: no \(line)")
        }
        for line in ["✓ RestrictAddressFamilies=~AF_PACKET", "✓ RestrictAddressFamilies=~…"] {
            XCTAssertTrue(networked.contains(line), "the drop-in opens more than IP: no \(line)")
        }
        let level = networked.split(separator: "\n").first { $0.contains("Overall exposure level") }

        // The web drop-in beside it, for WebKit's bubblewrap: the namespaces
        // and mount calls it makes, nothing more; 3.2 or below.
        try FileManager.default.createSymbolicLink(
            atPath: dropIns + "/web.conf", withDestinationPath: root + "/usr/share/screenplay/kiosk-web.conf")
        let web = try rated("both drop-ins", threshold: 32)
        for line in ["✗ RestrictNamespaces=~user", "✗ RestrictNamespaces=~mnt", "✗ SystemCallFilter=~@mount"] {
            XCTAssertTrue(web.contains(line), "the web drop-in does not allow bubblewrap: no \(line)")
        }
        for line in ["✓ RestrictNamespaces=~cgroup", "✓ SystemCallFilter=~@module", "✓ SystemCallFilter=~@swap"] {
            XCTAssertTrue(web.contains(line), "the web drop-in allows more than bubblewrap needs: no \(line)")
        }
        let webLevel = web.split(separator: "\n").first { $0.contains("Overall exposure level") }
        print(
            "kiosk exposure: \(security.stdout.split(separator: "\n").last ?? ""); with the network drop-in: \(level ?? ""); with the web drop-in too: \(webLevel ?? "")"
        )
        try FileManager.default.removeItem(atPath: dropIns)

        let unit = try String(contentsOfFile: kiosk, encoding: .utf8)
        XCTAssertTrue(unit.contains(" -- \(root)/usr/bin/screenplay play "), "ExecStart runs the installed binary")
        XCTAssertTrue(unit.contains("EnvironmentFile=\(root)/etc/screenplay/kiosk-%i.conf"), unit)
        XCTAssertEqual(
            try String(contentsOfFile: root + "/etc/pam.d/screenplay-kiosk", encoding: .utf8),
            try String(contentsOfFile: checkout + "/contrib/screenplay-kiosk.pam", encoding: .utf8))
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/usr/share/doc/screenplay/examples/kiosk.conf"))
        // The proof-of-play files the kiosk writes are rotated, not left to fill the disk.
        XCTAssertEqual(
            try String(contentsOfFile: root + "/etc/logrotate.d/screenplay", encoding: .utf8),
            try String(contentsOfFile: checkout + "/contrib/logrotate/screenplay", encoding: .utf8))
        // Enabling a unit is a symlink under a systemd directory (the
        // library's libscreenplay.so link is no unit).
        let enabled = try runProcess(
            "/usr/bin/find", [root, "-name", "*.wants", "-o", "-type", "l", "-path", "*/systemd/*"],
            environment: analyze, timeout: 10)
        XCTAssertEqual(enabled.stdout, "", "install.sh enables nothing")
    }
}
