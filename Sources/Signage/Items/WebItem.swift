import Dispatch
import Foundation
import Screenplay

/// The playlist's `"web"` object: which origins pages may reach, and each
/// web process's memory limit.
public struct WebRules: Equatable {
    static let defaultMemoryLimitMB = 1536
    static let keys: Set<String> = ["allow", "memory_limit_mb"]

    /// `"allow"`: origins ("https://host[:port]"), normalised; nil when not
    /// given (each page may then reach its own origin only).
    var allow: [String]?
    var memoryLimitMB = defaultMemoryLimitMB

    init() {}

    init(_ value: Any?, _ fail: (String, String) -> PlaylistError) throws(PlaylistError) {
        guard let value else { return }
        let object = try JSONValues.dictionary(value, at: "web", fail)
        try JSONValues.rejectUnknownKeys(object, allowed: Self.keys, at: "web", fail)
        if let list = object["allow"] {
            guard let entries = list as? [Any] else {
                throw fail(
                    "web.allow",
                    "expected a list of origins such as [\"https://dash.example.com\"], got \(JSONValues.describe(list))"
                )
            }
            allow = try entries.enumerated().map { index, entry throws(PlaylistError) in
                guard let text = entry as? String, let origin = WebItem.origin(of: text),
                    origin + "/" == text || origin == text
                else {
                    throw fail(
                        "web.allow[\(index)]",
                        "expected an origin: http:// or https://, a host and an optional port, no path (e.g. \"https://dash.example.com\"), got \(JSONValues.describe(entry))"
                    )
                }
                return origin
            }
        }
        if let limit = object["memory_limit_mb"] {
            guard let number = JSONValues.integer(limit), (100...65536).contains(number) else {
                throw fail(
                    "web.memory_limit_mb",
                    "expected megabytes between 100 and 65536, got \(JSONValues.describe(limit))")
            }
            memoryLimitMB = number
        }
    }
}

/// A `"web"` item: a page by URL, or a local `.html` file inside the playlist's folder.
public struct WebItem: Equatable {
    /// The page: an http(s) URL, or the file:// URL of a local page.
    public var url: String
    /// The origins its page and requests may reach ("null" only, for a local page without `web.allow`).
    public var allowedOrigins: [String]
    /// Local pages: the playlist's folder, the only place file:// may read.
    public var fileRoot: String?
    /// The local file, for the file watcher.
    var localFile: String?
    /// `web.memory_limit_mb`: WebKit ends a web process past this (the page is then reloaded).
    public var memoryLimitMB = WebRules.defaultMemoryLimitMB

    /// The item's source, or why it cannot be one (exit 65 naming `at`).
    static func source(
        _ value: Any, at: String, folder: String, rules: WebRules, _ fail: (String, String) -> PlaylistError
    ) throws(PlaylistError) -> PlayItem.Source {
        guard let text = value as? String, !text.isEmpty else {
            throw fail(
                at,
                "expected a page: an http:// or https:// URL, or a .html file in the playlist's folder, got \(JSONValues.describe(value))"
            )
        }
        let lower = text.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            guard let origin = origin(of: text) else { throw fail(at, "\"\(text)\" is not a URL with a host") }
            if let allow = rules.allow, !allow.contains(origin) {
                throw fail(
                    at,
                    "the page's origin \(origin) is not in web.allow (\(allow.joined(separator: ", "))); add it there")
            }
            return .web(
                WebItem(
                    url: text, allowedOrigins: rules.allow ?? [origin], fileRoot: nil, localFile: nil,
                    memoryLimitMB: rules.memoryLimitMB))
        }
        if lower.hasPrefix("file:") || text.contains("://") {
            throw fail(
                at,
                "\"\(text)\": give a local page as a path relative to the playlist (\"board.html\"), or an http(s) URL")
        }
        // `play p.json` names the playlist relative to the working directory:
        // its folder is then "" or relative, and the page's root must be a
        // whole path for the prefix check and for file:// alike.
        let base =
            folder.hasPrefix("/")
            ? folder : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(folder)
        let path = ((text.hasPrefix("/") ? text : (base as NSString).appendingPathComponent(text)) as NSString)
            .standardizingPath
        let root = (base as NSString).standardizingPath
        guard path.hasPrefix(root + "/") else {
            throw fail(at, "\(path) is outside the playlist's folder \(root); pages may read files only inside it")
        }
        guard ["html", "htm"].contains((path as NSString).pathExtension.lowercased()) else {
            throw fail(at, "\(path) is not a .html file")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            return .missing(path: path, reason: "no such file (\(at)); it plays once it is there")
        }
        return .web(
            WebItem(
                url: URL(fileURLWithPath: path).absoluteString, allowedOrigins: rules.allow ?? ["null"],
                fileRoot: root, localFile: path, memoryLimitMB: rules.memoryLimitMB))
    }

    /// "scheme://host[:port]" in lower case, the default port left out; nil
    /// for anything but an http(s) URL with a host.
    static func origin(of text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host?.lowercased(), !host.isEmpty,
            components.user == nil
        else { return nil }
        let port = components.port.flatMap {
            ($0 == 80 && scheme == "http") || ($0 == 443 && scheme == "https") ? nil : $0
        }
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(shownHost)\(port.map { ":\($0)" } ?? "")"
    }
}
