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

extension Application {
    /// Whether the compositor lets clients change modes (`zwlr_output_manager_v1`).
    public var canSetModes: Bool { compositor.outputManager != nil }
    /// Whether the compositor lets clients switch panels (`zwlr_output_power_manager_v1`).
    public var canControlPower: Bool { compositor.powerManager != nil }

    /// Heads the compositor announces that are no Screen: outputs it has
    /// disabled (and so withdrew from wl_output). Empty without
    /// `zwlr_output_manager_v1`.
    public var disabledHeads: [ScreenHead] {
        screenRegistry.disabledHeads(in: compositor.outputManager)
    }

    /// A sentence for errors and `doctor`: the compositor cannot `what` from
    /// a client without `interface`, and what can (its own settings).
    public static func missingProtocolSentence(_ what: String, _ interface: String) -> String {
        "the compositor does not offer \(interface), so no client can \(what) here; use the compositor's own settings (GNOME Settings > Displays, KDE System Settings > Display, `weston.ini` for weston, cage takes the preferred mode)"
    }

    // MARK: modes
    //
    // Mode changes, power changes and power reads are requests: each call
    // sends what it can and returns at once; the compositor's answers
    // arrive as events, and the result is handed over after a later batch
    // (never inside the call, so a call from a handler or a draw is safe).

    /// Sets `screen`'s mode as `request` asks, through a test-then-apply
    /// output configuration carrying the current serial (a configuration
    /// cancelled because the state changed meanwhile is retried once with
    /// the newer state). A mode the screen does not list is refused, unless
    /// it lists none (virtual outputs): then it is tried as a custom mode.
    ///
    /// Returns at once. `completion` runs after a later batch, once the
    /// compositor reported the new mode on the screen (or 2 s after it
    /// confirmed the apply), with the screen's mode then; by that time
    /// the scenes on the screen have re-keyed their display links to its
    /// refresh. Every refusal arrives there too, as a
    /// `ScreenConfigurationError`.
    public func setMode(
        _ request: ScreenModeRequest, for screen: Screen,
        completion: @escaping @MainActor (Result<ScreenMode?, ScreenConfigurationError>) -> Void
    ) {
        let (choice, refusal) = ScreenRequestCheck.choice(for: request, on: screen, canSetModes: canSetModes)
        screenRequests.add(
            ModeChange(
                app: self, screen: screen, choice: choice, asked: request.description, refusal: refusal,
                completion: completion), self)
    }

    /// Sets `screen`'s mode as `request` asks and returns the screen's mode
    /// once the compositor reported it (see `setMode(_:for:completion:)`).
    @discardableResult
    public func setMode(_ request: ScreenModeRequest, for screen: Screen) async throws(ScreenConfigurationError)
        -> ScreenMode?
    {
        try await withCheckedContinuation { continuation in
            setMode(request, for: screen) { continuation.resume(returning: $0) }
        }.get()
    }

    /// Sets exactly `mode` (as read from `currentMode` earlier, to restore
    /// it): the listed mode of that timing, else a custom mode. Returns at
    /// once; `completion` runs as for `setMode(_:for:completion:)` with a
    /// `ScreenModeRequest`.
    public func setMode(
        _ mode: ScreenMode, for screen: Screen,
        completion: @escaping @MainActor (Result<ScreenMode?, ScreenConfigurationError>) -> Void
    ) {
        let (choice, refusal) = ScreenRequestCheck.choice(for: mode, on: screen, canSetModes: canSetModes)
        screenRequests.add(
            ModeChange(
                app: self, screen: screen, choice: choice, asked: mode.description, refusal: refusal,
                completion: completion), self)
    }

    /// Sets exactly `mode` and returns the screen's mode once the
    /// compositor reported it (see `setMode(_:for:completion:)`).
    @discardableResult
    public func setMode(_ mode: ScreenMode, for screen: Screen) async throws(ScreenConfigurationError)
        -> ScreenMode?
    {
        try await withCheckedContinuation { continuation in
            setMode(mode, for: screen) { continuation.resume(returning: $0) }
        }.get()
    }

    // MARK: power

    /// Reads the panel's power (a short-lived `zwlr_output_power_v1`, so
    /// other tools such as wlopm keep working). Returns at once;
    /// `completion` runs after a later batch with the state, nil without
    /// the protocol, for a screen that is gone, or when the compositor
    /// answered `failed` or nothing within 1 s. A state that differs from
    /// `Screen.powerState` is recorded there first, and scenes on the
    /// screen and `onScreenChange` hear of it.
    public func powerState(of screen: Screen, completion: @escaping @MainActor (ScreenPowerState?) -> Void) {
        screenRequests.add(
            PowerRequest(app: self, screen: screen, wanted: nil, refusal: nil) { result in
                completion((try? result.get()) ?? nil)
            }, self)
    }

    /// Reads the panel's power and returns it once the compositor answered
    /// (see `powerState(of:completion:)`).
    @discardableResult
    public func powerState(of screen: Screen) async -> ScreenPowerState? {
        await withCheckedContinuation { continuation in
            powerState(of: screen) { continuation.resume(returning: $0) }
        }
    }

    /// Switches the panel on or off. Returns at once; `completion` runs
    /// after a later batch, once the compositor confirmed the new state
    /// (or answered `failed`, or 2 s passed without it). Scenes on a panel
    /// that is off ask for no frames and report no stall; they draw their
    /// current content when it comes back on.
    public func setPower(
        _ state: ScreenPowerState, for screen: Screen,
        completion: @escaping @MainActor (Result<Void, ScreenConfigurationError>) -> Void
    ) {
        let refusal = ScreenRequestCheck.powerRefusal(screen, canControlPower: canControlPower)
        screenRequests.add(
            PowerRequest(app: self, screen: screen, wanted: state, refusal: refusal) { result in
                completion(result.map { _ in () })
            }, self)
    }

    /// Switches the panel on or off and returns once the compositor
    /// confirmed it (see `setPower(_:for:completion:)`).
    public func setPower(_ state: ScreenPowerState, for screen: Screen) async throws(ScreenConfigurationError) {
        try await withCheckedContinuation { continuation in
            setPower(state, for: screen) { continuation.resume(returning: $0) }
        }.get()
    }

    /// A power read or switch answered: record the state, and tell the
    /// screen's scenes and `onScreenChange` when it changed.
    func recordPower(_ state: ScreenPowerState?, of screen: Screen) {
        guard state != screen.powerState else { return }
        screen.powerState = state
        for scene in scenes where scene.screen === screen { scene.screenPowerChanged() }
        onScreenChange?(screen)
    }
}

extension HeadModeChoice {
    var timing: (Int, Int, Int) {
        switch self {
        case let .listed(mode): (mode.width, mode.height, mode.refreshMilliHz)
        case let .custom(w, h, r): (w, h, r)
        }
    }
}
