import Foundation
import TestSupport
import XCTest

/// The proof-of-play file under log rotation and on a full disk.
extension PlayTests {
    /// Proof lines in `paths`, in file order.
    func proofLines(_ paths: [String]) -> [StatsEvent] {
        paths.flatMap { path in
            ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                StatsEvent(String($0))
            }
        }
    }

    /// An item boundary: the panel and the presentation time.
    func boundaries(_ events: [StatsEvent]) -> [String] {
        events.filter { $0.event == "item" }.map { "\($0.output) \($0.int("presented_ns"))" }
    }

    /// Real logrotate with contrib/logrotate/screenplay (its folder made
    /// this test's, its glob kept), forced every 1.5 s while items switch every
    /// 0.3 s: every item boundary is in exactly one of the files (the
    /// current one, the uncompressed first, the gzipped older ones), and
    /// SIGUSR1 (a postrotate script's) is taken, not fatal. A file
    /// truncated in place (`copytruncate`) goes on from its start, without
    /// a hole.
    func testProofFileFollowsRotation() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 320, height: 240)])
        let folder = try mediaFolder()
        let proof = folder + "/kiosk-user/proof.jsonl"
        try FileManager.default.createDirectory(atPath: folder + "/kiosk-user", withIntermediateDirectories: true)
        let snippet = try String(contentsOfFile: checkoutRoot + "/contrib/logrotate/screenplay", encoding: .utf8)
        XCTAssertTrue(snippet.contains("/var/log/screenplay-kiosk/*/proof.jsonl {"), snippet)
        let configuration = folder + "/logrotate.conf"
        try snippet.replacingOccurrences(of: "/var/log/screenplay-kiosk/", with: folder + "/")
            .write(toFile: configuration, atomically: true, encoding: .utf8)
        let playlist = try writePlaylist(
            folder,
            #"{"playlists": {"s": [{"color": "ff0000"}, {"color": "00ff00"}, {"color": "0000ff"}]}, "default": "s"}"#)
        let p = try CLI.start(
            ["play", playlist, "--duration", "0.3", "--proof", proof, "--stats", "-"],
            environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertNotNil(p.waitForEvent { $0.event == "item" }, p.stderr)
        // The box's proof file belongs to the kiosk user, not to root (who
        // runs logrotate): the new files must keep that owner.
        let nobody: uid_t = 65534
        XCTAssertEqual(chown(proof, nobody, gid_t(nobody)), 0, String(cString: strerror(errno)))
        let rotations = 8
        for n in 1...rotations {
            Thread.sleep(forTimeInterval: 1.5)
            let run = try runProcess(
                "/usr/sbin/logrotate", ["-f", "-s", folder + "/logrotate.state", configuration], environment: [:])
            XCTAssertEqual(run.status, 0, "logrotate \(n): \(run.stderr)")
            if n % 2 == 0 { kill(p.pid, SIGUSR1) }
        }
        XCTAssertTrue(
            waitUntil(timeout: 10) { FileManager.default.fileExists(atPath: proof) }, "no new file after rotation")
        XCTAssertTrue(p.isRunning, p.stderr)
        assertCleanStop(p)
        let owner = (try? FileManager.default.attributesOfItem(atPath: proof))?[.ownerAccountID] as? NSNumber
        XCTAssertEqual(owner?.uint32Value, nobody, "logrotate's new file lost the owner")
        var files = [proof, proof + ".1"]
        var logged = boundaries(proofLines(files))
        for n in 2...rotations {
            let unzipped = "\(folder)/proof.\(n)"
            let gunzip = try runProcess(
                "/bin/sh", ["-c", "gzip -dc '\(proof).\(n).gz' > '\(unzipped)'"], environment: ["PATH": "/usr/bin:/bin"]
            )
            XCTAssertEqual(gunzip.status, 0, "rotation \(n): \(gunzip.stderr)")
            files.append(unzipped)
            logged += boundaries(proofLines([unzipped]))
        }
        let shown = boundaries(p.statsEvents)
        XCTAssertGreaterThanOrEqual(shown.count, 20, "items over 12 s of 0.3 s slots")
        XCTAssertEqual(logged.count, Set(logged).count, "a boundary logged twice")
        XCTAssertEqual(Set(logged), Set(shown), "every boundary shown is in one of the files, and only those")
        for file in files.dropFirst() {
            XCTAssertFalse(proofLines([file]).isEmpty, "\(file) got no lines: the old file was kept too long")
        }

        // copytruncate: the file is cut to nothing in place; the next lines
        // start at its beginning (O_APPEND), no run of NULs before them.
        let second = try CLI.start(
            ["play", playlist, "--duration", "0.3", "--proof", proof], environment: env(rig, builtin: "HEADLESS-1"))
        XCTAssertTrue(waitUntil(timeout: 10) { self.proofLines([proof]).count >= 3 }, second.stderr)
        XCTAssertEqual(truncate(proof, 0), 0)
        XCTAssertTrue(waitUntil(timeout: 10) { self.proofLines([proof]).count >= 2 }, second.stderr)
        assertCleanStop(second)
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: proof))
        XCTAssertFalse(bytes.contains(0), "a hole of NULs where the truncated lines were")
        XCTAssertEqual(bytes.first, UInt8(ascii: "{"))
    }

    /// A size-limited filesystem (tmpfs, 64 KiB) filled to the last byte
    /// holds the proof file and the state folder: playback goes on, each
    /// failure is said once (not per line), and once space is freed the
    /// proof lines and the last good playlist are written again.
    func testAFullDiskNeverStopsPlayback() throws {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 320, height: 240)])
        let folder = try mediaFolder()
        let small = folder + "/small"
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
        let mount = try runProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", small], environment: [:])
        XCTAssertEqual(mount.status, 0, "mount (the tests run as root): \(mount.stderr)")
        addTeardownBlock { _ = try? runProcess("/bin/umount", [small], environment: [:]) }
        try FileManager.default.createDirectory(atPath: small + "/state", withIntermediateDirectories: true)
        let filler = small + "/filler"
        let fill = try runProcess(
            "/bin/dd", ["if=/dev/zero", "of=" + filler, "bs=1k", "count=1024"], environment: [:])
        XCTAssertTrue(fill.stderr.contains("No space left on device"), "the filesystem is full: \(fill.stderr)")
        let proof = small + "/proof.jsonl"
        let playlist = try writePlaylist(
            folder, #"{"playlists": {"s": [{"color": "ff0000"}, {"color": "00ff00"}]}, "default": "s"}"#)
        var environment = env(rig, builtin: "HEADLESS-1")
        environment["XDG_STATE_HOME"] = small + "/state"
        let p = try CLI.start(
            ["play", playlist, "--duration", "0.3", "--proof", proof, "--stats", "-"], environment: environment)
        XCTAssertTrue(waitUntil(timeout: 20) { self.items(p, "HEADLESS-2").count >= 15 }, p.stderr)
        XCTAssertTrue(p.isRunning, p.stderr)
        let lines = p.stderr.split(separator: "\n")
        let proofFailures = lines.filter { $0.contains("cannot write the proof-of-play file \(proof)") }
        XCTAssertEqual(proofFailures.count, 1, "said once, not per line: \(p.stderr)")
        XCTAssertTrue(proofFailures.first?.contains("No space left on device") == true, p.stderr)
        let stateFailures = lines.filter { $0.contains("cannot keep the last good playlist") }
        XCTAssertEqual(stateFailures.count, 1, p.stderr)
        XCTAssertTrue(stateFailures.first?.contains("No space left on device") == true, p.stderr)
        XCTAssertEqual(proofLines([proof]).count, 0)

        // Space comes back: the lines resume, and a reload keeps the playlist.
        try FileManager.default.removeItem(atPath: filler)
        XCTAssertTrue(waitUntil(timeout: 10) { self.proofLines([proof]).count >= 3 }, p.stderr)
        XCTAssertTrue(p.stderr.contains("writing the proof-of-play file \(proof) again"), p.stderr)
        kill(p.pid, SIGHUP)
        XCTAssertTrue(
            waitUntil(timeout: 10) {
                ((try? FileManager.default.contentsOfDirectory(atPath: small + "/state/screenplay/last-good")) ?? [])
                    .count == 1
            }, "the last good playlist is kept once there is space: \(p.stderr)")
        let text = (try? String(contentsOfFile: proof, encoding: .utf8)) ?? ""
        XCTAssertEqual(text.split(separator: "\n").count, proofLines([proof]).count, "a line is not JSON: \(text)")
        for line in proofLines([proof]) { XCTAssertEqual(line.event, "item") }
        assertCleanStop(p)
    }
}
