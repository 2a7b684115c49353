import Foundation

/// An item on screen (or fading in) on a panel or in a layout's region.
public struct ShownItem {
    /// Its place in its playlist; -1 for the placeholder.
    public let index: Int
    /// The playlist the item belongs to: a schedule's switch may bring
    /// another playlist's item at the same index.
    public let playlist: String
    /// What draws it.
    public let media: any PlayMedia
    /// When it came on (CLOCK_MONOTONIC seconds: a shader's time and a
    /// crossfade's progress, which a step of the wall clock leaves alone).
    public let since: Double

    /// Item `index` of `playlist`, drawn by `media`, on screen since `since`.
    public init(index: Int, playlist: String, media: any PlayMedia, since: Double) {
        self.index = index
        self.playlist = playlist
        self.media = media
        self.since = since
    }
}
