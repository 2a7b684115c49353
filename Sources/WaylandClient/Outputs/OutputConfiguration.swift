import CWayland
import CWaylandProtocols

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

    /// Sends one configuration on `manager` at `serial`: `target` gets
    /// `choice`; every other head in `heads` keeps its state (see
    /// `OutputManager.send`).
    static func send(
        on manager: OpaquePointer, serial: UInt32, heads: [Head], target: Head, choice: HeadModeChoice,
        test: Bool, shownNames: Set<String>, connection: Connection
    ) -> Configuration {
        let configuration = Configuration(
            proxy: zwlr_output_manager_v1_create_configuration(manager, serial)!, connection: connection)
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

    /// Destroys the configuration object (answered, or given up on).
    package func release() {
        guard let proxy else { return }
        zwlr_output_configuration_v1_destroy(proxy)
        self.proxy = nil
        connection.flush()
    }
}

// MARK: listeners

private nonisolated(unsafe) var configurationListener = zwlr_output_configuration_v1_listener(
    succeeded: { data, _ in deliver(data, to: Configuration.self) { $0.answer = .succeeded } },
    failed: { data, _ in deliver(data, to: Configuration.self) { $0.answer = .failed } },
    cancelled: { data, _ in deliver(data, to: Configuration.self) { $0.answer = .cancelled } }
)
