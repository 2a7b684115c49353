import Foundation
public import Screenplay

/// The items an override shows, worked out from its entry: a playlist of
/// the running configuration, the items of one media file, or one text.
public struct OverrideContent: Equatable {
    /// The playlist name its proof-of-play lines carry.
    public var name: String
    /// What it shows, in turn.
    public var items: [PlayItem]

    /// The style of `ctl override --text`: large white bold letters on a
    /// dark red (contrast above 7:1), centred, wrapping at words; read from
    /// across a lobby, and unlike anything a normal playlist shows.
    public static let textBackground = RGBColor(hex: 0xB0_00_00)

    /// The content of `entry`, or why it cannot be shown (nothing changes then).
    public static func resolve(_ entry: OverrideEntry, config: SignageConfig, itemSeconds: Double) -> Result<
        OverrideContent, ControlError
    > {
        switch entry.kind {
        case .playlist:
            guard let playlist = config.playlists[entry.what] else {
                return .failure(
                    ControlError(
                        "no playlist '\(entry.what)' in \(config.source) (its playlists: \(config.playlists.keys.sorted().joined(separator: ", "))) and no file by that name; give a playlist name, a media file or --text"
                    ))
            }
            return .success(OverrideContent(name: playlist.name, items: playlist.items))
        case .text:
            var text = TextItem(content: .string(entry.what))
            text.font = "Sans Bold"
            text.background = textBackground
            return .success(
                OverrideContent(
                    name: "(override)", items: [PlayItem(source: .text(text), duration: itemSeconds, transition: 0)]))
        case .file:
            return file(entry.what, itemSeconds: itemSeconds).map {
                OverrideContent(name: "(override)", items: $0)
            }
        }
    }

    /// A media file's items, recognised as a folder's files are: every page
    /// of a PDF, an image, a shader, or a video (looping while it stands alone).
    private static func file(_ path: String, itemSeconds: Double) -> Result<[PlayItem], ControlError> {
        guard path.hasPrefix("/") else {
            return .failure(ControlError("the file '\(path)' must be an absolute path (screenplay ctl makes it one)"))
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return .failure(
                ControlError("no such file: \(path) (and no playlist by that name); check the path and copy it there"))
        }
        guard access(path, R_OK) == 0 else {
            return .failure(ControlError("cannot read \(path): \(readReason(path)); make it readable by play's user"))
        }
        let sources: [PlayItem.Source]
        switch MediaKind.of(path) {
        case .pdf?: sources = PlaylistItemParser.pdfPages(path, pages: nil)
        case .image?: sources = [.image(path: path)]
        case .shader?: sources = [.shader(path: path)]
        default:
            let (source, length) = PlaylistItemParser.videoItem(path, duration: nil, itemSeconds: itemSeconds)
            if case let .video(_, _, problem?) = source {
                return .failure(ControlError("\(path) is not an image, PDF, shader or video (\(problem))"))
            }
            return .success([
                PlayItem(source: .video(path: path, loops: true, problem: nil), duration: length, transition: 0)
            ])
        }
        return .success(sources.map { PlayItem(source: $0, duration: itemSeconds, transition: 0) })
    }
}
