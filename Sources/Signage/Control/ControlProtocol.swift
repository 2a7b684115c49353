public import Foundation

/// One request to a running `play` over its control socket: a JSON object
/// on one line, `{"command": "next", "output": "HDMI-*"}`; the reply is one
/// JSON object on one line, `{"ok": true, ...}` or `{"ok": false, "error": "..."}`.
public struct ControlRequest: Equatable, Sendable {
    /// What the player is asked to do.
    public enum Command: String, CaseIterable, Sendable {
        /// The panels, their items, overrides and the source, as one reply.
        case status
        /// Each chosen panel moves to its next item.
        case next
        /// Each chosen panel moves to its item before.
        case previous
        /// Each chosen panel holds its item.
        case pause
        /// Each chosen panel plays on from its hold.
        case resume
        /// The playlist is read again.
        case reload
        /// Each chosen panel shows `item`.
        case show
        /// A PNG of one panel's frame (its reply comes later).
        case screenshot
        /// Emergency content on the chosen panels, or its end.
        case override
    }

    /// What is asked.
    public var command: Command
    /// A `ScreenPattern` limiting the request to matching panels.
    public var output: String?
    /// `show`: a 1-based position in the panel's playlist, or a file name
    /// (or the end of an item's source, such as `menu.pdf#page=2`).
    public var item: String?
    /// `override`: what to show and for how long, or clear (`CtlOverride.swift`).
    public var override: OverrideRequest?

    /// A request of `command` to every panel.
    public init(command: Command, output: String? = nil, item: String? = nil, override: OverrideRequest? = nil) {
        self.command = command
        self.output = output
        self.item = item
        self.override = override
    }

    static let keys: Set<String> = Set(["command", "output", "item"]).union(OverrideRequest.keys)

    /// Parses one request line; the error is the reply's one-line reason.
    public static func parse(_ line: some Collection<UInt8>) -> Result<ControlRequest, ControlError> {
        let data = Data(line)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            return .failure(
                ControlError("malformed JSON: a request is one JSON object per line, such as {\"command\":\"status\"}"))
        }
        guard let fields = object as? [String: Any] else {
            return .failure(ControlError("a request is a JSON object, such as {\"command\":\"status\"}"))
        }
        if let unknown = fields.keys.sorted().first(where: { !keys.contains($0) }) {
            return .failure(
                ControlError(
                    "unknown key \"\(unknown)\": a request has \"command\", \"output\" and \"item\" (override: \"what\", \"text\", \"seconds\", \"clear\")"
                ))
        }
        guard let name = fields["command"] as? String else {
            return .failure(ControlError("\"command\" is missing or not a string"))
        }
        guard let command = Command(rawValue: name) else {
            return .failure(
                ControlError(
                    "unknown command \"\(name.prefix(64))\": expected \(Command.allCases.map(\.rawValue).joined(separator: ", "))"
                ))
        }
        var request = ControlRequest(command: command)
        for key in ["output", "item"] {
            guard let value = fields[key] else { continue }
            guard let text = value as? String, !text.isEmpty else {
                return .failure(ControlError("\"\(key)\" must be a non-empty string"))
            }
            if key == "output" { request.output = text } else { request.item = text }
        }
        if command == .show, request.item == nil {
            return .failure(
                ControlError("show needs \"item\": a position in the playlist (1 is the first) or a file name"))
        }
        if command != .show, request.item != nil {
            return .failure(ControlError("\"item\" belongs to show only"))
        }
        if command == .override {
            switch OverrideRequest.parse(fields) {
            case let .success(override): request.override = override
            case let .failure(error): return .failure(error)
            }
        } else if let key = OverrideRequest.keys.sorted().first(where: { fields[$0] != nil }) {
            return .failure(ControlError("\"\(key)\" belongs to override only"))
        }
        return .success(request)
    }

    /// The request as one line (what `screenplay ctl` sends).
    public var line: Data {
        var fields: [String: Any] = ["command": command.rawValue]
        if let output { fields["output"] = output }
        if let item { fields["item"] = item }
        if let override { fields.merge(override.fields) { own, _ in own } }
        return ControlReply.encode(fields)
    }
}

/// Why a request was refused; `ok: false` with this as `error`.
public struct ControlError: Error, Equatable, Sendable {
    /// One line, for the reply's `error`.
    public let reason: String
    /// A refusal saying `reason`.
    public init(_ reason: String) { self.reason = reason }
}

/// A reply line: one JSON object, keys sorted.
public enum ControlReply {
    /// One JSON line (newline included).
    public static func encode(_ fields: [String: Any]) -> Data {
        var data =
            (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data(#"{"error":"the reply could not be encoded","ok":false}"#.utf8)
        data.append(0x0A)
        return data
    }

    /// `{"error": reason, "ok": false}` as one line.
    public static func error(_ reason: String) -> Data { encode(["ok": false, "error": reason]) }
}
