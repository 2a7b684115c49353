import Foundation
import Signage

/// Whether WebKit's sandbox can start here, asked once before the first
/// page. WebKit runs each web process under bubblewrap, which makes new
/// namespaces and mounts a file system view in them; a service sandbox
/// (the kiosk unit's `RestrictNamespaces=yes`, `SystemCallFilter=` without
/// `@mount`) or a kernel without unprivileged user namespaces refuses that,
/// and WebKit then neither paints nor reports a failure: the page would
/// wait for its slot forever. So bubblewrap is run once as WebKit runs it,
/// and when it cannot, every web item fails with its words and the fix.
enum WebSandboxProbe {
    static let bubblewrap = "/usr/bin/bwrap"
    /// The namespaces WebKit's web process gets (its launcher's options), a
    /// read-only view of / and its own /proc and /dev, then `true`.
    static let arguments = [
        "--die-with-parent", "--unshare-ipc", "--unshare-pid", "--unshare-uts", "--unshare-net",
        "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "true",
    ]

    /// Why WebKit's sandbox cannot start (with the fix), or nil when it can
    /// or when bubblewrap is not installed (WebKit then runs pages without it,
    /// which the "web pages:" line says).
    static func refusal() -> String? {
        guard FileManager.default.isExecutableFile(atPath: bubblewrap) else { return nil }
        guard let (status, said) = run() else { return nil }
        if status == 0 { return nil }
        return explained(bubblewrapSaid: said, status: status, unit: NetworkSandbox.unitName())
    }

    /// The message for a refused sandbox: bubblewrap's own words, then the fix
    /// for a kiosk unit (its web drop-in) or for any other place.
    static func explained(
        bubblewrapSaid: String, status: Int32, unit: String?,
        dropIn: String = NetworkSandbox.dropInPath("kiosk-web.conf")
    ) -> String {
        let words = bubblewrapSaid.trimmingCharacters(in: .whitespacesAndNewlines)
        let why =
            "WebKit's sandbox cannot start here (\(words.isEmpty ? "bubblewrap exited with status \(status)" : words))"
        if let unit {
            return why
                + ": \(unit)'s sandbox refuses the namespaces and mounts bubblewrap makes (RestrictNamespaces=, SystemCallFilter=); "
                + "a kiosk that shows web items needs the web drop-in: "
                + NetworkSandbox.enableCommand(unit: unit, dropIn: dropIn, name: "web.conf")
                + " (docs/signage.md: Web pages)"
        }
        return why
            + ": bubblewrap needs unprivileged user namespaces (sysctl user.max_user_namespaces above 0) and, "
            + "inside a container or a service, permission to make namespaces and to mount in them"
    }

    /// Runs bubblewrap; its exit status (128 + signal when killed) and what
    /// it wrote to stderr, or nil when it could not be started at all.
    private static func run() -> (Int32, String)? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        // Not inherited by other children play starts meanwhile (WebKit's).
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
        let argv = ([bubblewrap] + arguments).map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, bubblewrap, &actions, nil, argv, environ)
        close(fds[1])
        defer { close(fds[0]) }
        guard spawned == 0 else { return nil }
        var output = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 512)
        while output.count < 4096 {
            let count = read(fds[0], &buffer, buffer.count)
            if count > 0 {
                output += buffer[0..<count]
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (code, String(decoding: output, as: UTF8.self))
    }
}
