// Xvfb, an X server in memory: the host of mutter's nested (X11) backend.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One Xvfb on a free display number, with `xwd` to read its screen and
/// `xdotool` to type on it. No access control beyond the local socket.
final class XServer: @unchecked Sendable {
    /// `:N`, for `DISPLAY`.
    let display: String
    private let process: ChildProcess

    private init(display: String, process: ChildProcess) {
        self.display = display
        self.process = process
    }

    /// Starts Xvfb with one `width`x`height` 24-bit screen on the first display
    /// number from 90 whose lock and socket are free, and waits for its socket.
    static func start(width: Int, height: Int, timeout: TimeInterval = 10) throws -> XServer {
        for number in 90..<190
        where !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
            && !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
        {
            let process = try ChildProcess(
                path: "Xvfb",
                args: [":\(number)", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"],
                environment: ["PATH": "/usr/local/bin:/usr/bin:/bin"], directory: nil, stdinData: nil,
                keepStdinOpen: false, stderrPath: "/dev/null")
            let server = XServer(display: ":\(number)", process: process)
            // Another server may have taken the number between the check and the start: Xvfb then exits.
            _ = waitUntil(timeout: timeout) {
                process.waitForExit(timeout: 0) != nil
                    || FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
                        && (try? server.run("xdotool", ["getdisplaygeometry"], timeout: 5).status) == 0
            }
            if process.waitForExit(timeout: 0) == nil { return server }
        }
        throw RigError(
            "Xvfb did not start on any display from :90 to :189 (install xvfb; free numbers need /tmp/.X11-unix)")
    }

    /// The screen as `xwd -root` reads it.
    func capture() throws -> RigImage {
        let result = try runRaw("xwd", ["-root", "-silent"], timeout: 20)
        return try RigImage(xwd: result)
    }

    /// `xdotool key KEY` on the focused window.
    func typeKey(_ key: String) throws {
        let result = try run("xdotool", ["key", key], timeout: 5)
        guard result.status == 0 else {
            throw RigError("xdotool key \(key) failed (status \(result.status)): \(result.stderr)")
        }
    }

    func stop() { process.terminateTree(grace: 3) }

    private var environment: [String: String] { ["PATH": "/usr/local/bin:/usr/bin:/bin", "DISPLAY": display] }

    private func run(_ tool: String, _ args: [String], timeout: TimeInterval) throws -> ProcessResult {
        try runProcess(tool, args, environment: environment, timeout: timeout)
    }

    /// Runs `tool` with stdout into a file and returns its bytes (xwd's output is binary).
    private func runRaw(_ tool: String, _ args: [String], timeout: TimeInterval) throws -> Data {
        let path = NSTemporaryDirectory() + "screenplay-xwd-\(getpid())-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try run(tool, args + ["-out", path], timeout: timeout)
        guard result.status == 0, let data = FileManager.default.contents(atPath: path) else {
            throw RigError("\(tool) on \(display) failed (status \(result.status)): \(result.stderr)")
        }
        return data
    }
}
