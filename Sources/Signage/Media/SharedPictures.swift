import Foundation
import Screenplay

/// Still images held once for every panel that shows them: the same file
/// on two panels (one playlist mirrored on several screens) is decoded once
/// and, since every scene of the connection shares one GL context and the
/// texture cache is keyed by picture, uploaded once. A file is known by its
/// path and what `stat` says of it (inode, size, modification time), so a
/// file edited or replaced in place is decoded again for the panels that
/// load it next, while the ones still showing the old picture keep it.
@MainActor
enum SharedPictures {
    /// What identifies one version of a file.
    struct Key: Hashable {
        var path: String
        var inode: UInt64
        var size: Int64
        var modified: Int64
    }

    private struct Entry {
        var picture: Picture
        var holders: Int
    }

    private static var entries: [Key: Entry] = [:]

    /// The picture of the file at `path`, decoded now unless another panel
    /// holds the same version of it. Every successful call is matched by one
    /// `release(_:from:)` with the key it returned.
    static func acquire(path: String) throws(PictureError) -> (picture: Picture, key: Key?) {
        guard let key = key(path) else {
            // Not stat-able here: the decoder says why, and nothing is shared.
            return (try Picture.load(path: path), nil)
        }
        if var entry = entries[key] {
            entry.holders += 1
            entries[key] = entry
            return (entry.picture, key)
        }
        let picture = try Picture.load(path: path)
        entries[key] = Entry(picture: picture, holders: 1)
        return (picture, key)
    }

    /// One panel is done with `picture`: its texture is freed once no panel
    /// holds it.
    static func release(_ picture: Picture, key: Key?, from app: Application?) {
        if let key, var entry = entries[key], entry.picture === picture {
            entry.holders -= 1
            if entry.holders > 0 {
                entries[key] = entry
                return
            }
            entries[key] = nil
        }
        app?.releaseResources(of: picture)
    }

    /// Pictures held now, for tests.
    static var count: Int { entries.count }

    private static func key(_ path: String) -> Key? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Key(
            path: path, inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }
}
