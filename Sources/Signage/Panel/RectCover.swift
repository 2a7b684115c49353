public import Screenplay

extension SceneRect {
    /// Whether `others` together cover all of this rectangle (an empty one
    /// is covered): a layout's region hidden, within a repaint, by the
    /// opaque regions drawn above it need not be drawn.
    public func isCovered(by others: some Sequence<SceneRect>) -> Bool {
        var uncovered = isEmpty ? [] : [self]
        for cover in others where !cover.isEmpty {
            uncovered = uncovered.flatMap { $0.subtracting(cover) }
            if uncovered.isEmpty { return true }
        }
        return uncovered.isEmpty
    }

    /// What is left of this rectangle outside `cover`: up to four
    /// rectangles (the bands above and below it, then left and right).
    private func subtracting(_ cover: SceneRect) -> [SceneRect] {
        let overlap = intersection(cover)
        guard !overlap.isEmpty else { return [self] }
        let pieces = [
            SceneRect(x: x, y: y, width: width, height: overlap.y - y),
            SceneRect(
                x: x, y: overlap.y + overlap.height, width: width, height: y + height - overlap.y - overlap.height),
            SceneRect(x: x, y: overlap.y, width: overlap.x - x, height: overlap.height),
            SceneRect(
                x: overlap.x + overlap.width, y: overlap.y, width: x + width - overlap.x - overlap.width,
                height: overlap.height),
        ]
        return pieces.filter { !$0.isEmpty }
    }
}
