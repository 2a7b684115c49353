// Web pages against cog (`--only web`): how a page costs against its peer. The same page
// (two CSS animations, a requestAnimationFrame counter) served from
// loopback, full screen on one 1920x1080@60 sway output, by
// `screenplay present URL` and by Debian's cog (the same WPE WebKit), in
// alternating rounds. Each side is measured as a process tree, because
// WebKit draws in a web process of its own: CPU of every thread of every
// process below the one started, per frame the page counted, and the
// tree's RSS and PSS at the end of the window.
import Foundation
import TestSupport

/// One program's run of the web page for one round.
struct WebCostRun: Codable, Sendable {
    /// `screenplay` or `cog`.
    var name: String
    var round: Int
    var seconds: Double
    /// requestAnimationFrame callbacks the page counted in the window.
    var pageFrames: Int
    var cpuSeconds: Double
    var cpuMsPerFrame: Double?
    /// Of that, the program's own process (every thread): what it adds to
    /// the same engine's web process. Nil in results from before it was kept.
    var ownCpuMsPerFrame: Double?
    /// The processes of the tree at the end (the program, its web and
    /// network processes, a sandbox's helpers).
    var processes: Int
    var rssMiB: Double
    var pssMiB: Double
}

/// The same page shown by Screenplay and by cog, each measured as a process tree.
struct WebBench: Benchmark {
    let context: BenchContext

    /// Five: a web process's CPU a frame moves by a few percent from run to
    /// run, more than the two programs differ.
    var webRounds: Int { settings.quick ? 1 : 5 }
    var webSeconds: Double { settings.quick ? 5 : 15 }

    func run() throws {
        let folder = workDirectory + "/web"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.webPage.write(toFile: folder + "/anim.html", atomically: true, encoding: .utf8)
        try Self.tickServer.write(toFile: folder + "/server.py", atomically: true, encoding: .utf8)
        let server = try RunningProcess("/usr/bin/python3", [folder + "/server.py", folder])
        defer {
            server.terminate()
            _ = server.wait(timeout: 5)
        }
        guard let portLine = server.waitForLine(timeout: 10, where: { Int($0) != nil }), let port = Int(portLine) else {
            throw RigError("web: the page server did not start: \(server.stderr.suffix(800))")
        }
        let big = OutputMode(width: 1920, height: 1080, refreshHz: 60)
        var runs: [WebCostRun] = []
        for round in 1...webRounds {
            // Each starts first in turn, so a drift in machine load hits both alike.
            let order = round % 2 == 1 ? ["cog", "screenplay"] : ["screenplay", "cog"]
            say("web round \(round)/\(webRounds): \(order.joined(separator: ", "))")
            for name in order {
                let who = "\(name)-\(round)"
                let url = "http://127.0.0.1:\(port)/anim.html?who=\(who)"
                let rig = try SwayRig.start(outputs: [big], timeout: 20)
                defer { rig.stop() }
                var environment = rig.clientEnvironment
                let process: RunningProcess
                if name == "cog" {
                    // cog's Wayland platform goes full screen by this variable
                    // (Debian's cog 0.16.1 has no option for it).
                    environment["COG_PLATFORM_WL_VIEW_FULLSCREEN"] = "1"
                    process = try RunningProcess("/usr/bin/cog", ["-P", "wl", url], environment: environment)
                } else {
                    // One output, named HEADLESS-1 at (0,0): --all puts the page there, as cog does.
                    process = try RunningProcess(screenplay, ["present", url, "--all"], environment: environment)
                }
                defer {
                    process.terminate()
                    _ = process.wait(timeout: 5)
                }
                runs.append(
                    try measureWeb(process, name: name, round: round, ticks: folder + "/ticks-\(who).txt"))
            }
        }
        results.webRuns = runs
        func median(_ name: String, _ value: (WebCostRun) -> Double?) -> Double? {
            let values = runs.filter { $0.name == name }.compactMap(value).sorted()
            return values.isEmpty ? nil : values[values.count / 2]
        }
        func ratio(_ a: Double?, _ b: Double?) -> Double? {
            guard let a, let b, b > 0 else { return nil }
            return a / b
        }
        results.webRatios = [
            FrameCostRatio(
                name: "screenplay ÷ cog, CPU per page frame (1920x1080, 60 Hz)",
                value: ratio(median("screenplay", \.cpuMsPerFrame), median("cog", \.cpuMsPerFrame)), goal: 1,
                method:
                    "CPU of every thread of the process tree (web processes included) over \(Int(webSeconds)) s, divided by the page's requestAnimationFrame count; median of \(webRounds) alternating rounds"
            ),
            FrameCostRatio(
                name: "screenplay ÷ cog, CPU per page frame of the program's own process",
                value: ratio(median("screenplay", \.ownCpuMsPerFrame), median("cog", \.ownCpuMsPerFrame)), goal: 1,
                method:
                    "the started process alone (its web and network processes aside), the same window and frames: each program's part of the line above"
            ),
            FrameCostRatio(
                name: "screenplay ÷ cog, PSS of the process tree",
                value: ratio(median("screenplay", \.pssMiB), median("cog", \.pssMiB)), goal: 1,
                method: "sum of each process's PSS (smaps_rollup) at the end of the window; RSS in the table below"
            ),
        ]
    }

    /// Waits for the page to count frames, then measures the tree over
    /// `webSeconds` of steady state (after three more seconds).
    private func measureWeb(_ process: RunningProcess, name: String, round: Int, ticks: String) throws -> WebCostRun {
        func lastTick() -> (frames: Int, ms: Double)? {
            guard let text = try? String(contentsOfFile: ticks, encoding: .utf8),
                let line = text.split(separator: "\n").last
            else { return nil }
            let fields = line.split(separator: " ")
            guard fields.count == 2, let frames = Int(fields[0]), let ms = Double(fields[1]) else { return nil }
            return (frames, ms)
        }
        guard waitUntil(timeout: 60, poll: 0.2, { (lastTick()?.frames ?? 0) > 0 || !process.isRunning }),
            process.isRunning
        else {
            throw RigError(
                "web: \(name): the page never counted a frame: \(process.stderr.suffix(1500))")
        }
        Thread.sleep(forTimeInterval: 3)
        func tree() -> [Int32] { [process.pid] + ProcessUsage.descendants(of: process.pid) }
        let pids0 = tree()
        var cpu0: [Int32: UInt64] = [:]
        for pid in pids0 { cpu0[pid] = taskCPUNanoseconds(pid) }
        guard let first = lastTick() else { throw RigError("web: \(name): no frame count") }
        Thread.sleep(forTimeInterval: webSeconds)
        // The page reports once a second: wait for a report after the window.
        _ = waitUntil(timeout: 3, poll: 0.1) { (lastTick()?.ms ?? 0) > first.ms + webSeconds * 1000 }
        guard let last = lastTick(), process.isRunning else {
            throw RigError("web: \(name): exited during the window: \(process.stderr.suffix(1500))")
        }
        var cpuNs: UInt64 = 0
        var ownNs: UInt64 = 0
        let pids1 = tree()
        for pid in pids1 {
            guard let end = taskCPUNanoseconds(pid) else { continue }
            // A process born in the window counts from zero.
            let start = cpu0[pid] ?? 0
            let used = end >= start ? end - start : 0
            cpuNs += used
            if pid == process.pid { ownNs = used }
        }
        let seconds = (last.ms - first.ms) / 1000
        let frames = last.frames - first.frames
        // CPU over the page's own span: the window plus the wait for its report.
        let cpuSeconds = Double(cpuNs) / 1e9
        let rss = pids1.map { Double(max(0, ProcessUsage.residentKiB($0))) }.reduce(0, +) / 1024
        let pss = pids1.map { Double(Self.pssKiB($0)) }.reduce(0, +) / 1024
        let run = WebCostRun(
            name: name, round: round, seconds: seconds, pageFrames: frames, cpuSeconds: cpuSeconds,
            cpuMsPerFrame: frames > 0 ? 1000 * cpuSeconds / Double(frames) : nil,
            ownCpuMsPerFrame: frames > 0 ? Double(ownNs) / 1e6 / Double(frames) : nil, processes: pids1.count,
            rssMiB: rss, pssMiB: pss)
        say(
            "web: \(name): \(frames) page frames in \(String(format: "%.1f", seconds)) s, "
                + "\(String(format: "%.2f", run.cpuMsPerFrame ?? .nan)) ms CPU a frame "
                + "(\(String(format: "%.2f", run.ownCpuMsPerFrame ?? .nan)) in the program's own process), "
                + "\(pids1.count) processes, PSS \(String(format: "%.1f", pss)) MiB")
        return run
    }

    /// Proportional set size of `pid` in KiB (0 when it is gone).
    private static func pssKiB(_ pid: Int32) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Pss:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Two CSS animations (a turning square, a sliding bar) and a
    /// requestAnimationFrame counter that reports to the server each second.
    static let webPage = """
        <!doctype html>
        <html><head><meta charset="utf-8"><style>
        html, body { margin: 0; height: 100%; background: #123; overflow: hidden }
        .box { position: absolute; left: 40%; top: 30%; width: 20vw; height: 20vw;
               background: linear-gradient(45deg, #f80, #08f); animation: spin 2s linear infinite }
        .bar { position: absolute; left: 0; bottom: 10%; width: 30vw; height: 8vh; background: #fff;
               animation: slide 3s linear infinite alternate }
        @keyframes spin { to { transform: rotate(360deg) } }
        @keyframes slide { to { transform: translateX(70vw) } }
        </style></head><body><div class="box"></div><div class="bar"></div>
        <script>
        const who = new URLSearchParams(location.search).get('who') || 'page';
        let frames = 0;
        function frame() { frames++; requestAnimationFrame(frame); }
        requestAnimationFrame(frame);
        setInterval(() => { fetch('/tick?who=' + who + '&n=' + frames + '&t=' + performance.now()).catch(() => {}); }, 1000);
        </script></body></html>
        """

    /// Serves the folder on a free loopback port (printed first) and
    /// appends each `/tick` report to ticks-WHO.txt.
    static let tickServer = """
        import http.server, os, sys
        from urllib.parse import urlparse, parse_qs
        root = sys.argv[1]
        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *a, **k):
                super().__init__(*a, directory=root, **k)
            def do_GET(self):
                if self.path.startswith('/tick'):
                    q = parse_qs(urlparse(self.path).query)
                    who = ''.join(c for c in q.get('who', ['page'])[0] if c.isalnum() or c == '-')
                    with open(os.path.join(root, 'ticks-' + who + '.txt'), 'a') as f:
                        f.write(q.get('n', ['0'])[0] + ' ' + q.get('t', ['0'])[0] + '\\n')
                    self.send_response(204)
                    self.end_headers()
                    return
                super().do_GET()
            def log_message(self, *a):
                pass
        server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """
}

/// The web benchmark's part of the report.
enum WebReport: MarkdownFormatting {
    /// The ratios and every run, for summary.md and docs/performance.md.
    static func table(_ r: BenchResults) -> String {
        guard !r.webRuns.isEmpty else { return "" }
        var md = ratioTable(r.webRatios)
        md +=
            "\n| program | round | page frames | seconds | CPU ms per frame | of which its own process | processes | RSS MiB | PSS MiB |\n"
        md += "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        for run in r.webRuns {
            md += "| \(run.name) | \(run.round) | \(run.pageFrames) | \(String(format: "%.1f", run.seconds)) | "
            md +=
                "\(opt(run.cpuMsPerFrame)) | \(opt(run.ownCpuMsPerFrame)) | \(run.processes) | \(String(format: "%.1f", run.rssMiB)) | "
            md += "\(String(format: "%.1f", run.pssMiB)) |\n"
        }
        return md
    }

    static func markdown(_ r: BenchResults) -> String {
        let table = Self.table(r)
        return table.isEmpty ? "" : "\n## Web pages against cog\n\n" + table
    }
}
