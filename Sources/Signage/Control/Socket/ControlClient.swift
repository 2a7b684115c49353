import Dispatch
import Foundation

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
