public import Foundation

/// The control socket's file: its directory made or checked, a file left
/// over by a process that died removed, and its path as a socket address.
public enum ControlSocketFile {
    /// The directory is made 0700 when missing; one that exists must
    /// belong to this user (a default directory of another user's is refused).
    static func prepareDirectory(of path: String, naming: ControlServer.Naming) throws(ControlSocketError) {
        let directory = (path as NSString).deletingLastPathComponent
        guard !directory.isEmpty else { return }
        var info = stat()
        if stat(directory, &info) != 0 {
            guard errno == ENOENT, mkdir(directory, 0o700) == 0 || errno == EEXIST else {
                throw ControlSocketError(
                    .unavailable,
                    "cannot make the control socket's directory \(directory): \(String(cString: strerror(errno)))")
            }
            _ = chmod(directory, 0o700)
            return
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw ControlSocketError(.unavailable, "the control socket's directory \(directory) is not a directory")
        }
        if directory.hasSuffix("/screenplay"), info.st_uid != getuid() {
            throw ControlSocketError(
                .unavailable,
                "\(directory) belongs to uid \(info.st_uid), not to this user (\(getuid())); give \(naming.pathSetting) a path of your own"
            )
        }
    }

    /// A socket file no one answers on is left over from a process that
    /// died: removed. One that answers belongs to a running player.
    static func removeStale(_ path: String, naming: ControlServer.Naming) throws(ControlSocketError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw ControlSocketError(
                .unavailable, "\(path) exists and is not a socket; remove it or give another \(naming.pathSetting)")
        }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { Glibc.close(probe) }
        if withAddress(path, { connect(probe, $0, $1) }) == 0 {
            throw ControlSocketError(
                .unavailable,
                "another \(naming.program) is listening on \(path); stop it, or give this one another \(naming.pathSetting)"
            )
        }
        unlink(path)
    }

    /// Calls `body` with `path` as a sockaddr_un (for `bind` or `connect`).
    public static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }
}
