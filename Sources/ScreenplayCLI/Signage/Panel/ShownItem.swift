import Foundation

/// An item on screen (or fading in) on a panel or in a layout's region.
struct ShownItem {
    /// Its place in its playlist; -1 for the placeholder.
    let index: Int
    /// The playlist the item belongs to: a schedule's switch may bring
    /// another playlist's item at the same index.
    let playlist: String
    let media: any PlayMedia
    /// When it came on (CLOCK_MONOTONIC seconds: a shader's time and a
    /// crossfade's progress, which a step of the wall clock leaves alone).
    let since: Double
}
