import Foundation
import TestHarness
import TestSupport
import XCTest

/// contrib/screenplay-kiosk@.service, the unit that boots a box with no
/// desktop into its playlist: its own `ExecStart` (read from the file, with
/// the settings of contrib/screenplay-kiosk.conf) runs as the unprivileged
/// rig user under a headless cage with one output, with the defaults a user
/// gets (no `SCREENPLAY_BUILTIN`, no `--all`), and the playlist reaches the
/// screen. What systemd adds around it (PAM, the VT, the sandbox) needs a
/// booted systemd, which this machine has not: `systemd-analyze verify` and
/// `security` check the file (InstallTests), scripts/deb-install-check.sh
/// the installed package.
final class KioskTests: ScreenplayTestCase {
    func testUnitsCommandPlaysThePlaylistAsItsUserUnderCageAndNotifiesSystemd() throws {
        try CLI.requireBinary()
        let account = try rigAccount()
        let unit = try SystemdUnitFile(path: checkoutRoot + "/contrib/screenplay-kiosk@.service")
        let scratch = NSTemporaryDirectory() + "kiosk-\(getpid())-\(UUID().uuidString.prefix(6))"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: scratch) }
        // systemd makes these for the unit (RuntimeDirectory=, StateDirectory=,
        // CacheDirectory=) owned by its User=.
        let specifiers: [Character: String] = [
            "i": account.name, "t": scratch + "/run", "S": scratch + "/lib", "C": scratch + "/cache",
        ]
        for directory in [
            "run/screenplay-kiosk-\(account.name)", "lib/screenplay-kiosk/\(account.name)",
            "cache/screenplay-kiosk/\(account.name)",
        ] {
            try FileManager.default.createDirectory(
                atPath: scratch + "/" + directory, withIntermediateDirectories: true)
            XCTAssertEqual(chown(scratch + "/" + directory, account.uid, account.gid), 0, directory)
            XCTAssertEqual(chmod(scratch + "/" + directory, 0o700), 0, directory)
        }
        let (_, playlist) = try signagePlaylist(
            """
            {"playlists": {"lobby": [{"color": "ff0000", "duration": 2}, {"color": "0000ff", "duration": 2}]},
             "default": "lobby"}
            """)
        var settings = try SystemdUnitFile.environmentFile(checkoutRoot + "/contrib/screenplay-kiosk.conf")
        XCTAssertNotNil(settings["SCREENPLAY_PLAYLIST"], "the example settings name the playlist")
        settings["SCREENPLAY_PLAYLIST"] = playlist

        let execStart = try XCTUnwrap(unit.values("ExecStart", in: "Service").first, "no ExecStart")
        XCTAssertEqual(unit.values("ExecStart", in: "Service").count, 1)
        var command = try SystemdUnitFile.commandLine(execStart, specifiers: specifiers, environment: settings)
        XCTAssertEqual(command.first, "/usr/bin/cage", "the unit runs Debian's cage: \(command)")
        // The built binary stands in for the installed one, as install.sh points the unit at its prefix.
        command = command.map { $0 == "/usr/bin/screenplay" ? CLI.binary : $0 }
        XCTAssertTrue(command.contains(CLI.binary), "screenplay runs inside cage: \(command)")
        // cage 0.1.4's headless output reads black to grim unless turned (FIELD-NOTES);
        // two quarter turns keep colours where they are. Real DRM outputs need no turn.
        command.insert(contentsOf: ["-r", "-r"], at: 1)

        var environment: [String: String] = [:]
        for assignment in unit.values("Environment", in: "Service") {
            for word in try SystemdUnitFile.commandLine(assignment, specifiers: specifiers, environment: [:]) {
                let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
                XCTAssertEqual(parts.count, 2, "Environment= takes NAME=VALUE: \(word)")
                if parts.count == 2 { environment[parts[0]] = parts[1] }
            }
        }
        XCTAssertNil(environment["SCREENPLAY_BUILTIN"])
        // cage's Wayland socket goes to the unit's RuntimeDirectory= (no logind
        // session makes /run/user/UID); the rig waits for it in a runtime folder
        // of its own kind, so that is where this cage puts it.
        XCTAssertEqual(environment["XDG_RUNTIME_DIR"], scratch + "/run/screenplay-kiosk-\(account.name)")
        environment["XDG_RUNTIME_DIR"] = nil
        let listener = try NotifyListener()
        addTeardownBlock { listener.stop() }
        // play runs as the unit's user and must reach the manager's socket.
        XCTAssertEqual(chmod(listener.path, 0o666), 0)
        environment["NOTIFY_SOCKET"] = listener.path
        environment["WATCHDOG_USEC"] = "2000000"
        // systemd names the main process, cage, in WATCHDOG_PID: the shell that
        // becomes cage (exec) learns its own pid.
        let rig = try CageRig.run(
            ["/bin/sh", "-c", #"WATCHDOG_PID=$$ exec "$@""#, "sh"] + command, environment: environment)
        addTeardownBlock { rig.stop() }

        var image: RigImage?
        for colour in [RGB(hex: 0xff0000), RGB(hex: 0x0000ff)] {
            let shown = waitUntil(timeout: 10) {
                image = try? rig.capture()
                return image?.fraction(of: colour, tolerance: 2) == 1.0
            }
            XCTAssertTrue(
                shown,
                "the playlist's \(colour) never filled cage's only output (centre \(String(describing: image.map { $0.pixel(x: $0.width / 2, y: $0.height / 2) }))); log:\n\(rig.log)"
            )
        }
        let play = try XCTUnwrap(rig.compositorPID(named: "screenplay"), "no screenplay under cage; log:\n\(rig.log)")
        let owner = try runProcess("/bin/ps", ["-o", "user=", "-p", "\(play)"], environment: [:], timeout: 10)
        XCTAssertEqual(owner.stdout.trimmingCharacters(in: .whitespacesAndNewlines), account.name)

        XCTAssertTrue(waitUntil(timeout: 5) { listener.texts.contains("READY=1") }, "\(listener.texts)\n\(rig.log)")
        XCTAssertTrue(
            waitUntil(timeout: 5) { listener.texts.filter { $0 == "WATCHDOG=1" }.count >= 2 },
            "play pings the watchdog systemd set for cage, its parent: \(listener.texts)")

        // ExecReload's command reaches play on the unit's socket, as the unit's user.
        let reload = try XCTUnwrap(unit.values("ExecReload", in: "Service").first, "no ExecReload")
        let ctl = try SystemdUnitFile.commandLine(reload, specifiers: specifiers, environment: settings)
            .map { $0 == "/usr/bin/screenplay" ? CLI.binary : $0 }
        let asUser = geteuid() == 0 ? ["/usr/sbin/runuser", "-u", account.name, "--"] : []
        let reloaded = try runProcess(
            (asUser + ctl)[0], Array((asUser + ctl).dropFirst()), environment: ["PATH": "/usr/bin:/bin"],
            timeout: 20)
        XCTAssertEqual(reloaded.status, 0, "\(ctl): \(reloaded.stdout)\(reloaded.stderr)")
    }
}

/// The parts of a systemd unit file and of its command lines the kiosk tests
/// read, with systemd's rules for what the unit uses; anything else fails.
struct SystemdUnitFile {
    private var entries: [(section: String, key: String, value: String)] = []

    init(path: String) throws {
        var section = ""
        for raw in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasSuffix("\\") { throw RigError("\(path): continued lines are not read here: \(line)") }
            if line.hasPrefix("[") {
                section = String(line.dropFirst().dropLast())
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { throw RigError("\(path): not KEY=VALUE: \(line)") }
            entries.append(
                (
                    section, line[..<equals].trimmingCharacters(in: .whitespaces),
                    line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                ))
        }
    }

    /// Every value of `key` in `section`, in order.
    func values(_ key: String, in section: String) -> [String] {
        entries.filter { $0.section == section && $0.key == key }.map(\.value)
    }

    /// An EnvironmentFile=: KEY=VALUE lines, `#` comments; values as written.
    static func environmentFile(_ path: String) throws -> [String: String] {
        var values: [String: String] = [:]
        for raw in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "="), !line.contains("\""), !line.contains("'") else {
                throw RigError("\(path): expected KEY=VALUE without quotes, got \(line)")
            }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return values
    }

    /// A command line as systemd runs it: words split at spaces, `%x`
    /// specifiers replaced, a word that is `$NAME` split into the value's
    /// words, `${NAME}` one word (both empty when unset). Quotes and
    /// variables inside words are not used by the unit and fail here.
    static func commandLine(_ line: String, specifiers: [Character: String], environment: [String: String]) throws
        -> [String]
    {
        var words: [String] = []
        for word in line.split(separator: " ") {
            if word.contains("\"") || word.contains("'") || word.contains("\\") {
                throw RigError("quoting is not read here: \(word)")
            }
            var expanded = ""
            var characters = word.makeIterator()
            while let character = characters.next() {
                guard character == "%" else {
                    expanded.append(character)
                    continue
                }
                guard let name = characters.next() else { throw RigError("a lone % ends \(word)") }
                if name == "%" {
                    expanded.append("%")
                } else if let value = specifiers[name] {
                    expanded.append(value)
                } else {
                    throw RigError("specifier %\(name) of \(word) is not known to the test")
                }
            }
            if expanded.hasPrefix("${"), expanded.hasSuffix("}") {
                words.append(environment[String(expanded.dropFirst(2).dropLast())] ?? "")
            } else if expanded.hasPrefix("$") {
                words += (environment[String(expanded.dropFirst())] ?? "").split(separator: " ").map(String.init)
            } else if expanded.contains("$") {
                throw RigError("a variable inside a word is not read here: \(word)")
            } else {
                words.append(expanded)
            }
        }
        return words
    }
}
