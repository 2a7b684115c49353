import FrameTiming
import TestHarness
import XCTest

final class PlayedPassCheckTests: ScreenplayTestCase {
    /// What the main thread read from mpv, in order: `at` is monotonic
    /// seconds; `empty` is an asking that found nothing.
    private enum Read {
        case empty, restart, position(Double)
    }

    /// Replays `reads` into a check of a file `duration` s long at `fps`;
    /// returns the furthest position of every pass judged short.
    private func replay(_ reads: [(at: Double, read: Read)], duration: Double, fps: Double) -> [Double] {
        var check = PlayedPassCheck(readingStartsAt: (reads.first?.at ?? 0) - 1)
        check.duration = duration
        check.framesPerSecond = fps
        var short: [Double] = []
        for (at, read) in reads {
            switch read {
            case .empty: check.queueSeenEmpty(at: at)
            case .restart: if let position = check.restarted(readAt: at) { short.append(position) }
            case let .position(seconds): check.heard(position: seconds)
            }
        }
        return short
    }

    /// Parses "T empty; T restart; T position P" (a capture from a real run).
    private func parse(_ text: String) -> [(at: Double, read: Read)] {
        text.split(whereSeparator: { $0 == ";" || $0 == "\n" }).map { item in
            let words = item.split(separator: " ")
            let at = Double(words[0])!
            switch words[1] {
            case "restart": return (at, .restart)
            case "position": return (at, .position(Double(words[2])!))
            default: return (at, .empty)
            }
        }
    }

    /// Captured from `present` playing a 3 s, 30 fps clip in a loop on
    /// headless sway, its main thread alone held (ptrace) for 6 s at 1.24 s
    /// into a pass: mpv played on, and the main thread then read the loop's
    /// restart, the newest position (0.00, already the next pass) and,
    /// 46 ms later, the next restart. Timed from when that first restart
    /// was read, the pass lasted 46 ms and reached 0.00 s; the clip was
    /// once failed as "truncated or damaged" exactly so.
    func testALoopingClipWhoseMainThreadWasHeldIsNotJudgedShort() {
        let reads = parse(
            """
            -0.0299 empty; 0.0000 restart; 0.0003 empty; 0.0329 position 0.0333; 0.0334 empty; 0.0661 position 0.0667
            0.0663 empty; 0.1102 position 0.1000; 0.1104 empty; 0.1434 position 0.1333; 0.1438 empty; 0.1795 position 0.1667
            0.1797 empty; 0.2081 position 0.2000; 0.2083 empty; 0.2568 position 0.2333; 0.2570 empty; 0.2667 position 0.2667
            0.2671 empty; 0.3092 position 0.3000; 0.3094 empty; 0.3399 position 0.3333; 0.3403 empty; 0.3708 position 0.3667
            0.3711 empty; 0.4174 position 0.4000; 0.4177 empty; 0.4333 position 0.4333; 0.4335 empty; 0.4668 position 0.4667
            0.4670 empty; 0.5024 position 0.5000; 0.5026 empty; 0.5456 position 0.5333; 0.5459 empty; 0.5660 position 0.5667
            0.5662 empty; 0.5993 position 0.6000; 0.5996 empty; 0.6429 position 0.6333; 0.6430 empty; 0.6667 position 0.6667
            0.6669 empty; 0.6994 position 0.7000; 0.6996 empty; 0.7326 position 0.7333; 0.7328 empty; 0.7766 position 0.7667
            0.7768 empty; 0.8012 position 0.8000; 0.8018 empty; 0.8328 position 0.8333; 0.8333 empty; 0.8672 position 0.8667
            0.8674 empty; 0.8994 position 0.9000; 0.8996 empty; 0.9411 position 0.9333; 0.9416 empty; 0.9766 position 0.9667
            0.9768 empty; 1.0235 position 1.0000; 1.0237 empty; 1.0329 position 1.0333; 1.0332 empty; 1.0659 position 1.0667
            1.0662 empty; 1.1001 position 1.1000; 1.1003 empty; 1.1328 position 1.1333; 1.1332 empty; 1.1673 position 1.1667
            1.1675 empty; 1.1994 position 1.2000; 1.1997 empty; 1.2352 position 1.2333; 1.2354 empty; 7.2615 restart
            7.2616 position 0.0000; 7.2621 empty; 7.3076 restart
            """)
        XCTAssertEqual(replay(reads, duration: 3, fps: 30), [])
    }

    /// Captured from `present` playing the first half of a 6 s, 30 fps
    /// file (cut off, as a broken download is): it loops at 1.87 s.
    func testAFileCutOffIsJudgedShortAtItsFirstLoop() throws {
        let reads = parse(
            """
            -0.0569 empty; 0.0000 restart; 0.0004 position 0.0333; 0.0004 empty; 0.0497 position 0.0667; 0.0503 empty
            0.0974 position 0.1000; 0.0981 empty; 0.1384 position 0.1333; 0.1385 empty; 0.1789 position 0.1667; 0.1791 empty
            0.2186 position 0.2000; 0.2188 empty; 0.2580 position 0.2333; 0.2582 empty; 0.3056 position 0.2667; 0.3058 empty
            0.3493 position 0.3000; 0.3495 empty; 0.3985 position 0.3333; 0.3987 empty; 0.4416 position 0.3667; 0.4418 empty
            0.4801 position 0.4000; 0.4804 empty; 0.5173 position 0.4333; 0.5181 empty; 0.5554 position 0.4667; 0.5556 empty
            0.5899 position 0.5000; 0.5901 empty; 0.6283 position 0.5333; 0.6285 empty; 0.6650 position 0.5667; 0.6653 empty
            0.6991 position 0.6000; 0.6993 empty; 0.7396 position 0.6333; 0.7397 empty; 0.7945 position 0.6667; 0.7950 empty
            0.8390 position 0.7000; 0.8392 empty; 0.8401 empty; 0.9022 position 0.7333; 0.9025 empty; 0.9455 position 0.7667
            0.9457 empty; 0.9953 position 0.8000; 0.9957 empty; 1.0558 position 0.8333; 1.0560 empty; 1.1033 position 0.8667
            1.1036 empty; 1.1372 position 0.9000; 1.1374 empty; 1.1719 position 0.9333; 1.1721 empty; 1.2106 position 0.9667
            1.2111 empty; 1.2460 position 1.0000; 1.2462 empty; 1.2937 position 1.0333; 1.2939 empty; 1.3493 position 1.0667
            1.3495 empty; 1.4042 position 1.1000; 1.4044 empty; 1.4426 position 1.1333; 1.4427 empty; 1.4816 position 1.1667
            1.4817 empty; 1.5199 position 1.2000; 1.5201 empty; 1.5583 position 1.2333; 1.5585 empty; 1.5949 position 1.2667
            1.5951 empty; 1.6278 position 1.3000; 1.6283 empty; 1.6621 position 1.3333; 1.6623 empty; 1.7175 position 1.3667
            1.7177 empty; 1.7655 position 1.4000; 1.7656 empty; 1.8101 position 1.4333; 1.8103 empty; 1.8547 position 1.4667
            1.8548 empty; 1.8918 position 1.5000; 1.8920 empty; 1.9294 position 1.5333; 1.9296 empty; 1.9838 position 1.5667
            1.9840 empty; 1.9849 empty; 2.0215 position 1.6000; 2.0216 empty; 2.0673 position 1.6333; 2.0675 empty
            2.1005 position 1.6667; 2.1010 empty; 2.1343 position 1.7000; 2.1346 empty; 2.1673 position 1.7333; 2.1675 empty
            2.2006 position 1.7667; 2.2008 empty; 2.2339 position 1.8000; 2.2341 empty; 2.2672 position 1.8333; 2.2674 empty
            2.3006 position 1.8667; 2.3011 empty; 2.3366 position 0.0000; 2.3368 empty; 2.3528 restart
            """)
        let short = replay(reads, duration: 6, fps: 30)
        XCTAssertEqual(short.count, 1, "\(short)")
        XCTAssertEqual(try XCTUnwrap(short.first), 1.8667, accuracy: 0.001)
    }

    /// mpv plays passes of `pass` s (a file stating `duration` s) from 0;
    /// the main thread reads each event 0.5 ms after it, except while held
    /// from `heldFrom` for `held` s: then it reads all the restarts queued
    /// meanwhile at once on release, followed by the newest position only
    /// (mpv collapses property changes), as libmpv delivers them.
    private func simulate(pass: Double, duration: Double, heldFrom: Double, held: Double, until end: Double) -> [Double]
    {
        let framesPerPass = Int((pass * 30).rounded())
        let events: [(at: Double, read: Read)] = (0..<Int(end * 30)).map { index in
            let within = index % framesPerPass
            return (Double(index) / 30, within == 0 ? .restart : .position(Double(within) / 30))
        }
        var reads: [(at: Double, read: Read)] = []
        var heldRestarts = 0
        var newest: Double?
        let releasedAt = heldFrom + held
        for (at, read) in events {
            if at >= heldFrom, at < releasedAt {
                if case .restart = read { heldRestarts += 1; newest = 0 }
                if case let .position(p) = read { newest = p }
                continue
            }
            if heldRestarts > 0 || newest != nil {
                for _ in 0..<heldRestarts { reads.append((releasedAt, .restart)) }
                if let newest { reads.append((releasedAt, .position(newest))) }
                reads.append((releasedAt + 0.0005, .empty))
                heldRestarts = 0
                newest = nil
            }
            reads.append((at + 0.0005, read))
            reads.append((at + 0.001, .empty))
        }
        return replay(reads, duration: duration, fps: 30)
    }

    /// A good clip is never judged short, however long the main thread is
    /// held and wherever in a pass the hold starts.
    func testNoHoldOfTheMainThreadMakesAWholePassLookShort() {
        for heldTenths in 1...200 {
            for startTenths in stride(from: 0, to: 30, by: 3) {
                let heldFrom = 4 + Double(startTenths) / 10
                let short = simulate(pass: 3, duration: 3, heldFrom: heldFrom, held: Double(heldTenths) / 10, until: 40)
                XCTAssertEqual(short, [], "held \(Double(heldTenths) / 10) s from \(heldFrom) s")
            }
        }
    }

    /// A file cut off at 1.9 s of its stated 6 s is still judged short on
    /// the passes the main thread reads promptly, whatever hold came before.
    func testAFileCutOffIsStillJudgedShortAroundAHold() {
        for heldTenths in stride(from: 1, through: 200, by: 7) {
            let short = simulate(pass: 1.9, duration: 6, heldFrom: 4, held: Double(heldTenths) / 10, until: 40)
            XCTAssertFalse(short.isEmpty, "held \(Double(heldTenths) / 10) s")
            XCTAssertTrue(short.allSatisfy { $0 < 1.9 }, "\(short)")
        }
    }
}
