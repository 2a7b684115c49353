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
        let names = Set(screens.map(\.name))
        return (compositor.outputManager?.headInfos ?? []).filter { !names.contains($0.name) }.map(ScreenHead.init)
    }

    /// The head of `screen`, matched by name: the protocol promises a head's
    /// name equals its enabled output's xdg-output name.
    func head(for screen: Screen) -> ScreenHead? {
        guard screen.info.hasConnectorName else { return nil }
        return compositor.outputManager?.head(named: screen.name).map(ScreenHead.init)
    }

    /// The output manager published a new state: give each screen its head
    /// and drop scenes on heads now disabled.
    func headsChanged() {
        var changed: [Screen] = []
        for screen in screens {
            let next = head(for: screen)
            if next != screen.head {
                screen.head = next
                changed.append(screen)
            }
        }
        guard !changed.isEmpty else { return }
        reclassify()
        for screen in changed { onScreenChange?(screen) }
        reconcile()
    }

    /// A sentence for errors and `doctor`: the compositor cannot `what` from
    /// a client without `interface`, and what can (its own settings).
    public static func missingProtocolSentence(_ what: String, _ interface: String) -> String {
        "the compositor does not offer \(interface), so no client can \(what) here; use the compositor's own settings (GNOME Settings > Displays, KDE System Settings > Display, `weston.ini` for weston, cage takes the preferred mode)"
    }

    // MARK: modes

    /// Sets `screen`'s mode as `request` asks, through a test-then-apply
    /// output configuration carrying the current serial (a configuration
    /// cancelled because the state changed meanwhile is re-read and retried
    /// once). A mode the screen does not list is refused, unless it lists
    /// none (virtual outputs): then it is tried as a custom mode. Returns
    /// once the compositor reported the new mode (or after 2 s); scenes on
    /// the screen re-key their display links to its refresh.
    @discardableResult
    public func setMode(_ request: ScreenModeRequest, for screen: Screen) throws(ScreenConfigurationError)
        -> ScreenMode?
    {
        try requireModeControl(screen)
        let modes = screen.availableModes
        let choice: HeadModeChoice
        if modes.isEmpty {
            choice = .custom(width: request.width, height: request.height, refreshMilliHz: request.refreshMilliHz)
        } else if let mode = request.match(in: modes) {
            choice = .listed(mode.outputMode)
        } else {
            throw ScreenConfigurationError(
                kind: .notListed,
                description:
                    "screen \(screen.name) does not list the mode \(request); it lists \(modes.map { "\($0)" }.joined(separator: ", "))"
            )
        }
        return try configure(screen, choice, asked: request.description)
    }

    /// Sets exactly `mode` (as read from `currentMode` earlier, to restore it):
    /// the listed mode of that timing, else a custom mode.
    @discardableResult
    public func setMode(_ mode: ScreenMode, for screen: Screen) throws(ScreenConfigurationError) -> ScreenMode? {
        try requireModeControl(screen)
        let listed = screen.availableModes.contains {
            $0.width == mode.width && $0.height == mode.height && $0.refreshMilliHz == mode.refreshMilliHz
        }
        let choice: HeadModeChoice =
            listed
            ? .listed(mode.outputMode)
            : .custom(width: mode.width, height: mode.height, refreshMilliHz: mode.refreshMilliHz)
        return try configure(screen, choice, asked: mode.description)
    }

    private func requireModeControl(_ screen: Screen) throws(ScreenConfigurationError) {
        guard canSetModes else {
            throw ScreenConfigurationError(
                kind: .unsupported,
                description: Self.missingProtocolSentence("change a screen's mode", "zwlr_output_manager_v1"))
        }
        guard screen.isConnected, screen.head != nil else {
            throw ScreenConfigurationError(
                kind: .unknownScreen,
                description:
                    "screen \(screen.name) has no output-management head (it is gone, or the compositor names it differently); its mode cannot be set"
            )
        }
    }

    private func configure(_ screen: Screen, _ choice: HeadModeChoice, asked: String) throws(ScreenConfigurationError)
        -> ScreenMode?
    {
        guard let manager = compositor.outputManager else {
            throw ScreenConfigurationError(kind: .unsupported, description: "")
        }
        let shown = Set(screens.filter(\.isEnabled).map(\.name))
        for (step, test) in [("test", true), ("apply", false)] {
            let serialBefore = manager.serial
            var answer = manager.configure(headNamed: screen.name, choice: choice, test: test, shownNames: shown)
            if answer == .cancelled {
                // The state changed after the serial we carried (a hot-plug,
                // another tool): read the new state and try once more.
                manager.waitForNewerSerial(than: serialBefore)
                answer = manager.configure(headNamed: screen.name, choice: choice, test: test, shownNames: shown)
            }
            switch answer {
            case .succeeded:
                continue
            case .failed:
                throw ScreenConfigurationError(
                    kind: .refused,
                    description:
                        "the compositor refused the mode \(asked) (\(choice)) for screen \(screen.name): its \(step) answered `failed`; the mode stays \(screen.currentMode.map { "\($0)" } ?? "unknown")"
                )
            case .cancelled:
                throw ScreenConfigurationError(
                    kind: .refused,
                    description:
                        "the compositor cancelled the mode \(asked) for screen \(screen.name) twice (its \(step) answered `cancelled`: the output configuration kept changing, e.g. another tool such as kanshi is changing it); try again"
                )
            case .noAnswer:
                throw ScreenConfigurationError(
                    kind: .unconfirmed,
                    description:
                        "the compositor did not answer the \(step) of the mode \(asked) for screen \(screen.name) within 3 s"
                )
            }
        }
        // The compositor announces the new mode on wl_output; wait for it so
        // a scene connecting next is made at the new size.
        let (w, h, r) = choice.timing
        _ = connection.dispatch(
            until: {
                guard let mode = screen.output.info?.currentMode else { return false }
                return mode.width == w && mode.height == h && (r == 0 || abs(mode.refreshMilliHz - r) < 1000)
            }, timeoutMs: 2000)
        // Hand the new mode to the screen and its scenes now (a handler that
        // called this gets it when its batch ends).
        connection.dispatchPending()
        return screen.currentMode
    }

    // MARK: power

    /// Reads the panel's power now (a short-lived `zwlr_output_power_v1`,
    /// so other tools such as wlopm keep working). Nil without the protocol
    /// or when the compositor answers `failed`.
    @discardableResult
    public func powerState(of screen: Screen) -> ScreenPowerState? {
        guard let manager = compositor.powerManager, screen.isConnected else { return nil }
        let state = manager.state(of: screen.output).map(ScreenPowerState.init)
        if state != screen.powerState {
            screen.powerState = state
            powerChanged(screen)
        }
        return state
    }

    /// Switches the panel on or off and waits for the compositor to confirm
    /// it. Scenes on a panel that is off ask for no frames and report no
    /// stall; they draw their current content when it comes back on.
    public func setPower(_ state: ScreenPowerState, for screen: Screen) throws(ScreenConfigurationError) {
        guard let manager = compositor.powerManager else {
            throw ScreenConfigurationError(
                kind: .unsupported,
                description: Self.missingProtocolSentence("switch a panel on or off", "zwlr_output_power_manager_v1"))
        }
        guard screen.isConnected else {
            throw ScreenConfigurationError(kind: .unknownScreen, description: "screen \(screen.name) is gone")
        }
        switch manager.set(state.powerState, on: screen.output) {
        case .done:
            if screen.powerState != state {
                screen.powerState = state
                powerChanged(screen)
            }
        case .failed:
            throw ScreenConfigurationError(
                kind: .refused,
                description:
                    "the compositor answered `failed` to switching screen \(screen.name) \(state): it has no power control for this output, another client holds it, or the output went away"
            )
        case let .unconfirmed(last):
            screen.powerState = last.map(ScreenPowerState.init)
            throw ScreenConfigurationError(
                kind: .unconfirmed,
                description:
                    "the compositor did not switch screen \(screen.name) \(state): it still reports \(last.map(\.rawValue) ?? "nothing") after 2 s (it could not commit the change; sway 1.7 cannot switch headless or nested outputs off, its log says \"Failed to commit output\")"
            )
        }
    }

    private func powerChanged(_ screen: Screen) {
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
