import Dispatch
public import Foundation
import Signage

/// `play --mqtt`: the box on a broker, under `screenplay/BOX-ID/`:
///
/// - `online`: retained `true` while connected; the will sets `false` when
///   the connection drops without a goodbye (power cut, kill), and a clean
///   stop publishes it itself.
/// - `status`: retained, the reply `ctl status --json` prints, on every
///   change (at most once a second) and every minute.
/// - `proof`: each proof-of-play line (QoS 1), in order. Every line waits
///   on disk until the broker acknowledged it (ProofOutbox: the newest
///   10,000 lines, 4 MiB), so lines made while the broker is away go when
///   it is back, after a restart too; the `--proof` file stays the record.
/// - `command`: requests, the control socket's JSON (`{"command":"next"}`)
///   with an optional `"id"` echoed in the reply and `"reply_to"`, the topic
///   to answer on (default `reply`). Retained messages there are ignored:
///   every reconnect would run them again.
///
/// The broker is never in playback's way: every call is non-blocking on
/// the main queue, commands are answered one per turn of the queue, and a
/// broker that is down, slow or sends garbage costs a log line and a retry.
@MainActor
public final class MQTTBox {
    enum Limits {
        static let statusEverySeconds = 60.0
        /// A clean stop waits this long at most for the broker to acknowledge
        /// proof lines sent, and for the journal's fsync: well inside the
        /// teardown deadline (HangGuard.teardownSeconds), which exits 70.
        static let settleSeconds = 0.5
        static let flushSeconds = 0.3
    }

    /// The box's name: its topics are `screenplay/BOX-ID/...`.
    public let boxID: String
    let prefix: String
    private let host: FleetHost
    private let connection: MQTTConnection
    /// The command topic's requests and replies.
    private let commands: MQTTCommands
    private let statusLine: () -> Data
    private let outbox: ProofOutbox
    /// Acknowledgements arrived and are recorded at the end of this turn of the main queue.
    private var savePending = false
    private var statusPending = false
    private var lastStatus: Data?
    private var heartbeat: (any DispatchSourceTimer)?

    /// Reads the credentials (a missing or unreadable file is `.noInput`, a
    /// malformed one `.dataError`) and makes the client; `start()` connects.
    /// `answer` answers a command (the control socket's JSON line) now, or
    /// returns nil and answers through its completion later; `statusLine` is
    /// the status request's reply, published retained.
    public init(
        options: RemoteOptions, boxID: String, host: FleetHost,
        answer: @escaping (Data, @escaping @MainActor (Data) -> Void) -> Data?,
        statusLine: @escaping () -> Data
    ) throws(FleetFailure) {
        guard let url = options.mqtt, let broker = MQTTBroker(url: url) else {
            throw FleetFailure(.usage, "--mqtt needs mqtts://HOST[:PORT] or mqtt://HOST[:PORT]")
        }
        self.boxID = boxID
        prefix = "screenplay/\(boxID)/"
        self.host = host
        self.statusLine = statusLine
        var settings = MQTTConnection.Settings(broker: broker, clientID: "screenplay-\(boxID)")
        if let file = options.mqttCredentialsFile {
            (settings.username, settings.password) = try Self.credentials(file, messages: host.messages)
            if !broker.secure, !Self.isLoopback(broker.host) {
                host.messages.warning(
                    "--mqtt \(url) sends the user and password of \(file) unencrypted; use mqtts:// for a broker beyond this machine"
                )
            }
        }
        if let ca = options.mqttCAFile {
            guard FileManager.default.isReadableFile(atPath: ca) else {
                throw FleetFailure(
                    .noInput, "--mqtt-ca-file \(ca) cannot be read; give a PEM file of CA certificates")
            }
            settings.caFile = ca
        }
        settings.will = (prefix + "online", "false")
        settings.subscriptions = [prefix + "command"]
        connection = try MQTTConnection(settings)
        commands = MQTTCommands(prefix: prefix, connection: connection, answer: answer, messages: host.messages)
        outbox = ProofOutbox(path: host.stateFolder.map { "\($0)/mqtt-proof/\(boxID).jsonl" }, host: host)
        connection.onEvent = { [weak self] event in self?.handle(event) }
        commands.onCommandRan = { [weak self] in self?.statusChanged() }
    }

    /// Connects in the background (and again whenever the connection goes)
    /// and publishes the status every minute.
    public func start() {
        host.messages.info("MQTT: connecting to \(connection.settings.broker.description) as \(prefix)...")
        connection.start()
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(
            deadline: .now() + Limits.statusEverySeconds, repeating: Limits.statusEverySeconds, leeway: .seconds(1))
        timer.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.publishStatus(force: true) } }
        timer.resume()
        heartbeat = timer
    }

    /// A clean stop: says offline (the will is dropped on a goodbye) and disconnects.
    public func stop() {
        heartbeat?.cancel()
        heartbeat = nil
        connection.publish(prefix + "online", Data("false".utf8), retain: true)
        // Lines the broker has but whose acknowledgement is on its way would go again at the next start.
        connection.settle(seconds: Limits.settleSeconds) { !outbox.awaitsAcknowledgement }
        connection.stop()
        outbox.save()
        outbox.flush(seconds: Limits.flushSeconds)
    }

    /// A proof-of-play line: on disk first, then sent when connected; it
    /// leaves the disk once the broker acknowledged it.
    public func proof(_ line: [String: Any]) {
        var data = ControlReply.encode(line)
        data.removeLast()  // the newline
        outbox.append(data)
        sendWaiting()
        statusChanged()
    }

    /// Hands libmosquitto the lines it never had, oldest first; the first
    /// refusal (the connection just went) leaves the rest for the next connect.
    /// How many went.
    @discardableResult
    private func sendWaiting() -> Int {
        var sent = 0
        for (id, line) in outbox.unsent() {
            // Publishing runs libmosquitto's callbacks: acknowledgements of older lines may arrive meanwhile.
            guard let mid = connection.publish(prefix + "proof", line) else { break }
            outbox.handed(id: id, mid: mid)
            sent += 1
        }
        return sent
    }

    /// Something `ctl status` shows changed: published within a second.
    public func statusChanged() {
        guard !statusPending else { return }
        statusPending = true
        DispatchQueue.main.asyncAfter(deadline: .now() + 1) { [weak self] in
            MainActor.assumeIsolated {
                self?.statusPending = false
                self?.publishStatus(force: false)
            }
        }
    }

    /// For `ctl status` (`mqtt`): the broker, the topic, the connection's
    /// state and error, and the proof-of-play lines waiting and dropped.
    public var status: [String: Any] {
        var fields: [String: Any] = [
            "broker": connection.settings.broker.description, "topic": prefix, "state": connection.state.rawValue,
            "waiting_proof": outbox.count, "dropped_proof": outbox.dropped,
        ]
        if let error = connection.lastError { fields["error"] = error }
        return fields
    }

    // MARK: events

    private func handle(_ event: MQTTConnection.Event) {
        switch event {
        case .connected:
            host.messages.info("MQTT: connected to \(connection.settings.broker.description) as \(prefix)")
            connection.publish(prefix + "online", Data("true".utf8), retain: true)
            lastStatus = nil
            publishStatus(force: true)
            // Lines handed over before the connection went are libmosquitto's to send again, first.
            let sent = sendWaiting()
            if sent > 0 {
                host.messages.info("MQTT: sent \(sent) proof-of-play lines kept while the broker could not be reached")
            }
        case let .published(mid):
            guard outbox.acknowledged(mid: mid), !savePending else { return }
            savePending = true
            DispatchQueue.main.async { [weak self] in
                MainActor.assumeIsolated {
                    guard let self else { return }
                    self.savePending = false
                    self.outbox.save()
                }
            }
        case let .lost(reason, retryIn):
            host.messages.warning(
                "MQTT: \(reason); playback goes on; trying again in \(String(format: "%.0f", retryIn)) s")
        case let .message(topic, payload, retained):
            // An empty payload is how a retained message is cleared: nothing to answer.
            guard topic == prefix + "command", !payload.isEmpty else { return }
            if retained {
                return commands.complain(
                    "ignored a retained message on \(topic): a retained command would run again at every reconnect; publish commands without the retain flag (and clear it: mosquitto_pub -r -n -t \(topic))"
                )
            }
            commands.receive(payload)
        }
    }

    private func publishStatus(force: Bool) {
        var line = statusLine()
        if line.last == 0x0A { line.removeLast() }
        guard force || line != lastStatus else { return }
        if connection.publish(prefix + "status", line, retain: true) != nil { lastStatus = line }
    }
}
