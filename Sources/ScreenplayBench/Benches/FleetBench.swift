// Fleet (`--only fleet`): a small fleet on one machine.
// Four boxes (`play URL`, each on its own headless output, each with its own
// cache) poll one nginx-light on loopback; a new playlist is published with
// an `activate_at` ahead, media first and the playlist last. Measured: when
// each box has it cached, how far apart their switches reach the screen,
// the bytes nginx sent each box against the playlist's size (its access
// log), what an unchanged playlist costs afterwards, and nginx's CPU; every
// box also reports to one mosquitto on loopback (`--mqtt`), whose CPU and
// traffic over the same window are measured, and answers a command.
import Foundation
import TestSupport

/// What nginx answered one box over a span: requests, bytes, and how many were 304.
struct FleetTraffic: Codable, Sendable {
    var requests = 0, bytes = 0, notModified = 0

    init(_ lines: [AccessLine]) {
        requests = lines.count
        bytes = lines.map(\.bytes).reduce(0, +)
        notModified = lines.filter { $0.status == 304 }.count
    }
}

/// One box of the fleet benchmark: when it had the playlist (seconds from
/// publishing), its switch (wall time less `activate_at` in ms, and the
/// frame on the monotonic clock every box shares here), its media traffic
/// for the new playlist and its traffic in the quiet window after.
struct FleetBoxRun: Codable, Sendable {
    var box: String
    var cachedAfter, switchAfterActivateMs: Double?
    var switchPresentedNs: Int?
    var media, unchanged: FleetTraffic
}

/// The fleet benchmark's figures: the playlist (files, media bytes, how far
/// ahead its activate_at was), when the last box had it, the spread of the
/// switches against one refresh, the quiet window's length, and nginx's
/// CPU and requests over the whole window.
struct FleetBenchResult: Codable, Sendable {
    var boxes: [FleetBoxRun]
    var files, playlistMediaBytes: Int
    var activateLeadSeconds: Double
    var allCachedAfter, switchSpreadMs: Double?
    var refreshMs, unchangedSeconds, nginxCPUMs: Double
    var nginxRequests: Int
    var windowSeconds: Double
    /// mosquitto's CPU over the window, the messages (and their topic and
    /// payload bytes) a subscriber to every box's topics received, and how
    /// many boxes answered a `status` command sent over the broker.
    var brokerCPUMs: Double?
    var brokerMessages, brokerBytes, commandsAnswered: Int?
}

/// One line of nginx's combined access log.
struct AccessLine {
    var path: String
    var status: Int
    var bytes: Int
    var box: String?

    init?(_ line: String) {
        guard let request = line.range(of: "\"GET "),
            let version = line.range(of: " HTTP/", range: request.upperBound..<line.endIndex)
        else { return nil }
        path = String(line[request.upperBound..<version.lowerBound])
        let after = line[version.upperBound...].split(separator: "\"", maxSplits: 2)
        let numbers = after.count > 1 ? after[1].split(separator: " ") : []
        guard numbers.count >= 2, let status = Int(numbers[0]), let bytes = Int(numbers[1]) else { return nil }
        self.status = status
        self.bytes = bytes
        box = line.range(of: "(box ").flatMap { start in
            line[start.upperBound...].split(separator: ")").first.map(String.init)
        }
    }
}

/// Four boxes on one machine pulling one playlist from nginx, reporting to one broker.
struct FleetBench: Benchmark {
    let context: BenchContext

    func run() throws {
        let count = 4
        let lead = settings.quick ? 8.0 : 12.0
        let unchangedSeconds = settings.quick ? 3.0 : 6.0
        let folder = workDirectory + "/fleet"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let mode = OutputMode(width: 640, height: 360, refreshHz: 60)
        let rig = try SwayRig.start(outputs: Array(repeating: mode, count: count), timeout: 20)
        defer { rig.stop() }
        let server = try WebServer(folder: folder + "/server")
        try server.start()
        defer { server.stop() }
        try server.publish(
            "lobby/panel.json", Data(#"{"playlists": {"lobby": [{"color": "202020"}]}, "default": "lobby"}"#.utf8))
        let url = server.base + "/lobby/panel.json"
        let broker = try MQTTBrokerProcess(folder: folder + "/broker")
        try broker.start()
        defer { broker.stop() }
        let watcher = try broker.subscribe("screenplay/#", id: "bench-watcher")
        defer { watcher.stop() }
        let names = (1...count).map { "box-\($0)" }
        // Each run's boxes keep their state (proof lines waiting for the broker) apart from the last run's.
        var environment = rig.clientEnvironment
        environment["XDG_STATE_HOME"] = folder + "/state"
        let boxes = try names.enumerated().map { index, name in
            try RunningProcess(
                screenplay,
                [
                    "play", "--cache", folder + "/cache-\(name)", "--poll", "1", "--stats", "-", "--output",
                    "HEADLESS-\(index + 1)", "--socket", folder + "/\(name).sock", "--box-id", name, "--mqtt",
                    broker.url, url,
                ], environment: environment)
        }
        defer {
            for box in boxes {
                box.terminate()
                _ = box.wait(timeout: 5)
            }
        }
        guard waitUntil(timeout: 30, { boxes.allSatisfy { $0.stdoutLines.contains { $0.contains("\"item\"") } } })
        else { throw RigError("fleet: not every box showed its first playlist") }
        guard
            waitUntil(
                timeout: 20,
                {
                    Set(watcher.messages.filter { $0.topic.hasSuffix("/online") && $0.payload == "true" }.map(\.topic))
                        .count == count
                })
        else { throw RigError("fleet: not every box said it is online on the broker: \(broker.log)") }
        // Media first (three photos' worth of noise and a shader), the playlist last.
        var items: [String] = []
        var mediaBytes = 0
        for (index, name) in ["a.png", "b.png", "c.png"].enumerated() {
            let path = folder + "/" + name
            var generator = SystemRandomNumberGenerator()
            let pixels = (0..<480 * 270 * 3).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try RigImage(width: 480, height: 270, pixels: pixels).writePNG(to: path)
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let sum = String(try runProcess("/usr/bin/sha256sum", [path], timeout: 10).stdout.prefix(64))
            try server.publish("lobby/media/" + name, data)
            mediaBytes += data.count
            items.append(
                #"{"file": "media/\#(name)", "duration": \#(index == 0 ? 60 : 5), "sha256": "\#(sum)", "bytes": \#(data.count)}"#
            )
        }
        let shader = Data("void mainImage(out vec4 c, in vec2 p) { c = vec4(0.0, 0.5, 1.0, 1.0); }\n".utf8)
        try server.publish("lobby/media/d.frag", shader)
        mediaBytes += shader.count
        items.append(#"{"file": "media/d.frag", "duration": 5, "bytes": \#(shader.count)}"#)
        let activateAt = (Date().timeIntervalSince1970 + lead).rounded(.up)
        let logStart = server.accessLog.count
        let cpu0 = server.pid.flatMap(taskCPUNanoseconds) ?? 0
        let brokerCPU0 = broker.pid.flatMap(taskCPUNanoseconds) ?? 0
        let messages0 = watcher.messages.count
        let published = now()
        try server.publish(
            "lobby/panel.json",
            Data(
                #"{"playlists": {"lobby": [\#(items.joined(separator: ", "))]}, "default": "lobby", "activate_at": "\#(Self.isoTime(activateAt))"}"#
                    .utf8))
        say("fleet: published a \(mediaBytes)-byte playlist to \(count) boxes, activate_at in \(lead) s")
        // The first playlist's download logged the same line: count from here.
        func completions(_ box: RunningProcess) -> Int {
            box.stderr.components(separatedBy: "new playlist complete").count
        }
        let before = boxes.map(completions)
        var cachedAfter: [String: Double] = [:]
        var switches: [String: [String: Any]] = [:]
        let deadline = published + lead + 20
        while now() < deadline, switches.count < count {
            for (index, (name, box)) in zip(names, boxes).enumerated() {
                if cachedAfter[name] == nil, completions(box) > before[index] {
                    cachedAfter[name] = now() - published
                }
                // The new playlist's first item: whichever of its files the clock puts on at activate_at.
                if switches[name] == nil {
                    switches[name] = box.stdoutLines.lazy.filter { $0.contains("\"item\"") }.compactMap {
                        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                    }.first { ($0["source"] as? String)?.contains("/media/") == true }
                }
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let logSwitched = server.accessLog.count
        Thread.sleep(forTimeInterval: unchangedSeconds)
        let log = server.accessLog
        let cpu1 = server.pid.flatMap(taskCPUNanoseconds) ?? cpu0
        let brokerCPU1 = broker.pid.flatMap(taskCPUNanoseconds) ?? brokerCPU0
        let traffic = watcher.messages.dropFirst(messages0)
        for name in names { try broker.publish("screenplay/\(name)/command", #"{"command":"status","id":"bench"}"#) }
        _ = waitUntil(timeout: 10) {
            watcher.messages.filter { $0.topic.hasSuffix("/reply") && $0.payload.contains("\"bench\"") }.count >= count
        }
        let answered = Set(
            watcher.messages.filter { $0.topic.hasSuffix("/reply") && $0.json?["ok"] as? Bool == true }.map(\.topic)
        ).count
        let window = now() - published
        let change = log[logStart..<logSwitched].compactMap(AccessLine.init)
        let unchanged = log[logSwitched...].compactMap(AccessLine.init)
        let runs = names.map { name in
            let media = change.filter { $0.box == name && $0.path.hasPrefix("/lobby/media/") }
            let quiet = unchanged.filter { $0.box == name }
            let at = (switches[name]?["at"] as? String).flatMap(Self.wallTime)
            return FleetBoxRun(
                box: name, cachedAfter: cachedAfter[name], switchAfterActivateMs: at.map { ($0 - activateAt) * 1000 },
                switchPresentedNs: switches[name]?["presented_ns"] as? Int, media: FleetTraffic(media),
                unchanged: FleetTraffic(quiet))
        }
        let presented = runs.compactMap(\.switchPresentedNs)
        results.fleet = FleetBenchResult(
            boxes: runs, files: items.count, playlistMediaBytes: mediaBytes, activateLeadSeconds: lead,
            allCachedAfter: cachedAfter.count == count ? cachedAfter.values.max() : nil,
            switchSpreadMs: presented.count == count ? Double(presented.max()! - presented.min()!) / 1e6 : nil,
            refreshMs: 1000 / mode.refreshHz, unchangedSeconds: unchangedSeconds,
            nginxCPUMs: Double(cpu1 - cpu0) / 1e6, nginxRequests: log.count - logStart, windowSeconds: window,
            brokerCPUMs: Double(brokerCPU1 - brokerCPU0) / 1e6, brokerMessages: traffic.count,
            brokerBytes: traffic.map { $0.topic.utf8.count + $0.payload.utf8.count }.reduce(0, +),
            commandsAnswered: answered)
    }

    static func isoTime(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    static func wallTime(_ text: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)?.timeIntervalSince1970
    }
}

/// The fleet benchmark's part of the report.
enum FleetReport: MarkdownFormatting {
    /// The fleet's section of summary.md, when it ran.
    static func markdown(_ r: BenchResults) -> String {
        r.fleet == nil ? "" : "\n## A fleet of four boxes\n\n" + table(r)
    }

    /// The fleet table: each of the fleet's goals with what was measured.
    static func table(_ r: BenchResults) -> String {
        guard let f = r.fleet else { return "" }
        let boxes = f.boxes.count
        let cached = f.boxes.map { opt($0.cachedAfter, digits: 1) }.joined(separator: ", ")
        let lateness = f.boxes.map { opt($0.switchAfterActivateMs, digits: 1) }.joined(separator: ", ")
        let perBox = f.boxes.map { "\($0.media.bytes)" }.joined(separator: ", ")
        let fetchedOnce = f.boxes.allSatisfy { $0.media.bytes == f.playlistMediaBytes && $0.media.requests == f.files }
        let quietBytes = f.boxes.map(\.unchanged.bytes).reduce(0, +)
        let quietRequests = f.boxes.map(\.unchanged.requests).reduce(0, +)
        let quiet304 = f.boxes.map(\.unchanged.notModified).reduce(0, +)
        let spreadMet = f.switchSpreadMs.map { $0 <= f.refreshMs ? "yes" : "no" } ?? "–"
        var md = "| measure | value | goal | met |\n|---|---|---|---|\n"
        md +=
            "| time until every box has it cached | \(opt(f.allCachedAfter, digits: 1)) s after the playlist was published (per box: \(cached) s; --poll 1) | before activate_at (\(n(f.activateLeadSeconds)) s ahead) | \(f.allCachedAfter.map { $0 < f.activateLeadSeconds ? "yes" : "no" } ?? "no") |\n"
        md +=
            "| spread of the \(boxes) switches (first frame of the new item, monotonic clock) | \(opt(f.switchSpreadMs, digits: 1)) ms; proof-of-play time after activate_at per box: \(lateness) ms | within one refresh (\(opt(f.refreshMs, digits: 1)) ms) | \(spreadMet) |\n"
        md +=
            "| media bytes sent to each box | \(perBox) for a playlist of \(f.files) files, \(f.playlistMediaBytes) bytes | each file once per box | \(fetchedOnce ? "yes" : "no") |\n"
        md +=
            "| unchanged playlist, \(n(f.unchangedSeconds)) s after the switch, all boxes | \(quietRequests) requests, \(quiet304) answered 304, \(quietBytes) bytes | 304s only, no media | \(quiet304 == quietRequests ? "yes" : "no") |\n"
        md +=
            "| web server load (nginx-light, one worker) | \(opt(f.nginxCPUMs, digits: 1)) ms CPU for \(f.nginxRequests) requests over \(opt(f.windowSeconds, digits: 1)) s | – | – |\n"
        if let cpu = f.brokerCPUMs, let messages = f.brokerMessages, let bytes = f.brokerBytes {
            md +=
                "| broker load (mosquitto; every box with --mqtt) | \(opt(cpu, digits: 1)) ms CPU; a subscriber to screenplay/# got \(messages) messages, \(bytes) bytes of topics and payloads, over the same \(opt(f.windowSeconds, digits: 1)) s | – | – |\n"
            md +=
                "| boxes answering a status command sent over the broker | \(f.commandsAnswered ?? 0) of \(boxes) | all | \(f.commandsAnswered == boxes ? "yes" : "no") |\n"
        } else {
            md += "| broker load | not measured | – | – |\n"
        }
        return md
    }
}
