import Rendering

/// An sRGB colour with components from 0 to 1.
public struct RGBColor: Hashable, Sendable, CustomStringConvertible {
    /// The red component, 0 to 1.
    public var red: Double
    /// The green component, 0 to 1.
    public var green: Double
    /// The blue component, 0 to 1.
    public var blue: Double
    /// A colour from its components, each 0 to 1.
    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }
    /// `0xRRGGBB`.
    public init(hex: UInt32) {
        self.init(
            red: Double(hex >> 16 & 0xff) / 255, green: Double(hex >> 8 & 0xff) / 255, blue: Double(hex & 0xff) / 255)
    }
    /// Parses `RRGGBB` or `#RRGGBB`; nil for anything else.
    public init?(parsing text: String) {
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else {
            return nil
        }
        self.init(hex: value)
    }
    /// `0xRRGGBB`, each component rounded to a byte (the inverse of `init(hex:)`).
    public var hex: UInt32 {
        [red, green, blue].reduce(UInt32(0)) { value, component in
            value << 8 | UInt32((min(max(component, 0), 1) * 255).rounded())
        }
    }
    /// `#000000`.
    public static let black = RGBColor(hex: 0x000000)
    /// `#FFFFFF`.
    public static let white = RGBColor(hex: 0xffffff)
    /// `#RRGGBB` in upper case, each component rounded to a byte.
    public var description: String {
        "#"
            + [red, green, blue].map { component in
                let byte = Int((min(max(component, 0), 1) * 255).rounded())
                let text = String(byte, radix: 16, uppercase: true)
                return byte < 16 ? "0" + text : text
            }.joined()
    }
    var rendering: Color { Color(red: red, green: green, blue: blue) }
}
