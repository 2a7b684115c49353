import CWayland
import CWaylandProtocols

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
        return Configuration.send(
            on: proxy, serial: serial, heads: heads, target: target, choice: choice,
            test: test, shownNames: shownNames, connection: connection)
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
