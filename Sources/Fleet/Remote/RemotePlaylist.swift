import Foundation
import Signage

/// A file a remote playlist names: where it is and what it must be.
struct RemoteFile: Equatable {
    /// Absolute http(s) URL, resolved against the playlist's URL.
    var url: String
    /// The last part of the URL's path (kept in the cache's name: logs and proof of play stay readable).
    var name: String
    var integrity: FileIntegrity
    /// Where the playlist names it, for messages ("playlists.lobby[2].file").
    var jsonPath: String
}

/// A playlist downloaded from a URL: the same JSON as a local file, whose
/// file names are URLs relative to it. `rewritten` makes the local copy
/// `play` reads, each name replaced by the cached file's path.
struct RemotePlaylistDocument {
    /// The keys of an item that name a file.
    static let fileKeys = ["file", "text-file", "ticker-file"]

    let url: String
    let root: [String: Any]
    /// Distinct by URL, in the order the playlist names them.
    let files: [RemoteFile]

    /// Parses `data` as a playlist at `url`: a JSON object with
    /// "playlists", each file key resolved and its integrity read. The
    /// rest of the format is checked by the ordinary loader when the local
    /// copy loads (a bad one is refused there and the old one plays on).
    init(data: Data, url: String) throws(PlaylistError) {
        func fail(_ jsonPath: String, _ reason: String) -> PlaylistError { .data(url, jsonPath, reason) }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw fail(
                "",
                "not valid JSON (\((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"))")
        }
        let root = try SignageConfigLoader.dictionary(object, at: "", fail)
        guard let playlists = root["playlists"] as? [String: Any] else {
            throw fail("", "missing \"playlists\": an object of playlist names to lists of items")
        }
        guard let base = URL(string: url) else { throw fail("", "not a URL") }
        var files: [RemoteFile] = []
        var seen: [String: Int] = [:]
        for name in playlists.keys.sorted() {
            guard let list = playlists[name] as? [Any] else { continue }
            for (index, element) in list.enumerated() {
                guard let entry = element as? [String: Any] else { continue }
                for key in Self.fileKeys {
                    guard let value = entry[key] else { continue }
                    let at = "playlists.\(name)[\(index)]"
                    guard let relative = value as? String, !relative.isEmpty else {
                        throw fail("\(at).\(key)", "expected a file path, got \(SignageConfigLoader.describe(value))")
                    }
                    let integrity = key == "file" ? try FileIntegrity(entry, at: at, fail) : FileIntegrity()
                    guard let resolved = URL(string: relative, relativeTo: base)?.absoluteURL,
                        let scheme = resolved.scheme?.lowercased(), scheme == "http" || scheme == "https"
                    else {
                        throw fail(
                            "\(at).\(key)",
                            "\"\(relative)\" is not a path relative to the playlist or an http(s) URL; name files on the web server"
                        )
                    }
                    let file = RemoteFile(
                        url: resolved.absoluteString, name: Self.cacheName(resolved), integrity: integrity,
                        jsonPath: "\(at).\(key)")
                    if let known = seen[file.url] {
                        // One URL with two different hashes cannot both be right.
                        if files[known].integrity != integrity, integrity != FileIntegrity() {
                            guard files[known].integrity == FileIntegrity() else {
                                throw fail(
                                    "\(at).sha256",
                                    "\(file.url) is also named at \(files[known].jsonPath) with another sha256 or bytes; give one"
                                )
                            }
                            files[known].integrity = integrity
                        }
                        continue
                    }
                    seen[file.url] = files.count
                    files.append(file)
                }
            }
        }
        self.url = url
        self.root = root
        self.files = files
    }

    /// The URL's last path component, reduced to characters safe in a file name.
    static func cacheName(_ url: URL) -> String {
        let last = url.lastPathComponent
        let safe = String(last.map { $0.isLetter || $0.isNumber || "._-".contains($0) ? $0 : "_" }.prefix(80))
        return safe.isEmpty || safe.hasPrefix(".") ? "file" + safe : safe
    }

    /// The local copy: every file key replaced by its cached path (`paths`,
    /// by URL), "sha256" and "bytes" dropped (they were checked).
    func rewritten(paths: [String: String]) -> Data {
        var root = self.root
        if var playlists = root["playlists"] as? [String: Any] {
            for (name, value) in playlists {
                guard let list = value as? [Any] else { continue }
                playlists[name] = list.map { element -> Any in
                    guard var entry = element as? [String: Any] else { return element }
                    for key in Self.fileKeys {
                        guard let relative = entry[key] as? String, let base = URL(string: url),
                            let resolved = URL(string: relative, relativeTo: base)?.absoluteURL.absoluteString,
                            let path = paths[resolved]
                        else { continue }
                        entry[key] = path
                    }
                    for key in FileIntegrity.keys { entry[key] = nil }
                    return entry
                }
            }
            root["playlists"] = playlists
        }
        // $schema is a relative path on the server; locally it would point nowhere.
        root["$schema"] = nil
        return (try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])) ?? Data()
    }
}
