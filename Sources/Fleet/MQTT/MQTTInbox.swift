import Foundation
import Synchronization

/// What libmosquitto's callbacks reported, taken after each call returns:
/// the callbacks only post here, so nothing runs inside them.
final class MQTTInbox: Sendable {
    enum Raw: Sendable {
        case connect(Int32)
        case disconnect(Int32)
        case message(String, Data, Bool)
        case published(Int32)
    }

    private let events = Mutex<[Raw]>([])

    func post(_ event: Raw) { events.withLock { $0.append(event) } }

    func take() -> [Raw] {
        events.withLock { events in
            defer { events = [] }; return events
        }
    }

    static func from(_ user: UnsafeMutableRawPointer?) -> MQTTInbox? {
        user.map { Unmanaged<MQTTInbox>.fromOpaque($0).takeUnretainedValue() }
    }
}
