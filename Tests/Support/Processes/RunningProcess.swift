// One-shot commands and long-running programs for tests (compositors, the screenplay
// binary), each a ChildProcess: its own process group, so the whole tree can be killed.
public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The outcome of a command run to completion by ``runProcess(_:_:environment:timeout:stdin:directory:)``.
public struct ProcessResult: Sendable {
    /// Exit code; 128 + signal number when the process died from a signal (shell convention).
    public var status: Int32
    /// Everything the process wrote to stdout, decoded as UTF-8.
    public var stdout: String
    /// Everything the process wrote to stderr, decoded as UTF-8.
    public var stderr: String
    /// True when the process had to be killed because it exceeded the timeout.
    public var timedOut: Bool

    /// Creates a result; tests rarely need this except for fakes.
    public init(status: Int32, stdout: String, stderr: String, timedOut: Bool) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.timedOut = timedOut
    }
}

/// Runs a command to completion and collects its output.
///
/// - Parameters:
///   - path: an absolute path, or a bare name looked up in `PATH`.
///   - environment: the complete environment; `nil` inherits this process's environment.
///   - timeout: after this, the process group is killed and `timedOut` is set.
///   - stdin: bytes fed to the child's stdin; `nil` connects /dev/null.
///   - directory: working directory of the child.
/// - Throws: ``RigError`` if the program cannot be found or started (not for a non-zero exit).
public func runProcess(
    _ path: String, _ args: [String], environment: [String: String]? = nil,
    timeout: TimeInterval = 30, stdin: Data? = nil, directory: String? = nil
) throws -> ProcessResult {
    let child = try ChildProcess(
        path: path, args: args, environment: environment, directory: directory,
        stdinData: stdin, keepStdinOpen: false, stderrPath: nil)
    let status = child.waitForExit(timeout: timeout)
    var timedOut = false
    if status == nil {
        timedOut = true
        child.terminateTree(grace: 0)
    }
    // A grandchild may keep the pipes open after the child exited; don't hang on it.
    child.output.waitForEOF(timeout: 2)
    return ProcessResult(
        status: child.waitForExit(timeout: 5) ?? 137, stdout: child.output.text(.stdout),
        stderr: child.output.text(.stderr), timedOut: timedOut)
}

/// A long-running child process, e.g. the `screenplay` binary under test.
///
/// Output is read on a background thread, so the child never blocks on a full pipe;
/// tests consume stdout line by line with ``waitForLine(containing:timeout:)``.
/// The process group is killed on ``kill()`` or deinit, so a failing test leaves nothing behind.
public final class RunningProcess: @unchecked Sendable {
    private let child: ChildProcess
    private let cursorLock = NSLock()
    private var cursor = 0

    /// The child's process id (also its process group id).
    public var pid: Int32 { child.pid }

    /// Starts `path` with `args`.
    /// - Parameters:
    ///   - environment: complete environment; `nil` inherits this process's environment.
    ///   - directory: working directory.
    ///   - keepStdinOpen: connect a pipe to stdin (write with ``writeToStdin(_:)``) instead of /dev/null.
    public init(
        _ path: String, _ args: [String], environment: [String: String]? = nil,
        directory: String? = nil, keepStdinOpen: Bool = false
    ) throws {
        child = try ChildProcess(
            path: path, args: args, environment: environment, directory: directory,
            stdinData: nil, keepStdinOpen: keepStdinOpen, stderrPath: nil)
    }

    deinit { child.terminateTree(grace: 2) }

    /// Complete stdout lines received so far (without newline).
    public var stdoutLines: [String] { child.output.lines() }
    /// Everything received on stdout so far.
    public var stdout: String { child.output.text(.stdout) }
    /// Everything received on stderr so far.
    public var stderr: String { child.output.text(.stderr) }

    /// Waits for the next stdout line, not returned by an earlier call, that satisfies
    /// `predicate`. Lines skipped over are consumed too, so successive calls walk forward.
    /// - Returns: the line, or `nil` on timeout or when stdout closed without a match.
    public func waitForLine(timeout: TimeInterval, where predicate: (String) -> Bool) -> String? {
        cursorLock.lock()
        defer { cursorLock.unlock() }
        let found = child.output.waitForLine(from: cursor, timeout: timeout, predicate)
        if let found { cursor = found.index + 1 }
        return found?.line
    }

    /// Waits for the next unconsumed stdout line containing `text`. See ``waitForLine(timeout:where:)``.
    public func waitForLine(containing text: String, timeout: TimeInterval) -> String? {
        waitForLine(timeout: timeout) { $0.contains(text) }
    }

    /// Waits for the next unconsumed stdout line matching a regular expression.
    public func waitForLine(matching pattern: String, timeout: TimeInterval) -> String? {
        waitForLine(timeout: timeout) { $0.range(of: pattern, options: .regularExpression) != nil }
    }

    /// Writes bytes to the child's stdin (requires `keepStdinOpen`).
    public func writeToStdin(_ data: Data) throws { try child.writeStdin(data) }

    /// Closes the child's stdin so it sees end-of-file.
    public func closeStdin() { child.closeStdin() }

    /// Sends a signal to the child only (not its group).
    public func send(_ signal: Int32) { child.signal(signal) }
    /// Sends SIGTERM.
    public func terminate() { child.signal(SIGTERM) }
    /// Sends SIGINT, like Ctrl-C.
    public func interrupt() { child.signal(SIGINT) }

    /// Waits for the child to exit.
    /// - Returns: exit code (128 + signal when killed by a signal), or `nil` on timeout.
    public func wait(timeout: TimeInterval) -> Int32? { child.waitForExit(timeout: timeout) }

    /// The exit status if the child has exited, without waiting.
    public var exitStatus: Int32? { child.waitForExit(timeout: 0) }

    /// True while the child has not exited.
    public var isRunning: Bool { exitStatus == nil }

    /// Terminates the child's whole process tree (SIGTERM, then SIGKILL after `grace`). Idempotent.
    public func kill(grace: TimeInterval = 2) { child.terminateTree(grace: grace) }
}
