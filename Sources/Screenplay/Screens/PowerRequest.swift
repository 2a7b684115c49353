import EventLoop
import WaylandClient

/// A read of a panel's power, or a switch. It is sent once no other power
/// exchange of the application is out for the same screen.
@MainActor
final class PowerRequest: ScreenRequest {
    private weak var app: Application?
    let screen: Screen
    private let wanted: ScreenPowerState?
    private var exchange: PowerExchange?
    private(set) var isStarted = false
    private let refusal: ScreenConfigurationError?
    private let completion: @MainActor (Result<ScreenPowerState?, ScreenConfigurationError>) -> Void

    /// A request `ScreenRequests` starts when the screen is free.
    init(
        app: Application, screen: Screen, wanted: ScreenPowerState?, refusal: ScreenConfigurationError?,
        completion: @escaping @MainActor (Result<ScreenPowerState?, ScreenConfigurationError>) -> Void
    ) {
        self.app = app
        self.screen = screen
        self.wanted = wanted
        self.refusal = refusal
        self.completion = completion
    }

    /// Sends the read or the switch (nothing when refused; a read of a
    /// screen that is gone sends nothing and answers nil).
    func start(nowNs: UInt64) {
        isStarted = true
        guard refusal == nil, screen.isConnected else { return }
        exchange = app?.compositor.powerManager?.exchange(wanted?.powerState, on: screen.output, nowNs: nowNs)
    }

    /// A request waiting for its turn needs no wake-up: it starts when the
    /// one before it ends.
    var deadlineNs: UInt64 { isStarted ? exchange?.deadlineNs ?? 0 : .max }

    func advance(nowNs: UInt64) -> (@MainActor () -> Void)? {
        guard isStarted else { return nil }
        let completion = completion
        guard let exchange else {
            let error =
                refusal
                ?? ScreenConfigurationError(
                    kind: .unsupported,
                    description: CompositorInfo.missingProtocolSentence(
                        "switch a panel on or off", "zwlr_output_power_manager_v1"))
            // A read without the protocol is no error: the power is unknown.
            if wanted == nil && refusal == nil { return { completion(.success(nil)) } }
            return { completion(.failure(error)) }
        }
        guard let answer = exchange.advance(nowNs: nowNs) else { return nil }
        let (screen, wanted) = (screen, self.wanted)
        return {
            guard let wanted else {
                // A read: nil when the compositor answered `failed` or nothing.
                var state: ScreenPowerState?
                if case let .done(read) = answer { state = ScreenPowerState(read) }
                screen.recordPower(state)
                return completion(.success(state))
            }
            switch answer {
            case .done:
                screen.recordPower(wanted)
                completion(.success(wanted))
            case .failed:
                completion(
                    .failure(
                        ScreenConfigurationError(
                            kind: .refused,
                            description:
                                "the compositor answered `failed` to switching screen \(screen.name) \(wanted): it has no power control for this output, another client holds it, or the output went away"
                        )))
            case let .unconfirmed(last):
                screen.powerState = last.map(ScreenPowerState.init)
                completion(
                    .failure(
                        ScreenConfigurationError(
                            kind: .unconfirmed,
                            description:
                                "the compositor did not switch screen \(screen.name) \(wanted): it still reports \(last.map(\.rawValue) ?? "nothing") after 2 s (it could not commit the change; sway 1.7 cannot switch headless or nested outputs off, its log says \"Failed to commit output\")"
                        )))
            }
        }
    }

    func abandon(_ reason: String) -> @MainActor () -> Void {
        exchange?.release()
        let (completion, screen) = (completion, screen)
        let what = wanted.map { "switched \($0)" } ?? "read"
        return {
            completion(
                .failure(
                    ScreenConfigurationError(
                        kind: .shutDown, description: "the power of screen \(screen.name) was not \(what): \(reason)")))
        }
    }
}
