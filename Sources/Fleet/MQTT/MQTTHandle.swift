internal import CMosquitto
import Foundation

/// libmosquitto's client, made with the credentials, TLS and will of a
/// connection's settings and with its callbacks posting to an inbox. It is
/// handed to the connect on a utility queue and back; only one side uses it
/// at a time (`MQTTConnection`'s `connectInFlight`).
struct MQTTHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Makes the client; the caller destroys it (`mosquitto_destroy`).
    /// - Throws: what libmosquitto refused, such as a CA file it cannot read.
    init(_ settings: MQTTConnection.Settings, inbox: MQTTInbox) throws(FleetFailure) {
        Self.libraryReady()
        let user = Unmanaged.passUnretained(inbox).toOpaque()
        guard let pointer = mosquitto_new(settings.clientID, true, user) else {
            throw FleetFailure(.unavailable, "MQTT: libmosquitto could not make a client (out of memory?)")
        }
        func check(_ rc: Int32, _ what: String) throws(FleetFailure) {
            guard rc == MOSQ_ERR_SUCCESS.rawValue else {
                mosquitto_destroy(pointer)
                throw FleetFailure(.dataError, "MQTT: \(what): \(MosquittoWords.reason(rc))")
            }
        }
        try check(
            mosquitto_int_option(pointer, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311),
            "protocol version")
        if let username = settings.username {
            try check(mosquitto_username_pw_set(pointer, username, settings.password), "credentials")
        }
        if settings.broker.secure {
            if let caFile = settings.caFile {
                try check(
                    mosquitto_tls_set(pointer, caFile, nil, nil, nil, nil),
                    "the CA file \(caFile) (--mqtt-ca-file; a PEM file of CA certificates)")
            } else {
                try check(mosquitto_int_option(pointer, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "the system's CA store")
            }
        }
        if let will = settings.will {
            let bytes = Array(will.payload.utf8)
            try check(mosquitto_will_set(pointer, will.topic, Int32(bytes.count), bytes, 1, true), "the will")
        }
        mosquitto_connect_callback_set(pointer) { _, user, rc in MQTTInbox.from(user)?.post(.connect(rc)) }
        mosquitto_disconnect_callback_set(pointer) { _, user, rc in MQTTInbox.from(user)?.post(.disconnect(rc)) }
        mosquitto_publish_callback_set(pointer) { _, user, mid in MQTTInbox.from(user)?.post(.published(mid)) }
        mosquitto_message_callback_set(pointer) { _, user, message in
            guard let inbox = MQTTInbox.from(user), let message = message?.pointee, let topic = message.topic else {
                return
            }
            let payload =
                message.payload.map { Data(bytes: $0, count: Int(max(0, message.payloadlen))) } ?? Data()
            inbox.post(.message(String(cString: topic), payload, message.retain))
        }
        self.pointer = pointer
    }

    private static let initialised: Bool = {
        mosquitto_lib_init()
        return true
    }()

    private static func libraryReady() { _ = initialised }
}
