// A day of signage compressed into minutes: `screenplay play` on three
// panels of a nested sway with 1-second items while panels are unplugged
// and plugged, the compositor restarts, the playlist reloads and control
// requests keep coming. Shared by the CI test (SignageDayTests, a minute or
// so) and the benchmark (`scripts/bench.sh --only day`, ten minutes).
import Foundation

/// How the day is compressed.
public struct SignageDaySchedule: Codable, Sendable {
    /// Seconds the whole run lasts.
    public var seconds: Double
    /// A panel is unplugged, or plugged back, this often.
    public var hotplugEvery: Double = 20
    /// The compositor is killed and started again this often.
    public var restartEvery: Double = 120
    /// The playlist is reloaded this often (saving the file and `ctl reload`, in turn).
    public var reloadEvery: Double = 30
    /// A `ctl status` request this often, throughout.
    public var statusEvery: Double = 0.3

    public init(seconds: Double, restartEvery: Double = 120) {
        self.seconds = seconds
        self.restartEvery = restartEvery
    }
}

/// What the day showed.
public struct SignageDayResult: Codable, Sendable {
    public var schedule: SignageDaySchedule
    public var restarts = 0
    public var unplugs = 0
    public var plugs = 0
    public var reloads = 0
    public var statusAnswered = 0
    public var statusUnanswered = 0
    /// Whether `play` was running at the end (false: it crashed or exited).
    public var survived = false
    /// Its exit status on SIGTERM at the end (0 expected).
    public var exitStatus: Int32?
    /// RSS and open fds after warm-up and at the end, each the least over
    /// one pass of the playlist (with the three panels plugged and settled).
    public var rssKiBAfterWarmUp = 0
    public var rssKiBAtEnd = 0
    public var fdsAfterWarmUp = 0
    public var fdsAtEnd = 0
    /// Proof of play: slots (panel x second) in which a boundary was due on a
    /// connected panel, away from a disruption.
    public var slotsExpected = 0
    /// Of those, slots logged exactly once with the clock's item.
    public var slotsLoggedOnce = 0
    public var slotsMissing = 0
    public var slotsDuplicated = 0
    public var slotsWrongItem = 0
    /// A few of the problems, for the report.
    public var examples: [String] = []
    public var proofLines = 0

    public var rssGrowth: Double { Double(rssKiBAtEnd - rssKiBAfterWarmUp) / Double(max(1, rssKiBAfterWarmUp)) }
    public var completeness: Double { Double(slotsLoggedOnce) / Double(max(1, slotsExpected)) }
    public var summary: String {
        String(
            format:
                "%.0f s: %d restarts, %d unplugs, %d plugs, %d reloads, ctl status %d answered / %d not; RSS %d -> %d KiB (%+.1f %%), fds %d -> %d; proof %d/%d slots logged once (%d missing, %d twice, %d wrong item); %@",
            schedule.seconds, restarts, unplugs, plugs, reloads, statusAnswered, statusUnanswered, rssKiBAfterWarmUp,
            rssKiBAtEnd,
            rssGrowth * 100, fdsAfterWarmUp, fdsAtEnd, slotsLoggedOnce, slotsExpected, slotsMissing, slotsDuplicated,
            slotsWrongItem,
            survived && exitStatus == 0 ? "no crash" : "play ended with \(exitStatus.map(String.init) ?? "nothing")")
    }
}

public enum SignageDay {
    /// Writes the day's media into `folder` next to `deck.pdf` (which the
    /// caller writes: TestSupport cannot make PDFs) and its playlist: items
    /// of 1 s (three colours, two images, two PDF pages, and with `video` a
    /// clip cut at 1 s), cuts.
    /// - Returns: the playlist's path and its item count.
    public static func writePlaylist(in folder: String, video: Bool) throws -> (playlist: String, items: Int) {
        for (name, hex) in [("a", 0xc03030), ("b", 0x30c030)] {
            try RigImage.solid(width: 640, height: 360, hex: hex).writePNG(to: "\(folder)/\(name).png")
        }
        var items = [
            #"{"file": "a.png"}"#, #"{"color": "2040ff"}"#, #"{"file": "deck.pdf", "pages": "1-2"}"#,
            #"{"color": "ff8000"}"#, #"{"file": "b.png"}"#, #"{"color": "20a0a0"}"#,
        ]
        if video {
            // Two seconds of ffmpeg's test pattern, cut at 1 s by the item's duration.
            _ = try TestMedia.pattern(in: folder, name: "clip", seconds: 2, fps: 30, width: 320, height: 180)
            items.insert(#"{"file": "clip.mp4", "duration": 1}"#, at: 3)
        }
        let playlist = folder + "/day.json"
        try "{\"playlists\": {\"day\": [\(items.joined(separator: ", "))]}, \"default\": \"day\"}"
            .write(toFile: playlist, atomically: true, encoding: .utf8)
        // The PDF gives two items.
        return (playlist, items.count + 1)
    }

    /// Runs the day. `playlist` is a playlist file whose default playlist has
    /// `items` items of 1 s each (cuts, no crossfade) so every panel shows
    /// item `t mod items` in second `t`.
    public static func run(
        screenplay: String, playlist: String, items: Int, schedule: SignageDaySchedule, log: (String) -> Void = { _ in }
    ) throws -> SignageDayResult {
        var result = SignageDayResult(schedule: schedule)
        let rig = try NestedSwayRig.start(
            outputs: 4, outputSize: OutputMode(width: 320, height: 240),
            parentMode: OutputMode(width: 1280, height: 960))
        defer { rig.stop() }
        let work = try RigFiles.makeTempDirectory(label: "signage-day")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let proofPath = work + "/proof.jsonl"
        let socket = work + "/ctl/play.sock"
        var environment = rig.clientEnvironment
        environment["SCREENPLAY_BUILTIN"] = "WL-1"
        let play = try RunningProcess(
            screenplay, ["play", playlist, "--duration", "1", "--proof", proofPath, "--socket", socket],
            environment: environment)
        defer { play.kill(grace: 2) }
        let started = Date()
        func elapsed() -> Double { Date().timeIntervalSince(started) }

        // Disruptions: every panel is excluded from the proof check around each.
        let settle = 6.0
        var windows: [(from: Double, to: Double, output: String?)] = []
        var plugged = ["WL-2", "WL-3", "WL-4"]
        var pluggedSince: [String: Double] = ["WL-2": 0, "WL-3": 0, "WL-4": 0]
        var coverage: [(output: String, from: Double, to: Double)] = []
        func unplugged(_ output: String, at t: Double) {
            coverage.append((output, pluggedSince[output] ?? t, t))
            pluggedSince[output] = nil
            plugged.removeAll { $0 == output }
        }

        let ctlStop = NSLock()
        nonisolated(unsafe) var ctlRunning = true
        nonisolated(unsafe) var answered = 0
        nonisolated(unsafe) var unanswered = 0
        let ctlThread = Thread {
            while ctlStop.withLock({ ctlRunning }) {
                let reply = controlRequest(socket, #"{"command": "status"}"#)
                ctlStop.withLock {
                    if reply?.contains("\"ok\":true") == true { answered += 1 } else { unanswered += 1 }
                }
                Thread.sleep(forTimeInterval: schedule.statusEvery)
            }
        }
        guard
            waitUntil(
                timeout: 20,
                { (try? String(contentsOfFile: proofPath, encoding: .utf8))?.split(separator: "\n").count ?? 0 >= 3 })
        else {
            throw RigError("play showed nothing within 20 s: \(play.stderr)")
        }
        ctlThread.start()
        let playlistText = try String(contentsOfFile: playlist, encoding: .utf8)
        var nextHotplug = schedule.hotplugEvery
        var nextRestart = schedule.restartEvery
        var nextReload = schedule.reloadEvery
        let warmUpAt = min(schedule.seconds / 2, schedule.restartEvery + 10)
        var warmedUp = false
        func sample() -> (rss: Int, fds: Int) {
            // Items hold things for their slot: a page being rendered keeps
            // its PDF open for a moment, a video item its file (three fds
            // over three panels) and its decoder (megabytes) from its
            // preload to the next item. The least of each over one pass of
            // the playlist compares like with like; one sample could land
            // in a video's slot at one end and not at the other.
            var least = (rss: Int.max, fds: Int.max)
            let end = Date().addingTimeInterval(Double(items))
            repeat {
                least.rss = min(least.rss, ProcessUsage.residentKiB(play.pid))
                least.fds = min(least.fds, ProcessUsage.openFileDescriptors(play.pid))
                Thread.sleep(forTimeInterval: 0.1)
            } while Date() < end
            return least
        }
        func calm(_ t: Double) -> Bool {
            plugged.count == 3 && !windows.contains { t >= $0.from && t <= $0.to }
        }

        while elapsed() < schedule.seconds, play.isRunning {
            let t = elapsed()
            if t >= nextRestart {
                nextRestart += schedule.restartEvery
                log(String(format: "%.0f s: compositor restart", t))
                windows.append((t - 1, t + settle + 3, nil))
                for output in plugged { unplugged(output, at: t) }
                rig.killNested()
                Thread.sleep(forTimeInterval: 1)
                try rig.restartNested()
                let back = elapsed()
                plugged = try rig.outputs().map(\.name).filter { $0 != "WL-1" }.sorted()
                for output in plugged { pluggedSince[output] = back + settle }
                windows[windows.count - 1].to = back + settle
                result.restarts += 1
            } else if t >= nextHotplug {
                nextHotplug += schedule.hotplugEvery
                windows.append((t - 1, t + settle, nil))
                if plugged.count == 3, let victim = plugged.last {
                    log(String(format: "%.0f s: unplug %@", t, victim))
                    unplugged(victim, at: t)
                    try rig.removeOutput(victim)
                    result.unplugs += 1
                } else {
                    let name = try rig.addOutput()
                    log(String(format: "%.0f s: plug %@", t, name))
                    plugged.append(name)
                    pluggedSince[name] = elapsed() + settle
                    result.plugs += 1
                }
            } else if t >= nextReload {
                nextReload += schedule.reloadEvery
                if result.reloads % 2 == 0 {
                    try playlistText.write(toFile: playlist, atomically: false, encoding: .utf8)
                } else {
                    _ = controlRequest(socket, #"{"command": "reload"}"#)
                }
                result.reloads += 1
            } else if !warmedUp, t >= warmUpAt, calm(t) {
                (result.rssKiBAfterWarmUp, result.fdsAfterWarmUp) = sample()
                warmedUp = true
                log(
                    String(
                        format: "%.0f s: after warm-up RSS %d KiB, fds %d", t, result.rssKiBAfterWarmUp,
                        result.fdsAfterWarmUp))
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        // The end: every panel plugged and settled, then the same sample.
        if play.isRunning, plugged.count < 3 {
            let name = try rig.addOutput()
            plugged.append(name)
            pluggedSince[name] = elapsed() + settle
            result.plugs += 1
        }
        Thread.sleep(forTimeInterval: settle)
        let end = elapsed()
        result.survived = play.isRunning
        if result.survived { (result.rssKiBAtEnd, result.fdsAtEnd) = sample() }
        for output in plugged { coverage.append((output, pluggedSince[output] ?? end, end)) }
        ctlStop.withLock { ctlRunning = false }
        while !ctlThread.isFinished { Thread.sleep(forTimeInterval: 0.05) }
        result.statusAnswered = ctlStop.withLock { answered }
        result.statusUnanswered = ctlStop.withLock { unanswered }
        play.terminate()
        result.exitStatus = play.wait(timeout: 10)

        // Proof of play: each covered second of each panel, away from the
        // disruptions, has exactly one line, naming the clock's item.
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let lines = (try? String(contentsOfFile: proofPath, encoding: .utf8))?.split(separator: "\n") ?? []
        result.proofLines = lines.count
        var logged: [String: [Int: [Int]]] = [:]  // output -> epoch second -> indices
        var times: [String: [Int: [String]]] = [:]  // the same, as "item i at +0.123 s"
        for line in lines {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let output = object["output"] as? String, let index = object["index"] as? Int,
                let at = (object["at"] as? String).flatMap(formatter.date(from:))
            else { continue }
            let second = Int(at.timeIntervalSince1970.rounded(.down))
            logged[output, default: [:]][second, default: []].append(index)
            times[output, default: [:]][second, default: []].append(
                String(format: "item %d at +%.3f s", index, at.timeIntervalSince1970 - Double(second)))
        }
        let epochStart = started.timeIntervalSince1970
        for span in coverage {
            let first = Int((epochStart + span.from).rounded(.up)), last = Int((epochStart + span.to).rounded(.down))
            guard first < last else { continue }
            for second in first..<last {
                let t = Double(second) - epochStart
                guard !windows.contains(where: { t + 1 >= $0.from && t <= $0.to }) else { continue }
                result.slotsExpected += 1
                let indices = logged[span.output]?[second] ?? []
                let expected = second % items
                switch indices.count {
                case 0:
                    result.slotsMissing += 1
                    if result.examples.count < 10 {
                        result.examples.append(String(format: "%@ at %.0f s: no line", span.output, t))
                    }
                case 1 where indices[0] == expected:
                    result.slotsLoggedOnce += 1
                case 1:
                    result.slotsWrongItem += 1
                    if result.examples.count < 10 {
                        result.examples.append(
                            String(
                                format: "%@ at %.0f s: item %d, the clock says %d", span.output, t, indices[0], expected
                            ))
                    }
                default:
                    result.slotsDuplicated += 1
                    if result.examples.count < 10 {
                        result.examples.append(
                            String(format: "%@ at %.0f s: %d lines", span.output, t, indices.count) + " ("
                                + (times[span.output]?[second] ?? []).joined(separator: ", ") + ")")
                    }
                }
            }
        }
        if !result.survived || result.exitStatus != 0 { result.examples.append("stderr: \(play.stderr.suffix(1500))") }
        return result
    }

    /// One request on the control socket; the reply line, or nil.
    static func controlRequest(_ path: String, _ json: String) -> String? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in Array(path.utf8).prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { return nil }
        let request = Array((json + "\n").utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count
        else { return nil }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !reply.contains(0x0A) {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            reply += buffer[0..<count]
        }
        return String(decoding: reply, as: UTF8.self)
    }
}
