import Foundation
import Screenplay

/// A folder of media as one playlist named after the folder: its images,
/// PDFs (every page), shaders and videos in name order, each lasting
/// `itemSeconds` (a video its own length).
enum FolderPlaylist {
    static func load(_ path: String, itemSeconds: Double, warn: (String) -> Void) throws(PlaylistError)
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
