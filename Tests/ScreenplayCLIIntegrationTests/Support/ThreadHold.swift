import Foundation
import TestSupport

/// Holds one thread of another process stopped for `seconds` while the
/// process's other threads run on, as a slow page render or a loaded box
/// holds an app's main thread while mpv's threads keep playing. ptrace
/// (seize, interrupt, detach) from a python3 child: Swift cannot call
/// glibc's variadic `ptrace`. If the test dies mid-hold, the tracer dies
/// with it and the kernel lets the thread run again.
func holdThread(_ tid: Int32, seconds: Double) throws {
    let script = """
        import ctypes, os, sys, time
        libc = ctypes.CDLL(None, use_errno=True)
        libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
        tid, seconds = int(sys.argv[1]), float(sys.argv[2])
        def call(request, data, what):
            if libc.ptrace(request, tid, None, data) != 0:
                sys.exit("ptrace %s of thread %d failed: %s" % (what, tid, os.strerror(ctypes.get_errno())))
        call(0x4206, None, "seize")
        call(0x4207, None, "interrupt")
        _, status = os.waitpid(tid, 0x40000000)
        # A signal that stopped it first (not the interrupt) is delivered on release.
        signal = 0 if status >> 16 == 128 else os.WSTOPSIG(status)
        time.sleep(seconds)
        call(17, signal, "detach")
        """
    let result = try runProcess(
        "/usr/bin/python3", ["-c", script, String(tid), String(seconds)], timeout: seconds + 30)
    guard result.status == 0 else {
        throw RigError(
            "holding thread \(tid) failed (\(result.status)): \(result.stderr); the test runs as root to ptrace")
    }
}
