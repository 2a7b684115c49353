import Foundation
import Screenplay

/// Writes `--stats` JSON Lines.
@MainActor
final class StatsWriter {
    private let handle: FileHandle
    init(handle: FileHandle) { self.handle = handle }

    func write(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        handle.write(data + Data("\n".utf8))
    }
}
