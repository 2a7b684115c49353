import Rendering

/// A disc of colour, or a rectangle of it with the disc left out, blended
/// over what is drawn at an opacity, the disc's edge anti-aliased by the
/// quad renderer. The calls that take it, with what they promise, are
/// `DrawingContext.fillCircle` and `fillOutsideCircle`.
@MainActor
struct DiscFill {
    let centerX: Double, centerY: Double, radius: Double
    let color: RGBColor, opacity: Double

    /// The disc, drawn in the square of pixels around it.
    func disc(on context: DrawingContext) throws {
        guard radius > 0 else { return }
        let left = Int((centerX - radius - 1).rounded(.down)), top = Int((centerY - radius - 1).rounded(.down))
        let side = Int((2 * radius + 2).rounded(.up)) + 1
        try fill(PixelRect(x: left, y: top, width: side, height: side), outside: false, on: context)
    }

    /// All of `rect` but the disc.
    func outside(in rect: PixelRect, on context: DrawingContext) throws {
        try fill(rect, outside: true, on: context)
    }

    private func fill(_ rect: PixelRect, outside: Bool, on context: DrawingContext) throws {
        var tinted = color.rendering
        tinted.alpha = min(max(opacity, 0), 1)
        try context.resources.quads().fill(
            rect, color: tinted, circleX: centerX, circleY: centerY, radius: radius, outside: outside,
            on: context.target)
    }
}
