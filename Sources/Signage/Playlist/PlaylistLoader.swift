import Documents
public import Foundation
import Screenplay

/// Reads `play`'s configuration: a folder of media, or a JSON playlist
/// file (parsed in `PlaylistParser.swift`).
public enum SignageConfigLoader {
    /// Reads a folder or a `.json` playlist file; `warn` hears of each file
    /// of a folder that is skipped (not an image, PDF, shader or video).
    public static func load(path: String, itemSeconds: Double, warn: (String) -> Void) throws(PlaylistError)
        -> SignageConfig
    {
        try read(path: path, itemSeconds: itemSeconds, warn: warn).config
    }

    /// Reads a folder or a `.json` playlist file; for a file, also the
    /// bytes that parsed (kept as the last good playlist).
    /// `warn` hears of each file of a folder that is skipped.
    public static func read(path: String, itemSeconds: Double, warn: (String) -> Void) throws(PlaylistError) -> (
        config: SignageConfig, json: Data?
    ) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw PlaylistError(
                code: .noInput,
                description: "\(path): no such file or folder; give a folder of media or a .json playlist")
        }
        if isDirectory.boolValue { return (try folder(path, itemSeconds: itemSeconds, warn: warn), nil) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PlaylistError(code: .noInput, description: "cannot read \(path): \(readReason(path))")
        }
        return (try parse(data, file: path, itemSeconds: itemSeconds), data)
    }

    // MARK: folders

    static func folder(_ path: String, itemSeconds: Double, warn: (String) -> Void) throws(PlaylistError)
        -> SignageConfig
    {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasPrefix(".") }
                .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        } catch {
            throw PlaylistError(code: .noInput, description: "cannot read the folder \(path): \(readReason(path))")
        }
        var items: [PlayItem] = []
        for name in names {
            let file = (path as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            // Recognised as `present` recognises a file; anything else is libmpv's to judge.
            switch MediaKind.of(file) {
            case .pdf?:
                items += PlaylistItemParser.pdfPages(file, pages: nil).map {
                    PlayItem(source: $0, duration: itemSeconds, transition: 0)
                }
            case .image?:
                items.append(PlayItem(source: .image(path: file), duration: itemSeconds, transition: 0))
            case .shader?:
                items.append(PlayItem(source: .shader(path: file), duration: itemSeconds, transition: 0))
            default:
                // Anything else is video if libmpv decodes a frame of it.
                let (source, length) = PlaylistItemParser.videoItem(file, duration: nil, itemSeconds: itemSeconds)
                if case let .video(_, _, problem?) = source {
                    warn("\(file): skipped, not an image, PDF, shader or video (\(problem))")
                } else {
                    items.append(PlayItem(source: source, duration: length, transition: 0))
                }
            }
        }
        // An empty folder is a box whose content has not arrived yet (the
        // sync runs after boot): it shows the placeholder saying so and plays
        // once files come, instead of exiting and being restarted by systemd
        // until its start limit gives up on the box. A folder that does not
        // exist is still an error (66): that is a typo, not a wait.
        if items.isEmpty {
            items = [
                PlayItem(
                    source: .missing(
                        path: path,
                        reason: "the folder has no images, PDFs, shaders or videos yet; it plays once files arrive"),
                    duration: itemSeconds, transition: 0)
            ]
        }
        let name = (path as NSString).lastPathComponent
        return SignageConfig(
            playlists: [name: Playlist(name: name, items: items)], panels: [], defaultPlaylist: name, sync: true,
            source: path)
    }
}
