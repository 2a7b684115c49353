internal import CMpv
import EventLoop
import Glibc
import Synchronization

/// Why a video cannot be shown: unreadable (missing, no permission: exit 66)
/// or not something libmpv can play (exit 65), with libmpv's own reason.
package struct VideoError: Error, CustomStringConvertible, Sendable {
    package let path: String
    package let isUnreadable: Bool
    package let reason: String
    package var description: String { "\(path): \(reason)" }

    package init(path: String, isUnreadable: Bool, reason: String) {
        self.path = path
        self.isUnreadable = isUnreadable
        self.reason = reason
    }
}

/// An event of one mpv core, in Swift terms (only what Screenplay uses).
enum MpvEvent {
    case fileLoaded
    case playbackRestart
    case endFile(reason: Int32, error: Int32)
    case property(name: String, value: MpvValue)
    case log(prefix: String, level: String, text: String)
    case shutdown
    /// The core has nothing loaded (after a stop, an end or a failed load)
    /// and has closed its video output.
    case idle
    case other
}

enum MpvValue {
    case none
    case flag(Bool)
    case int(Int64)
    case double(Double)
    case string(String)

    var double: Double? {
        switch self {
        case let .double(v): v
        case let .int(v): Double(v)
        default: nil
        }
    }
}

/// One libmpv core (`mpv_handle`). Not thread-safe: used on the main thread;
/// only the wakeup callback runs on mpv's threads, and it only posts to main.
final class MpvCore {
    let handle: OpaquePointer

    /// Makes a core with `options` set before `mpv_initialize` (where mpv
    /// reads them).
    init(path: String, options: [(String, String)]) throws(VideoError) {
        guard let handle = mpv_create() else {
            let reason = screenplay_mpv_load_error().map { String(cString: $0) } ?? "mpv_create failed (out of memory?)"
            throw VideoError(path: path, isUnreadable: false, reason: reason)
        }
        self.handle = handle
        for (name, value) in Self.quiet + options {
            let status = mpv_set_option_string(handle, name, value)
            guard status >= 0 else {
                mpv_terminate_destroy(handle)
                throw VideoError(
                    path: path, isUnreadable: false,
                    reason:
                        "libmpv refused the option \(name)=\(value): \(Self.errorString(status)); check the libmpv version (`screenplay doctor`)"
                )
            }
        }
        let status = mpv_initialize(handle)
        guard status >= 0 else {
            mpv_terminate_destroy(handle)
            throw VideoError(
                path: path, isUnreadable: false, reason: "mpv_initialize failed: \(Self.errorString(status))")
        }
    }

    /// Set on every core. `config=no`: a user's mpv.conf must not change
    /// what a signage panel shows. mpv also starts a Lua state and a thread
    /// for each built-in script (the stats overlay, the console, the
    /// youtube-dl hook, auto profiles); a panel has no keyboard or OSD for
    /// them, and a playlist makes a core per video item.
    private static let quiet: [(String, String)] = [
        ("config", "no"), ("load-scripts", "no"), ("ytdl", "no"), ("load-stats-overlay", "no"),
        ("load-osd-console", "no"), ("load-auto-profiles", "no"),
    ]

    /// The hardware decoding a scene's player and the decoder check use:
    /// `hwdec=auto-safe`, and the GL interops libmpv loads for it. libmpv
    /// loads every interop it was built with when a render context is made
    /// (`gpu-hwdec-interop=auto` means all there); NVIDIA's asks for
    /// libcuda.so.1 and, where the NVIDIA driver is missing, its loader
    /// (nv-codec-headers) prints "Cannot load libcuda.so.1" straight to
    /// stderr, past every msg-level, at every video start. So CUDA's interop
    /// is loaded only where libcuda loads; elsewhere the one interop that
    /// can serve the machine: VA-API on x86 (Intel, AMD), DRM PRIME on ARM
    /// (V4L2 decoders of Raspberry Pi and other boards).
    static let hardwareDecoding: [(String, String)] = {
        var options = [("hwdec", "auto-safe")]
        if dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL) == nil {
            #if arch(x86_64) || arch(i386)
            options.append(("gpu-hwdec-interop", "vaapi"))
            #else
            options.append(("gpu-hwdec-interop", "drmprime"))
            #endif
        }
        return options
    }()

    static func errorString(_ code: Int32) -> String { String(cString: mpv_error_string(code)) }

    /// Runs an mpv command synchronously; returns mpv's status.
    @discardableResult
    func command(_ words: [String]) -> Int32 {
        withCStrings(words) { mpv_command(handle, $0) }
    }

    /// Sets a property without waiting: the core may be waiting on the
    /// render thread (this one), so a synchronous set could stall 200 ms.
    /// Sends an mpv command without waiting for it.
    func command(async words: [String]) {
        withCStrings(words) { _ = mpv_command_async(handle, 0, $0) }
    }

    func setPropertyAsync(_ name: String, _ value: String) {
        withCStrings(["set", name, value]) { _ = mpv_command_async(handle, 0, $0) }
    }

    func string(_ name: String) -> String? {
        guard let raw = mpv_get_property_string(handle, name) else { return nil }
        defer { mpv_free(raw) }
        return String(cString: raw)
    }

    func double(_ name: String) -> Double? {
        var value = 0.0
        return mpv_get_property(handle, name, MPV_FORMAT_DOUBLE, &value) >= 0 ? value : nil
    }

    func observe(_ name: String, as format: mpv_format) { mpv_observe_property(handle, 0, name, format) }

    /// The next queued event, or nil when none is waiting (never blocks with timeout 0).
    func nextEvent(timeout: Double = 0) -> MpvEvent? {
        guard let event = mpv_wait_event(handle, timeout)?.pointee, event.event_id != MPV_EVENT_NONE else { return nil }
        switch event.event_id {
        case MPV_EVENT_FILE_LOADED: return .fileLoaded
        case MPV_EVENT_PLAYBACK_RESTART: return .playbackRestart
        case MPV_EVENT_SHUTDOWN: return .shutdown
        case MPV_EVENT_IDLE: return .idle
        case MPV_EVENT_END_FILE:
            guard let end = event.data?.assumingMemoryBound(to: mpv_event_end_file.self).pointee else { return .other }
            return .endFile(reason: Int32(end.reason.rawValue), error: end.error)
        case MPV_EVENT_LOG_MESSAGE:
            guard let log = event.data?.assumingMemoryBound(to: mpv_event_log_message.self).pointee else {
                return .other
            }
            return .log(
                prefix: String(cString: log.prefix), level: String(cString: log.level),
                text: String(cString: log.text).trimmingTrailingNewlines)
        case MPV_EVENT_PROPERTY_CHANGE:
            guard let change = event.data?.assumingMemoryBound(to: mpv_event_property.self).pointee else {
                return .other
            }
            return .property(name: String(cString: change.name), value: Self.value(change))
        default:
            return .other
        }
    }

    private static func value(_ change: mpv_event_property) -> MpvValue {
        guard let data = change.data else { return .none }
        switch change.format {
        case MPV_FORMAT_FLAG: return .flag(data.load(as: Int32.self) != 0)
        case MPV_FORMAT_INT64: return .int(data.load(as: Int64.self))
        case MPV_FORMAT_DOUBLE: return .double(data.load(as: Double.self))
        case MPV_FORMAT_STRING:
            guard let text = data.load(as: UnsafePointer<CChar>?.self) else { return .none }
            return .string(String(cString: text))
        default: return .none
        }
    }

    /// Asks mpv to call `action` on the main queue whenever events are
    /// waiting. The callback itself runs on an mpv thread and only posts.
    func setWakeup(_ wakeup: MainWakeup) {
        mpv_set_wakeup_callback(handle, mainWakeupThunk, Unmanaged.passUnretained(wakeup).toOpaque())
    }

    /// Stops mpv's threads and frees the core. Free any render context first.
    func destroy() {
        mpv_set_wakeup_callback(handle, nil, nil)
        mpv_terminate_destroy(handle)
    }
}

/// Posts one main-loop block (`MainEventLoop`) per burst of mpv callbacks (they come from
/// mpv's threads, possibly many times per frame). Must outlive the core
/// or render context that calls it.
final class MainWakeup: Sendable {
    private let pending = Atomic<Bool>(false)
    private let action: @Sendable @MainActor () -> Void

    init(_ action: @escaping @Sendable @MainActor () -> Void) { self.action = action }

    func post() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        MainInbox.shared.post { [self] in
            pending.store(false, ordering: .releasing)
            action()
        }
    }
}

/// The C callback mpv calls (on its own threads) for the wakeup and the
/// render update: it only wakes the main loop.
let mainWakeupThunk: @convention(c) (UnsafeMutableRawPointer?) -> Void = { raw in
    guard let raw else { return }
    Unmanaged<MainWakeup>.fromOpaque(raw).takeUnretainedValue().post()
}

func withCStrings<R>(_ words: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = words.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    var pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
