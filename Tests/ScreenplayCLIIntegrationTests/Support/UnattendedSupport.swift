import Foundation
import TestSupport
import XCTest

/// Stands in for systemd's notify socket: an AF_UNIX datagram socket the
/// child is pointed at with NOTIFY_SOCKET; every message is kept with the
/// time it arrived.
final class NotifyListener: @unchecked Sendable {
    let path: String
    private let fd: Int32
    private let lock = NSLock()
    private var received: [(at: Date, text: String)] = []
    private var running = true
    private var thread: Thread?

    init() throws {
        path = NSTemporaryDirectory() + "unattended-notify-\(getpid())-\(UUID().uuidString.prefix(8)).sock"
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0, testSocketAddress(path, { bind(fd, $0, $1) }) == 0 else {
            throw RigError("cannot bind \(path): \(String(cString: strerror(errno)))")
        }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let thread = Thread { [weak self] in self?.receive() }
        thread.start()
        self.thread = thread
    }

    /// The last STATUS= sent before READY=1: what systemd showed as the
    /// service became ready. Nil before READY=1.
    var statusBeforeReady: String? {
        let texts = self.texts
        guard let ready = texts.firstIndex(of: "READY=1") else { return nil }
        return texts[..<ready].last { $0.hasPrefix("STATUS=") }
    }

    private func receive() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while lock.withLock({ running }) {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { continue }
            // One datagram may carry several newline-separated assignments.
            let text = String(decoding: buffer[0..<count], as: UTF8.self)
            lock.withLock { for line in text.split(separator: "\n") { received.append((Date(), String(line))) } }
        }
    }

    /// Every message so far, in order.
    var messages: [(at: Date, text: String)] { lock.withLock { received } }
    var texts: [String] { messages.map(\.text) }
    func times(of text: String) -> [Date] { messages.filter { $0.text == text }.map(\.at) }

    /// The environment of a child that is to notify this listener.
    func environment(_ base: [String: String], watchdogMicroseconds: Int? = nil) -> [String: String] {
        var e = base
        e["NOTIFY_SOCKET"] = path
        e["WATCHDOG_PID"] = nil
        e["WATCHDOG_USEC"] = watchdogMicroseconds.map(String.init)
        return e
    }

    func stop() {
        lock.withLock { running = false }
        while thread?.isFinished == false { Thread.sleep(forTimeInterval: 0.02) }
        close(fd)
        unlink(path)
    }
}

/// `path` as a sockaddr_un for `body`.
func testSocketAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (i, byte) in Array(path.utf8).prefix(raw.count - 1).enumerated() { raw[i] = byte }
    }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}

/// A raw client of the control socket, for well-formed and abusive requests.
final class ControlConnection: @unchecked Sendable {
    let fd: Int32

    /// Connects (blocking, with `timeout` on each read and write).
    init(_ path: String, timeout: Double = 5) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        guard testSocketAddress(path, { connect(fd, $0, $1) }) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw RigError("cannot connect to \(path): \(reason)")
        }
    }

    deinit { close(fd) }

    /// Sends bytes; false once the server has gone (EPIPE, reset) or the send timed out.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// The next reply line, or nil when the server closed the connection
    /// or nothing came within the timeout.
    func readLine() -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = recv(fd, &byte, 1, 0)
            if count <= 0 { return nil }
            if byte == 0x0A { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }

    /// One request, one parsed reply.
    func request(_ json: String) -> [String: Any]? {
        guard send(json + "\n"), let line = readLine() else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// Whether the server has closed its end (reads EOF or reset).
    func isClosedByServer(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var byte: UInt8 = 0
        while Date() < deadline {
            let count = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { return true }
            if count < 0 { Thread.sleep(forTimeInterval: 0.05) }
        }
        return false
    }
}

extension XCTestCase {
    /// A control socket path in a directory that does not exist yet (play makes it).
    func controlSocketPath() -> String {
        let directory = "/tmp/unattended-ctl-\(getpid())-\(UUID().uuidString.prefix(8))"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        return directory + "/play.sock"
    }

    /// A temporary folder with a playlist file of `json`.
    func signagePlaylist(_ json: String) throws -> (folder: String, playlist: String) {
        let folder = NSTemporaryDirectory() + "unattended-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/signage.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return (folder, path)
    }
}
