public import Foundation

/// A real nginx (Debian's nginx-light) on 127.0.0.1 for `play URL`:
/// static files with ETag, Last-Modified and Range, plus the faults a
/// fleet meets (a redirect loop, 404, 500, a slow link, a token check). Started as this
/// test's child with a config of its own in a temporary folder, never as a
/// system service; stopped at teardown.
public final class WebServer {
    public let folder: String
    /// The document root: files written here are served at `base`.
    public var root: String { folder + "/www" }
    public let port: Int
    /// Whether it serves HTTPS, with a certificate for 127.0.0.1 from a CA of its own (`caFile`).
    public let tls: Bool
    public var base: String { "\(tls ? "https" : "http")://127.0.0.1:\(port)" }
    /// The CA that signed the server's certificate (PEM), with `tls`.
    public var caFile: String { folder + "/ca.pem" }
    private var process: RunningProcess?

    public init(folder: String, tls: Bool = false) throws {
        self.folder = folder
        self.tls = tls
        port = try Self.freePort()
        if tls { try TestCertificates.make(in: folder) }
        for sub in ["www", "tmp", "logs"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
        }
        let config = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(folder)/nginx.pid;
            error_log \(folder)/logs/error.log info;
            events { worker_connections 64; }
            http {
                access_log \(folder)/logs/access.log;
                client_body_temp_path \(folder)/tmp/body;
                proxy_temp_path \(folder)/tmp/proxy;
                fastcgi_temp_path \(folder)/tmp/fastcgi;
                uwsgi_temp_path \(folder)/tmp/uwsgi;
                scgi_temp_path \(folder)/tmp/scgi;
                types { application/json json; image/png png; text/html html; }
                default_type application/octet-stream;
                server {
                    listen 127.0.0.1:\(port)\(tls ? " ssl" : "");
                    \(tls ? "ssl_certificate \(folder)/server.pem; ssl_certificate_key \(folder)/server.key;" : "")
                    root \(folder)/www;
                    # The server failing: every request answers 500 while this file is there.
                    if (-f \(folder)/www/fail-500) { return 500; }
                    location = /loop.png { return 302 /loop.png; }
                    location /throttled/ { limit_rate 32k; }
                    location /private/ {
                        if ($http_authorization != "Bearer s3cret-token") { return 401; }
                    }
                }
            }
            """
        try config.write(toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)
    }

    /// Starts nginx and waits until it accepts connections.
    public func start() throws {
        let nginx = try RunningProcess(
            "/usr/sbin/nginx", ["-c", folder + "/nginx.conf", "-p", folder, "-e", folder + "/logs/error.log"])
        process = nginx
        guard waitUntil(timeout: 10, { Self.accepts(self.port) }) else {
            throw RigError("nginx did not start on 127.0.0.1:\(port): \(nginx.stderr)")
        }
    }

    /// nginx's process id while it runs (its CPU time, for the fleet benchmark).
    public var pid: Int32? { process?.pid }

    /// Stops nginx (the box's server going down).
    public func stop() {
        process?.terminate()
        _ = process?.wait(timeout: 5)
        process?.kill()
        process = nil
    }

    /// Writes `data` to `name` under the root, as an upload would (a new file renamed in).
    public func publish(_ name: String, _ data: Data) throws {
        let path = root + "/" + name
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path + ".upload"))
        guard rename(path + ".upload", path) == 0 else {
            throw RigError("cannot rename \(path).upload into place: \(String(cString: strerror(errno)))")
        }
    }

    /// The access log's lines (method, path, status, bytes).
    public var accessLog: [String] {
        ((try? String(contentsOfFile: folder + "/logs/access.log", encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    /// A port on 127.0.0.1 that nothing listens on now.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(fd, socketAddress, length) == 0 && getsockname(fd, socketAddress, &length) == 0
            }
        }
        guard bound else { throw RigError("cannot find a free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    public static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
