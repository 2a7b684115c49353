import CWayland
import CWaylandProtocols

/// What one `zwlr_output_head_v1` said, as of the manager's last `done`:
/// the output device as wlr-randr and kanshi see it, listed even while
/// disabled.
package struct HeadInfo: Hashable, Sendable {
    /// Connector name; the same as the wl_output's when the head is enabled.
    package var name = ""
    package var description = ""
    /// Empty when the compositor does not say (manager version 1, virtual outputs).
    package var make = ""
    package var model = ""
    /// The panel's serial number, when the compositor knows one.
    package var serialNumber: String?
    package var physicalWidthMillimeters = 0
    package var physicalHeightMillimeters = 0
    /// Every mode the head supports, in the order announced. Virtual
    /// outputs (headless, nested) may list none and take custom modes.
    package var modes: [OutputMode] = []
    package var currentMode: OutputMode?
    /// Whether the head is part of the compositor space.
    package var isEnabled = false
    package var x = 0
    package var y = 0
    package var transform: OutputTransform = .normal
    package var scale = 1.0
    /// Whether adaptive sync (VRR) is on; nil before manager version 4.
    package var adaptiveSync: Bool?

    package init() {}
}

/// One `zwlr_output_mode_v1`.
@MainActor
final class HeadMode {
    let proxy: OpaquePointer
    var width = 0
    var height = 0
    var refreshMilliHz = 0
    var isPreferred = false
    weak var head: Head?

    init(proxy: OpaquePointer, head: Head) {
        self.proxy = proxy
        self.head = head
        zwlr_output_mode_v1_add_listener(proxy, &modeListener, userData(self))
    }

    var mode: OutputMode {
        OutputMode(width: width, height: height, refreshMilliHz: refreshMilliHz, isPreferred: isPreferred)
    }

    func destroy(version: UInt32) {
        if version >= 3 { zwlr_output_mode_v1_release(proxy) } else { wl_proxy_destroy(proxy) }
    }
}

/// One `zwlr_output_head_v1`. Events accumulate here; the manager's `done`
/// publishes them as `info`.
@MainActor
package final class Head {
    let proxy: OpaquePointer
    private(set) var modes: [HeadMode] = []
    private var currentModeObject: HeadMode?
    private var building = HeadInfo()
    /// The description as of the last `done`.
    package private(set) var info: HeadInfo?
    private(set) var isFinished = false
    private let version: UInt32

    init(proxy: OpaquePointer, version: UInt32) {
        self.proxy = proxy
        self.version = version
        zwlr_output_head_v1_add_listener(proxy, &headListener, userData(self))
    }

    func handle(_ event: HeadEvent) {
        switch event {
        case let .name(n): building.name = n
        case let .description(d): building.description = d
        case let .physicalSize(w, h):
            building.physicalWidthMillimeters = w
            building.physicalHeightMillimeters = h
        case let .mode(proxy): modes.append(HeadMode(proxy: proxy, head: self))
        case let .enabled(on):
            building.isEnabled = on
            // A disabled head has no current mode until it is enabled again.
            if !on { currentModeObject = nil }
        case let .currentMode(proxy): currentModeObject = modes.first { $0.proxy == proxy }
        case let .position(x, y):
            building.x = x
            building.y = y
        case let .transform(t): building.transform = OutputTransform(rawValue: t) ?? .normal
        case let .scale(s): building.scale = s
        case .finished: isFinished = true
        case let .make(m): building.make = m
        case let .model(m): building.model = m
        case let .serialNumber(s): building.serialNumber = s
        case let .adaptiveSync(on): building.adaptiveSync = on
        }
    }

    func modeFinished(_ mode: HeadMode) {
        modes.removeAll { $0 === mode }
        if currentModeObject === mode { currentModeObject = nil }
        // Released after the batch (`releaseRetired`), never in a listener.
        retiredModes.append(mode)
    }

    /// Modes the compositor finished, waiting to be released.
    private var retiredModes: [HeadMode] = []

    func releaseRetired() {
        for mode in retiredModes { mode.destroy(version: version) }
        retiredModes.removeAll()
    }

    /// Publishes the accumulated events (the manager's `done`).
    func publish() {
        var next = building
        // sway 1.7 announces a mode without a size for outputs that run a
        // custom mode (headless, nested): it describes nothing, so it is
        // left out, and such heads list no modes.
        next.modes = modes.filter { $0.width > 0 && $0.height > 0 }.map(\.mode)
        next.currentMode = currentModeObject.flatMap { $0.width > 0 ? $0.mode : nil }
        info = next
    }

    /// The mode object with exactly this size and refresh, if the head lists one.
    func modeObject(matching mode: OutputMode) -> OpaquePointer? {
        modes.first { $0.width == mode.width && $0.height == mode.height && $0.refreshMilliHz == mode.refreshMilliHz }?
            .proxy
    }

    func destroy() {
        releaseRetired()
        for mode in modes { mode.destroy(version: version) }
        modes.removeAll()
        if version >= 3 { zwlr_output_head_v1_release(proxy) } else { wl_proxy_destroy(proxy) }
    }
}

enum HeadEvent {
    case name(String), description(String), physicalSize(Int, Int), mode(OpaquePointer), enabled(Bool)
    case currentMode(OpaquePointer), position(Int, Int), transform(Int32), scale(Double), finished
    case make(String), model(String), serialNumber(String), adaptiveSync(Bool)
}

/// The mode to ask a head for.
package enum HeadModeChoice: Equatable, Sendable, CustomStringConvertible {
    /// One of the modes the head lists (matched by size and refresh).
    case listed(OutputMode)
    /// A mode the head does not list; refresh 0 lets the compositor choose.
    case custom(width: Int, height: Int, refreshMilliHz: Int)

    package var description: String {
        switch self {
        case let .listed(mode): mode.description
        case let .custom(w, h, r): OutputMode(width: w, height: h, refreshMilliHz: r).description + " (custom)"
        }
    }
}

/// The compositor's answer to a configuration.
package enum ConfigurationAnswer: Equatable, Sendable {
    case succeeded, failed, cancelled
}

/// A `zwlr_output_configuration_v1` waiting for its answer. The listener
/// only records it; the owner reads `answer` after each batch and calls
/// `release()` once it is done with it.
@MainActor
package final class Configuration {
    private var proxy: OpaquePointer?
    private let connection: Connection
    /// The compositor's answer, once it came.
    package fileprivate(set) var answer: ConfigurationAnswer?

    init(proxy: OpaquePointer, connection: Connection) {
        self.proxy = proxy
        self.connection = connection
        zwlr_output_configuration_v1_add_listener(proxy, &configurationListener, userData(self))
    }

    var handle: OpaquePointer? { proxy }

    /// Destroys the configuration object (answered, or given up on).
    package func release() {
        guard let proxy else { return }
        zwlr_output_configuration_v1_destroy(proxy)
        self.proxy = nil
        connection.flush()
    }
}

/// `zwlr_output_manager_v1`: every head, the current serial, and
/// configurations that change one head's mode. Listeners only record; the
/// owner hears `onDone` after each complete batch.
@MainActor
package final class OutputManager {
    let proxy: OpaquePointer
    package let version: UInt32
    private let connection: Connection
    private var heads: [Head] = []
    /// The serial of the last `done`; a configuration must carry it.
    package private(set) var serial: UInt32?
    /// Configurations made so far (tests count retries with it).
    package private(set) var configurationsMade = 0
    /// Called after each `done`, with the heads published.
    package var onDone: (() -> Void)?
    private var isFinished = false

    init(connection: Connection, proxy: OpaquePointer, version: UInt32) {
        self.connection = connection
        self.proxy = proxy
        self.version = version
        zwlr_output_manager_v1_add_listener(proxy, &managerListener, userData(self))
    }

    /// Heads as of the last `done`, in announcement order.
    package var headInfos: [HeadInfo] { heads.compactMap(\.info) }

    package func head(named name: String) -> HeadInfo? { heads.first { $0.info?.name == name }?.info }

    func newHead(_ proxy: OpaquePointer) { heads.append(Head(proxy: proxy, version: version)) }

    func done(serial: UInt32) {
        self.serial = serial
        retiredHeads += heads.filter(\.isFinished)
        heads.removeAll { $0.isFinished }
        for head in heads { head.publish() }
        onDone?()
    }

    /// Heads the compositor finished, waiting to be released.
    private var retiredHeads: [Head] = []

    /// Releases the heads and modes the compositor finished: after the
    /// batch, as every proxy is destroyed outside the listeners.
    package func releaseRetired() {
        for head in retiredHeads { head.destroy() }
        retiredHeads.removeAll()
        for head in heads { head.releaseRetired() }
    }

    func finished() { isFinished = true }

    /// Sends one configuration: the named head gets `choice`, every other
    /// head keeps its state (enabled heads unchanged, disabled ones stay
    /// disabled). Heads named in `shownNames` count as enabled whatever they
    /// say: sway 1.7 calls heads running a custom mode disabled, and
    /// disabling them in the configuration would fail it (or switch them
    /// off). `test` only checks it. Returns at once: the answer arrives in a
    /// later batch (`Configuration.answer`); nil when nothing could be sent
    /// (the manager finished, no state yet, the head is gone).
    package func send(headNamed name: String, choice: HeadModeChoice, test: Bool, shownNames: Set<String>)
        -> Configuration?
    {
        guard !isFinished, let serial, connection.failure == nil,
            let target = heads.first(where: { $0.info?.name == name && !$0.isFinished })
        else { return nil }
        configurationsMade += 1
        let configuration = Configuration(
            proxy: zwlr_output_manager_v1_create_configuration(proxy, serial)!, connection: connection)
        let config = configuration.handle!
        for head in heads where !head.isFinished {
            if head === target || head.info?.isEnabled == true || shownNames.contains(head.info?.name ?? "") {
                let configHead = zwlr_output_configuration_v1_enable_head(config, head.proxy)!
                if head === target {
                    switch choice {
                    case let .listed(mode):
                        if let object = head.modeObject(matching: mode) {
                            zwlr_output_configuration_head_v1_set_mode(configHead, object)
                        } else {
                            zwlr_output_configuration_head_v1_set_custom_mode(
                                configHead, Int32(mode.width), Int32(mode.height), Int32(mode.refreshMilliHz))
                        }
                    case let .custom(w, h, r):
                        zwlr_output_configuration_head_v1_set_custom_mode(configHead, Int32(w), Int32(h), Int32(r))
                    }
                }
                // Destroyed with the configuration; the proxy is dropped here.
                wl_proxy_destroy(configHead)
            } else {
                zwlr_output_configuration_v1_disable_head(config, head.proxy)
            }
        }
        if test {
            zwlr_output_configuration_v1_test(config)
        } else {
            zwlr_output_configuration_v1_apply(config)
        }
        connection.flush()
        return configuration
    }

    func destroy() {
        releaseRetired()
        for head in heads { head.destroy() }
        heads.removeAll()
        if !isFinished {
            zwlr_output_manager_v1_stop(proxy)
        }
        // stop asks for `finished`; the proxy goes now and a late event for it is dropped.
        wl_proxy_destroy(proxy)
    }
}

// MARK: listeners

private nonisolated(unsafe) var managerListener = zwlr_output_manager_v1_listener(
    head: { data, _, head in
        guard let raw = head.map({ UInt(bitPattern: $0) }) else { return }
        deliver(data, to: OutputManager.self) { $0.newHead(OpaquePointer(bitPattern: raw)!) }
    },
    done: { data, _, serial in
        deliver(data, to: OutputManager.self) { $0.done(serial: serial) }
    },
    finished: { data, _ in
        deliver(data, to: OutputManager.self) { $0.finished() }
    }
)

private nonisolated(unsafe) var headListener = zwlr_output_head_v1_listener(
    name: { data, _, name in
        let value = string(name) ?? ""
        deliver(data, to: Head.self) { $0.handle(.name(value)) }
    },
    description: { data, _, text in
        let value = string(text) ?? ""
        deliver(data, to: Head.self) { $0.handle(.description(value)) }
    },
    physical_size: { data, _, w, h in
        deliver(data, to: Head.self) { $0.handle(.physicalSize(Int(w), Int(h))) }
    },
    mode: { data, _, mode in
        guard let raw = mode.map({ UInt(bitPattern: $0) }) else { return }
        deliver(data, to: Head.self) { $0.handle(.mode(OpaquePointer(bitPattern: raw)!)) }
    },
    enabled: { data, _, enabled in
        deliver(data, to: Head.self) { $0.handle(.enabled(enabled != 0)) }
    },
    current_mode: { data, _, mode in
        guard let raw = mode.map({ UInt(bitPattern: $0) }) else { return }
        deliver(data, to: Head.self) { $0.handle(.currentMode(OpaquePointer(bitPattern: raw)!)) }
    },
    position: { data, _, x, y in
        deliver(data, to: Head.self) { $0.handle(.position(Int(x), Int(y))) }
    },
    transform: { data, _, transform in
        deliver(data, to: Head.self) { $0.handle(.transform(transform)) }
    },
    scale: { data, _, scale in
        deliver(data, to: Head.self) { $0.handle(.scale(Double(scale) / 256)) }
    },
    finished: { data, _ in
        deliver(data, to: Head.self) { $0.handle(.finished) }
    },
    make: { data, _, make in
        let value = string(make) ?? ""
        deliver(data, to: Head.self) { $0.handle(.make(value)) }
    },
    model: { data, _, model in
        let value = string(model) ?? ""
        deliver(data, to: Head.self) { $0.handle(.model(value)) }
    },
    serial_number: { data, _, serial in
        let value = string(serial) ?? ""
        deliver(data, to: Head.self) { $0.handle(.serialNumber(value)) }
    },
    adaptive_sync: { data, _, state in
        deliver(data, to: Head.self) {
            $0.handle(.adaptiveSync(state == ZWLR_OUTPUT_HEAD_V1_ADAPTIVE_SYNC_STATE_ENABLED.rawValue))
        }
    }
)

private nonisolated(unsafe) var modeListener = zwlr_output_mode_v1_listener(
    size: { data, _, w, h in
        deliver(data, to: HeadMode.self) {
            $0.width = Int(w)
            $0.height = Int(h)
        }
    },
    refresh: { data, _, refresh in
        deliver(data, to: HeadMode.self) { $0.refreshMilliHz = Int(refresh) }
    },
    preferred: { data, _ in
        deliver(data, to: HeadMode.self) { $0.isPreferred = true }
    },
    finished: { data, _ in
        deliver(data, to: HeadMode.self) { mode in mode.head?.modeFinished(mode) }
    }
)

private nonisolated(unsafe) var configurationListener = zwlr_output_configuration_v1_listener(
    succeeded: { data, _ in deliver(data, to: Configuration.self) { $0.answer = .succeeded } },
    failed: { data, _ in deliver(data, to: Configuration.self) { $0.answer = .failed } },
    cancelled: { data, _ in deliver(data, to: Configuration.self) { $0.answer = .cancelled } }
)
