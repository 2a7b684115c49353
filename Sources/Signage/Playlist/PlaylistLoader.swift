public import Foundation
import Screenplay

/// Reads `play`'s configuration: a folder of media (`FolderPlaylist`), or
/// a JSON playlist file (parsed in `PlaylistParser.swift`, its parts by
/// `PlaylistItemParser`, `LayoutParser`, `ScheduleParser` and `JSONValues`).
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
        if isDirectory.boolValue { return (try FolderPlaylist.load(path, itemSeconds: itemSeconds, warn: warn), nil) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PlaylistError(code: .noInput, description: "cannot read \(path): \(readReason(path))")
        }
        return (try parse(data, file: path, itemSeconds: itemSeconds), data)
    }
}
