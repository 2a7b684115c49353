import Foundation

/// A CA of the tests' own and a server certificate for IP 127.0.0.1 signed
/// by it (EC keys: quick to make), for the HTTPS server and the MQTT broker.
public enum TestCertificates {
    /// Writes `ca.pem`, `server.pem` and `server.key` into `folder`.
    public static func make(in folder: String) throws {
        try "subjectAltName=IP:127.0.0.1\n".write(toFile: folder + "/san.cnf", atomically: true, encoding: .utf8)
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let steps: [[String]] = [
            ["req", "-x509"] + key + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=screenplay test CA",
            ],
            ["req"] + key + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"],
            [
                "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out",
                "server.pem", "-days", "2", "-extfile", "san.cnf",
            ],
        ]
        for step in steps {
            let result = try runProcess("/usr/bin/openssl", step, timeout: 30, directory: folder)
            guard result.status == 0 else { throw RigError("openssl \(step.joined(separator: " ")): \(result.stderr)") }
        }
    }
}
