import Fleet
import Signage

/// `play`'s words for the fleet options (`RemoteOptions`, Fleet's): their
/// names, their help and their checks, which name the option and what it takes.
extension RemoteOptions {
    static let names = [
        "cache", "poll", "ca-file", "token-file", "box-id", "max-file-size", "max-playlist-size", "cache-size",
    ]
    static let mqttNames = ["mqtt", "mqtt-credentials", "mqtt-ca-file"]
    static let specs: [OptionSpec] = (names + mqttNames).map { .value($0) }

    static let usage = """
          --cache DIR             (PATH is a URL) Where downloaded playlists and
                                  media are kept (default
                                  $XDG_CACHE_HOME/screenplay, ~/.cache/screenplay).
          --poll SECONDS          (URL) Ask the server for a change this often
                                  (default 60, with 10 % jitter).
          --ca-file FILE          (URL) Trust this PEM CA file instead of the
                                  system's certificate store.
          --token-file FILE       (URL) Send "Authorization: Bearer TOKEN" with
                                  the token in FILE (a line with a space is
                                  sent as the whole header value).
          --box-id ID             (URL) This box's name in the User-Agent
                                  (default: a hash of /etc/machine-id).
          --max-file-size BYTES   (URL) Refuse a file larger than this
                                  (default 2G; K, M, G suffixes).
          --max-playlist-size BYTES  (URL) Refuse a playlist whose files add
                                  up to more (default 8G).
          --cache-size BYTES      (URL) Keep at most this much media in the
                                  cache (default 16G; K, M, G, T suffixes):
                                  files neither the playing nor the coming
                                  playlist uses go first, least recently
                                  used first; a playlist that cannot fit is
                                  refused and the old one plays on.
          --mqtt URL              Report to and take commands from an MQTT
                                  broker, mqtts://HOST[:PORT] (TLS, 8883) or
                                  mqtt://HOST[:PORT] (1883), under the topics
                                  screenplay/BOX-ID/... (docs/fleet.md:
                                  "Running a fleet"); works with a file
                                  playlist too.
          --mqtt-credentials FILE  The broker's user name on the first line
                                  of FILE and the password on the second.
          --mqtt-ca-file FILE     Trust this PEM CA file for mqtts:// instead
                                  of the system's certificate store.
        """

    /// Reads the options; `isURL` says whether PATH is a URL (they mean nothing otherwise).
    init(parsing arguments: ParsedArguments, isURL: Bool, usage: String) throws(UsageError) {
        self.init()
        func fail(_ message: String) -> UsageError { UsageError(message: message, usage: usage) }
        mqtt = arguments.last("mqtt")
        mqttCredentialsFile = arguments.last("mqtt-credentials")
        mqttCAFile = arguments.last("mqtt-ca-file")
        // The box's name is also its MQTT topic, so --box-id goes with --mqtt too.
        let urlOnly = Self.names.filter { !(mqtt != nil && $0 == "box-id") }
        if !isURL, let given = urlOnly.first(where: { arguments.last($0) != nil }) {
            throw fail(
                "'--\(given)' applies to a playlist URL (http:// or https://)\(given == "box-id" ? " or with --mqtt" : ""), not a file or folder"
            )
        }
        if let mqtt, MQTTBroker(url: mqtt) == nil {
            throw fail("invalid '--mqtt \(mqtt)': expected mqtts://HOST[:PORT] or mqtt://HOST[:PORT]")
        }
        if mqtt == nil, let given = Self.mqttNames.dropFirst().first(where: { arguments.last($0) != nil }) {
            throw fail("'--\(given)' goes with --mqtt URL")
        }
        if mqttCAFile != nil, let mqtt, MQTTBroker(url: mqtt)?.secure == false {
            throw fail("'--mqtt-ca-file' is for mqtts://; --mqtt \(mqtt) has no TLS")
        }
        cacheFolder = arguments.last("cache")
        if cacheFolder?.isEmpty == true { throw fail("'--cache' needs a folder") }
        if let value = arguments.last("poll") {
            guard let seconds = Double(value), seconds.isFinite, seconds >= 1 else {
                throw fail("invalid value '\(value)' for '--poll': expected seconds, 1 or more")
            }
            pollSeconds = seconds
        }
        caFile = arguments.last("ca-file")
        tokenFile = arguments.last("token-file")
        boxID = arguments.last("box-id")
        if let id = boxID,
            id.isEmpty || id.contains(where: { $0.isWhitespace || "()/+#".contains($0) || $0.asciiValue == nil })
        {
            throw fail(
                "invalid '--box-id \(id)': expected a name of ASCII letters, digits and punctuation without spaces, parentheses, '/', '+' or '#' (it is an MQTT topic level)"
            )
        }
        for (name, keyPath) in [
            ("max-file-size", \Self.maxFileBytes), ("max-playlist-size", \Self.maxPlaylistBytes),
            ("cache-size", \Self.cacheBytes),
        ] {
            guard let value = arguments.last(name) else { continue }
            guard let bytes = Self.byteCount(value), bytes > 0 else {
                throw fail("invalid value '\(value)' for '--\(name)': expected bytes, e.g. 500M or 2G")
            }
            self[keyPath: keyPath] = bytes
        }
    }

    /// "1500", "64K", "500M", "2G", "1T" (powers of 1024).
    static func byteCount(_ text: String) -> Int64? {
        let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
        guard let last = text.uppercased().last else { return nil }
        let scale = units[last] ?? 1
        let digits = units[last] == nil ? text : String(text.dropLast())
        guard let number = decimalNumber(digits) else { return nil }
        let (product, overflow) = Int64(number).multipliedReportingOverflow(by: scale)
        return overflow ? nil : product
    }
}
