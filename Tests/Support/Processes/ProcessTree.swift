// What the kernel says about processes: the tree under a child (/proc), the pids
// recorded for scripts/rig-cleanup.sh, and the CPU, memory and descriptors one uses.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

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

    /// What a process is doing now, for a failure message: its state, the
    /// kernel function it sleeps in and its system call (from /proc), so a
    /// compositor that stopped answering says whether it is stuck, waiting
    /// or busy.
    public static func snapshot(_ pid: Int32) -> String {
        guard let s = ProcessTree.stat(pid) else { return "pid \(pid) is gone" }
        func read(_ file: String) -> String {
            let text = (try? String(contentsOfFile: "/proc/\(pid)/\(file)", encoding: .utf8)) ?? "?"
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // /proc/PID/syscall: the call's number first ("running" when on a CPU).
        let call = read("syscall").split(separator: " ").first.map(String.init) ?? "?"
        return "pid \(pid) state \(s.state), waiting in \(read("wchan")), system call \(call), "
            + "CPU \(cpuTicks(pid)) ticks"
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
