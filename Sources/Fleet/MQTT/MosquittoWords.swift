internal import CMosquitto
import Foundation
import Signage

/// libmosquitto's words for what went wrong, with the fix where there is one:
/// the text `MQTTConnection` reports in `.lost` and `ctl status`.
enum MosquittoWords {
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
}
