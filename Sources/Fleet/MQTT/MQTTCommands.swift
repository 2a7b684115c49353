import Dispatch
import Foundation
import Signage

/// The box's command topic: each request, the control socket's JSON with an
/// optional `"id"` echoed in the reply and `"reply_to"`, the topic to
/// answer on (default `reply`), is answered by the same handler as the
/// socket's, one per turn of the main queue, so a flood cannot hold back
/// frames. Oversized, excess and malformed commands are refused with a
/// reply, and logged at most every 10 s.
@MainActor
final class MQTTCommands {
    enum Limits {
        /// A command larger than this is refused (the socket's line limit).
        static let commandBytes = 64 * 1024
        /// Commands waiting to be answered; more are refused.
        static let waitingCommands = 64
    }

    private let prefix: String
    private let connection: MQTTConnection
    private let answer: CommandHandler
    private let messages: SignageMessages
    /// A command other than `status` ran: what `ctl status` shows may have changed.
    var onCommandRan: (() -> Void)?
    private var commandsWaiting = 0
    private var complaints = Throttle(seconds: 10)
    private var complaintsHeld = 0

    /// Commands arrive and replies go under `prefix` on `connection`.
    init(prefix: String, connection: MQTTConnection, answer: @escaping CommandHandler, messages: SignageMessages) {
        self.prefix = prefix
        self.connection = connection
        self.answer = answer
        self.messages = messages
    }

    /// A message on the command topic (not retained, not empty).
    func receive(_ payload: Data) {
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
            guard let topic = value as? String, MQTTBox.isPublishableTopic(topic) else {
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
            messages.info("MQTT: command \(object) from \(prefix)command")
            onCommandRan?()
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

    /// Garbage on the command topic is logged at most every 10 s, with a count.
    func complain(_ text: String) {
        guard complaints.allows() else {
            complaintsHeld += 1
            return
        }
        let held = complaintsHeld > 0 ? " (and \(complaintsHeld) more since the last such line)" : ""
        complaintsHeld = 0
        messages.warning("MQTT: \(text)\(held)")
    }
}

/// A command from the broker answered now, or nil and answered through the completion later.
typealias CommandHandler = (Data, @escaping @MainActor (Data) -> Void) -> Data?
