// The programs under test: `screenplay present` (read through its `--stats -` JSON Lines)
// and the peers (weston-simple-egl, swaybg), all started through the test rig.
import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// One `frames` line of `screenplay present --stats -`.
struct FramesLine: Sendable {
    var output: String
    var presented: Int
    var discarded: Int
    var refreshNs: Int
    var windowSeconds: Double
    /// `presentation` (wp_presentation feedback) or `frame-callbacks`.
    var source: String
    /// Intervals between consecutive frames that ended in this line's window.
    var intervalsMicroseconds: [Int]

    init?(_ line: String) {
        guard line.contains("\"frames\""), let data = line.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            object["event"] as? String == "frames"
        else { return nil }
        func int(_ key: String) -> Int { (object[key] as? NSNumber)?.intValue ?? 0 }
        output = object["output"] as? String ?? ""
        presented = int("presented")
        discarded = int("discarded")
        refreshNs = int("refresh_ns")
        windowSeconds = (object["window_s"] as? NSNumber)?.doubleValue ?? 0
        source = object["source"] as? String ?? "unknown"
        intervalsMicroseconds = (object["intervals_us"] as? [NSNumber])?.map(\.intValue) ?? []
    }
}

/// Where the `screenplay` binary is: next to this executable, as both are
/// products of the same build (overridable with `--screenplay PATH`).
func defaultScreenplayBinary() -> String {
    let own = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    return own.deletingLastPathComponent().appendingPathComponent("screenplay").path
}

/// A running `screenplay present`, with its stats stream.
final class Presenter {
    let process: RunningProcess

    /// Starts `screenplay present ARGS --stats -`.
    /// - Parameter continuous: sets the hidden `SCREENPLAY_BENCH_CONTINUOUS`
    ///   so static content redraws every refresh (the clear-only scene).
    init(
        binary: String, arguments: [String], environment: [String: String], stats: Bool = true, continuous: Bool = false
    ) throws {
        var env = environment
        // Every headless output counts as external: nothing is left out as "built-in".
        env["SCREENPLAY_BUILTIN"] = nil
        if continuous { env["SCREENPLAY_BENCH_CONTINUOUS"] = "1" }
        // --all: with no built-in panel named, the screen at (0,0) would be kept for the
        // app's controls; the benchmark wants content on every output it creates.
        process = try RunningProcess(
            binary, ["present", "--all"] + arguments + (stats ? ["--stats", "-"] : []), environment: env)
    }

    var pid: Int32 { process.pid }

    /// Number of stdout lines so far: a cursor for ``frames(from:to:)``.
    var lineCount: Int { process.stdoutLines.count }

    /// The `frames` lines among stdout lines `from..<to`.
    func frames(from start: Int, to end: Int? = nil) -> [FramesLine] {
        let lines = process.stdoutLines
        let upper = min(end ?? lines.count, lines.count)
        guard start < upper else { return [] }
        return lines[start..<upper].compactMap(FramesLine.init)
    }

    /// The first `configure`/`connect` size reported, as "WxH".
    var firstSize: String? {
        for line in process.stdoutLines where line.contains("\"connect\"") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let w = (object["width"] as? NSNumber)?.intValue, let h = (object["height"] as? NSNumber)?.intValue
            else { continue }
            return "\(w)x\(h)"
        }
        return nil
    }

    /// Waits until each of `outputs` outputs has sent `count` frames lines
    /// with frames in them (the scene is up and drawing).
    func waitForFrames(outputs: Int, count: Int = 2, timeout: Double) throws {
        let ok = waitUntil(timeout: timeout, poll: 0.1) {
            guard process.isRunning else { return true }
            let perOutput = Dictionary(grouping: frames(from: 0).filter { $0.presented > 0 }, by: \.output)
            return perOutput.count >= outputs && perOutput.values.allSatisfy { $0.count >= count }
        }
        guard ok, process.isRunning else {
            throw RigError(
                "screenplay did not present on \(outputs) output(s) within \(timeout) s; stderr:\n\(process.stderr.suffix(3000))"
            )
        }
    }

    /// SIGTERM, then a hard kill if it does not exit.
    func stop() {
        process.terminate()
        if process.wait(timeout: 5) == nil { process.kill() }
    }
}

/// A peer program (weston-simple-egl, swaybg) run like a user would.
final class Peer {
    let process: RunningProcess
    let name: String

    init(_ name: String, _ path: String, _ arguments: [String], environment: [String: String]) throws {
        self.name = name
        process = try RunningProcess(path, arguments, environment: environment)
    }

    var pid: Int32 { process.pid }

    /// `weston-simple-egl` prints "N frames in 5 seconds: F fps" every five
    /// seconds: its own count of frames drawn, paced by frame callbacks.
    var simpleEGLReports: [(frames: Int, seconds: Double)] {
        process.stdoutLines.compactMap { line in
            let words = line.split(separator: " ")
            guard words.count >= 4, words[1] == "frames", words[2] == "in",
                let frames = Int(words[0]), let seconds = Double(words[3])
            else { return nil }
            return (frames, seconds)
        }
    }

    func stop() {
        process.interrupt()
        if process.wait(timeout: 5) == nil { process.kill() }
    }
}
