import Dispatch
public import Foundation

/// A player's control socket (`screenplay play`'s, or an app's, which
/// `screenplay ctl --socket PATH` then reaches the same way): a Unix stream
/// socket (never a network one), served on the main queue without ever
/// blocking it. Every fd is
/// non-blocking and watched by DispatchSources; each client has bounded
/// buffers and deadlines, so a client that sends garbage, a huge line,
/// one byte a second, or never reads its replies costs a bounded amount
/// and is answered with an error or dropped, while playback goes on.
@MainActor
public final class ControlServer {
    /// How the socket's messages name its owner, so that each names the
    /// fix in the owner's own terms.
    public struct Naming: Sendable {
        /// The program, as in "another screenplay play is listening on ...".
        public var program: String
        /// What a peer of another user may not control: "this play".
        public var shortName: String
        /// The setting that gives another path: "--socket".
        public var pathSetting: String

        /// Names for messages.
        public init(program: String, shortName: String, pathSetting: String) {
            self.program = program
            self.shortName = shortName
            self.pathSetting = pathSetting
        }
    }

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

    /// The socket's file.
    public let path: String
    private let naming: Naming
    private let messages: SignageMessages
    private let listenFD: Int32
    private var acceptSource: (any DispatchSourceRead)?
    private var clients: [ObjectIdentifier: ControlClient] = [:]
    private var sweepTimer: (any DispatchSourceTimer)?
    private let handle: ControlHandler
    private let uid = getuid()
    /// Clients refused or dropped, for `ctl status` and tests.
    public private(set) var refusedCount = 0

    /// Binds `path` (its directory made 0700 when missing, the socket 0600)
    /// and serves it. `handle` turns one request line into one reply line,
    /// now or, when it returns nil, through its completion later (the
    /// client's next requests wait for it, so replies keep their order).
    /// - Throws: a failure naming the path and the reason: a path too long
    ///   for a socket, a directory that cannot be made or is another user's,
    ///   or another process already listening there. Warnings about
    ///   clients (refused, dropped) go to `messages`.
    public init(
        path: String, naming: Naming, messages: SignageMessages, handle: @escaping ControlHandler
    ) throws(ControlSocketError) {
        self.path = path
        self.naming = naming
        self.messages = messages
        self.handle = handle
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw ControlSocketError(
                .usage,
                "the control socket path \(path) is longer than a Unix socket allows (107 bytes); give a shorter \(naming.pathSetting)"
            )
        }
        try ControlSocketFile.prepareDirectory(of: path, naming: naming)
        try ControlSocketFile.removeStale(path, naming: naming)
        let fd = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw ControlSocketError(
                .unavailable, "cannot make the control socket: \(String(cString: strerror(errno)))")
        }
        // The socket is born 0600: no moment where another user may connect.
        let previous = umask(0o177)
        let bound = ControlSocketFile.withAddress(path) { bind(fd, $0, $1) }
        umask(previous)
        guard bound == 0, chmod(path, 0o600) == 0, listen(fd, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw ControlSocketError(
                .unavailable,
                "cannot listen on the control socket \(path): \(reason); give another \(naming.pathSetting)")
        }
        listenFD = fd
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.acceptClients() } }
        source.resume()
        acceptSource = source
    }

    /// Closes every client and the socket, and removes its file.
    public func close() {
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
                messages.warning("control socket: refused \(who): only uid \(uid) may control this \(naming.shortName)")
                refuse(fd, "refused: only uid \(uid) may control this \(naming.shortName)")
                continue
            }
            guard clients.count < Limits.clients else {
                refusedCount += 1
                messages.warning(
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
        messages.warning("control socket: dropped the client of pid \(client.pid): \(reason)")
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
public typealias ControlHandler = (Data, @escaping @MainActor (Data) -> Void) -> Data?
