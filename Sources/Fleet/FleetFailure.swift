/// Why the fleet client cannot start: a cache folder it cannot make, a
/// token, CA or credentials file it cannot read. The description is one
/// line naming the thing, the reason and the fix; the kind tells an app
/// which exit status to give (sysexits.h's, as `screenplay play` does).
public struct FleetFailure: Error, CustomStringConvertible, Sendable {
    /// What kind of failure, as sysexits.h sorts them.
    public enum Kind: Sendable, Equatable {
        /// The options cannot work as given (no folder for the cache): EX_USAGE.
        case usage
        /// A file is there but malformed (credentials without a user): EX_DATAERR.
        case dataError
        /// A file cannot be read (the token, a CA file, the credentials): EX_NOINPUT.
        case noInput
        /// A library cannot start (libmosquitto makes no client): EX_UNAVAILABLE.
        case unavailable
        /// A folder or file cannot be written (the cache): EX_CANTCREAT.
        case cannotCreate
    }

    /// Which exit status the failure calls for.
    public let kind: Kind
    /// The thing, the reason and the fix, on one line.
    public let description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
