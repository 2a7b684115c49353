import EventLoop
import Foundation
import Glibc
import TestHarness
import XCTest

/// The main event loop on its own: its descriptor turns readable for each
/// kind of work, `process()` does that work without blocking, and the
/// deadline is the earliest timer's.
final class MainEventLoopTests: ScreenplayTestCase {
    @MainActor
    static func isReadable(_ loop: MainEventLoop, waitingMs: Int32) -> Bool {
        var descriptor = pollfd(fd: loop.fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, waitingMs) == 1
    }

    /// Polls the loop's descriptor and processes until `condition` or 2 s.
    /// (Other tests in the same process may have left timers of their own.)
    @MainActor
    static func drive(_ loop: MainEventLoop, until condition: () -> Bool) {
        let end = Date().addingTimeInterval(2)
        while !condition(), Date() < end {
            _ = isReadable(loop, waitingMs: 100)
            loop.process()
        }
    }

    func testTimersRunInDeadlineOrderWhenDueAndTheDescriptorSaysSo() throws {
        try MainActor.assumeIsolated {
            let loop = MainEventLoop.shared
            loop.process()
            var ran: [String] = []
            var earlyAtNs: UInt64 = 0
            let start = MainEventLoop.nowNs()
            loop.after(ns: 120_000_000) { ran.append("late") }
            loop.after(ns: 60_000_000) {
                ran.append("early")
                earlyAtNs = MainEventLoop.nowNs()
            }
            let cancelled = loop.after(ns: 30_000_000) { ran.append("cancelled") }
            loop.cancel(cancelled)
            let deadline = try XCTUnwrap(loop.nextDeadlineNs)
            XCTAssertLessThanOrEqual(deadline, start + 70_000_000, "the earliest live timer sets the deadline")
            loop.process()
            XCTAssertEqual(ran, [], "nothing is due yet, and process() did not wait")
            Self.drive(loop) { ran.count == 2 }
            XCTAssertEqual(ran, ["early", "late"], "in deadline order, the cancelled one never")
            XCTAssertGreaterThanOrEqual(earlyAtNs - start, 60_000_000, "not before its deadline")
        }
    }

    func testSoonRunsInTheSamePassAndWorkItAsksForInTheNext() throws {
        MainActor.assumeIsolated {
            let loop = MainEventLoop.shared
            loop.process()
            var ran: [String] = []
            loop.soon {
                ran.append("first")
                loop.soon { ran.append("second") }
            }
            XCTAssertTrue(Self.isReadable(loop, waitingMs: 0), "work asked for wakes the descriptor")
            loop.process()
            XCTAssertEqual(ran, ["first"], "work asked for from work waits for the next pass")
            XCTAssertTrue(Self.isReadable(loop, waitingMs: 0), "and wakes the descriptor for the next pass")
            loop.process()
            XCTAssertEqual(ran, ["first", "second"])
        }
    }

    func testWorkPostedFromAnotherThreadWakesTheDescriptorAndRunsOnTheMainThread() throws {
        try MainActor.assumeIsolated {
            let loop = MainEventLoop.shared
            loop.process()
            let ranOnMain = MainBox()
            Thread.detachNewThread {
                MainInbox.shared.post { ranOnMain.value = Thread.isMainThread }
            }
            XCTAssertTrue(Self.isReadable(loop, waitingMs: 2000), "a post from another thread wakes the descriptor")
            loop.process()
            XCTAssertEqual(ranOnMain.value, true)
            _ = try XCTUnwrap(ranOnMain.value)
        }
    }

    func testAWatchedDescriptorIsHandledUntilUnwatched() throws {
        MainActor.assumeIsolated {
            let loop = MainEventLoop.shared
            loop.process()
            var fds: [Int32] = [0, 0]
            XCTAssertEqual(pipe(&fds), 0)
            defer {
                close(fds[0])
                close(fds[1])
            }
            var reads = 0
            let watch = loop.watch(fds[0]) {
                var byte: UInt8 = 0
                _ = read(fds[0], &byte, 1)
                reads += 1
            }
            loop.process()
            XCTAssertEqual(reads, 0, "not readable, not handled")
            var byte: UInt8 = 1
            _ = write(fds[1], &byte, 1)
            XCTAssertTrue(Self.isReadable(loop, waitingMs: 1000), "a readable watched descriptor wakes the loop")
            loop.process()
            XCTAssertEqual(reads, 1)
            loop.unwatch(watch)
            _ = write(fds[1], &byte, 1)
            loop.process()
            XCTAssertEqual(reads, 1, "an unwatched descriptor is no longer handled")
        }
    }

    /// A component that ends its watch after its descriptor's number went
    /// to another file (closed behind the loop's back, as GLib does) ends
    /// only its own watch, not the new owner's.
    func testEndingAWatchLeavesANewWatchOfTheSameNumber() throws {
        MainActor.assumeIsolated {
            let loop = MainEventLoop.shared
            loop.process()
            var first: [Int32] = [0, 0]
            var second: [Int32] = [0, 0]
            XCTAssertEqual(pipe(&first), 0)
            XCTAssertEqual(pipe(&second), 0)
            defer {
                close(first[1])
                close(second[1])
            }
            let number = first[0]
            var oldReads = 0
            let old = loop.watch(number) { oldReads += 1 }
            close(number)
            XCTAssertEqual(dup2(second[0], number), number)
            close(second[0])
            defer { close(number) }
            var newReads = 0
            let new = loop.watch(number) {
                var byte: UInt8 = 0
                _ = read(number, &byte, 1)
                newReads += 1
            }
            loop.unwatch(old)
            var byte: UInt8 = 1
            _ = write(second[1], &byte, 1)
            Self.drive(loop) { newReads > 0 }
            XCTAssertEqual(newReads, 1, "the new watch of descriptor \(number) outlives the old one's end")
            XCTAssertEqual(oldReads, 0, "the old handler was replaced")
            loop.unwatch(new)
            _ = write(second[1], &byte, 1)
            loop.process()
            XCTAssertEqual(newReads, 1, "ended by its own watch")
        }
    }
}

@MainActor
final class MainBox {
    var value: Bool?
}
