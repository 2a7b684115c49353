// Idle cost: a still picture and a colour left on screen, against swaybg showing the
// same, measured from /proc over one window (CPU, wakeups, context switches).
import Foundation
import TestSupport

/// Idle cost: four static cases side by side, each measured from /proc.
struct IdleBench: Benchmark {
    let context: BenchContext

    /// `present color`, `present image` and swaybg with the same colour and
    /// image, each on its own sway, all measured over the same window.
    ///
    /// They run side by side to keep the whole benchmark short; an idle
    /// client barely competes for CPU, and each is counted by its own pid.
    func run() throws {
        say("idle: present color/image and swaybg color/image for \(settings.idleSeconds) s")
        let hex = String(probeColorHex, radix: 16, uppercase: true)
        struct Case {
            var program: String
            var content: String
            var rig: SwayRig
            var pid: Int32
            var stop: () -> Void
            var expected: RGB
        }
        var cases: [Case] = []
        defer {
            for c in cases {
                c.stop()
                c.rig.stop()
            }
        }
        for (program, content) in [
            ("screenplay", "color"), ("screenplay", "image"), ("swaybg", "color"), ("swaybg", "image"),
        ] {
            let rig = try SwayRig.start(outputs: [benchMode], timeout: 20)
            let expected = content == "color" ? RGB(hex: probeColorHex) : image.center
            if program == "screenplay" {
                // No --stats: measured as a user would run it.
                let presenter = try Presenter(
                    binary: screenplay, arguments: content == "color" ? ["color", hex] : [image.path],
                    environment: rig.clientEnvironment, stats: false)
                cases.append(
                    Case(
                        program: program, content: content, rig: rig, pid: presenter.pid, stop: presenter.stop,
                        expected: expected))
            } else {
                let what =
                    content == "color" ? ["-c", "#" + hex, "-m", "solid_color"] : ["-i", image.path, "-m", "fit"]
                let peer = try Peer("swaybg", "swaybg", ["-o", "*"] + what, environment: rig.clientEnvironment)
                cases.append(
                    Case(
                        program: program, content: content, rig: rig, pid: peer.pid, stop: peer.stop, expected: expected
                    ))
            }
        }
        for c in cases {
            let probe = PixelProbe(environment: c.rig.clientEnvironment)
            guard
                probe.waitFor(c.expected, x: benchMode.width / 2, y: benchMode.height / 2, tolerance: 10, timeout: 20)
                    != nil
            else {
                throw RigError("\(c.program) \(c.content) never showed its first frame")
            }
        }
        let before = cases.map { ProcSample.read(pid: $0.pid) }
        Thread.sleep(forTimeInterval: settings.idleSeconds)
        let after = cases.map { ProcSample.read(pid: $0.pid) }
        for (i, c) in cases.enumerated() {
            guard let b = before[i], let a = after[i] else {
                results.errors.append("idle \(c.program) \(c.content): process exited")
                continue
            }
            let delta = ProcDelta(from: b, to: a)
            results.idle.append(
                IdleRun(
                    program: c.program, content: c.content, process: delta, cpuPercent: delta.cpuPercent,
                    wakeupsPerSecond: delta.wakeupsPerSecond,
                    involuntarySwitchesPerSecond: delta.seconds > 0
                        ? Double(delta.involuntarySwitches) / delta.seconds : 0))
        }
    }
}

/// The idle benchmark's part of the report.
enum IdleReport: MarkdownFormatting {
    /// CPU and wakeups of each idle case, Screenplay against swaybg.
    static func markdown(_ r: BenchResults) -> String {
        var md = "\n## Idle cost (static content, after the first frame)\n\n"
        md += "CPU = utime+stime from /proc/PID/stat; wakeups = voluntary context switches summed over all threads "
        md +=
            "(/proc/PID/task/*/status). Screenplay runs without `--stats`. The four cases run side by side, each on its own sway.\n\n"
        md += "| program | content | window s | CPU s | CPU % | wakeups / s | preemptions / s | ≤ swaybg? |\n"
        md += "|---|---|---:|---:|---:|---:|---:|---|\n"
        for run in r.idle {
            var goal = ""
            if run.program == "screenplay",
                let peer = r.idle.first(where: { $0.program == "swaybg" && $0.content == run.content })
            {
                let cpuOK = run.process.cpuSeconds <= peer.process.cpuSeconds
                let wakeOK = run.wakeupsPerSecond <= peer.wakeupsPerSecond
                goal = "CPU \(cpuOK ? "yes" : "no"), wakeups \(wakeOK ? "yes" : "no")"
            }
            md +=
                "| \(run.program) | \(run.content) | \(n(run.process.seconds)) | \(String(format: "%.2f", run.process.cpuSeconds)) | "
            md +=
                "\(n(run.cpuPercent)) | \(n(run.wakeupsPerSecond)) | \(n(run.involuntarySwitchesPerSecond)) | \(goal) |\n"
        }
        return md
    }
}
