// One child process of a test, spawned with posix_spawn rather than Foundation.Process so every
// child gets its own process group (the whole tree can be killed, including what
// runuser or weston start) and signal dispositions are reset.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

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
