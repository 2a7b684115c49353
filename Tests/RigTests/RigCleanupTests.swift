// scripts/rig-cleanup.sh after a run: what a finished run left behind goes,
// the rigs of runs still going stay, so one developer's clean-up (or a
// repeat's) does not fail another's tests.
import Foundation
import TestHarness
import TestSupport
import XCTest

final class RigCleanupTests: ScreenplayTestCase {
    /// In a PID namespace of its own (`unshare --pid --mount-proc`), so the
    /// script sees only the stand-ins and never the machine's other rigs:
    /// a rig process under a running test (`fake.xctest`) is spared, one
    /// whose run is over (left to the namespace's init, as a crashed test's
    /// compositor is left to init) is listed for killing. A test process
    /// cannot stand in for a finished run in the machine's namespace: it is
    /// a subreaper, so every orphan below it stays its own. Only --dry-run:
    /// the temp directories are the machine's.
    func testALeftoverIsListedAndARunningTestsRigIsSpared() throws {
        let rigFolder = "/tmp/screenplay-rig.cleanup-test-\(getpid())"
        let work = "/tmp/screenplay-cleanup-test-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let script = checkoutRoot + "/scripts/rig-cleanup.sh"
        // The namespace's init is this script; its command line names neither a rig nor a test.
        try """
        bash -c 'exec -a fake.xctest bash -c "(exec -a \(rigFolder)/ours sleep 60) & wait"' &
        setsid -f bash -c "exec -a \(rigFolder)/leftover sleep 60"
        # Until both stand-ins run under their names.
        for i in $(seq 100); do
          pgrep -f '^\(rigFolder)/ours' >/dev/null && pgrep -f '^\(rigFolder)/leftover' >/dev/null && break
          sleep 0.05
        done
        echo "ours $(pgrep -f '^\(rigFolder)/ours') leftover $(pgrep -f '^\(rigFolder)/leftover')"
        bash \(script) "$@"
        """.write(toFile: work + "/inner.sh", atomically: true, encoding: .utf8)
        func run(_ options: [String]) throws -> (ours: String, leftover: String, lines: [String], text: String) {
            let r = try runProcess(
                "/usr/bin/unshare", ["--pid", "--fork", "--mount-proc", "bash", work + "/inner.sh"] + options,
                timeout: 60)
            XCTAssertEqual(r.status, 0, "\(options): \(r.stdout)\n\(r.stderr)")
            let lines = r.stdout.split(separator: "\n").map(String.init)
            let pids = lines.first?.split(separator: " ").map(String.init) ?? []
            guard pids.count == 4 else {
                XCTFail("the stand-ins did not start: \(r.stdout)\n\(r.stderr)")
                return ("?", "?", lines, r.stdout)
            }
            return (pids[1], pids[3], lines, r.stdout)
        }

        let listed = try run(["--dry-run"])
        XCTAssertTrue(
            listed.lines.contains { $0.hasPrefix("rig-cleanup: \(listed.leftover) \(rigFolder)/leftover") },
            "the leftover (pid \(listed.leftover)) is not listed for killing:\n\(listed.text)")
        XCTAssertTrue(
            listed.lines.contains { $0.hasPrefix("rig-cleanup: spared \(listed.ours) ") },
            "the running test's rig process (pid \(listed.ours)) is not spared:\n\(listed.text)")
        XCTAssertFalse(
            listed.lines.contains { $0.hasPrefix("rig-cleanup: \(listed.ours) ") },
            "the running test's rig process (pid \(listed.ours)) would be killed:\n\(listed.text)")

        // --all is the clean sweep of before: the running test's rig goes too.
        let everything = try run(["--dry-run", "--all"])
        XCTAssertTrue(
            everything.lines.contains { $0.hasPrefix("rig-cleanup: \(everything.ours) \(rigFolder)/ours") },
            "--all does not list the running test's rig process:\n\(everything.text)")

        let refused = try runProcess("/bin/bash", [script, "--bogus"], timeout: 60)
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.stderr.contains("unknown option --bogus"), refused.stderr)
    }
}
