import Foundation

/// The overrides of one playlist file under the state folder:
/// `$XDG_STATE_HOME/screenplay/override/` named after the playlist's
/// absolute path (as `last-good/`), so two `play`s on one box keep theirs
/// apart. Written whole (`StateDirectory.writeAtomically`); deleted when
/// no override is left.
struct OverrideStore {
    /// The state file.
    let path: String

    init?(playlist: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let directory = StateDirectory.path(environment: environment) else { return nil }
        path = directory + "/override/" + StateDirectory.fileName(forPath: playlist) + ".json"
    }

    private struct File: Codable {
        var playlist: String
        var overrides: [OverrideEntry]
    }

    /// The overrides kept, or why the file could not be read (it is then
    /// left where it is, for a person to look at).
    func load() -> (entries: [OverrideEntry], problem: String?) {
        guard let data = FileManager.default.contents(atPath: path) else { return ([], nil) }
        do {
            return (try JSONDecoder().decode(File.self, from: data).overrides, nil)
        } catch {
            return ([], "\(path) is not an override state file (\(error)); delete it to start without overrides")
        }
    }

    /// Keeps `entries` (deletes the file when empty); returns why it could not, or nil.
    func save(_ entries: [OverrideEntry], playlist: String) -> String? {
        guard !entries.isEmpty else {
            if unlink(path) != 0, errno != ENOENT {
                return "cannot delete \(path): \(String(cString: strerror(errno)))"
            }
            return nil
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(File(playlist: playlist, overrides: entries)) else {
            return "cannot encode the overrides for \(path)"
        }
        return StateDirectory.writeAtomically(data, to: path)
    }
}
