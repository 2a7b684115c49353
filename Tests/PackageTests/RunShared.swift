import Foundation
import Glibc

/// A directory made once per `swift test` run and shared by its test
/// processes. `--parallel` runs every test in a process of its own, so a
/// per-process cache (a `static let`) made the docs build and the consumer
/// package's cold build of Screenplay once per test: five cold builds of
/// the package for three results, about four minutes of the suite.
///
/// The run is the test processes' parent (`swift test`, in both serial and
/// parallel runs). The first process to take the directory's lock makes it
/// (`make`) and marks it done; the others wait for the lock and take it as
/// it is. A `make` that throws leaves no mark, so the next process tries
/// again and reports its own failure. Directories of runs that are over
/// (their parent gone) are removed when a new one is made.
enum RunShared {
    static func directory(_ label: String, make: (String) throws -> Void) throws -> String {
        let base = NSTemporaryDirectory() + "/screenplay-run-"
        let directory = base + "\(getppid())-\(label)"
        return try exclusively(directory + ".lock") {
            let done = directory + "/.made"
            if FileManager.default.fileExists(atPath: done) { return directory }
            removeFinishedRuns(base: base)
            try? FileManager.default.removeItem(atPath: directory)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try make(directory)
            guard FileManager.default.createFile(atPath: done, contents: nil) else {
                throw CheckoutError("cannot mark \(directory) as made (\(done))")
            }
            return directory
        }
    }

    /// Runs `body` holding an exclusive lock on the file `lockPath` (made
    /// if missing): one process of the machine at a time.
    static func exclusively<T>(_ lockPath: String, _ body: () throws -> T) throws -> T {
        let lock = open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else {
            throw CheckoutError("cannot open \(lockPath): \(String(cString: strerror(errno)))")
        }
        defer { close(lock) }
        guard flock(lock, LOCK_EX) == 0 else {
            throw CheckoutError("cannot lock \(lockPath): \(String(cString: strerror(errno)))")
        }
        defer { flock(lock, LOCK_UN) }
        return try body()
    }

    /// Removes the shared directories (and locks) of runs whose `swift test` has exited.
    private static func removeFinishedRuns(base: String) {
        let folder = URL(fileURLWithPath: base).deletingLastPathComponent().path
        let prefix = URL(fileURLWithPath: base).lastPathComponent
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(prefix) {
            let pid = name.dropFirst(prefix.count).prefix { $0.isNumber }
            guard let pid = Int32(pid), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }
}
