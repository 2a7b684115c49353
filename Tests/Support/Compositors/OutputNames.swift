// Headless wlroots names its outputs HEADLESS-N, but the machines users own
// have HDMI-A-1 or eDP-1, and Screenplay treats those differently (eDP is a
// built-in panel); mutter's nested backend names every dummy monitor LVDSN, a
// built-in panel too. This renames a headless sway's outputs and mutter's dummy
// monitors, so that a test meets the names of real connectors on a real compositor.
import Foundation

/// An LD_PRELOAD library for sway that wraps wlroots' `wlr_output_set_name`
/// (exported, so calls from inside libwlroots go through the PLT and can
/// be interposed): the headless backend's HEADLESS-N becomes the N-th name
/// of `SCREENPLAY_RIG_OUTPUT_NAMES` (comma-separated). Compiled once per
/// test process with the C compiler the Swift toolchain ships.
enum OutputNames {
    /// C shared by both libraries: `renamed` gets the `n`-th (from 1) name of
    /// `SCREENPLAY_RIG_OUTPUT_NAMES`; 0 when there is none.
    static let pickName = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <stdarg.h>
        #include <stdlib.h>
        #include <string.h>
        static int rig_output_name(long n, char renamed[64]) {
            const char *p = getenv("SCREENPLAY_RIG_OUTPUT_NAMES");
            for (long i = 1; i < n && p; i++) {
                p = strchr(p, ',');
                if (p) p++;
            }
            if (!p || !*p || *p == ',') return 0;
            size_t length = strcspn(p, ",");
            if (length >= 64) length = 63;
            memcpy(renamed, p, length);
            renamed[length] = 0;
            return 1;
        }

        """

    static let source =
        pickName + """
            struct wlr_output;
            void wlr_output_set_name(struct wlr_output *output, const char *name) {
                static void (*real)(struct wlr_output *, const char *);
                if (!real) real = (void (*)(struct wlr_output *, const char *))dlsym(RTLD_NEXT, "wlr_output_set_name");
                char renamed[64];
                if (strncmp(name, "HEADLESS-", 9) == 0 && rig_output_name(strtol(name + 9, NULL, 10), renamed)) {
                    real(output, renamed);
                    return;
                }
                real(output, name);
            }
            """

    /// The same for mutter 43's dummy monitors (its nested backend), named
    /// with `g_strdup_printf ("LVDS%d", number)` in `meta-monitor-manager-dummy.c`:
    /// that call's LVDSN becomes the N-th name. Every other call is passed on.
    static let mutterSource =
        pickName + """
            char *g_strdup(const char *s);
            char *g_strdup_vprintf(const char *format, va_list args);
            char *g_strdup_printf(const char *format, ...) {
                va_list args;
                va_start(args, format);
                char renamed[64];
                if (strcmp(format, "LVDS%d") == 0) {
                    va_list copy;
                    va_copy(copy, args);
                    int n = va_arg(copy, int);
                    va_end(copy);
                    if (rig_output_name(n, renamed)) {
                        va_end(args);
                        return g_strdup(renamed);
                    }
                }
                char *result = g_strdup_vprintf(format, args);
                va_end(args);
                return result;
            }
            """

    nonisolated(unsafe) private static var built: [String: String] = [:]
    private static let lock = NSLock()

    /// The sway library's path, built on first use (readable by the rig's user).
    static func library() throws -> String { try library("names", source, for: "sway") }

    /// The mutter library's path, built on first use.
    static func mutterLibrary() throws -> String { try library("mutter-names", mutterSource, for: "mutter") }

    private static func library(_ name: String, _ source: String, for compositor: String) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let so = built[name] { return so }
        let directory = NSTemporaryDirectory() + "screenplay-rig-names-\(getpid())"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let c = directory + "/\(name).c", so = directory + "/\(name).so"
        try RigFiles.write(source, to: c)
        try compileC(
            ["-shared", "-fPIC", "-O2", "-o", so, c, "-ldl"], what: "the output-renaming library for \(compositor)")
        chmod(so, 0o755)
        built[name] = so
        return so
    }
}

/// Runs the C compiler (the toolchain's clang, or the system's cc) with `arguments`;
/// `what` names the product in the error.
func compileC(_ arguments: [String], what: String) throws {
    var tried: [String] = []
    for compiler in ["/usr/bin/cc", "clang", "cc"] {
        guard let result = try? runProcess(compiler, arguments, timeout: 60) else { continue }
        if result.status == 0 { return }
        tried.append("\(compiler): \(result.stderr)")
    }
    throw RigError(
        "cannot build \(what) (\(tried.isEmpty ? "no C compiler: install gcc, or put clang on PATH" : tried.joined(separator: "; ")))"
    )
}
