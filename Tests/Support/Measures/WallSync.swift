import Foundation

/// Whether a wall's tiles show each video picture on the same refresh,
/// from `play`'s `picture` lines (`SCREENPLAY_PLAY_PICTURES=1`): each says
/// which picture of the mirrored video a tile showed and when that frame
/// reached the screen (presentation feedback, else the frame callback).
///
/// A tile's times are its output's refreshes, so the spread of one
/// picture's times across tiles is a whole number of refreshes plus the
/// outputs' phase difference and jitter: under 1.5 refreshes is the same or
/// the next refresh ("within one"), 1.5 or more is two refreshes apart or
/// worse.
public struct WallSync: Sendable, CustomStringConvertible {
    /// Pictures every tile showed.
    public var onEveryTile = 0
    /// Of those, the ones whose times across tiles were within one refresh.
    public var withinOneRefresh = 0
    /// Of those, the ones two refreshes apart or more.
    public var twoOrMoreApart = 0
    /// Pictures some tiles showed and others never did (dropped on some).
    public var onSomeTiles = 0
    /// The largest spread seen, in milliseconds.
    public var largestSpreadMs = 0.0

    /// The share of pictures on every tile that were within one refresh.
    public var withinShare: Double { onEveryTile > 0 ? Double(withinOneRefresh) / Double(onEveryTile) : 0 }

    /// Analyses `pictures` (tile, picture serial, shown at ns) of `tiles`
    /// at `refreshHz`. Only the pictures every tile reached are judged:
    /// from the latest of the tiles' first pictures in the window to the
    /// earliest of their last, leaving out the first and the last of
    /// those too. A tile one refresh behind another has not yet shown, when
    /// the window closes, the picture the other just showed, and may have
    /// shown the window's first picture just before it opened: neither is
    /// a picture it skipped. Inside that range a picture missing on a tile
    /// is one it never showed while showing the pictures around it.
    public init(pictures: [(tile: String, serial: Int, shownNs: UInt64)], tiles: Set<String>, refreshHz: Double) {
        var times: [Int: [String: UInt64]] = [:]
        var firstOf: [String: Int] = [:]
        var lastOf: [String: Int] = [:]
        for picture in pictures {
            times[picture.serial, default: [:]][picture.tile] = picture.shownNs
            firstOf[picture.tile] = min(firstOf[picture.tile] ?? picture.serial, picture.serial)
            lastOf[picture.tile] = max(lastOf[picture.tile] ?? picture.serial, picture.serial)
        }
        guard Set(firstOf.keys) == tiles, let from = firstOf.values.max(), let through = lastOf.values.min(),
            through - from > 2
        else { return }
        let refreshNs = 1e9 / refreshHz
        for serial in times.keys.sorted() where serial > from && serial < through {
            guard let shown = times[serial] else { continue }
            guard Set(shown.keys) == tiles else {
                onSomeTiles += 1
                continue
            }
            onEveryTile += 1
            let spread = Double((shown.values.max() ?? 0) - (shown.values.min() ?? 0))
            largestSpreadMs = max(largestSpreadMs, spread / 1e6)
            if spread < 1.5 * refreshNs { withinOneRefresh += 1 } else { twoOrMoreApart += 1 }
        }
    }

    public var description: String {
        String(
            format:
                "%d pictures on every tile, %.2f %% within one refresh, %d two or more apart (largest %.1f ms), %d on some tiles only",
            onEveryTile, 100 * withinShare, twoOrMoreApart, largestSpreadMs, onSomeTiles)
    }
}
