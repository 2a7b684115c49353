internal import CMosquitto
import Foundation
import Signage
import Synchronization

/// What `MQTTConnection` shares with libmosquitto: its error words, and the
/// parts that are `Sendable` for crossing threads: the handle the connect on
/// a utility queue borrows, the inbox libmosquitto's callbacks post to, and
/// the closer the two sources watching one descriptor share.
extension MQTTConnection {
    /// libmosquitto's words for a return code (errno's for MOSQ_ERR_ERRNO).
    static func reason(_ rc: Int32, errno system: Int32 = errno) -> String {
        let error = rc == MOSQ_ERR_ERRNO.rawValue ? system : nil
        return NetworkSandbox.explained(
            error.map { String(cString: strerror($0)) } ?? String(cString: mosquitto_strerror(rc)), error: error)
    }

    /// The broker's answer to CONNECT, with the fix for a refused login.
    static func connackReason(_ rc: Int32) -> String {
        let text = String(cString: mosquitto_connack_string(rc))
        switch rc {
        case 4, 5: return text + " (check the user and password in --mqtt-credentials, and the broker's ACL)"
        default: return text
        }
    }

    /// libmosquitto's handle, handed to the connect on a utility queue and
    /// back; only one side uses it at a time (`connectInFlight`).
    struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// What libmosquitto's callbacks reported, taken after each call returns.
    final class Inbox: Sendable {
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

        static func from(_ user: UnsafeMutableRawPointer?) -> Inbox? {
            user.map { Unmanaged<Inbox>.fromOpaque($0).takeUnretainedValue() }
        }
    }

    /// Closes the watched duplicate once both sources watching it are cancelled.
    final class DuplicateCloser: Sendable {
        private let fd: Int32
        private let holders = Mutex(2)
        init(fd: Int32) { self.fd = fd }
        func release() {
            if holders.withLock({ count in
                count -= 1
                return count == 0
            }) {
                close(fd)
            }
        }
    }
}
