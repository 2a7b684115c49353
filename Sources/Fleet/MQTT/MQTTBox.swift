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
        /// A command larger than this is refused (the socket's line limit).
        static let commandBytes = 64 * 1024
        /// Commands waiting to be answered; more are refused.
        static let waitingCommands = 64
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
    private let answer: CommandHandler
    private let statusLine: () -> Data
    private let outbox: ProofOutbox
    /// Acknowledgements arrived and are recorded at the end of this turn of the main queue.
    private var savePending = false
    private var commandsWaiting = 0
    private var statusPending = false
    private var lastStatus: Data?
    private var heartbeat: (any DispatchSourceTimer)?
    private var complaints = Throttle(seconds: 10)
    private var complaintsHeld = 0

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
        self.answer = answer
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
        outbox = ProofOutbox(path: host.stateFolder.map { "\($0)/mqtt-proof/\(boxID).jsonl" }, host: host)
        connection.onEvent = { [weak self] event in self?.handle(event) }
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
                return complain(
                    "ignored a retained message on \(topic): a retained command would run again at every reconnect; publish commands without the retain flag (and clear it: mosquitto_pub -r -n -t \(topic))"
                )
            }
            receive(payload)
        }
    }

    private func receive(_ payload: Data) {
        guard payload.count <= Limits.commandBytes else {
            complain("refused a command of \(payload.count) bytes (at most \(Limits.commandBytes))")
            return reply(ControlReply.error("command larger than \(Limits.commandBytes) bytes"), to: nil, id: nil)
        }
        guard commandsWaiting < Limits.waitingCommands else {
            complain("refused a command: \(Limits.waitingCommands) are waiting to be answered")
            return reply(ControlReply.error("busy: \(Limits.waitingCommands) commands are waiting"), to: nil, id: nil)
        }
        commandsWaiting += 1
        // One command per turn of the main queue: a flood cannot hold back frames.
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.commandsWaiting -= 1
                self.run(payload)
            }
        }
    }

    /// The command's `id` and `reply_to` are this topic's own; the rest is
    /// the control socket's request, answered by the same handler.
    private func run(_ payload: Data) {
        guard var fields = (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any] else {
            complain("refused a command that is not a JSON object (\(payload.count) bytes)")
            return reply(
                ControlReply.error(
                    "malformed JSON: a command is one JSON object, such as {\"command\":\"status\",\"id\":\"1\"}"),
                to: nil, id: nil)
        }
        let id = fields.removeValue(forKey: "id")
        var replyTopic: String?
        if let value = fields.removeValue(forKey: "reply_to") {
            guard let topic = value as? String, Self.isPublishableTopic(topic) else {
                complain("refused a command whose reply_to is not a topic one may publish to")
                return reply(
                    ControlReply.error("\"reply_to\" must be a topic without wildcards (+, #), at most 256 bytes"),
                    to: nil, id: id)
            }
            replyTopic = topic
        }
        guard let line = try? JSONSerialization.data(withJSONObject: fields) else {
            return reply(ControlReply.error("the command could not be read"), to: replyTopic, id: id)
        }
        if let now = answer(line, { [weak self] later in self?.reply(later, to: replyTopic, id: id) }) {
            reply(now, to: replyTopic, id: id)
        }
        if let object = fields["command"] as? String, object != "status" {
            host.messages.info("MQTT: command \(object) from \(prefix)command")
            statusChanged()
        }
    }

    private func reply(_ line: Data, to topic: String?, id: Any?) {
        var data = line
        if let id, var fields = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any] {
            fields["id"] = id
            data = ControlReply.encode(fields)
        }
        if data.last == 0x0A { data.removeLast() }
        connection.publish(topic ?? prefix + "reply", data)
    }

    private func publishStatus(force: Bool) {
        var line = statusLine()
        if line.last == 0x0A { line.removeLast() }
        guard force || line != lastStatus else { return }
        if connection.publish(prefix + "status", line, retain: true) != nil { lastStatus = line }
    }

    /// Garbage on the command topic is logged at most every 10 s, with a count.
    private func complain(_ text: String) {
        guard complaints.allows() else {
            complaintsHeld += 1
            return
        }
        let held = complaintsHeld > 0 ? " (and \(complaintsHeld) more since the last such line)" : ""
        complaintsHeld = 0
        host.messages.warning("MQTT: \(text)\(held)")
    }
}

/// A command from the broker answered now, or nil and answered through the completion later.
typealias CommandHandler = (Data, @escaping @MainActor (Data) -> Void) -> Data?
