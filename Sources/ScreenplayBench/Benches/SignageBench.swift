// Signage: `screenplay play` switching short items on one sway output.
import Documents
import Foundation
import TestSupport

/// One `play` run: cost per switch, boundary-to-presentation latency, and
/// RSS/fds after 100 switches against after the last.
struct SignageRun: Codable, Sendable {
    var switches: Int
    var itemSeconds: Double
    var cpuMsPerSwitch: Double
    /// From the item's slot start (the wall clock's boundary) to its first
    /// frame shown (frame-callback time on sway).
    var boundaryToShownMs: Distribution?
    var rssKiBAt100: Int
    var rssKiBAtEnd: Int
    var fdsAt100: Int
    var fdsAtEnd: Int
}

/// `play` switching short items, and a day of signage compressed into minutes.
struct SignageBench: Benchmark {
    let context: BenchContext

    /// 0.1 s items (two colours and two images, cuts) for `switches` switches.
    func signage(switches: Int) throws -> SignageRun {
        say("signage: play, \(switches) switches of 0.1 s items")
        let rig = try SwayRig.start(outputs: [benchMode], timeout: 20)
        defer { rig.stop() }
        let folder = workDirectory + "/signage"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let playlist = folder + "/bench.json"
        try """
        {"playlists": {"b": [{"color": "ff8000"}, {"file": "\(image.path)"}, {"color": "2040ff"}, {"file": "\(image.path)"}]},
         "default": "b"}
        """.write(toFile: playlist, atomically: true, encoding: .utf8)
        let itemSeconds = 0.1
        let process = try RunningProcess(
            screenplay, ["play", playlist, "--duration", "\(itemSeconds)", "--stats", "-", "--all"],
            environment: rig.clientEnvironment)
        defer {
            process.terminate()
            _ = process.wait(timeout: 5)
        }
        func itemLines() -> [[String: Any]] {
            process.stdoutLines.compactMap { line in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    object["event"] as? String == "item"
                else { return nil }
                return object
            }
        }
        func waitFor(_ count: Int) throws {
            let deadline = now() + Double(count) * itemSeconds * 3 + 20
            while itemLines().count < count {
                guard now() < deadline, ProcSample.read(pid: process.pid) != nil else {
                    throw RigError("play showed \(itemLines().count) of \(count) items")
                }
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
        try waitFor(100)
        let rss100 = ProcessUsage.residentKiB(process.pid)
        let fds100 = ProcessUsage.openFileDescriptors(process.pid)
        let cpuStart = ProcSample.read(pid: process.pid)
        let itemsStart = itemLines().count
        try waitFor(switches)
        guard let cpuStart, let cpuEnd = ProcSample.read(pid: process.pid) else { throw RigError("play exited") }
        let lines = itemLines()
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let latencies = lines.compactMap { line -> Double? in
            guard let at = (line["at"] as? String).flatMap(formatter.date(from:)) else { return nil }
            let t = at.timeIntervalSince1970
            return (t - (t / itemSeconds).rounded(.down) * itemSeconds) * 1000
        }
        let delta = ProcDelta(from: cpuStart, to: cpuEnd)
        return SignageRun(
            switches: lines.count, itemSeconds: itemSeconds,
            cpuMsPerSwitch: delta.cpuSeconds * 1000 / Double(max(1, lines.count - itemsStart)),
            boundaryToShownMs: Distribution(latencies), rssKiBAt100: rss100,
            rssKiBAtEnd: ProcessUsage.residentKiB(process.pid), fdsAt100: fds100,
            fdsAtEnd: ProcessUsage.openFileDescriptors(process.pid))
    }

    /// A day of signage compressed into `seconds` (see SignageDay in the rig).
    func signageDay(seconds: Double) throws -> SignageDayResult {
        say("a day of signage: \(Int(seconds)) s of 1 s items on three panels, hot-plugs, restarts, reloads, ctl")
        let folder = workDirectory + "/day"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try SampleDeck.writePDF(to: folder + "/deck.pdf")
        let (playlist, items) = try SignageDay.writePlaylist(in: folder, video: true)
        let result = try SignageDay.run(
            screenplay: screenplay, playlist: playlist, items: items, schedule: SignageDaySchedule(seconds: seconds),
            log: { self.say("a day of signage: \($0)") })
        say("a day of signage: \(result.summary)")
        return result
    }
}

/// The signage benchmarks' part of the report.
enum SignageReport: MarkdownFormatting {
    /// The switching run and the day of signage, each when it ran.
    static func markdown(_ r: BenchResults) -> String {
        var md = ""
        if !r.signage.isEmpty {
            md += "\n## Signage (`play`, 0.1 s items)\n\n"
            md +=
                "| switches | CPU ms / switch | boundary to shown median / p95 / max ms | RSS KiB after 100 → end | fds after 100 → end |\n"
            md += "|---:|---:|---|---|---|\n"
            for s in r.signage {
                let latency = s.boundaryToShownMs.map { "\(n($0.median)) / \(n($0.p95)) / \(n($0.max))" } ?? "–"
                md +=
                    "| \(s.switches) | \(n(s.cpuMsPerSwitch)) | \(latency) | \(s.rssKiBAt100) → \(s.rssKiBAtEnd) | \(s.fdsAt100) → \(s.fdsAtEnd) |\n"
            }
        }

        if !r.day.isEmpty {
            md += "\n## A day of signage in minutes (`play`, 1 s items, three panels)\n\n"
            md +=
                "| seconds | restarts | unplugs / plugs | reloads | ctl status answered / not | crash | RSS KiB after warm-up → end | fds | proof: slots logged once / due (missing, twice, wrong) |\n"
            md += "|---:|---:|---|---:|---|---|---|---|---|\n"
            for d in r.day {
                md +=
                    "| \(Int(d.schedule.seconds)) | \(d.restarts) | \(d.unplugs) / \(d.plugs) | \(d.reloads) | \(d.statusAnswered) / \(d.statusUnanswered) | \(d.survived && d.exitStatus == 0 ? "none" : "**yes**") | \(d.rssKiBAfterWarmUp) → \(d.rssKiBAtEnd) (\(String(format: "%+.1f", d.rssGrowth * 100)) %, goal within 5 %) | \(d.fdsAfterWarmUp) → \(d.fdsAtEnd) | \(d.slotsLoggedOnce) / \(d.slotsExpected) (\(d.slotsMissing), \(d.slotsDuplicated), \(d.slotsWrongItem)) |\n"
            }
            for d in r.day where !d.examples.isEmpty {
                md += "\nProblems seen: \(d.examples.joined(separator: "; "))\n"
            }
        }
        return md
    }
}
