import Foundation
import TestHarness
import XCTest

@testable import Fleet

/// Proof-of-play lines waiting for the MQTT broker are kept on disk: they
/// come back in order after a restart, acknowledged ones never do, the
/// journal stays bounded, and a damaged journal loses nothing readable.
final class ProofOutboxTests: ScreenplayTestCase {
    let folder = NSTemporaryDirectory() + "screenplay-outbox-\(getpid())-\(UUID().uuidString.prefix(8))"
    var path: String { folder + "/mqtt-proof/box.jsonl" }

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

    /// A SIGKILL right after a line was made must not lose it: the record is
    /// in the file when `append` returns, before any fsync is waited for.
    func testALineIsInTheFileWhenAppendReturns() {
        let path = path
        MainActor.assumeIsolated {
            let outbox = ProofOutbox(path: path, host: .test)
            outbox.append(line(7))
            XCTAssertEqual(FileManager.default.contents(atPath: path), line(7) + Data("\n".utf8))
        }
    }

    func testWaitingLinesComeBackInOrderAfterARestartAndAcknowledgedOnesDoNot() {
        let path = path
        MainActor.assumeIsolated {
            var first: ProofOutbox? = ProofOutbox(path: path, host: .test)
            for n in 0..<5 { first?.append(line(n)) }
            // Lines 0 and 1 reach the broker; 3's acknowledgement arrives before 2's.
            for (id, _) in first?.unsent().prefix(4) ?? [] { first?.handed(id: id, mid: Int32(10 + id)) }
            XCTAssertTrue(first?.acknowledged(mid: 10) ?? false)
            XCTAssertTrue(first?.acknowledged(mid: 11) ?? false)
            XCTAssertTrue(first?.acknowledged(mid: 13) ?? false)
            XCTAssertFalse(first?.acknowledged(mid: 99) ?? true, "a status message's number is not a line's")
            first?.save()
            // A kill: nothing more is written.
            first?.flush(seconds: 5)
            first = nil
            let second = ProofOutbox(path: path, host: .test)
            // 3 was acknowledged out of order behind 2: at least once, it goes again.
            XCTAssertEqual(waiting(second), [line(2), line(3), line(4)])
            second.append(line(5))
            XCTAssertEqual(second.replayed(), [line(2), line(3), line(4), line(5)])
        }
    }

    func testEverythingAcknowledgedLeavesAnEmptyJournal() throws {
        let path = path
        try MainActor.assumeIsolated {
            let outbox = ProofOutbox(path: path, host: .test)
            for n in 0..<3 {
                outbox.append(line(n))
                outbox.handed(id: outbox.unsent()[0].id, mid: Int32(n + 1))
                outbox.acknowledged(mid: Int32(n + 1))
                outbox.save()
            }
            XCTAssertEqual(outbox.count, 0)
            outbox.flush(seconds: 5)
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, 0)
        }
    }

    func testTheJournalIsRewrittenOnceEnoughIsDone() throws {
        let path = path
        try MainActor.assumeIsolated {
            let outbox = ProofOutbox(
                path: path, host: .test, limits: .init(lines: 100, bytes: 1 << 20, doneBeforeRewrite: 8))
            outbox.append(line(0))
            // The broker always one line behind: the journal never empties.
            for n in 1...50 {
                outbox.append(line(n))
                outbox.handed(id: outbox.unsent()[0].id, mid: Int32(n))
                XCTAssertTrue(outbox.acknowledged(mid: Int32(n)))
                outbox.save()
            }
            XCTAssertEqual(waiting(outbox), [line(50)])
            outbox.flush(seconds: 5)
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            // Fewer than 8 done records and their lines since the last rewrite.
            XCTAssertLessThan(size, 9 * (line(50).count + "done 1\n".count + 1), "the journal kept growing")
            XCTAssertEqual(outbox.replayed(), [line(50)])
        }
    }

    func testBeyondTheLimitTheOldestAreDroppedOnDiskToo() {
        let path = path, folder = folder
        MainActor.assumeIsolated {
            let outbox = ProofOutbox(
                path: path, host: .test, limits: .init(lines: 3, bytes: 1 << 20, doneBeforeRewrite: 1024))
            for n in 0..<7 { outbox.append(line(n)) }
            XCTAssertEqual(waiting(outbox), [line(4), line(5), line(6)])
            XCTAssertEqual(outbox.dropped, 4)
            XCTAssertEqual(outbox.replayed(), [line(4), line(5), line(6)])
            let bytes = ProofOutbox(
                path: folder + "/bytes.jsonl", host: .test,
                limits: .init(lines: 100, bytes: 2 * line(0).count, doneBeforeRewrite: 1024))
            for n in 0..<4 { bytes.append(line(n)) }
            XCTAssertEqual(waiting(bytes), [line(2), line(3)])
        }
    }

    func testALineCutByAKillAndGarbageLoseNothingReadable() throws {
        let path = path, folder = folder
        try MainActor.assumeIsolated {
            try FileManager.default.createDirectory(atPath: folder + "/mqtt-proof", withIntermediateDirectories: true)
            var journal = Data()
            for record in [line(0), Data("done 1".utf8), line(1), Data("not a line \u{1}".utf8), line(2)] {
                journal.append(record)
                journal.append(0x0A)
            }
            journal.append(line(3).prefix(9))  // cut mid-append: never published
            try journal.write(to: URL(fileURLWithPath: path))
            let outbox = ProofOutbox(path: path, host: .test)
            XCTAssertEqual(waiting(outbox), [line(1), line(2)])
            XCTAssertEqual(
                FileManager.default.contents(atPath: path + ".unreadable"), journal, "the damaged file is kept")
            // Written back clean: a new line is whole, not joined to the cut one.
            outbox.append(line(4))
            XCTAssertEqual(outbox.replayed(), [line(1), line(2), line(4)])
        }
    }

    func testASecondPlayerOnTheSameBoxKeepsItsLinesInMemory() {
        let path = path
        MainActor.assumeIsolated {
            let first = ProofOutbox(path: path, host: .test)
            first.append(line(0))
            let second = ProofOutbox(path: path, host: .test)
            XCTAssertNil(second.path, "two players must not write one journal")
            second.append(line(1))
            XCTAssertEqual(waiting(second), [line(1)])
            XCTAssertEqual(first.replayed(), [line(0)])
        }
    }
}

extension ProofOutbox {
    /// The lines a fresh start would take from this outbox's journal once
    /// written, read by another outbox from a copy.
    func replayed() -> [Data] {
        flush(seconds: 5)
        guard let path else { return [] }
        let copy = path + ".replay"
        try? FileManager.default.removeItem(atPath: copy)
        try? FileManager.default.copyItem(atPath: path, toPath: copy)
        return ProofOutbox(path: copy, host: .test).unsent().map(\.line)
    }
}

private func line(_ n: Int) -> Data { Data(#"{"event":"item","index":\#(n)}"#.utf8) }

/// What a fresh start would send, in order.
@MainActor
private func waiting(_ outbox: ProofOutbox) -> [Data] { outbox.unsent().map(\.line) }
