import Foundation
import TestHarness
import TestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// What a failure message says about a process that stopped answering (a
/// compositor that let five IPC asks go unanswered): stopped, waiting or
/// gone, read from /proc at that moment.
final class ProcessSnapshotTests: ScreenplayTestCase {
    /// The snapshot of `pid` once it names `state` (within 5 s), or the last one read.
    private func snapshot(of pid: Int32, once state: String) -> String {
        var snapshot = ""
        _ = waitUntil(timeout: 5) {
            snapshot = ProcessUsage.snapshot(pid)
            return snapshot.contains(state)
        }
        return snapshot
    }

    func testSleepingProcessSaysItWaits() throws {
        let p = try RunningProcess("sleep", ["30"])
        addTeardownBlock { p.kill() }
        let snapshot = snapshot(of: p.pid, once: "state S")
        XCTAssertTrue(snapshot.contains("state S"), snapshot)
        XCTAssertTrue(snapshot.contains("pid \(p.pid)"), snapshot)
        // The kernel function it sleeps in, when the kernel shows it (not "0" or "?").
        let wchan = try String(contentsOfFile: "/proc/\(p.pid)/wchan", encoding: .utf8)
        if !["", "0"].contains(wchan) { XCTAssertTrue(snapshot.contains("waiting in \(wchan)"), snapshot) }
    }

    func testStoppedProcessSaysItIsStopped() throws {
        let p = try RunningProcess("sleep", ["30"])
        addTeardownBlock { p.kill() }
        p.send(SIGSTOP)
        addTeardownBlock { p.send(SIGCONT) }
        let snapshot = snapshot(of: p.pid, once: "state T")
        XCTAssertTrue(snapshot.contains("state T"), snapshot)
    }

    func testGoneProcessSaysSo() throws {
        let p = try RunningProcess("true", [])
        _ = p.wait(timeout: 5)
        XCTAssertEqual(ProcessUsage.snapshot(p.pid), "pid \(p.pid) is gone")
    }
}
