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

/// One `zwlr_output_head_v1` event, as its listener hands it to `Head`.
enum HeadEvent {
    case name(String), description(String), physicalSize(Int, Int), mode(OpaquePointer), enabled(Bool)
    case currentMode(OpaquePointer), position(Int, Int), transform(Int32), scale(Double), finished
    case make(String), model(String), serialNumber(String), adaptiveSync(Bool)
}

// MARK: listeners

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
