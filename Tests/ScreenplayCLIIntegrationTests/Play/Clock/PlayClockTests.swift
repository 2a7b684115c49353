import Foundation
import TestSupport
import XCTest

/// The wall clock stepped under a running `play` (NTP at boot on a box
/// without a clock battery) and a daylight-saving change in its time zone,
/// through Debian's libfaketime: only `play`'s wall clock moves (its
/// monotonic clock, the compositor and the display link do not), and the
/// step is made at run time by rewriting the offset file libfaketime reads.
extension PlayTests {
    static let faketimeLibrary = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1"

    /// libfaketime 0.9.10 moves every absolute timerfd deadline by its
    /// offset, monotonic ones too (FAKETIME_DONT_FAKE_MONOTONIC or not):
    /// libdispatch's and CFRunLoop's timers, armed that way, then never
    /// fire (an offset back) or fire at once, over and over (forward). This
    /// library, ahead of it in LD_PRELOAD, hands timerfd calls straight to
    /// the kernel, so only reading the wall clock is faked.
    func timerfdPassThrough() throws -> String {
        let folder = try mediaFolder()
        let source = folder + "/timerfd-passthrough.c", library = folder + "/timerfd-passthrough.so"
        try """
        #define _GNU_SOURCE
        #include <sys/syscall.h>
        #include <sys/timerfd.h>
        #include <unistd.h>
        int timerfd_settime(int fd, int flags, const struct itimerspec *value, struct itimerspec *old) {
            return (int)syscall(SYS_timerfd_settime, fd, flags, value, old);
        }
        int timerfd_gettime(int fd, struct itimerspec *value) {
            return (int)syscall(SYS_timerfd_gettime, fd, value);
        }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        let build = try runProcess(
            "/usr/bin/cc", ["-shared", "-fPIC", "-O2", "-o", library, source], environment: ["PATH": "/usr/bin:/bin"])
        XCTAssertEqual(build.status, 0, build.stderr)
        return library
    }

    /// `play`'s environment with its wall clock at `offset` seconds from
    /// the real one, changed later with `setClock`.
    func fakeClockEnvironment(_ rig: SwayRig, folder: String, offset: Int) throws -> [String: String] {
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: Self.faketimeLibrary),
            "libfaketime is missing: scripts/setup.sh installs Debian's faketime")
        var environment = env(rig, builtin: "HEADLESS-1")
        environment["LD_PRELOAD"] = try timerfdPassThrough() + ":" + Self.faketimeLibrary
        environment["FAKETIME_TIMESTAMP_FILE"] = folder + "/faketime"
        // Durations stay real: frame callbacks, timers and the display link.
        environment["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"
        // The offset file is read at every reading of the wall clock (20 µs;
        // the monotonic clock is not slowed), so a step happens at one
        // instant, as a real one does. With libfaketime's cache it lands
        // on its one-second refresh, which falls on play's one-second item
        // boundaries: an item chosen by the old time and replaced at once
        // by the new one's, in every run.
        environment["FAKETIME_NO_CACHE"] = "1"
        // Without it libfaketime makes a shared-memory clock for child
        // processes and announces it with setenv() from its constructor,
        // which moves `environ` off the stack where Swift's runtime looks
        // for argv: `play` would start with no arguments. Named but absent,
        // the shared clock is skipped (play starts no child that needs it).
        environment["FAKETIME_SHARED"] = "/screenplay-test-no-sem /screenplay-test-no-shm"
        environment["SCREENPLAY_PLAY_PROBE"] = "1"
        try setClock(folder: folder, offset: offset)
        return environment
    }

    func setClock(folder: String, offset: Int) throws {
        try (offset >= 0 ? "+\(offset)" : "\(offset)").write(
            toFile: folder + "/faketime", atomically: true, encoding: .utf8)
    }

    func wallTime(_ event: StatsEvent) -> Double? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return (event.raw["at"] as? String).flatMap(formatter.date(from:))?.timeIntervalSince1970
    }

    /// What every clock test promises of a run: each item is the clock's
    /// at the time it reached the screen; every frame drawn is an item's
    /// colour (no black, nothing else); the screen changed exactly when an
    /// item line says so (no boundary twice, none lost); presentation
    /// times only go forward.
    func assertFollowsTheClock(
        _ p: RunningProcess, colours: [String], seconds: Double, file: StaticString = #filePath, line: UInt = #line
    ) {
        let shown = items(p, "HEADLESS-2")
        // Between a step and the clock watch noticing it (up to a second)
        // an item may have been chosen by one clock and stamped by the other.
        let steps = p.statsEvents.filter { $0.event == "clock-step" }.map { $0.int("ns") }
        for item in shown {
            let presented = item.int("presented_ns")
            if steps.contains(where: { presented > $0 - 2_500_000_000 && presented <= $0 + 100_000_000 }) { continue }
            // Chosen at its slot's start, shown a frame or so later: on a
            // loaded machine "later" may cross into the next slot.
            let at = item.raw["at"] as? String ?? ""
            let clock = clockIndex(at, count: colours.count, seconds: seconds)
            let justBefore = wallTime(item).flatMap {
                clockIndex(iso8601($0 - 0.25), count: colours.count, seconds: seconds)
            }
            XCTAssertTrue(
                item.int("index") == clock || item.int("index") == justBefore,
                "item \(item.int("index")) at \(at) when the clock said \(clock.map(String.init) ?? "?")",
                file: file, line: line)
        }
        let presented = shown.map { $0.int("presented_ns") }
        XCTAssertEqual(presented, presented.sorted(), "presentation times went back", file: file, line: line)
        XCTAssertEqual(Set(presented).count, presented.count, file: file, line: line)

        // Frames as drawn (read back before each is presented): runs of one colour.
        let frames = p.statsEvents.filter { $0.event == "probe" && $0.output == "HEADLESS-2" }
            .map { (colour: $0.raw["rgb"] as? String ?? "", ns: $0.int("ns")) }
        let first = frames.firstIndex { colours.contains($0.colour) } ?? frames.count
        XCTAssertTrue(
            frames[..<first].allSatisfy { $0.colour == "404040" }, "before the first item: \(frames[..<first])",
            file: file, line: line)
        let drawn = Array(frames[first...])
        XCTAssertFalse(drawn.contains { $0.colour == "000000" }, "a black frame", file: file, line: line)
        XCTAssertTrue(
            drawn.allSatisfy { colours.contains($0.colour) }, "a frame of no item: \(Set(drawn.map(\.colour)))",
            file: file, line: line)
        var runs: [(colour: String, ns: Int)] = []
        for frame in drawn where runs.last?.colour != frame.colour { runs.append(frame) }
        // Each run is an item's line, in order. A run replaced within one
        // refresh never reached the screen (the compositor shows the last
        // buffer committed), so it has no line; the last run may still be
        // on its way to the screen at the stop.
        let logged = shown.map { colours[$0.int("index")] }
        var next = 0
        for (k, run) in runs.enumerated() {
            if next < logged.count, logged[next] == run.colour {
                next += 1
                continue
            }
            let replacedWithinARefresh = k + 1 < runs.count && runs[k + 1].ns - run.ns < 17_000_000
            XCTAssertTrue(
                replacedWithinARefresh || k == runs.count - 1,
                "drawn \(run.colour) (change \(k)) is not the next item logged (\(next < logged.count ? logged[next] : "none")):\n\(runs.map(\.colour))\n\(logged)",
                file: file, line: line)
        }
        XCTAssertEqual(next, logged.count, "logged items never drawn: \(logged[next...])", file: file, line: line)
    }

    func iso8601(_ t: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: t))
    }

    static let clockColours = ["ff0000", "00ff00", "0000ff"]

    /// `play` of three colours, a second each, on HEADLESS-2, with its wall
    /// clock `offset` seconds from the real one and every frame read back.
    func playColoursUnderAFakeClock(offset: Int, timeZone: String? = nil) throws -> (RunningProcess, String) {
        let rig = try startSway([.init(width: 320, height: 240), .init(width: 320, height: 240)])
        let folder = try mediaFolder()
        let items = Self.clockColours.map { #"{"color": "\#($0)"}"# }.joined(separator: ", ")
        let playlist = try writePlaylist(folder, #"{"playlists": {"s": [\#(items)]}, "default": "s"}"#)
        var environment = try fakeClockEnvironment(rig, folder: folder, offset: offset)
        environment["TZ"] = timeZone
        let p = try CLI.start(["play", playlist, "--duration", "1", "--stats", "-"], environment: environment)
        return (p, folder)
    }

    /// Stepped forward by 125 s, then back by 61 (neither a whole number of
    /// the 3 s cycle, so each step changes the clock's item): the panel
    /// moves to the clock's item at once, and the next switches come on
    /// time (a timer armed on the wall clock would freeze the panel for
    /// the minute the clock went back).
    func testClockStepsForwardAndBack() throws {
        let (p, folder) = try playColoursUnderAFakeClock(offset: 0)
        XCTAssertTrue(waitUntil(timeout: 20) { self.items(p, "HEADLESS-2").count >= 4 }, p.stderr)

        for (n, (offset, step)) in [(125, 125.0), (64, -61.0)].enumerated() {
            try setClock(folder: folder, offset: offset)
            let seen = p.statsEvents.filter { $0.event == "clock-step" }.count
            XCTAssertTrue(
                waitUntil(timeout: 10) { p.statsEvents.filter { $0.event == "clock-step" }.count > seen },
                "step \(n + 1) was not noticed: \(p.stderr)")
            let before = items(p, "HEADLESS-2").count
            // 1 s slots: five more switches in well under a minute.
            XCTAssertTrue(
                waitUntil(timeout: 20) { self.items(p, "HEADLESS-2").count >= before + 5 },
                "after step \(n + 1) the panel stopped switching: \(p.stderr)")
            let noticed = p.statsEvents.filter { $0.event == "clock-step" }.last
            XCTAssertEqual((noticed?.raw["seconds"] as? NSNumber)?.doubleValue ?? 0, step, accuracy: 1.5)
        }
        XCTAssertTrue(p.isRunning, p.stderr)
        assertCleanStop(p)
        XCTAssertEqual(
            p.statsEvents.filter { $0.event == "clock-step" }.count, 2, "a step reported twice or out of nothing")
        XCTAssertTrue(p.stderr.contains("the wall clock stepped forward by 12"), p.stderr)
        XCTAssertTrue(p.stderr.contains("the wall clock stepped back by 6"), p.stderr)
        assertFollowsTheClock(p, colours: Self.clockColours, seconds: 1)
    }

    /// Europe/Berlin leaves summer time at 01:00 UTC on the last Sunday of
    /// October: 03:00 CEST becomes 02:00 CET. Playing across it changes
    /// nothing: no step is seen, and the items follow the (UTC) clock.
    func testDaylightSavingChangeIsNoStep() throws {
        // 2026-10-25T01:00:00Z, less the seconds the start takes.
        let change = 1_792_890_000.0
        let offset = Int((change - 8 - Date().timeIntervalSince1970).rounded())
        let (p, _) = try playColoursUnderAFakeClock(offset: offset, timeZone: "Europe/Berlin")
        XCTAssertTrue(
            waitUntil(timeout: 40) {
                self.items(p, "HEADLESS-2").filter { (self.wallTime($0) ?? 0) > change + 4 }.count >= 4
            }, "never played past the change: \(p.stderr)")
        assertCleanStop(p)
        let times = items(p, "HEADLESS-2").compactMap(wallTime)
        let berlin = try XCTUnwrap(TimeZone(identifier: "Europe/Berlin"))
        XCTAssertTrue(
            berlin.isDaylightSavingTime(for: Date(timeIntervalSince1970: try XCTUnwrap(times.first))),
            "started in summer time: \(times)")
        XCTAssertFalse(berlin.isDaylightSavingTime(for: Date(timeIntervalSince1970: try XCTUnwrap(times.last))))
        XCTAssertEqual(p.statsEvents.filter { $0.event == "clock-step" }.count, 0, p.stderr)
        XCTAssertEqual(times, times.sorted(), "proof-of-play times went back at the change")
        assertFollowsTheClock(p, colours: Self.clockColours, seconds: 1)
    }
}
