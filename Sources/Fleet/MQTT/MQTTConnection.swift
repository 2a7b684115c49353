internal import CMosquitto
import Dispatch
import Foundation
import Synchronization

/// One connection to a broker through libmosquitto, driven from the main
/// queue and never blocking it: the socket and the keepalive are watched by
/// `MQTTSocketWatch`, and the connect, whose name lookup can take seconds,
/// runs on a utility queue while the main thread leaves the handle alone.
/// libmosquitto's callbacks only post to an `MQTTInbox` read after each call
/// returns, so nothing runs inside them. Connection losses are retried as
/// `MQTTRetry` says (after 1 s, doubling to 60 s, with jitter).
@MainActor
final class MQTTConnection {
    struct Settings: Sendable {
        var broker: MQTTBroker
        var clientID: String
        var username: String?
        var password: String?
        /// PEM CA certificates for `mqtts://` instead of the system's store.
        var caFile: String?
        var keepaliveSeconds: Int32 = 30
        /// Published by the broker, retained, when the connection drops
        /// without a DISCONNECT (the box lost power or was killed).
        var will: (topic: String, payload: String)?
        /// Topics subscribed at QoS 1 on every connect.
        var subscriptions: [String] = []
    }

    enum Event {
        case connected
        /// The reason, and the seconds until the next try.
        case lost(reason: String, retryIn: Double)
        case message(topic: String, payload: Data, retained: Bool)
        /// The broker acknowledged the QoS 1 message `publish` numbered `mid`.
        case published(mid: Int32)
    }

    /// The state for `ctl status`.
    enum State: String {
        case connecting, connected, waiting, stopped
    }

    let settings: Settings
    var onEvent: ((Event) -> Void)?
    private(set) var state = State.connecting
    private(set) var lastError: String?
    private let handle: MQTTHandle
    private let inbox = MQTTInbox()
    /// The connected socket's watch; nil while not connected.
    private var watch: MQTTSocketWatch?
    private let retry = MQTTRetry()
    /// The connect runs off the main thread: the handle is not touched meanwhile.
    private var connectInFlight = false
    /// The broker's refusal (CONNACK), kept for the disconnect that follows it.
    private var refusal: String?

    /// Makes the client (libmosquitto's handle with the credentials, TLS and
    /// will set); `start()` connects.
    /// - Throws: what libmosquitto refused, such as a CA file it cannot read.
    init(_ settings: Settings) throws(FleetFailure) {
        self.settings = settings
        handle = try MQTTHandle(settings, inbox: inbox)
    }

    isolated deinit {
        stopSources()
        // A connect still running owns the handle; it is destroyed when it returns (connectReturned).
        if !connectInFlight { mosquitto_destroy(handle.pointer) }
    }

    /// Connects in the background; events come through `onEvent`.
    func start() {
        guard state != .stopped else { return }
        connect()
    }

    /// Publishes when connected: the message's number, which `.published`
    /// names once the broker has it; nil when not connected (the caller
    /// keeps what must not be lost). A message handed over stays
    /// libmosquitto's until acknowledged: a lost connection does not lose
    /// it, libmosquitto sends it again after the next connect, before
    /// anything published later.
    @discardableResult
    func publish(_ topic: String, _ payload: Data, qos: Int32 = 1, retain: Bool = false) -> Int32? {
        guard state == .connected else { return nil }
        var mid: Int32 = 0
        let rc = payload.withUnsafeBytes { bytes in
            mosquitto_publish(handle.pointer, &mid, topic, Int32(bytes.count), bytes.baseAddress, qos, retain)
        }
        pumpAfterCall()
        return rc == MOSQ_ERR_SUCCESS.rawValue ? mid : nil
    }

    /// Before a clean stop: runs the connection on this thread until `done`
    /// (the acknowledgements the caller waits for arrived), the connection
    /// went, or `seconds` passed, so that a restart does not send again
    /// what the broker already has.
    func settle(seconds: Double, until done: () -> Bool) {
        let deadline = DispatchTime.now() + seconds
        while state == .connected, !done(), DispatchTime.now() < deadline {
            var watched = pollfd(
                fd: mosquitto_socket(handle.pointer),
                events: Int16(POLLIN) | (mosquitto_want_write(handle.pointer) ? Int16(POLLOUT) : 0), revents: 0)
            guard watched.fd >= 0, poll(&watched, 1, 50) >= 0 || errno == EINTR else { return }
            if watched.revents & Int16(POLLOUT) != 0 { call { mosquitto_loop_write($0, 1) } }
            if watched.revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 { call { mosquitto_loop_read($0, 1) } }
        }
    }

    /// Says goodbye (the broker then discards the will; publish what the will
    /// would have said first) and stops for good.
    func stop() {
        guard state != .stopped else { return }
        let wasConnected = state == .connected
        state = .stopped
        retry.cancel()
        if wasConnected, !connectInFlight {
            _ = mosquitto_disconnect(handle.pointer)
            _ = mosquitto_loop_write(handle.pointer, 1)
        }
        stopSources()
        _ = inbox.take()
    }

    // MARK: connecting

    private func connect() {
        guard !connectInFlight else { return }
        state = .connecting
        connectInFlight = true
        let handle = self.handle
        let broker = settings.broker
        let keepalive = settings.keepaliveSeconds
        DispatchQueue.global(qos: .utility).async { [weak self] in
            // Name lookup and the socket's non-blocking connect; the main
            // thread does not touch the handle until this returns.
            let rc = mosquitto_connect_async(handle.pointer, broker.host, Int32(broker.port), keepalive)
            let system = errno  // this thread's: the main thread's errno would be another call's
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    guard let self else {
                        mosquitto_destroy(handle.pointer)
                        return
                    }
                    self.connectReturned(rc, errno: system)
                }
            }
        }
    }

    private func connectReturned(_ rc: Int32, errno system: Int32) {
        connectInFlight = false
        guard state != .stopped else { return }
        // MOSQ_ERR_CONN_PENDING (-1): the TCP connect is under way.
        guard rc <= MOSQ_ERR_SUCCESS.rawValue else {
            return lost("cannot connect to \(settings.broker.description): \(MosquittoWords.reason(rc, errno: system))")
        }
        let fd = mosquitto_socket(handle.pointer)
        guard fd >= 0 else { return lost("cannot connect to \(settings.broker.description): no socket") }
        do {
            watch = try MQTTSocketWatch(socket: fd) { [weak self] ready in
                switch ready {
                case .readable: self?.call { mosquitto_loop_read($0, 1) }
                case .writable: self?.call { mosquitto_loop_write($0, 1) }
                case .second: self?.call { mosquitto_loop_misc($0) }
                }
            }
        } catch {
            return lost(error.description)
        }
        pumpAfterCall()
    }

    /// One libmosquitto step, then what it reported.
    private func call(_ step: (OpaquePointer) -> Int32) {
        guard state != .stopped, !connectInFlight, watch != nil else { return }
        let rc = step(handle.pointer)
        pumpAfterCall()
        // A step that failed without a disconnect callback (no socket any more).
        if watch != nil, rc != MOSQ_ERR_SUCCESS.rawValue, mosquitto_socket(handle.pointer) < 0 {
            lost("lost \(settings.broker.description): \(MosquittoWords.reason(rc))")
        }
    }

    /// Handles the inbox and watches for writability while libmosquitto has output waiting.
    private func pumpAfterCall() {
        for event in inbox.take() {
            switch event {
            case let .connect(rc):
                if rc == 0 {
                    state = .connected
                    retry.reset()
                    lastError = nil
                    for topic in settings.subscriptions {
                        _ = mosquitto_subscribe(handle.pointer, nil, topic, 1)
                    }
                    onEvent?(.connected)
                } else {
                    refusal =
                        "\(settings.broker.description) refused the connection: \(MosquittoWords.connackReason(rc))"
                }
            case let .disconnect(rc):
                let reason =
                    refusal ?? "lost \(settings.broker.description): \(rc == 0 ? "closed" : MosquittoWords.reason(rc))"
                refusal = nil
                lost(reason)
            case let .message(topic, payload, retained):
                if state == .connected { onEvent?(.message(topic: topic, payload: payload, retained: retained)) }
            case let .published(mid):
                onEvent?(.published(mid: mid))
            }
        }
        guard state != .stopped, let watch else { return }
        watch.watchWrites(mosquitto_want_write(handle.pointer))
    }

    private func lost(_ reason: String) {
        guard state != .stopped else { return }
        stopSources()
        state = .waiting
        lastError = reason
        let delay = retry.nextDelay()
        onEvent?(.lost(reason: reason, retryIn: delay))
        retry.schedule(after: delay) { [weak self] in self?.connect() }
    }

    private func stopSources() {
        watch?.cancel()
        watch = nil
    }
}
