// Measuring instruments: the kernel's per-process accounting (/proc), sway's IPC socket
// for timestamping output hot-plug, and grim for watching an output's pixels from outside.
import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC in seconds: the clock every timestamp in the benchmark uses.
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// One reading of a process's counters from /proc.
struct ProcSample: Sendable {
    /// When the sample was taken (CLOCK_MONOTONIC seconds).
    var time: Double
    /// user + system CPU time of the whole process (all threads, including
    /// exited ones), in seconds.
    var cpuSeconds: Double
    /// Voluntary context switches summed over the live threads: each is a
    /// sleep that ended in a wakeup, so this counts wakeups.
    var voluntarySwitches: Int
    /// Involuntary context switches summed over the live threads (preemption).
    var involuntarySwitches: Int
    /// Peak resident set size so far (VmHWM), in KiB.
    var peakRSSKiB: Int
    /// Current resident set size (VmRSS), in KiB.
    var rssKiB: Int

    /// Clock ticks per second of the utime/stime fields.
    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// Reads the counters of `pid`, or `nil` if it is gone.
    ///
    /// CPU time comes from /proc/PID/stat, which already totals all threads.
    /// Context switches in /proc/PID/status are the main thread's only, so
    /// they are summed over /proc/PID/task/*/status: Mesa's llvmpipe and
    /// libdispatch run threads of their own.
    static func read(pid: Int32) -> ProcSample? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")"),
            let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        else { return nil }
        // Fields after the command name (which may contain spaces): state is
        // field 3, utime 14 and stime 15, so indices 11 and 12 here.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let utime = Double(fields[11]), let stime = Double(fields[12]) else { return nil }
        var voluntary = 0
        var involuntary = 0
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else {
                continue  // the thread exited between listing and reading
            }
            voluntary += field("voluntary_ctxt_switches", in: text) ?? 0
            involuntary += field("nonvoluntary_ctxt_switches", in: text) ?? 0
        }
        return ProcSample(
            time: now(), cpuSeconds: (utime + stime) / ticksPerSecond, voluntarySwitches: voluntary,
            involuntarySwitches: involuntary, peakRSSKiB: field("VmHWM", in: status) ?? 0,
            rssKiB: field("VmRSS", in: status) ?? 0)
    }

    /// The first integer on the `name:` line of a /proc status file.
    private static func field(_ name: String, in text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.dropFirst(name.count + 1).drop { $0 == " " || $0 == "\t" }.prefix { $0.isNumber }
            return Int(digits)
        }
        return nil
    }
}

/// What happened to a process between two samples.
struct ProcDelta: Codable, Sendable {
    var seconds: Double
    var cpuSeconds: Double
    var voluntarySwitches: Int
    var involuntarySwitches: Int
    var peakRSSKiB: Int

    init(from a: ProcSample, to b: ProcSample) {
        seconds = b.time - a.time
        cpuSeconds = b.cpuSeconds - a.cpuSeconds
        voluntarySwitches = b.voluntarySwitches - a.voluntarySwitches
        involuntarySwitches = b.involuntarySwitches - a.involuntarySwitches
        peakRSSKiB = b.peakRSSKiB
    }

    /// Wakeups (voluntary switches) per second.
    var wakeupsPerSecond: Double { seconds > 0 ? Double(voluntarySwitches) / seconds : 0 }
    /// CPU use as a share of one core, in percent.
    var cpuPercent: Double { seconds > 0 ? 100 * cpuSeconds / seconds : 0 }
}

/// A direct connection to sway's IPC socket (the i3 protocol).
///
/// The benchmark sends `create_output` itself instead of running swaymsg so
/// the hot-plug clock starts within microseconds of the output's creation:
/// sway creates the output, and with it the wl_output global, while handling
/// the command, so the global appears between our write and sway's reply.
final class SwayIPC {
    private let fd: Int32

    init(socketPath: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw RigError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(socketPath.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            Glibc.close(fd)
            throw RigError("IPC socket path too long: \(socketPath)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard rc == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw RigError("cannot connect to \(socketPath): \(reason)")
        }
    }

    deinit { Glibc.close(fd) }

    /// Message types of the i3/sway IPC protocol that the benchmark uses.
    enum MessageType: UInt32 {
        case runCommand = 0
        case getOutputs = 3
    }

    /// Sends one message and returns the reply's payload.
    func send(_ type: MessageType, _ payload: String = "") throws -> Data {
        let body = Array(payload.utf8)
        var message = Array("i3-ipc".utf8)
        // Length and type are in native byte order, as in sway's ipc-client.c.
        withUnsafeBytes(of: UInt32(body.count)) { message.append(contentsOf: $0) }
        withUnsafeBytes(of: type.rawValue) { message.append(contentsOf: $0) }
        message.append(contentsOf: body)
        try writeAll(message)
        let header = try readExactly(14)
        let length = header[6..<10].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        return Data(try readExactly(Int(length)))
    }

    /// Runs a sway command and throws if sway reports a failure.
    func command(_ text: String) throws {
        let reply = try send(.runCommand, text)
        guard let results = try? JSONSerialization.jsonObject(with: reply) as? [[String: Any]],
            results.allSatisfy({ $0["success"] as? Bool == true })
        else { throw RigError("sway command '\(text)' failed: \(String(decoding: reply, as: UTF8.self))") }
    }

    /// Name and layout rectangle of every output.
    func outputs() throws -> [(name: String, rect: PixelRect)] {
        let reply = try send(.getOutputs)
        guard let list = try? JSONSerialization.jsonObject(with: reply) as? [[String: Any]] else {
            throw RigError("cannot parse get_outputs: \(String(decoding: reply, as: UTF8.self))")
        }
        return list.compactMap { output in
            guard let name = output["name"] as? String, let rect = output["rect"] as? [String: Any] else { return nil }
            func number(_ key: String) -> Int { (rect[key] as? NSNumber)?.intValue ?? 0 }
            return (name, PixelRect(x: number("x"), y: number("y"), width: number("width"), height: number("height")))
        }
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw RigError("IPC write failed: \(String(cString: strerror(errno)))") }
            offset += n
        }
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let n = buffer[offset...].withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw RigError("IPC connection closed") }
            offset += n
        }
        return buffer
    }
}

/// Watches one pixel of a sway output from outside, with grim (screencopy).
///
/// A 1×1 region keeps each capture cheap; screencopy hands the pixel over
/// when the compositor next renders the output, so one poll costs about one
/// refresh and the detection resolution is roughly that. The same probe
/// times Screenplay and its peer, so their numbers are comparable.
struct PixelProbe {
    var environment: [String: String]
    /// Where grim writes the capture: runProcess hands stdout back as text,
    /// which would mangle binary pixels.
    var scratchPath = NSTemporaryDirectory() + "/screenplay-bench-probe-\(UUID().uuidString).ppm"

    /// The colour at layout position (x, y), or `nil` if grim failed (e.g.
    /// the output is not in the layout yet).
    func color(x: Int, y: Int) -> RGB? {
        defer { unlink(scratchPath) }
        guard
            let result = try? runProcess(
                "grim", ["-g", "\(x),\(y) 1x1", "-t", "ppm", scratchPath], environment: environment, timeout: 10),
            result.status == 0, let image = try? RigImage(contentsOf: scratchPath), image.width >= 1, image.height >= 1
        else { return nil }
        return image.pixel(x: 0, y: 0)
    }

    /// Polls until the pixel is within `tolerance` of `expected`.
    /// - Returns: when the successful capture started and ended, and how many
    ///   captures it took; `nil` on timeout.
    func waitFor(
        _ expected: RGB, x: Int, y: Int, tolerance: Int = 8, timeout: Double
    ) -> (started: Double, ended: Double, polls: Int)? {
        let deadline = now() + timeout
        var polls = 0
        while now() < deadline {
            let started = now()
            let seen = color(x: x, y: y)
            polls += 1
            if let seen, seen.distance(to: expected) <= tolerance { return (started, now(), polls) }
        }
        return nil
    }
}

/// Makes `path`: `seconds` of ffmpeg's moving test pattern (`testsrc2`) at
/// `width` x `height` and 30 fps, H.264 (veryfast, yuv420p), the clip every
/// video benchmark plays.
func makeBenchClip(_ path: String, width: Int, height: Int, seconds: Double) throws {
    let made = try runProcess(
        "/usr/bin/ffmpeg",
        [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=\(width)x\(height):r=30:d=\(seconds)", "-c:v",
            "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", path,
        ], timeout: 600)
    guard made.status == 0 else { throw RigError("ffmpeg could not make the clip \(path): \(made.stderr)") }
}
