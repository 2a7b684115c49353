// Video: Screenplay playing a clip through libmpv's render API against mpv itself
// (`mpv --fs --loop`, its GPU output on Wayland) on the same sway output, in the same run.
import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// One program playing the benchmark clip.
struct VideoRun: Codable, Sendable {
    var program: String
    var seconds: Double
    /// New video frames that reached the output in the window.
    var videoFrames: Int
    var dropped: Int
    var process: ProcDelta
    var cpuMsPerVideoFrame: Double?
    var peakRSSMiB: Double
    /// smaps_rollup at the end of the window: RSS counts the shared
    /// libraries each maps (libLLVM, the Swift runtime), PSS and private
    /// memory what the program itself costs the box.
    var memory: MemoryBreakdown?
}

/// The video comparison: both runs and the ratios Screenplay / mpv.
struct VideoComparison: Codable, Sendable {
    var clip: String
    var mesa: String
    var mpvVersion: String
    var runs: [VideoRun]
    var cpuRatio: Double?
    var rssRatio: Double?
    var pssRatio: Double?
    var privateRatio: Double?
}

/// The same clip played by Screenplay and by mpv on one sway output.
struct VideoBench: Benchmark {
    let context: BenchContext

    /// Seconds measured per program, and the clip's length (longer than the
    /// window plus start-up, so mpv's frame counter does not wrap at a loop).
    var videoSeconds: Double { settings.quick ? 4 : 15 }

    func run() throws {
        let clip = workDirectory + "/bench-720p30.mp4"
        let length = videoSeconds + 8
        try makeBenchClip(clip, width: 1280, height: 720, seconds: length)
        var runs: [VideoRun] = []
        runs.append(try videoScreenplay(clip))
        runs.append(try videoMpv(clip))
        let mine = runs[0], peer = runs[1]
        let comparison = VideoComparison(
            clip: "H.264 1280x720 30 fps (ffmpeg testsrc2, libx264 veryfast), on one 1280x720@60 sway output",
            mesa: firstLine("dpkg-query", ["-W", "-f=${Version}", "libgl1-mesa-dri"]),
            mpvVersion: firstLine("mpv", ["--version"]),
            runs: runs,
            cpuRatio: mine.cpuMsPerVideoFrame.flatMap { a in peer.cpuMsPerVideoFrame.map { a / $0 } },
            rssRatio: peer.peakRSSMiB > 0 ? mine.peakRSSMiB / peer.peakRSSMiB : nil,
            pssRatio: ratio(mine.memory?.pssKiB, peer.memory?.pssKiB),
            privateRatio: ratio(mine.memory?.privateKiB, peer.memory?.privateKiB))
        results.video = comparison
    }

    private func ratio(_ a: Int?, _ b: Int?) -> Double? {
        guard let a, let b, b > 0 else { return nil }
        return Double(a) / Double(b)
    }

    private func videoScreenplay(_ clip: String) throws -> VideoRun {
        say("video: screenplay present on one sway output for \(videoSeconds) s")
        let rig = try SwayRig.start(outputs: [benchMode], timeout: 20)
        defer { rig.stop() }
        let presenter = try Presenter(binary: screenplay, arguments: [clip], environment: rig.clientEnvironment)
        defer { presenter.stop() }
        try presenter.waitForFrames(outputs: 1, timeout: 30)
        let first = presenter.lineCount
        let before = ProcSample.read(pid: presenter.pid)
        Thread.sleep(forTimeInterval: videoSeconds)
        let after = ProcSample.read(pid: presenter.pid)
        let memory = MemoryBreakdown.read(pid: presenter.pid)
        let lines = presenter.process.stdoutLines[first..<presenter.lineCount].compactMap { line -> [String: Any]? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["event"] as? String == "frames"
            else { return nil }
            return object
        }
        func sum(_ key: String) -> Int { lines.reduce(0) { $0 + (($1[key] as? NSNumber)?.intValue ?? 0) } }
        return videoRun(
            "screenplay", frames: sum("video_frames"), dropped: sum("video_dropped"), before, after, memory)
    }

    /// mpv as a user runs it, asked for its frame counters over its IPC socket.
    private func videoMpv(_ clip: String) throws -> VideoRun {
        say("video: mpv --fs --loop on one sway output for \(videoSeconds) s")
        let rig = try SwayRig.start(outputs: [benchMode], timeout: 20)
        defer { rig.stop() }
        let socket = workDirectory + "/mpv.sock"
        let peer = try Peer(
            "mpv", "/usr/bin/mpv",
            [
                "--no-config", "--fs", "--loop", "--vo=gpu", "--gpu-context=wayland", "--hwdec=auto-safe", "--no-audio",
                "--input-ipc-server=\(socket)", "--really-quiet", clip,
            ],
            environment: rig.clientEnvironment)
        defer { peer.stop() }
        let ipc = MpvIPC(path: socket)
        guard waitUntil(timeout: 30, poll: 0.2, { (ipc.number("estimated-frame-number") ?? 0) > 30 }) else {
            throw RigError("mpv did not play within 30 s: \(peer.process.stderr.suffix(2000))")
        }
        let before = ProcSample.read(pid: peer.pid)
        let framesBefore = ipc.number("estimated-frame-number") ?? 0
        let dropsBefore = ipc.number("frame-drop-count") ?? 0
        Thread.sleep(forTimeInterval: videoSeconds)
        let framesAfter = ipc.number("estimated-frame-number") ?? 0
        let dropsAfter = ipc.number("frame-drop-count") ?? 0
        let after = ProcSample.read(pid: peer.pid)
        let memory = MemoryBreakdown.read(pid: peer.pid)
        let dropped = Int(dropsAfter - dropsBefore)
        return videoRun(
            "mpv", frames: Int(framesAfter - framesBefore) - dropped, dropped: dropped, before, after, memory)
    }

    private func videoRun(
        _ program: String, frames: Int, dropped: Int, _ before: ProcSample?, _ after: ProcSample?,
        _ memory: MemoryBreakdown?
    ) -> VideoRun {
        let process =
            before.flatMap { b in after.map { ProcDelta(from: b, to: $0) } } ?? ProcDelta(from: .zero, to: .zero)
        return VideoRun(
            program: program, seconds: process.seconds, videoFrames: frames, dropped: dropped, process: process,
            cpuMsPerVideoFrame: frames > 0 ? 1000 * process.cpuSeconds / Double(frames) : nil,
            peakRSSMiB: Double(after?.peakRSSKiB ?? 0) / 1024, memory: memory)
    }
}

/// mpv's JSON IPC (`--input-ipc-server`): one request per connection.
struct MpvIPC {
    let path: String

    func number(_ property: String) -> Double? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8.prefix(MemoryLayout.size(ofValue: address.sun_path) - 1))
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { return nil }
        let request = Array("{\"command\":[\"get_property\",\"\(property)\"]}\n".utf8)
        guard write(fd, request, request.count) == request.count else { return nil }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while !reply.contains(UInt8(ascii: "\n")) {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            reply += buffer[0..<count]
        }
        // Events may come first; take the line that answers.
        for line in reply.split(separator: UInt8(ascii: "\n")) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                object["error"] != nil
            else { continue }
            return (object["data"] as? NSNumber)?.doubleValue
        }
        return nil
    }
}

/// The video benchmark's part of the report.
enum VideoReport: MarkdownFormatting {
    /// Both programs playing the clip, and the ratios Screenplay / mpv.
    static func markdown(_ r: BenchResults) -> String {
        var md = ""
        if let v = r.video {
            md += "\n## Video against mpv\n\n\(v.clip); Mesa \(v.mesa); \(v.mpvVersion).\n\n"
            md +=
                "| program | window s | video frames | dropped | CPU ms / video frame | peak RSS MiB | PSS MiB | private MiB |\n|---|---:|---:|---:|---:|---:|---:|---:|\n"
            for run in v.runs {
                let pss = run.memory.map { n(Double($0.pssKiB) / 1024) } ?? "n/a"
                let own = run.memory.map { n(Double($0.privateKiB) / 1024) } ?? "n/a"
                md +=
                    "| \(run.program) | \(n(run.process.seconds)) | \(run.videoFrames) | \(run.dropped) | \(opt(run.cpuMsPerVideoFrame)) | \(n(run.peakRSSMiB)) | \(pss) | \(own) |\n"
            }
            md +=
                "\nScreenplay / mpv: CPU per video frame ×\(opt(v.cpuRatio)), peak RSS ×\(opt(v.rssRatio)) (goal ≤ 1), PSS ×\(opt(v.pssRatio)), private ×\(opt(v.privateRatio)). RSS counts every shared library page each maps (Screenplay also maps the Swift runtime and touches more of libLLVM, compiling its own shaders besides mpv's); PSS divides shared pages among their users and private memory is each program's own.\n"
        }
        return md
    }
}
