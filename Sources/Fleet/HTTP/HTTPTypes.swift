import Foundation

/// How every request of `play URL` is made (from play's options).
struct HTTPSettings: Sendable {
    /// "screenplay/0.1.0 (box 1a2b3c4d5e6f)": the server's logs can tell boxes and versions apart.
    var userAgent: String
    /// The `Authorization` header's value, read from `--token-file`, never from argv.
    var authorization: String?
    /// `--ca-file`: a private CA's certificates (PEM) instead of the system store.
    var caFile: String?
    /// Seconds to set up a connection (TCP and TLS).
    var connectTimeout = 10
    /// A transfer that moves fewer than `lowSpeedBytes` a second for
    /// `lowSpeedSeconds` is abandoned (and resumed at the next try): a
    /// stalled server never holds a download forever, a slow link that
    /// moves still finishes.
    var lowSpeedSeconds = 30
    var lowSpeedBytes = 64
    /// The playlist itself must arrive within this many seconds.
    var playlistTimeout = 60
    /// More redirects than this is a failure (a redirect loop ends here).
    var maxRedirects = 5
}

/// What a server answered.
struct HTTPResponse {
    var status: Int
    var etag: String?
    var lastModified: String?
    /// The body of an in-memory request (`HTTPFetcher.get`); empty for downloads.
    var body = Data()
    /// The URL after redirects.
    var url: String
}

/// A request that did not give a usable answer, with a reason a person can act on.
struct HTTPFailure: Error, CustomStringConvertible {
    enum Kind: Equatable {
        /// No answer: DNS, refused connection, TLS, timeout, redirect loop.
        case transport
        /// The server answered with this status (4xx, 5xx, or an unexpected one).
        case status(Int)
        /// More bytes than the limit.
        case tooLarge
        /// The connection ended before the announced length: resumable.
        case truncated
        /// `play` is stopping.
        case cancelled
        /// The bytes arrived but are not the file the playlist names (hash or size).
        case mismatch
    }
    var kind: Kind
    var url: String
    var reason: String
    var description: String { "\(url): \(reason)" }
}
