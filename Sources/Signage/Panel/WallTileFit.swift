import Screenplay

/// A wall's tile keeps its part of the wall on its panel when the
/// compositor changes the screen under it: a new mode.
extension PlayPanel {
    /// The screen changed mode, scale or transform. Where the wall leaves
    /// the panel's pixels to the screen, the tile's part was worked out
    /// from the mode it had then; it is worked out again from the mode it
    /// has now, so a tile that came up in one mode and was set to another
    /// (a screen plugged in, then given its mode) shows its part one to one
    /// rather than the old part scaled. The item on screen stays.
    func refitTile() {
        guard let old = assigned.entry.tile, let screen = scene?.screen,
            let fresh = runner.assignment(for: screen)?.tile, fresh != old
        else { return }
        var entry = assigned.entry
        entry.tile = fresh
        assigned = PanelAssignment(entry)
    }
}
