import Screenplay

/// A wall's tile keeps its part of the wall on its panel when the
/// compositor changes the screen under it: a new mode, or a turn.
extension PlayPanel {
    /// The screen changed mode, scale or transform. Where the wall leaves
    /// the panel's pixels to the screen, the tile's part was worked out
    /// from the mode it had then; it is worked out again from the mode it
    /// has now, so a tile that came up in one mode and was set to another
    /// (a screen plugged in, then given its mode) shows its part one to one
    /// rather than the old part scaled. The item on screen stays.
    func refitTile() {
        guard let old = programme.assigned.entry.tile, let screen = scene?.screen,
            let fresh = runner.assignment(for: screen)?.tile, fresh != old
        else { return }
        var entry = programme.assigned.entry
        entry.tile = fresh
        programme.assigned = PanelAssignment(entry)
    }

    /// Quarter turns clockwise that undo the compositor's turn of a tile's
    /// output. A tile's part belongs to the panel as the wall file hangs it
    /// (its `rotate`): an output turned in the compositor (`transform 90`)
    /// would otherwise squeeze a landscape part into a portrait surface, and
    /// the wall's seams would no longer meet. wl_output's transform 90 turns
    /// the surface 90 degrees counter-clockwise onto the panel, so the part
    /// is drawn turned one quarter clockwise (sway's `transform 90`, a
    /// clockwise turn, reaches clients as 270). A mirrored transform is not
    /// undone (layers turn, they do not mirror). Panels that are not tiles
    /// follow the compositor: their content is upright as it says.
    var turnsUndoingTheOutput: Int {
        guard programme.assigned.entry.tile != nil, let transform = scene?.screen?.transform else { return 0 }
        switch transform {
        case .rotated90: return 1
        case .rotated180: return 2
        case .rotated270: return 3
        case .normal, .flipped, .flipped90, .flipped180, .flipped270: return 0
        }
    }
}
