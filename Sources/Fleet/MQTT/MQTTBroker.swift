/// Where a box's broker is: `mqtt://HOST[:PORT]` (1883) or
/// `mqtts://HOST[:PORT]` (8883, TLS verified against the system's
/// certificates or `--mqtt-ca-file`).
public struct MQTTBroker: Equatable, Sendable, CustomStringConvertible {
    /// `mqtts://`: TLS, the broker's certificate verified.
    public var secure: Bool
    /// The broker's host name or address (an IPv6 address without its brackets).
    public var host: String
    /// The port: the URL's, else 8883 for `mqtts://` and 1883 for `mqtt://`.
    public var port: Int

    /// Nil for anything else than one of the two forms above (no path, no
    /// user in the URL: credentials come from a file).
    public init?(url: String) {
        let lower = url.lowercased()
        let rest: Substring
        if lower.hasPrefix("mqtts://") {
            secure = true
            rest = url.dropFirst("mqtts://".count)
        } else if lower.hasPrefix("mqtt://") {
            secure = false
            rest = url.dropFirst("mqtt://".count)
        } else {
            return nil
        }
        var authority = rest.hasSuffix("/") ? rest.dropLast() : rest
        guard !authority.isEmpty, !authority.contains("/"), !authority.contains("@") else { return nil }
        var port = secure ? 8883 : 1883
        if authority.hasPrefix("[") {
            // [IPv6]:PORT
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else { return nil }
                port = number
            }
            authority = authority[authority.index(after: authority.startIndex)..<close]
        } else if let colon = authority.lastIndex(of: ":") {
            guard let number = Int(authority[authority.index(after: colon)...]) else { return nil }
            port = number
            authority = authority[..<colon]
        }
        guard !authority.isEmpty, (1...65535).contains(port) else { return nil }
        host = String(authority)
        self.port = port
    }

    /// The URL with its port: `mqtts://broker.example.com:8883`.
    public var description: String {
        "\(secure ? "mqtts" : "mqtt")://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}
