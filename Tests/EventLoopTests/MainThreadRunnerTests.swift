import Dispatch
import EventLoop
import Foundation
import Glibc
import TestHarness
import XCTest

/// `MainThreadRunner`, which `Application.run()` drives the main thread
/// with: every kind of main-thread work wakes its one poll (the loop's
/// timers and posted work, main-queue blocks now and later, Swift's main
/// actor jobs), it returns when told, and the loop's dispatch read source
/// is back afterwards for apps that drain the main queue themselves.
final class MainThreadRunnerTests: ScreenplayTestCase {
    /// What ran, kept on the main actor so closures from any queue may hold it.
    @MainActor
    private final class Ran {
        var names: Set<String> = []
        var timedOut = false
    }

    func testEveryKindOfMainThreadWorkWakesItAndItReturnsWhenDone() {
        MainActor.assumeIsolated {
            let loop = MainEventLoop.shared
            let ran = Ran()
            let expected: Set<String> = ["loop timer", "posted", "main queue", "main queue later", "main actor task"]
            loop.after(ns: 40_000_000) { ran.names.insert("loop timer") }
            DispatchQueue.main.async { MainActor.assumeIsolated { _ = ran.names.insert("main queue") } }
            DispatchQueue.main.asyncAfter(deadline: .now() + 0.08) {
                MainActor.assumeIsolated { _ = ran.names.insert("main queue later") }
            }
            Task { @MainActor in ran.names.insert("main actor task") }
            // From another thread, as mpv's wake-ups come.
            Thread.detachNewThread {
                usleep(20_000)
                MainInbox.shared.post { ran.names.insert("posted") }
            }
            // A guard against a runner that never wakes: it would hang the suite.
            DispatchQueue.main.asyncAfter(deadline: .now() + 5) { MainActor.assumeIsolated { ran.timedOut = true } }
            let start = Date()
            MainThreadRunner.run { ran.names == expected || ran.timedOut }
            XCTAssertEqual(ran.names, expected, "every kind of work ran within 5 s")
            XCTAssertLessThan(Date().timeIntervalSince(start), 2, "and it returned once it was done, not at the guard")
        }
    }

    func testItReturnsAtOnceWhenAlreadyDoneAndTheMainQueueDrivesTheLoopAgainAfter() {
        MainActor.assumeIsolated {
            MainThreadRunner.run { true }
            let ran = Ran()
            MainEventLoop.shared.soon { ran.names.insert("soon") }
            // Nothing polls the loop here: only its dispatch read source can run it.
            let end = Date().addingTimeInterval(2)
            while ran.names.isEmpty, Date() < end {
                _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.05))
            }
            XCTAssertEqual(ran.names, ["soon"], "the loop ran from the main queue after the runner returned")
        }
    }

    func testAnIdleRunnerSleepsInTheKernel() {
        MainActor.assumeIsolated {
            // Half a second with nothing to do but one timer at its end: a
            // runner that spun would use about that much CPU.
            let ran = Ran()
            MainEventLoop.shared.after(ns: 500_000_000) { ran.names.insert("timer") }
            let threadCPU = {
                var now = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
                return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
            }
            let before = threadCPU()
            MainThreadRunner.run { !ran.names.isEmpty }
            let used = threadCPU() - before
            XCTAssertEqual(ran.names, ["timer"])
            XCTAssertLessThan(used, 0.1, "the main thread slept while there was nothing to do (\(used) s of CPU)")
        }
    }
}
