import Foundation
import TestSupport
import XCTest

/// What nginx cannot do on purpose: a python3 server on 127.0.0.1 that
/// sends a file one byte a second (`/slow/NAME`) or announces its length
/// and closes after half of it (`/cut/NAME`), serving files from `root`.
final class FaultyServer {
    let port: Int
    var base: String { "http://127.0.0.1:\(port)" }
    private let process: RunningProcess

    init(root: String) throws {
        port = try WebServer.freePort()
        let script = """
            import http.server, os, sys, time
            root = sys.argv[1]
            class Handler(http.server.BaseHTTPRequestHandler):
                protocol_version = "HTTP/1.1"
                def do_GET(self):
                    sys.stdout.write(self.path + "\\n"); sys.stdout.flush()
                    mode, _, name = self.path.lstrip("/").partition("/")
                    try:
                        data = open(os.path.join(root, name), "rb").read()
                    except OSError:
                        self.send_error(404); return
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(data)))
                    self.send_header("Connection", "close")
                    self.end_headers()
                    if mode == "cut":
                        self.wfile.write(data[: len(data) // 2]); self.wfile.flush(); return
                    for i in range(len(data)):
                        self.wfile.write(data[i:i + 1]); self.wfile.flush(); time.sleep(1)
                def log_message(self, *args): pass
            http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])), Handler).serve_forever()
            """
        process = try RunningProcess("/usr/bin/python3", ["-c", script, root, String(port)])
        guard waitUntil(timeout: 10, { WebServer.accepts(self.port) }) else {
            throw RigError("the python3 server did not start on 127.0.0.1:\(port): \(process.stderr)")
        }
    }

    func stop() {
        process.kill()
    }

    /// How many requests so far had `text` in their path.
    func requests(containing text: String) -> Int {
        process.stdoutLines.filter { $0.contains(text) }.count
    }
}
