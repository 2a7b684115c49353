public import Screenplay

/// An item coming in over the one on screen: each refresh draws the one
/// going under the one coming in, at the opacity the time since it began
/// gives, until the transition's seconds have passed.
public struct Crossfade {
    /// The item coming in; `since` is when the fade began.
    public let incoming: ShownItem
    /// The playlist's `transition` for the item coming in.
    public let seconds: Double

    /// The fade of `incoming` over `seconds`.
    public init(incoming: ShownItem, seconds: Double) {
        self.incoming = incoming
        self.seconds = seconds
    }

    /// How far it is at `elapsed` (CLOCK_MONOTONIC seconds): 1 or more once it is over.
    public func progress(at elapsed: Double) -> Double { (elapsed - incoming.since) / seconds }

    /// One blended frame: `outgoing` whole, the item coming in over it.
    @MainActor
    public func draw(over outgoing: ShownItem, in context: DrawingContext, at elapsed: Double, frame: Int) throws {
        try outgoing.media.draw(in: context, seconds: elapsed - outgoing.since, frame: frame)
        try context.drawLayer(opacity: max(0, progress(at: elapsed))) { layer in
            try incoming.media.draw(in: layer, seconds: elapsed - incoming.since, frame: frame)
        }
    }
}
