// Small C programs the rig builds once per test process (a launcher, a keyboard),
// for what no Debian package does.
import Foundation

enum RigPrograms {
    nonisolated(unsafe) private static var built: [String: String] = [:]
    private static let lock = NSLock()

    /// Builds `source` into the executable `name` (once) and returns its path.
    /// `prepare` writes more files into the build directory and returns the
    /// extra C files to compile with it.
    static func build(
        _ name: String, source: String, link: [String], prepare: (String) throws -> [String] = { _ in [] }
    ) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let path = built[name] { return path }
        let directory = NSTemporaryDirectory() + "screenplay-rig-\(name)-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let extra = try prepare(directory)
        try RigFiles.write(source, to: directory + "/main.c")
        let binary = directory + "/" + name
        try compileC(["-O2", "-I", directory, "-o", binary, directory + "/main.c"] + extra + link, what: name)
        built[name] = binary
        return binary
    }
}
