import Foundation

/// A real mosquitto broker on 127.0.0.1 for the tests, never a system
/// service: optionally with TLS (a CA of its own, `caFile`) and a password
/// file; killed and started again on the same port to play a broker that
/// goes down. Persistence is on (saved every second), so a subscriber's
/// QoS 1 session outlives a kill, as a broker's does in production.
public final class MQTTBrokerProcess {
    public let folder: String
    public let port: Int
    public let tls: Bool
    /// The user and password every client must give, when set.
    public let credentials: (user: String, password: String)?
    public var caFile: String { folder + "/ca.pem" }
    public var url: String { "\(tls ? "mqtts" : "mqtt")://127.0.0.1:\(port)" }
    private var process: RunningProcess?

    public init(folder: String, tls: Bool = false, credentials: (user: String, password: String)? = nil) throws {
        self.folder = folder
        self.tls = tls
        self.credentials = credentials
        port = try WebServer.freePort()
        try FileManager.default.createDirectory(atPath: folder + "/db", withIntermediateDirectories: true)
        if tls { try TestCertificates.make(in: folder) }
        var lines = [
            "listener \(port) 127.0.0.1",
            // Started as root, mosquitto would switch to the mosquitto user, who cannot read this folder.
            "user \(NSUserName())",
            "persistence true",
            "persistence_location \(folder)/db/",
            "autosave_interval 1",
            "log_dest stderr",
            "log_type error", "log_type warning", "log_type notice", "log_type information",
        ]
        if tls {
            lines += ["cafile \(folder)/ca.pem", "certfile \(folder)/server.pem", "keyfile \(folder)/server.key"]
        }
        if let credentials {
            let made = try runProcess(
                "/usr/bin/mosquitto_passwd", ["-b", "-c", folder + "/passwd", credentials.user, credentials.password],
                timeout: 10)
            guard made.status == 0 else { throw RigError("mosquitto_passwd: \(made.stderr)") }
            lines += ["allow_anonymous false", "password_file \(folder)/passwd"]
        } else {
            lines += ["allow_anonymous true"]
        }
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: folder + "/mosquitto.conf", atomically: true, encoding: .utf8)
    }

    /// Starts the broker and waits until it accepts connections.
    public func start() throws {
        let broker = try RunningProcess("/usr/sbin/mosquitto", ["-c", folder + "/mosquitto.conf"])
        process = broker
        guard waitUntil(timeout: 10, { WebServer.accepts(self.port) }) else {
            throw RigError("mosquitto did not start on 127.0.0.1:\(port): \(broker.stderr)")
        }
    }

    /// mosquitto's process id while it runs (its CPU time, for the fleet benchmark).
    public var pid: Int32? { process?.pid }

    /// The broker's log so far (this run).
    public var log: String { process?.stderr ?? "" }

    /// SIGKILL: the broker gone without a goodbye, as a crash or power cut.
    public func kill() {
        process?.send(SIGKILL)
        _ = process?.wait(timeout: 5)
        process = nil
    }

    public func stop() {
        process?.terminate()
        _ = process?.wait(timeout: 5)
        process?.kill()
        process = nil
    }

    /// The arguments mosquitto_sub and mosquitto_pub need to reach it.
    public var clientArguments: [String] {
        var args = ["-h", "127.0.0.1", "-p", String(port)]
        if tls { args += ["--cafile", caFile] }
        if let credentials { args += ["-u", credentials.user, "-P", credentials.password] }
        return args
    }

    /// Publishes with mosquitto_pub (QoS 1).
    public func publish(_ topic: String, _ payload: String, retain: Bool = false) throws {
        var args = clientArguments + ["-q", "1", "-t", topic]
        if retain { args.append("-r") }
        args += payload.isEmpty ? ["-n"] : ["-m", payload]
        let result = try runProcess("/usr/bin/mosquitto_pub", args, timeout: 10)
        guard result.status == 0 else { throw RigError("mosquitto_pub \(topic): \(result.stderr)") }
    }

    /// A mosquitto_sub on `topic` with a persistent QoS 1 session named
    /// `id`, printing each message as "RETAIN TOPIC PAYLOAD" (RETAIN 0 or 1).
    public func subscribe(_ topic: String, id: String) throws -> MQTTSubscription {
        try MQTTSubscription(
            RunningProcess(
                "/usr/bin/mosquitto_sub",
                clientArguments + ["-q", "1", "-c", "-i", id, "-t", topic, "-F", "%r %t %p"]))
    }
}

/// What a mosquitto_sub received.
public final class MQTTSubscription {
    public struct Message {
        public let retained: Bool
        public let topic: String
        public let payload: String
        /// The payload as a JSON object, when it is one.
        public var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) as? [String: Any]
        }
    }

    public let process: RunningProcess

    init(_ process: RunningProcess) { self.process = process }

    public var messages: [Message] {
        process.stdoutLines.compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2 else { return nil }
            return Message(
                retained: parts[0] == "1", topic: String(parts[1]), payload: parts.count > 2 ? String(parts[2]) : "")
        }
    }

    /// Waits for a message matching `predicate` (earlier ones count too).
    public func wait(timeout: Double = 15, _ predicate: (Message) -> Bool) -> Message? {
        var found: Message?
        _ = waitUntil(timeout: timeout) {
            found = messages.first(where: predicate)
            return found != nil
        }
        return found
    }

    public func stop() {
        process.terminate()
        _ = process.wait(timeout: 5)
    }
}
