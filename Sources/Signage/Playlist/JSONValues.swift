import Foundation
import Screenplay

/// JSON values read strictly: an object, a number that is not a boolean,
/// a whole number, and a value described for an error message
/// (`JSONSerialization` gives booleans as numbers). Every part of the
/// playlist file's parser reads its values through these.
enum JSONValues {
    /// `value` as a JSON object, or the error `fail` makes for the JSON path `at`.
    static func dictionary(_ value: Any, at: String, _ fail: (String, String) -> PlaylistError)
        throws(PlaylistError) -> [String: Any]
    {
        guard let object = value as? [String: Any] else { throw fail(at, "expected an object, got \(describe(value))") }
        return object
    }

    static func rejectUnknownKeys(
        _ object: [String: Any], allowed: Set<String>, at: String, _ fail: (String, String) -> PlaylistError
    ) throws(PlaylistError) {
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw fail(
                at.isEmpty ? unknown : "\(at).\(unknown)",
                "unknown key \"\(unknown)\" (expected \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    /// A JSON `true` or `false`; nil for anything else (1 and 0 too).
    static func boolean(_ value: Any) -> Bool? {
        isBoolean(value) ? (value as? NSNumber)?.boolValue : nil
    }

    /// `value` as a JSON number (not a boolean); nil for anything else.
    static func number(_ value: Any) -> Double? {
        guard !isBoolean(value), let number = value as? NSNumber else { return nil }
        return number.doubleValue
    }

    static func integer(_ value: Any) -> Int? {
        guard let double = number(value), double == double.rounded(), abs(double) < 1e9 else { return nil }
        return Int(double)
    }

    /// A colour `"RRGGBB"` (a layout's or a region's background).
    static func color(_ value: Any, at: String, _ fail: (String, String) -> PlaylistError)
        throws(PlaylistError) -> RGBColor
    {
        guard let text = value as? String, let color = RGBColor(parsing: text) else {
            throw fail(at, "expected a colour RRGGBB, got \(JSONValues.describe(value))")
        }
        return color
    }

    /// What `value` is, for messages: a string, a number, a list, an object, null.
    static func describe(_ value: Any) -> String {
        switch value {
        case is String: "a string"
        case _ where isBoolean(value): "\((value as? NSNumber)?.boolValue == true ? "true" : "false")"
        case let number as NSNumber: "\(number)"
        case is [Any]: "a list"
        case is [String: Any]: "an object"
        case is NSNull: "null"
        default: "\(type(of: value))"
        }
    }
}

/// The readers other modules share (Fleet reads a remote playlist's
/// wrapper with them), so their messages read as the parser's do.
extension SignageConfigLoader {
    /// `value` as a JSON object, or the error `fail` makes for the JSON path `at`.
    public static func dictionary(_ value: Any, at: String, _ fail: (String, String) -> PlaylistError)
        throws(PlaylistError) -> [String: Any]
    {
        try JSONValues.dictionary(value, at: at, fail)
    }

    /// What `value` is, for messages: a string, a number, a list, an object, null.
    public static func describe(_ value: Any) -> String { JSONValues.describe(value) }
}

/// Why a path cannot be read, in words (errno of open(2)), for messages
/// that name the file and the reason.
public func readReason(_ path: String) -> String {
    let fd = open(path, O_RDONLY)
    if fd >= 0 {
        close(fd)
        return "not a readable text file"
    }
    return String(cString: strerror(errno))
}
