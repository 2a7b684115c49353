// A child's stdout and stderr, read on a thread of their own into one collector.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

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
