/// `play URL`'s options: where the cache is, how often the server is
/// asked, how the box proves who it is and trusts the server, and how much
/// it downloads at most; and `--mqtt`'s broker. Kept apart from the
/// player's own options so the fleet part is one value.
public struct RemoteOptions: Equatable, Sendable {
    /// `--cache DIR` (default `$XDG_CACHE_HOME/screenplay`, else `~/.cache/screenplay`).
    public var cacheFolder: String?
    /// `--poll SECONDS`: how often the playlist URL is asked for a change.
    public var pollSeconds: Double = 60
    /// `--ca-file FILE`: a private CA's certificates, instead of the system store.
    public var caFile: String?
    /// `--token-file FILE`: the Authorization token (a file, since argv is public in `ps`).
    public var tokenFile: String?
    /// `--box-id ID` (default: a hash of /etc/machine-id).
    public var boxID: String?
    /// `--max-file-size BYTES`: one file at most this large.
    public var maxFileBytes: Int64 = 2 << 30
    /// `--max-playlist-size BYTES`: every file of one playlist together.
    public var maxPlaylistBytes: Int64 = 8 << 30
    /// `--cache-size BYTES`: the cache's media at most this large. The
    /// default holds two playlists of the default `--max-playlist-size`
    /// (the one playing and the one coming).
    public var cacheBytes: Int64 = 16 << 30

    /// `--mqtt URL`: the broker (`mqtt://HOST[:PORT]` or `mqtts://...`) the
    /// box reports to and takes commands from (`MQTTBox`).
    public var mqtt: String?
    /// `--mqtt-credentials FILE`: the user name on its first line, the password on the second.
    public var mqttCredentialsFile: String?
    /// `--mqtt-ca-file FILE`: a private CA for `mqtts://` instead of the system store.
    public var mqttCAFile: String?

    /// Play's defaults.
    public init() {}

    /// Whether `path` is a playlist URL (http:// or https://) rather than a file or folder.
    public static func isURL(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }
}
