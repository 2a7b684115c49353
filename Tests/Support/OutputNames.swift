// Headless wlroots names its outputs HEADLESS-N, but the machines users own
// have HDMI-A-1 or eDP-1, and Screenplay treats those differently (eDP is a
// built-in panel). This renames a headless sway's outputs, so that a test
// meets the names of real connectors on a real compositor.
import Foundation

/// An LD_PRELOAD library for sway that wraps wlroots' `wlr_output_set_name`
/// (exported, so calls from inside libwlroots go through the PLT and can
/// be interposed): the headless backend's HEADLESS-N becomes the N-th name
/// of `SCREENPLAY_RIG_OUTPUT_NAMES` (comma-separated). Compiled once per
/// test process with the C compiler the Swift toolchain ships.
enum OutputNames {
    static let source = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <stdlib.h>
        #include <string.h>
        struct wlr_output;
        void wlr_output_set_name(struct wlr_output *output, const char *name) {
            static void (*real)(struct wlr_output *, const char *);
            if (!real) real = (void (*)(struct wlr_output *, const char *))dlsym(RTLD_NEXT, "wlr_output_set_name");
            const char *names = getenv("SCREENPLAY_RIG_OUTPUT_NAMES");
            if (names && strncmp(name, "HEADLESS-", 9) == 0) {
                long n = strtol(name + 9, NULL, 10);
                const char *p = names;
                for (long i = 1; i < n && p; i++) {
                    p = strchr(p, ',');
                    if (p) p++;
                }
                if (p && *p && *p != ',') {
                    char renamed[64];
                    size_t length = strcspn(p, ",");
                    if (length >= sizeof renamed) length = sizeof renamed - 1;
                    memcpy(renamed, p, length);
                    renamed[length] = 0;
                    real(output, renamed);
                    return;
                }
            }
            real(output, name);
        }
        """

    nonisolated(unsafe) private static var built: String?
    private static let lock = NSLock()

    /// The shared library's path, built on first use (readable by the rig's user).
    static func library() throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let built { return built }
        let directory = NSTemporaryDirectory() + "screenplay-rig-names-\(getpid())"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let c = directory + "/names.c", so = directory + "/names.so"
        try RigFiles.write(source, to: c)
        let compilers = ["/usr/bin/cc", "clang", "cc"]
        var tried: [String] = []
        for compiler in compilers {
            guard let result = try? runProcess(compiler, ["-shared", "-fPIC", "-O2", "-o", so, c, "-ldl"], timeout: 60)
            else { continue }
            if result.status == 0 {
                chmod(so, 0o755)
                built = so
                return so
            }
            tried.append("\(compiler): \(result.stderr)")
        }
        throw RigError(
            "cannot build the output-renaming library for sway (\(tried.isEmpty ? "no C compiler: cc or clang" : tried.joined(separator: "; ")))"
        )
    }
}
