import Foundation
import Signage

/// What `MQTTBox` checks before it connects or answers: a reply topic one
/// may publish to, a broker on this machine (credentials in clear text are
/// fine there), and the credentials file.
extension MQTTBox {
    /// A topic without wildcards, NUL or more than 256 bytes (a command's `reply_to`).
    nonisolated static func isPublishableTopic(_ topic: String) -> Bool {
        !topic.isEmpty && topic.utf8.count <= 256 && !topic.contains("+") && !topic.contains("#")
            && !topic.contains("\0")
    }

    /// Whether `host` names this machine.
    nonisolated static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1"
    }

    /// The user name on the first line, the password on the second.
    nonisolated static func credentials(_ file: String, messages: SignageMessages) throws(FleetFailure) -> (
        String, String?
    ) {
        guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8)
        else {
            throw FleetFailure(
                .noInput,
                "--mqtt-credentials \(file) cannot be read; give a file with the user on one line and the password on the next"
            )
        }
        var info = stat()
        if stat(file, &info) == 0, info.st_mode & 0o004 != 0 {
            messages.warning("--mqtt-credentials \(file) is readable by every user; chmod 600 it")
        }
        // "\r\n" is one Character in Swift, and a newline like "\n".
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        guard let user = lines.first, !user.isEmpty else {
            throw FleetFailure(
                .dataError,
                "--mqtt-credentials \(file): the first line is empty; it holds the user name, the next the password")
        }
        let password = lines.count > 1 && !lines[1].isEmpty ? lines[1] : nil
        return (user, password)
    }
}
