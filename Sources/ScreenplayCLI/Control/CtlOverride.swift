import Foundation
import Signage

extension OverrideRequest {
    /// `ctl override WHAT [--for DURATION]`, `ctl override --text MESSAGE
    /// [--for DURATION]` or `ctl override --clear`. A WHAT with a '/' or
    /// naming a file in the current folder is that file (sent as an
    /// absolute path: play runs elsewhere); any other is a playlist name.
    static func parse(_ rest: ArraySlice<String>, _ arguments: ParsedArguments) throws(UsageError) -> OverrideRequest {
        func fail(_ message: String) -> UsageError { CtlCommand.usageError(message) }
        if rest.count > 1 { throw fail("unexpected argument '\(rest[rest.startIndex + 1])'") }
        let text = arguments.last("text")
        if arguments.flag("clear") {
            guard rest.isEmpty, text == nil, arguments.last("for") == nil else {
                throw fail("override --clear takes no item, --text or --for (only --output)")
            }
            return .clear
        }
        var seconds: Double?
        if let duration = arguments.last("for") {
            guard let parsed = OverrideDuration.parse(duration) else {
                throw fail(
                    "--for '\(duration)' is not a duration: give hours, minutes and seconds such as 90s, 20m, 1h or 1h30m"
                )
            }
            seconds = parsed
        }
        switch (rest.first, text) {
        case (nil, nil):
            throw fail(
                "override needs what to show: a playlist name, a media file, or --text \"MESSAGE\" (or --clear to end it)"
            )
        case (.some, .some):
            throw fail("override shows either an item or --text, not both")
        case let (nil, message?):
            guard !message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw fail("--text needs the message to show, such as --text \"FIRE DRILL - leave by the stairs\"")
            }
            return .start(what: nil, text: message.replacingOccurrences(of: "\\n", with: "\n"), seconds: seconds)
        case let (what?, nil):
            var isDirectory: ObjCBool = false
            let isFile =
                what.contains("/")
                || (FileManager.default.fileExists(atPath: what, isDirectory: &isDirectory) && !isDirectory.boolValue)
            guard isFile else { return .start(what: what, text: nil, seconds: seconds) }
            let absolute = URL(fileURLWithPath: what).standardizedFileURL.path
            return .start(what: absolute, text: nil, seconds: seconds)
        }
    }

    /// "; OVERRIDE text:FIRE DRILL since ... until ..." for `ctl status`'s text form.
    static func statusLine(_ fields: [String: Any]) -> String {
        var text = "; OVERRIDE \(fields["label"] as? String ?? "?") since \(fields["since"] as? String ?? "?")"
        text += (fields["until"] as? String).map { " until \($0)" } ?? " until cleared"
        if fields["showing"] as? Bool == false { text += " (loading)" }
        return text
    }
}
