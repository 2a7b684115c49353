// Which processes a test is exercising, so that a failure can quote what the
// program under test said (see Tests/Harness): a failure in CI must be
// readable without a rerun.
import Foundation

/// The `screenplay` processes (and the example apps) started since the
/// current test began, newest last. Compositors and tools are left out: their
/// logs are the rig's, not the program under test.
public enum ProcessesUnderTest {
    /// One started program: its command line and a way to read its stderr.
    public struct Entry: Sendable {
        /// The program's name and arguments, for the failure line.
        public var command: String
        /// Everything it wrote to stderr so far.
        public var stderr: @Sendable () -> String
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var entries: [Entry] = []

    /// Forgets the processes of the previous test.
    public static func reset() {
        lock.lock()
        entries.removeAll()
        lock.unlock()
    }

    /// The programs started since ``reset()``, oldest first.
    public static var started: [Entry] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }

    /// Whether `path` names a program the tests exercise (not the rig's
    /// compositors and tools).
    static func isUnderTest(_ path: String) -> Bool {
        (path as NSString).lastPathComponent.hasPrefix("screenplay")
    }

    static func note(path: String, args: [String], output: OutputCollector) {
        guard isUnderTest(path) else { return }
        let name = (path as NSString).lastPathComponent
        let command = ([name] + args).joined(separator: " ")
        lock.lock()
        // A test may start hundreds (fuzzing); the last few are the ones a failure is about.
        if entries.count >= 16 { entries.removeFirst() }
        entries.append(Entry(command: command) { [weak output] in output?.text(.stderr) ?? "" })
        lock.unlock()
    }
}
