import EventLoop
import WaylandClient

/// A mode change: a test, then an apply, each carrying the serial of the
/// heads' last state (a configuration cancelled because that state changed
/// meanwhile waits for the newer state and is sent once more), then the
/// wl_output's new mode.
@MainActor
final class ModeChange: ScreenRequest {
    private weak var app: Application?
    private let screen: Screen
    private let choice: HeadModeChoice
    private let asked: String
    private let completion: @MainActor (Result<ScreenMode?, ScreenConfigurationError>) -> Void

    private enum Step {
        /// Refused before anything was sent.
        case refused(ScreenConfigurationError)
        /// A configuration sent, waiting for its answer.
        case answer(test: Bool, retried: Bool, Configuration, serial: UInt32?)
        /// Cancelled once: waiting for the state that superseded ours.
        case newerState(test: Bool, serial: UInt32?)
        /// Applied: waiting for wl_output to report the new mode.
        case newMode
    }
    private var step: Step
    private(set) var deadlineNs: UInt64 = 0

    /// The compositor answers a configuration within 3 s, announces the
    /// state that cancelled one within 1 s, and shows the new mode on
    /// wl_output within 2 s of applying it.
    private static let answerTimeoutNs: UInt64 = 3_000_000_000
    private static let newerStateTimeoutNs: UInt64 = 1_000_000_000
    private static let newModeTimeoutNs: UInt64 = 2_000_000_000

    /// Sends the test at once (`refusal` instead, when the caller found the
    /// request invalid).
    init(
        app: Application, screen: Screen, choice: HeadModeChoice, asked: String,
        refusal: ScreenConfigurationError?,
        completion: @escaping @MainActor (Result<ScreenMode?, ScreenConfigurationError>) -> Void
    ) {
        self.app = app
        self.screen = screen
        self.choice = choice
        self.asked = asked
        self.completion = completion
        step = .refused(refusal ?? ScreenConfigurationError(kind: .unconfirmed, description: ""))
        if refusal == nil { step = send(test: true, retried: false, nowNs: monotonicNanoseconds()) }
    }

    private func send(test: Bool, retried: Bool, nowNs: UInt64) -> Step {
        let stepName = test ? "test" : "apply"
        guard let app, let manager = app.compositor.outputManager else {
            return .refused(
                ScreenConfigurationError(
                    kind: .unsupported,
                    description: CompositorInfo.missingProtocolSentence(
                        "change a screen's mode", "zwlr_output_manager_v1")))
        }
        let serial = manager.serial
        let shown = Set(app.screens.filter(\.isEnabled).map(\.name))
        guard screen.isConnected,
            let configuration = manager.send(headNamed: screen.name, choice: choice, test: test, shownNames: shown)
        else {
            return .refused(
                ScreenConfigurationError(
                    kind: .unknownScreen,
                    description:
                        "could not send the \(stepName) of the mode \(asked) for screen \(screen.name): the screen or its output-management head is gone, or the compositor stopped output management"
                ))
        }
        deadlineNs = nowNs + Self.answerTimeoutNs
        return .answer(test: test, retried: retried, configuration, serial: serial)
    }

    func advance(nowNs: UInt64) -> (@MainActor () -> Void)? {
        switch step {
        case let .refused(error):
            return finish(.failure(error))
        case let .answer(test, retried, configuration, serial):
            let stepName = test ? "test" : "apply"
            guard let answer = configuration.answer else {
                guard nowNs >= deadlineNs else { return nil }
                configuration.release()
                return finish(
                    .failure(
                        ScreenConfigurationError(
                            kind: .unconfirmed,
                            description:
                                "the compositor did not answer the \(stepName) of the mode \(asked) for screen \(screen.name) within 3 s"
                        )))
            }
            configuration.release()
            switch answer {
            case .succeeded where test:
                step = send(test: false, retried: false, nowNs: nowNs)
            case .succeeded:
                step = .newMode
                deadlineNs = nowNs + Self.newModeTimeoutNs
            case .failed:
                return finish(
                    .failure(
                        ScreenConfigurationError(
                            kind: .refused,
                            description:
                                "the compositor refused the mode \(asked) (\(choice)) for screen \(screen.name): its \(stepName) answered `failed`; the mode stays \(screen.currentMode.map { "\($0)" } ?? "unknown")"
                        )))
            case .cancelled where retried:
                return finish(
                    .failure(
                        ScreenConfigurationError(
                            kind: .refused,
                            description:
                                "the compositor cancelled the mode \(asked) for screen \(screen.name) twice (its \(stepName) answered `cancelled`: the output configuration kept changing, e.g. another tool such as kanshi is changing it); try again"
                        )))
            case .cancelled:
                // The state changed after the serial we carried (a hot-plug,
                // another tool): wait for the new state and try once more.
                step = .newerState(test: test, serial: serial)
                deadlineNs = nowNs + Self.newerStateTimeoutNs
            }
            // The next step may already be answered in this batch.
            return advance(nowNs: nowNs)
        case let .newerState(test, serial):
            guard app?.compositor.outputManager?.serial != serial || nowNs >= deadlineNs else { return nil }
            step = send(test: test, retried: true, nowNs: nowNs)
            return advance(nowNs: nowNs)
        case .newMode:
            // The new mode reaches the screen and its scenes' display links
            // with the wl_output events of a batch, before this runs.
            let (w, h, r) = choice.timing
            let shown = screen.output.info?.currentMode.map {
                $0.width == w && $0.height == h && (r == 0 || abs($0.refreshMilliHz - r) < 1000)
            }
            guard shown == true || nowNs >= deadlineNs else { return nil }
            return finish(.success(screen.currentMode))
        }
    }

    private func finish(_ result: Result<ScreenMode?, ScreenConfigurationError>) -> @MainActor () -> Void {
        let completion = completion
        return { completion(result) }
    }

    func abandon(_ reason: String) -> @MainActor () -> Void {
        if case let .answer(_, _, configuration, _) = step { configuration.release() }
        return finish(
            .failure(
                ScreenConfigurationError(
                    kind: .shutDown, description: "the mode \(asked) for screen \(screen.name) was not set: \(reason)"))
        )
    }
}
