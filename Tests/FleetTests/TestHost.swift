import Foundation
import Signage

@testable import Fleet

extension FleetHost {
    /// A host for the unit tests: messages on stderr, no state folder, and
    /// the cache's own atomic replace (temporary file, fsync, rename).
    static let test = FleetHost(
        messages: .standardError, version: "test", stateFolder: nil,
        writeAtomically: { data, path in
            MediaCache.writeAtomically(data, to: path).map { "cannot write \(path): \($0)" }
        })
}
