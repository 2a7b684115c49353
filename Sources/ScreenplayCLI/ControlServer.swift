import Dispatch
import Foundation
import Screenplay

/// The control socket of `play`: a Unix stream socket (never a network
/// one), served on the main queue without ever blocking it. Every fd is
/// non-blocking and watched by DispatchSources; each client has bounded
/// buffers and deadlines, so a client that sends garbage, a huge line,
/// one byte a second, or never reads its replies costs a bounded amount
/// and is answered with an error or dropped, while playback goes on.
@MainActor
final class ControlServer {
    /// The bounds every client lives within.
    enum Limits {
        /// Clients served at once; more get an error reply and are closed.
        static let clients = 64
        /// A request line longer than this is refused and the client closed.
        static let lineBytes = 64 * 1024
        /// Earlier replies a client has not read beyond this when the next
        /// one is added: it is dropped. (One reply may be larger: a
        /// screenshot.)
        static let pendingReplyBytes = 64 * 1024
        /// Bytes read per wake-up, so one client cannot hold the main queue.
        static let readChunk = 4096
        /// Requests answered per turn of the main queue, per client.
        static let linesPerTurn = 8
        /// A request must arrive whole within this, from its first byte.
        static let requestSeconds: Double = 10
        /// Replies must drain within this.
        static let replySeconds: Double = 10
        /// A connection with nothing going on is closed after this.
        static let idleSeconds: Double = 60
    }

    let path: String
    private let listenFD: Int32
    private var acceptSource: (any DispatchSourceRead)?
    private var clients: [ObjectIdentifier: ControlClient] = [:]
    private var sweepTimer: (any DispatchSourceTimer)?
    private let handle: ControlHandler
    private let uid = getuid()
    /// Clients refused or dropped, for `ctl status` and tests.
    private(set) var refusedCount = 0

    /// Binds `path` (its directory made 0700 when missing, the socket 0600)
    /// and serves it. `handle` turns one request line into one reply line,
    /// now or, when it returns nil, through its completion later (the
    /// client's next requests wait for it, so replies keep their order).
    /// - Throws: a failure naming the path and the reason: a path too long
    ///   for a socket, a directory that cannot be made or is another user's,
    ///   or another `play` already listening there.
    init(path: String, handle: @escaping ControlHandler) throws(CommandFailure) {
        self.path = path
        self.handle = handle
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw CommandFailure(
                .usage,
                "the control socket path \(path) is longer than a Unix socket allows (107 bytes); give a shorter --socket"
            )
        }
        try Self.prepareDirectory(of: path)
        try Self.removeStale(path)
        let fd = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw CommandFailure(.unavailable, "cannot make the control socket: \(String(cString: strerror(errno)))")
        }
        // The socket is born 0600: no moment where another user may connect.
        let previous = umask(0o177)
        let bound = Self.withAddress(path) { bind(fd, $0, $1) }
        umask(previous)
        guard bound == 0, chmod(path, 0o600) == 0, listen(fd, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw CommandFailure(
                .unavailable, "cannot listen on the control socket \(path): \(reason); give another --socket")
        }
        listenFD = fd
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.acceptClients() } }
        source.resume()
        acceptSource = source
    }

    /// Closes every client and the socket, and removes its file.
    func close() {
        for client in clients.values { client.close() }
        clients = [:]
        sweepTimer?.cancel()
        sweepTimer = nil
        if let acceptSource {
            let fd = listenFD
            acceptSource.setCancelHandler { Glibc.close(fd) }
            acceptSource.cancel()
        }
        acceptSource = nil
        unlink(path)
    }

    // MARK: the socket file

    /// The directory is made 0700 when missing; one that exists must
    /// belong to this user (a default directory of another user's is refused).
    private static func prepareDirectory(of path: String) throws(CommandFailure) {
        let directory = (path as NSString).deletingLastPathComponent
        guard !directory.isEmpty else { return }
        var info = stat()
        if stat(directory, &info) != 0 {
            guard errno == ENOENT, mkdir(directory, 0o700) == 0 || errno == EEXIST else {
                throw CommandFailure(
                    .unavailable,
                    "cannot make the control socket's directory \(directory): \(String(cString: strerror(errno)))")
            }
            _ = chmod(directory, 0o700)
            return
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw CommandFailure(.unavailable, "the control socket's directory \(directory) is not a directory")
        }
        if directory.hasSuffix("/screenplay"), info.st_uid != getuid() {
            throw CommandFailure(
                .unavailable,
                "\(directory) belongs to uid \(info.st_uid), not to this user (\(getuid())); give --socket a path of your own"
            )
        }
    }

    /// A socket file no one answers on is left over from a process that
    /// died: removed. One that answers belongs to a running `play`.
    private static func removeStale(_ path: String) throws(CommandFailure) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw CommandFailure(.unavailable, "\(path) exists and is not a socket; remove it or give another --socket")
        }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { Glibc.close(probe) }
        if withAddress(path, { connect(probe, $0, $1) }) == 0 {
            throw CommandFailure(
                .unavailable,
                "another screenplay play is listening on \(path); stop it, or give this one another --socket")
        }
        unlink(path)
    }

    /// Calls `body` with `path` as a sockaddr_un.
    nonisolated static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32
    {
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

    // MARK: clients

    private func acceptClients() {
        // A few per wake-up; the source fires again while more wait.
        for _ in 0..<16 {
            let fd = accept(listenFD, nil, nil)
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            let peer = Self.peer(of: fd)
            if peer?.uid != uid {
                refusedCount += 1
                let who = peer.map { "uid \($0.uid) (pid \($0.pid))" } ?? "a client whose credentials cannot be read"
                warn("control socket: refused \(who): only uid \(uid) may control this play")
                refuse(fd, "refused: only uid \(uid) may control this play")
                continue
            }
            guard clients.count < Limits.clients else {
                refusedCount += 1
                warn(
                    "control socket: \(Limits.clients) clients are connected; refused one more (pid \(peer?.pid ?? 0))")
                refuse(fd, "busy: \(Limits.clients) clients are connected; try again")
                continue
            }
            let client = ControlClient(fd: fd, pid: peer?.pid ?? 0, server: self)
            clients[ObjectIdentifier(client)] = client
            client.start()
            startSweeping()
        }
    }

    /// One error line, written if the socket takes it now, then closed.
    private func refuse(_ fd: Int32, _ reason: String) {
        let reply = ControlReply.error(reason)
        _ = reply.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        Glibc.close(fd)
    }

    /// The connecting process's pid and uid (SO_PEERCRED: struct ucred,
    /// three 32-bit fields, which Swift's Glibc does not export).
    static func peer(of fd: Int32) -> (pid: Int32, uid: uid_t)? {
        var fields: [UInt32] = [0, 0, 0]
        var length = socklen_t(12)
        let status = fields.withUnsafeMutableBytes { getsockopt(fd, SOL_SOCKET, SO_PEERCRED, $0.baseAddress, &length) }
        guard status == 0, length == 12 else { return nil }
        return (Int32(bitPattern: fields[0]), uid_t(fields[1]))
    }

    func answer(_ line: Data, later: @escaping @MainActor (Data) -> Void) -> Data? { handle(line, later) }

    func remove(_ client: ControlClient) { clients[ObjectIdentifier(client)] = nil }

    func dropped(_ client: ControlClient, _ reason: String) {
        refusedCount += 1
        warn("control socket: dropped the client of pid \(client.pid): \(reason)")
    }

    /// Deadlines are checked once a second, only while clients are connected.
    private func startSweeping() {
        guard sweepTimer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(100))
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                let now = monotonicSeconds()
                for client in Array(self.clients.values) { client.checkDeadlines(now: now) }
                if self.clients.isEmpty {
                    self.sweepTimer?.cancel()
                    self.sweepTimer = nil
                }
            }
        }
        timer.resume()
        sweepTimer = timer
    }
}

/// Answers one request line: the reply now, or nil and the reply through
/// the completion later.
typealias ControlHandler = (Data, @escaping @MainActor (Data) -> Void) -> Data?

/// One connection: reads request lines, writes reply lines, within the
/// server's limits.
@MainActor
final class ControlClient {
    let fd: Int32
    let pid: Int32
    private unowned let server: ControlServer
    private var readSource: (any DispatchSourceRead)?
    private var writeSource: (any DispatchSourceWrite)?
    private var writing = false
    private var input: [UInt8] = []
    private var output: [UInt8] = []
    /// When the unfinished request began (its first byte).
    private var partialSince: Double?
    /// When replies began waiting for the client to read them.
    private var pendingSince: Double?
    private var lastActivity = monotonicSeconds()
    private var closeWhenFlushed = false
    private var closed = false
    /// Lines wait for the next turn of the main queue.
    private var processScheduled = false
    /// Refused (too long, too slow): no more requests are answered.
    private var refused = false
    /// A request is being answered later (a screenshot waits for a frame):
    /// the next lines wait for its reply.
    private var awaitingReply = false

    init(fd: Int32, pid: Int32, server: ControlServer) {
        self.fd = fd
        self.pid = pid
        self.server = server
    }

    func start() {
        let read = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        read.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.readable() } }
        let write = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: .main)
        write.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.flush() } }
        let closer = DescriptorCloser(fd: fd, holders: 2)
        for source in [read as any DispatchSourceProtocol, write] {
            source.setCancelHandler { MainActor.assumeIsolated { closer.release() } }
        }
        read.resume()
        readSource = read
        writeSource = write  // resumed only while replies wait
    }

    private func readable() {
        guard !closed else { return }
        var chunk = [UInt8](repeating: 0, count: ControlServer.Limits.readChunk)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count < 0 {
            if errno == EAGAIN || errno == EINTR { return }
            return close()
        }
        if count == 0 {
            // The client is done sending: answer what came, then close.
            stopReading()
            closeWhenFlushed = true
            if !processScheduled { processLines() }
            return
        }
        let now = monotonicSeconds()
        lastActivity = now
        if input.isEmpty { partialSince = now }
        input.append(contentsOf: chunk[0..<count])
        let partial = input.count - ((input.lastIndex(of: 0x0A) ?? -1) + 1)
        if partial > ControlServer.Limits.lineBytes {
            server.dropped(self, "a request longer than \(ControlServer.Limits.lineBytes) bytes")
            input = []
            return refuseAndClose(
                "request longer than \(ControlServer.Limits.lineBytes) bytes; one JSON object per line")
        }
        if input.count > 4 * ControlServer.Limits.lineBytes {
            server.dropped(self, "more than \(4 * ControlServer.Limits.lineBytes) bytes of requests waiting")
            input = []
            return refuseAndClose("too many requests at once; send one, read its reply, then the next")
        }
        processLines()
    }

    /// Answers up to a few complete lines, then lets the main queue do
    /// other work (frames) before the rest: a client that sends many
    /// requests at once cannot hold the main thread.
    private func processLines() {
        processScheduled = false
        var answered = 0
        while !closed, !refused, !awaitingReply, let newline = input.firstIndex(of: 0x0A) {
            if answered == ControlServer.Limits.linesPerTurn {
                processScheduled = true
                DispatchQueue.main.async { [weak self] in MainActor.assumeIsolated { self?.processLines() } }
                return
            }
            // Taken out before the reply: a reply can drop the client (and its buffers).
            let line = Data(input[..<newline])
            input.removeSubrange(...newline)
            partialSince = input.isEmpty ? nil : monotonicSeconds()
            let isBlank = line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            if !isBlank {
                answered += 1
                awaitingReply = true
                guard let now = server.answer(line, later: { [weak self] data in self?.answeredLater(data) }) else {
                    return
                }
                awaitingReply = false
                reply(now)
            }
        }
        if closeWhenFlushed, output.isEmpty, !awaitingReply { close() }
    }

    /// The reply to a request answered later; then the lines that waited.
    private func answeredLater(_ data: Data) {
        guard awaitingReply else { return }
        awaitingReply = false
        lastActivity = monotonicSeconds()
        reply(data)
        if !processScheduled { processLines() }
    }

    private func reply(_ data: Data) {
        guard !closed else { return }
        if output.isEmpty { pendingSince = monotonicSeconds() }
        let unread = output.count
        output.append(contentsOf: data)
        if unread > ControlServer.Limits.pendingReplyBytes {
            server.dropped(self, "it reads none of its replies (\(output.count) bytes waiting)")
            return close()
        }
        flush()
    }

    private func flush() {
        while !output.isEmpty, !closed {
            let sent = output.withUnsafeBytes {
                send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if sent < 0 {
                if errno == EAGAIN || errno == EINTR {
                    if !writing, let writeSource {
                        writing = true
                        writeSource.resume()
                    }
                    return
                }
                return close()  // EPIPE, ECONNRESET: the client went away
            }
            output.removeFirst(sent)
            lastActivity = monotonicSeconds()
        }
        pendingSince = nil
        if writing, let writeSource {
            writing = false
            writeSource.suspend()
        }
        if closeWhenFlushed, !awaitingReply { close() }
    }

    private func refuseAndClose(_ reason: String) {
        refused = true
        stopReading()
        closeWhenFlushed = true
        reply(ControlReply.error(reason))
    }

    private func stopReading() {
        readSource?.cancel()
        readSource = nil
    }

    func checkDeadlines(now: Double) {
        guard !closed else { return }
        if let since = pendingSince, now - since > ControlServer.Limits.replySeconds {
            server.dropped(self, "its replies have not been read for \(Int(ControlServer.Limits.replySeconds)) s")
            return close()
        }
        if let since = partialSince, !refused, now - since > ControlServer.Limits.requestSeconds {
            server.dropped(self, "a request still incomplete after \(Int(ControlServer.Limits.requestSeconds)) s")
            input = []
            partialSince = nil
            return refuseAndClose(
                "request incomplete after \(Int(ControlServer.Limits.requestSeconds)) s; send one whole line")
        }
        if partialSince == nil, output.isEmpty, now - lastActivity > ControlServer.Limits.idleSeconds {
            close()
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        stopReading()
        if let writeSource {
            // A suspended source must be resumed for its cancellation to finish.
            if !writing { writeSource.resume() }
            writeSource.cancel()
        }
        writeSource = nil
        output = []
        input = []
        server.remove(self)
    }
}

/// Closes an fd once every DispatchSource watching it has been cancelled
/// (closing it earlier could close a reused number under a live source).
@MainActor
private final class DescriptorCloser {
    private let fd: Int32
    private var holders: Int
    init(fd: Int32, holders: Int) {
        self.fd = fd
        self.holders = holders
    }
    func release() {
        holders -= 1
        if holders == 0 { Glibc.close(fd) }
    }
}
