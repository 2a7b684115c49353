// Child processes for tests: one-shot commands and long-running programs (compositors,
// the screenplay binary). Built on posix_spawn rather than Foundation.Process so every
// child gets its own process group (the whole tree can be killed, including what
// runuser or weston start) and signal dispositions are reset.
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

// MARK: - Internals

enum Stream { case stdout, stderr }

/// Collects a child's stdout/stderr on a dedicated thread.
///
/// The reader thread holds only this object, never the owning RunningProcess, so that
/// dropping the RunningProcess still runs its deinit (and kills the child).
final class OutputCollector: @unchecked Sendable {
    private let condition = NSCondition()
    private var out = Data()
    private var err = Data()
    private var completeLines: [String] = []
    private var partialLine = Data()
    private var eof = false

    func append(_ data: Data, to stream: Stream) {
        condition.lock()
        defer { condition.unlock() }
        switch stream {
        case .stderr: err.append(data)
        case .stdout:
            out.append(data)
            partialLine.append(data)
            while let newline = partialLine.firstIndex(of: UInt8(ascii: "\n")) {
                let line = partialLine[partialLine.startIndex..<newline]
                completeLines.append(String(decoding: line, as: UTF8.self))
                partialLine = Data(partialLine[(newline + 1)...])
            }
        }
        condition.broadcast()
    }

    func finish() {
        condition.lock()
        if !partialLine.isEmpty {
            completeLines.append(String(decoding: partialLine, as: UTF8.self))
            partialLine = Data()
        }
        eof = true
        condition.broadcast()
        condition.unlock()
    }

    func text(_ stream: Stream) -> String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: stream == .stdout ? out : err, as: UTF8.self)
    }

    func lines() -> [String] {
        condition.lock()
        defer { condition.unlock() }
        return completeLines
    }

    func waitForLine(
        from start: Int, timeout: TimeInterval, _ predicate: (String) -> Bool
    ) -> (index: Int, line: String)? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        var next = start
        while true {
            while next < completeLines.count {
                if predicate(completeLines[next]) { return (next, completeLines[next]) }
                next += 1
            }
            if eof { return nil }
            if !condition.wait(until: deadline) { return nil }
        }
    }

    func waitForEOF(timeout: TimeInterval) {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        while !eof && condition.wait(until: deadline) {}
        condition.unlock()
    }
}

/// Starts the reader thread for a child's stdout/stderr pipes. It exits at EOF on both,
/// or when `stop` is set (a grandchild may hold the pipes open forever).
final class PipeReader: @unchecked Sendable {
    private let lock = NSLock()
    private var stopRequested = false

    init(stdoutFD: Int32, stderrFD: Int32, into collector: OutputCollector) {
        let thread = Thread { [self] in
            self.run(fds: [(stdoutFD, .stdout), (stderrFD, .stderr)], collector: collector)
        }
        thread.name = "rig-pipe-reader"
        thread.start()
    }

    func stop() {
        lock.lock()
        stopRequested = true
        lock.unlock()
    }

    private var shouldStop: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopRequested
    }

    private func run(fds: [(Int32, Stream)], collector: OutputCollector) {
        var open = fds
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty && !shouldStop {
            var pollfds = open.map { pollfd(fd: $0.0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&pollfds, nfds_t(pollfds.count), 100)
            if ready < 0 && errno != EINTR { break }
            if ready <= 0 { continue }
            var closed: [Int32] = []
            for (i, p) in pollfds.enumerated() where p.revents != 0 {
                let n = buffer.withUnsafeMutableBytes { read(p.fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    collector.append(Data(buffer[0..<n]), to: open[i].1)
                } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                    closed.append(p.fd)
                }
            }
            for fd in closed { close(fd) }
            open.removeAll { closed.contains($0.0) }
        }
        for (fd, _) in open { close(fd) }
        collector.finish()
    }
}

/// One spawned child: pid bookkeeping, reaping, signalling, tree termination.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    let output = OutputCollector()
    private let lock = NSLock()
    private var status: Int32?
    private var stdinFD: Int32 = -1
    private var reader: PipeReader?
    private var treeTerminated = false

    /// - Parameter stderrPath: if set, stderr goes to this file (and stdout too) instead of
    ///   pipes, so a compositor's log survives it and nobody has to drain it.
    init(
        path: String, args: [String], environment: [String: String]?, directory: String?,
        stdinData: Data?, keepStdinOpen: Bool, stderrPath: String?
    ) throws {
        ProcessTree.becomeSubreaper
        let executable = try ChildProcess.resolve(path, environment: environment)
        let env = environment ?? ProcessInfo.processInfo.environment

        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        var inPipe: [Int32] = [-1, -1]
        let wantsStdinPipe = stdinData != nil || keepStdinOpen
        func closeAll() {
            for fd in outPipe + errPipe + inPipe where fd >= 0 { close(fd) }
        }
        if stderrPath == nil {
            guard LibC.pipe2(&outPipe, Int32(O_CLOEXEC)) == 0, LibC.pipe2(&errPipe, Int32(O_CLOEXEC)) == 0 else {
                closeAll()
                throw RigError("pipe failed: \(String(cString: strerror(errno)))")
            }
        }
        if wantsStdinPipe {
            guard LibC.pipe2(&inPipe, Int32(O_CLOEXEC)) == 0 else {
                closeAll()
                throw RigError("pipe failed: \(String(cString: strerror(errno)))")
            }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if wantsStdinPipe {
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let stderrPath {
            // Not O_CLOEXEC: the opened fd *is* the child's stderr and must survive exec.
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 2, 1)
        } else {
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        }
        if let directory {
            guard LibC.addchdir(&actions, directory) == 0 else {
                closeAll()
                throw RigError("cannot set working directory \(directory) for \(executable)")
            }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Own process group: the whole tree (runuser -> sway, weston -> its clients) can be
        // signalled at once. Reset the mask and dispositions the test runner may have changed
        // (ignored SIGPIPE would otherwise be inherited by the compositor).
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM] {
            sigaddset(&defaults, s)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        let argv = ([executable] + args).map { strdup($0) }
        let envp = env.map { strdup("\($0.key)=\($0.value)") }
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var spawned: pid_t = 0
        let rc = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
            (envp + [nil]).withUnsafeBufferPointer { envBuffer in
                posix_spawn(
                    &spawned, executable, &actions, &attributes,
                    argvBuffer.baseAddress!, envBuffer.baseAddress!)
            }
        }
        if rc != 0 {
            closeAll()
            throw RigError("cannot start \(executable): \(String(cString: strerror(rc)))")
        }
        pid = spawned
        PidRegistry.record(spawned, command: ([executable] + args).joined(separator: " "))

        if stderrPath == nil {
            close(outPipe[1])
            close(errPipe[1])
            reader = PipeReader(stdoutFD: outPipe[0], stderrFD: errPipe[0], into: output)
        } else {
            output.finish()
        }
        ProcessesUnderTest.note(path: executable, args: args, output: output)
        if wantsStdinPipe {
            close(inPipe[0])
            stdinFD = inPipe[1]
            ChildProcess.ignoreSIGPIPE
            if let stdinData {
                let fd = inPipe[1]
                stdinFD = -1
                // A separate thread, so a child that doesn't read stdin can't deadlock us.
                Thread.detachNewThread {
                    ChildProcess.writeAll(stdinData, to: fd)
                    close(fd)
                }
            }
        }
    }

    deinit {
        terminateTree(grace: 0)
        closeStdin()
    }

    /// Writing to a pipe whose reader exited raises SIGPIPE, which would kill the test runner.
    private static let ignoreSIGPIPE: Void = { _ = Glibc.signal(SIGPIPE, SIG_IGN) }()

    @discardableResult
    private static func writeAll(_ data: Data, to fd: Int32) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
    }

    func writeStdin(_ data: Data) throws {
        lock.lock()
        let fd = stdinFD
        lock.unlock()
        guard fd >= 0 else { throw RigError("stdin of pid \(pid) is not open") }
        guard ChildProcess.writeAll(data, to: fd) else {
            throw RigError("write to stdin of pid \(pid) failed: \(String(cString: strerror(errno)))")
        }
    }

    func closeStdin() {
        lock.lock()
        if stdinFD >= 0 {
            close(stdinFD)
            stdinFD = -1
        }
        lock.unlock()
    }

    static func resolve(_ path: String, environment: [String: String]?) throws -> String {
        if path.contains("/") { return path }
        let searchPath =
            environment?["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in searchPath.split(separator: ":") {
            let candidate = "\(dir)/\(path)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        throw RigError("\(path) not found in PATH (\(searchPath))")
    }

    /// Reaps the child if it exited. Only this object ever waits for `pid`.
    private func reap() -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let status { return status }
        var raw: Int32 = 0
        let r = waitpid(pid, &raw, WNOHANG)
        if r == pid {
            let signal = raw & 0x7f
            status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
            PidRegistry.forget(pid)
        } else if r < 0 && errno == ECHILD {
            status = 255
            PidRegistry.forget(pid)
        }
        return status
    }

    func waitForExit(timeout: TimeInterval) -> Int32? {
        var result: Int32?
        waitUntil(timeout: timeout, poll: 0.01) {
            result = reap()
            return result != nil
        }
        return result
    }

    /// The process itself or its first descendant whose command name
    /// (`/proc/PID/comm`) is `name`: the compositor behind `runuser` and `env`.
    func find(named name: String) -> pid_t? {
        for candidate in [pid] + ProcessTree.descendants(of: pid) {
            let comm = (try? String(contentsOfFile: "/proc/\(candidate)/comm", encoding: .utf8)) ?? ""
            if comm.trimmingCharacters(in: .whitespacesAndNewlines) == name { return candidate }
        }
        return nil
    }

    func signal(_ sig: Int32) {
        if reap() == nil { Glibc.kill(pid, sig) }
    }

    /// Stops the child and everything it started.
    ///
    /// Descendants get SIGTERM before the child: `runuser` reacts to SIGTERM by sleeping
    /// 2 s before it kills its child, whereas when sway exits runuser returns at once.
    /// Whatever survives `grace` is SIGKILLed, by process group and individually (in case
    /// a descendant started its own session).
    func terminateTree(grace: TimeInterval, descendantsFirst: Bool = false) {
        defer { reader?.stop() }
        lock.lock()
        let alreadyDone = treeTerminated
        treeTerminated = true
        lock.unlock()
        let descendants = ProcessTree.descendants(of: pid)
        if reap() != nil && descendants.isEmpty {
            // Orphans re-parented away are invisible to the walk but keep the group id. Only
            // once, soon after exit: later the id could belong to someone else's group.
            if !alreadyDone { Glibc.kill(-pid, SIGKILL) }
            return
        }
        if grace > 0 {
            if descendantsFirst {
                for d in descendants { Glibc.kill(d, SIGTERM) }
                _ = waitForExit(timeout: grace / 2)
            }
            if reap() == nil { Glibc.kill(pid, SIGTERM) }
            if !descendantsFirst { for d in descendants { Glibc.kill(d, SIGTERM) } }
            _ = waitForExit(timeout: descendantsFirst ? grace / 2 : grace)
            waitUntil(timeout: 0.5) { descendants.allSatisfy { !ProcessTree.isAlive($0) } }
        }
        Glibc.kill(-pid, SIGKILL)
        for d in descendants where ProcessTree.isAlive(d) { Glibc.kill(d, SIGKILL) }
        _ = waitForExit(timeout: 5)
        ProcessTree.reapOrphans(descendants)
    }
}

/// glibc functions Swift's Glibc module hides because it is not built with _GNU_SOURCE.
enum LibC {
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private typealias AddChdir =
        @convention(c) (
            UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
        ) -> Int32

    private static func lookup<F>(_ name: String, as type: F.Type) -> F? {
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }

    private static let pipe2Function = lookup("pipe2", as: Pipe2.self)
    private static let addChdirFunction = lookup("posix_spawn_file_actions_addchdir_np", as: AddChdir.self)

    /// pipe2 sets O_CLOEXEC atomically: a child spawned by another thread in between must not
    /// inherit our pipe ends, or EOF would never arrive.
    static func pipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32 {
        if let f = pipe2Function { return f(fds, flags) }
        guard Glibc.pipe(fds) == 0 else { return -1 }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return 0
    }

    static func addchdir(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: String) -> Int32 {
        guard let f = addChdirFunction else { return ENOSYS }
        return f(actions, path)
    }
}

/// Walks /proc, since a killed parent's children are re-parented and would be lost.
enum ProcessTree {
    /// Parent pid and state of a process, from /proc/PID/stat.
    static func stat(_ pid: pid_t) -> (ppid: pid_t, state: Character, startTime: String)? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        // The command name may contain spaces and parentheses; fields resume after the last ')'.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ppid = pid_t(fields[1]), let state = fields[0].first else {
            return nil
        }
        return (ppid, state, String(fields[19]))
    }

    /// Zombies count as dead: the container's init does not reap orphans.
    static func isAlive(_ pid: pid_t) -> Bool {
        guard let s = stat(pid) else { return false }
        return s.state != "Z" && s.state != "X"
    }

    /// Orphans of our children (weston's shell clients outlive weston by a moment) would be
    /// re-parented to init, which in this container never reaps them. As a subreaper we
    /// inherit them instead and reap them here, by pid, so nobody else's status is taken.
    static let becomeSubreaper: Void = {
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        let PR_SET_CHILD_SUBREAPER: Int32 = 36
        if let symbol = dlsym(nil, "prctl") {
            _ = unsafeBitCast(symbol, to: Prctl.self)(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        }
    }()

    static func reapOrphans(_ pids: [pid_t]) {
        var pending = pids
        waitUntil(timeout: 1, poll: 0.01) {
            pending.removeAll { pid in
                var status: Int32 = 0
                let r = waitpid(pid, &status, WNOHANG)
                // ECHILD: not ours (its parent is still alive and will reap it).
                return r == pid || (r < 0 && errno == ECHILD)
            }
            return pending.isEmpty
        }
    }

    static func descendants(of root: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else {
            return []
        }
        var children: [pid_t: [pid_t]] = [:]
        for entry in entries {
            guard let pid = pid_t(entry), let s = stat(pid) else { continue }
            children[s.ppid, default: []].append(pid)
        }
        var result: [pid_t] = []
        var queue = children[root] ?? []
        while let next = queue.popLast() {
            result.append(next)
            queue.append(contentsOf: children[next] ?? [])
        }
        return result
    }
}

/// Records spawned pids on disk for `scripts/rig-cleanup.sh`.
///
/// Each file is named after the pid and holds "pid starttime" on its first line, so the
/// script can tell a leftover from an unrelated process that reused the pid.
enum PidRegistry {
    private static let directoryReady: Bool = {
        mkdir(rigPidDirectory, 0o755)
        return access(rigPidDirectory, W_OK) == 0
    }()

    static func record(_ pid: pid_t, command: String) {
        guard directoryReady else { return }
        let start = ProcessTree.stat(pid)?.startTime ?? "0"
        let text = "\(pid) \(start)\n\(command)\n"
        try? Data(text.utf8).write(to: URL(fileURLWithPath: "\(rigPidDirectory)/\(pid)"))
    }

    static func forget(_ pid: pid_t) {
        unlink("\(rigPidDirectory)/\(pid)")
    }
}

/// The kernel's accounting of one process, for tests that check idle cost
/// and leaks of the program under test.
public enum ProcessUsage {
    /// User + system CPU time in clock ticks (fields 14 and 15 of /proc/PID/stat).
    public static func cpuTicks(_ pid: Int32) -> Int {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return 0 }
        let text = String(decoding: data, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12 else { return 0 }
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    /// Open file descriptors, or -1 when the process is gone.
    public static func openFileDescriptors(_ pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    /// Every live process below `pid` (children, theirs, and so on): a web
    /// view's web and network processes, a sandbox's helpers.
    public static func descendants(of pid: Int32) -> [Int32] {
        ProcessTree.descendants(of: pid)
    }

    /// Resident set size in KiB (VmRSS), or -1 when the process is gone.
    public static func residentKiB(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return -1 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
}
