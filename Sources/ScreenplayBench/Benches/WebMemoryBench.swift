// Web memory (`--only webmemory`, not in the default set: an hour): the
// web item's long run. `screenplay play` of one web item, a page with a CSS
// animation, a requestAnimationFrame loop and its data fetched again every
// 30 s from nginx on loopback, full screen on one 1280x720@60 sway output.
// RSS of Screenplay and of every process below it (WebKit's web and network
// processes) each minute; the CI test `testPageMemoryStaysBoundedWhile...`
// is its two-minute version with a bound.
import Foundation
import TestSupport

/// One minute's reading: Screenplay's RSS and its web processes' together.
struct WebMemorySample: Codable, Sendable {
    var minute: Double
    var screenplayMiB: Double
    var webMiB: Double
    var processes: Int
}

struct WebMemoryResult: Codable, Sendable {
    var minutes: Double
    var dataEverySeconds: Double
    var samples: [WebMemorySample]
    /// Data fetches nginx answered over the run, and web-process restarts play logged.
    var fetches: Int
    var restarts: Int
}

/// A web item left playing, its memory and its web processes' read each minute.
struct WebMemoryBench: Benchmark {
    let context: BenchContext

    func run(minutes: Double) throws {
        let folder = workDirectory + "/webmemory"
        try FileManager.default.createDirectory(atPath: folder + "/server", withIntermediateDirectories: true)
        let dataEvery = 30.0
        let server = try WebServer(folder: folder + "/server")
        try server.start()
        defer { server.stop() }
        try server.publish("data.json", Data(#"{"v": 1}"#.utf8))
        try server.publish("page.html", Data(TestPages.dashboard(dataEvery: dataEvery).utf8))
        let playlist = folder + "/signage.json"
        try #"{"playlists": {"lobby": [{"web": "\#(server.base)/page.html"}]}, "default": "lobby"}"#.write(
            toFile: playlist, atomically: true, encoding: .utf8)
        let rig = try SwayRig.start(outputs: [OutputMode(width: 1280, height: 720, refreshHz: 60)], timeout: 20)
        defer { rig.stop() }
        let play = try RunningProcess(screenplay, ["play", playlist], environment: rig.clientEnvironment)
        defer {
            play.terminate()
            _ = play.wait(timeout: 5)
        }
        guard
            waitUntil(
                timeout: 60, poll: 0.5,
                {
                    (try? rig.capture(output: "HEADLESS-1").pixel(x: 5, y: 400)) == RGB(hex: 0x112233)
                        || !play.isRunning
                }), play.isRunning
        else { throw RigError("webmemory: the page never showed: \(play.stderr.suffix(1500))") }
        let started = now()
        var samples: [WebMemorySample] = []
        func sample() {
            let below = ProcessUsage.descendants(of: play.pid)
            let web = below.map { Double(max(0, ProcessUsage.residentKiB($0))) }.reduce(0, +) / 1024
            samples.append(
                WebMemorySample(
                    minute: (now() - started) / 60, screenplayMiB: Double(ProcessUsage.residentKiB(play.pid)) / 1024,
                    webMiB: web, processes: below.count + 1))
            say(
                String(
                    format: "webmemory: minute %.1f: screenplay %.1f MiB, web %.1f MiB", samples.last!.minute,
                    samples.last!.screenplayMiB, web))
        }
        sample()
        let end = started + minutes * 60
        while now() < end, play.isRunning {
            Thread.sleep(forTimeInterval: min(60, max(0, end - now())))
            sample()
        }
        guard play.isRunning else { throw RigError("webmemory: play exited: \(play.stderr.suffix(1500))") }
        results.webMemory = WebMemoryResult(
            minutes: minutes, dataEverySeconds: dataEvery, samples: samples,
            fetches: server.accessLog.filter { $0.contains("/data.json") }.count,
            restarts: play.stderr.components(separatedBy: "reloading it in a fresh web process").count - 1)
    }
}

/// The web memory run's part of the report.
enum WebMemoryReport: MarkdownFormatting {
    /// The web memory run's section of summary.md, when it ran.
    static func markdown(_ r: BenchResults) -> String {
        r.webMemory == nil ? "" : "\n## A web page's memory\n\n" + table(r)
    }

    /// RSS at the start and at the end, and every minute's reading.
    static func table(_ r: BenchResults) -> String {
        guard let m = r.webMemory, let first = m.samples.first, let last = m.samples.last else { return "" }
        var md = "| RSS (MiB) | at start | after \(n(last.minute)) min | change |\n|---|---|---|---|\n"
        md +=
            "| screenplay | \(opt(first.screenplayMiB, digits: 1)) | \(opt(last.screenplayMiB, digits: 1)) | \(opt(last.screenplayMiB - first.screenplayMiB, digits: 1)) |\n"
        md +=
            "| its web and network processes (\(last.processes - 1)) | \(opt(first.webMiB, digits: 1)) | \(opt(last.webMiB, digits: 1)) | \(opt(last.webMiB - first.webMiB, digits: 1)) |\n"
        md +=
            "\nThe page fetched its data \(m.fetches) times (every \(n(m.dataEverySeconds)) s); web-process restarts: \(m.restarts). Each minute: "
            + m.samples.map { "\(opt($0.screenplayMiB, digits: 0))+\(opt($0.webMiB, digits: 0))" }.joined(
                separator: ", ")
            + " MiB.\n"
        return md
    }
}
