extension QuadRenderer {
    /// How a quad samples its texture: an image (row 0 on top) or a
    /// rendered layer (row 0 at the bottom), turned by quarter turns.
    package struct TextureMapping: Equatable, Sendable {
        var origin: (Float, Float)
        var across: (Float, Float)
        var up: (Float, Float)
        package static let image = TextureMapping(origin: (0, 1), across: (1, 0), up: (0, -1))
        package static let layer = TextureMapping(origin: (0, 0), across: (1, 0), up: (0, 1))

        /// A layer shown turned clockwise by `quarterTurns` × 90° (the
        /// layer was drawn at the turned size: width and height swapped for
        /// odd turns).
        package static func layer(turnedClockwise quarterTurns: Int) -> TextureMapping {
            switch ((quarterTurns % 4) + 4) % 4 {
            // Destination (x right, y up); the layer's content turned
            // clockwise means its "up" points along the destination's +x.
            case 1: TextureMapping(origin: (1, 0), across: (0, 1), up: (-1, 0))
            case 2: TextureMapping(origin: (1, 1), across: (-1, 0), up: (0, -1))
            case 3: TextureMapping(origin: (0, 1), across: (0, -1), up: (1, 0))
            default: .layer
            }
        }

        package static func == (a: TextureMapping, b: TextureMapping) -> Bool {
            a.origin == b.origin && a.across == b.across && a.up == b.up
        }
    }
}
