// Shared plumbing for the test rig: errors, polling, temp dirs, the unprivileged user.
public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An error raised by the rig, carrying enough context (compositor logs, command output)
/// to diagnose a failing test from the CI log alone.
public struct RigError: Error, CustomStringConvertible, Sendable {
    /// Human-readable explanation, possibly multi-line.
    public var message: String

    /// Creates an error with the given explanation.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// Polls `condition` until it returns true or `timeout` elapses.
///
/// Compositors apply configuration asynchronously, so tests must wait for state
/// rather than sleep for a fixed time.
/// - Returns: `true` if the condition became true in time, `false` on timeout.
@discardableResult
public func waitUntil(
    timeout: TimeInterval, poll: TimeInterval = 0.05, _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return true }
        if Date() >= deadline { return false }
        Thread.sleep(forTimeInterval: poll)
    }
}

/// Name of the unprivileged account sway runs as, because sway refuses to run as root.
public let rigUserName = "screenplay-test"

/// Directory where every process the rig spawns is recorded, so `scripts/rig-cleanup.sh`
/// can kill leftovers after a crashed or killed test run.
public let rigPidDirectory = "/tmp/screenplay-rig-pids"

/// Prefix of every temporary directory the rig creates; the cleanup script removes them.
let rigTempPrefix = "/tmp/screenplay-rig."

enum RigFiles {
    /// Creates a fresh directory under /tmp with the given mode.
    static func makeTempDirectory(label: String, mode: mode_t = 0o755) throws -> String {
        var template = Array("\(rigTempPrefix)\(label).XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            mkdtemp(buffer.baseAddress!) != nil
        }
        guard made else { throw RigError("mkdtemp failed: \(String(cString: strerror(errno)))") }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // mkdtemp always creates 0700; other users (sway's account) may need to traverse it.
        chmod(path, mode)
        return path
    }

    static func makeDirectory(_ path: String, mode: mode_t, owner: (uid_t, gid_t)? = nil) throws {
        if mkdir(path, mode) != 0 && errno != EEXIST {
            throw RigError("mkdir \(path) failed: \(String(cString: strerror(errno)))")
        }
        // mkdir's mode is filtered by the umask; the runtime dir must be exactly 0700.
        chmod(path, mode)
        if let (uid, gid) = owner, chown(path, uid, gid) != 0 {
            throw RigError("chown \(path) failed: \(String(cString: strerror(errno)))")
        }
    }

    static func write(_ text: String, to path: String, mode: mode_t = 0o644) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, mode)
    }

    /// The last `maxBytes` of a log file, for error messages.
    static func tail(of path: String, maxBytes: Int = 6000) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "(no log at \(path))" }
        let slice = data.count > maxBytes ? data.suffix(maxBytes) : data
        return String(decoding: slice, as: UTF8.self)
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// The unprivileged account the rig runs compositors as (created on first
/// use when the tests run as root; the current user otherwise), for tests
/// that run a whole command line as that user.
public func rigAccount() throws -> (name: String, uid: uid_t, gid: gid_t) {
    let user = try RigUser.get()
    return (user.name, user.uid, user.gid)
}

/// The account sway runs as. Created on first use when the tests run as root.
struct RigUser: Sendable {
    var name: String
    var uid: uid_t
    var gid: gid_t
    /// False when the tests already run unprivileged: then sway runs as the current user.
    var needsSwitch: Bool

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cached: RigUser?

    /// Starts `argv` as this user with exactly `environment` (`env -i`), whatever
    /// runuser or PAM would add, logging stderr to `logPath`.
    func spawn(_ argv: [String], environment: [String: String], directory: String, logPath: String) throws
        -> ChildProcess
    {
        let command =
            ["/usr/bin/env", "-i"] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + argv
        let full = needsSwitch ? ["/usr/sbin/runuser", "-u", name, "--"] + command : command
        return try ChildProcess(
            path: full[0], args: Array(full.dropFirst()), environment: ["PATH": environment["PATH"] ?? "/usr/bin:/bin"],
            directory: directory, stdinData: nil, keepStdinOpen: false, stderrPath: logPath)
    }

    static func get() throws -> RigUser {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        let user: RigUser
        if geteuid() != 0 {
            user = RigUser(name: NSUserName(), uid: getuid(), gid: getgid(), needsSwitch: false)
        } else {
            user = try ensureAccount()
        }
        cached = user
        return user
    }

    private static func lookup() throws -> RigUser? {
        let uid = try runProcess("/usr/bin/id", ["-u", rigUserName], timeout: 10)
        let gid = try runProcess("/usr/bin/id", ["-g", rigUserName], timeout: 10)
        guard uid.status == 0, gid.status == 0,
            let u = UInt32(uid.stdout.trimmingCharacters(in: .whitespacesAndNewlines)),
            let g = UInt32(gid.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        return RigUser(name: rigUserName, uid: u, gid: g, needsSwitch: true)
    }

    private static func ensureAccount() throws -> RigUser {
        if let user = try lookup() { return user }
        // Other test processes may race to create the same account; useradd then fails
        // with "already exists" or a busy /etc/passwd lock, so re-check and retry.
        var lastError = ""
        for _ in 0..<20 {
            let r = try runProcess(
                "/usr/sbin/useradd",
                ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", rigUserName],
                timeout: 20)
            if let user = try lookup() { return user }
            lastError = r.stderr
            Thread.sleep(forTimeInterval: 0.2)
        }
        throw RigError("could not create user \(rigUserName): \(lastError)")
    }
}
