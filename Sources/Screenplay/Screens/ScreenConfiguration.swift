import Foundation
import WaylandClient

/// A mode asked for by size and, optionally, refresh: `1920x1080`,
/// `1280x720@30`, `1920x1080@59.94Hz` (as `present --mode` and signage
/// panel entries spell it).
public struct ScreenModeRequest: Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Refresh in hertz; nil takes the preferred (else the fastest) mode of that size.
    public var refreshHz: Double?

    /// A request for this size and, optionally, refresh.
    public init(width: Int, height: Int, refreshHz: Double? = nil) {
        self.width = width
        self.height = height
        self.refreshHz = refreshHz
    }

    /// Parses `WxH` or `WxH@HZ` (`Hz` suffix allowed); nil when malformed.
    public init?(parsing text: String) {
        var body = Substring(text.lowercased())
        if body.hasSuffix("hz") { body = body.dropLast(2) }
        let parts = body.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0, w <= 32768, h <= 32768
        else { return nil }
        width = w
        height = h
        if parts.count == 2 {
            guard let hz = Double(parts[1]), hz.isFinite, hz > 0, hz <= 1000 else { return nil }
            refreshHz = hz
        }
    }

    /// `WxH` or `WxH@HZ`, as it parses.
    public var description: String {
        guard let refreshHz else { return "\(width)x\(height)" }
        return "\(width)x\(height)@\(String(format: "%g", refreshHz))Hz"
    }

    /// Millihertz for a custom mode; 0 lets the compositor choose.
    var refreshMilliHz: Int { refreshHz.map { Int(($0 * 1000).rounded()) } ?? 0 }

    /// The listed mode this asks for: same size, and the closest refresh
    /// within half a hertz (without a refresh: the preferred mode of that
    /// size, else the fastest).
    public func match(in modes: [ScreenMode]) -> ScreenMode? {
        let sized = modes.filter { $0.width == width && $0.height == height }
        guard let refreshHz else {
            return sized.first { $0.isPreferred } ?? sized.max { $0.refreshMilliHz < $1.refreshMilliHz }
        }
        let wanted = refreshHz * 1000
        return sized.filter { abs(Double($0.refreshMilliHz) - wanted) < 500 }
            .min { abs(Double($0.refreshMilliHz) - wanted) < abs(Double($1.refreshMilliHz) - wanted) }
    }
}

/// Why a screen's mode or power could not be changed: the screen, what was
/// asked, and the compositor's answer or what is missing.
public struct ScreenConfigurationError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure, for code that reacts differently to each.
    public enum Kind: Sendable, Equatable {
        /// The compositor offers no protocol for it: only its own settings can.
        case unsupported
        /// The mode is not one the screen lists.
        case notListed
        /// The compositor answered `failed` (or `cancelled` twice).
        case refused
        /// The compositor did not confirm the change.
        case unconfirmed
        /// The screen is gone or has no output-management head.
        case unknownScreen
        /// The application shut down or lost the compositor before the answer came.
        case shutDown
    }
    /// What kind of failure.
    public let kind: Kind
    /// One line: the screen, what was asked and why it failed.
    public let description: String
}

extension HeadModeChoice {
    var timing: (Int, Int, Int) {
        switch self {
        case let .listed(mode): (mode.width, mode.height, mode.refreshMilliHz)
        case let .custom(w, h, r): (w, h, r)
        }
    }
}
