import Foundation

/// `screenplay ctl override`'s request: start an override (a playlist name,
/// a media file's absolute path, or a text; for some seconds or until
/// cleared) or clear. On the socket: `{"command": "override", "what":
/// "fire-drill", "seconds": 1200}`, `{"command": "override", "text":
/// "FIRE DRILL"}`, `{"command": "override", "clear": true}`.
public enum OverrideRequest: Equatable, Sendable {
    /// Show `what` (a playlist name or a file's absolute path) or `text`,
    /// for `seconds` (nil: until cleared).
    case start(what: String?, text: String?, seconds: Double?)
    /// End the override.
    case clear

    /// The request keys that belong to `override` only.
    public static let keys: Set<String> = ["what", "text", "seconds", "clear"]

    /// The override part of a request line's fields.
    public static func parse(_ fields: [String: Any]) -> Result<OverrideRequest, ControlError> {
        if fields["clear"] != nil {
            guard fields["clear"] as? Bool == true else { return .failure(ControlError("\"clear\" must be true")) }
            guard fields["what"] == nil, fields["text"] == nil, fields["seconds"] == nil else {
                return .failure(ControlError("\"clear\" goes alone (with \"output\" at most)"))
            }
            return .success(.clear)
        }
        var strings: [String: String] = [:]
        for key in ["what", "text"] {
            guard let value = fields[key] else { continue }
            guard let text = value as? String, !text.isEmpty else {
                return .failure(ControlError("\"\(key)\" must be a non-empty string"))
            }
            strings[key] = text
        }
        guard (strings["what"] == nil) != (strings["text"] == nil) else {
            return .failure(
                ControlError(
                    "override needs either \"what\" (a playlist name or a file's absolute path) or \"text\", or \"clear\": true"
                ))
        }
        var seconds: Double?
        if let value = fields["seconds"] {
            guard let number = JSONValues.number(value), number > 0, number.isFinite else {
                return .failure(ControlError("\"seconds\" must be a positive number, such as 1200"))
            }
            seconds = number
        }
        return .success(.start(what: strings["what"], text: strings["text"], seconds: seconds))
    }

    /// The fields it adds to a request line.
    public var fields: [String: Any] {
        switch self {
        case .clear: return ["clear": true]
        case let .start(what, text, seconds):
            var fields: [String: Any] = [:]
            if let what { fields["what"] = what }
            if let text { fields["text"] = text }
            if let seconds { fields["seconds"] = seconds }
            return fields
        }
    }
}
