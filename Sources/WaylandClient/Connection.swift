import CWayland
import Dispatch
import EventLoop
import Foundation

/// Why a connection to the compositor could not be made or was lost.
package struct ConnectionError: Error, CustomStringConvertible, Sendable {
    package enum Kind: Sendable {
        case noCompositor, lost, protocolError
        /// The compositor sent a message this process's libwayland could not
        /// take (an id still in use, a malformed message): the connection is
        /// dropped on this side while the compositor may well run on.
        case refusedMessage
    }
    package let kind: Kind
    package let description: String
}

/// The one connection to the compositor. It lives on the main thread: every
/// proxy is created, dispatched and destroyed there, so listeners run
/// synchronously in `dispatchPending()` and only record state. Nothing
/// here waits for an answer inside another call: a request's answer
/// arrives as events in a later batch.
///
/// The connection is the only place that disconnects; every wrapper holds a
/// strong reference to it so no proxy outlives `wl_display_disconnect`
/// (libwayland crashes otherwise).
@MainActor
package final class Connection {
    package let display: OpaquePointer
    package let socketDescription: String
    /// The socket watched by the main event loop, while it is.
    private var watch: Watch?
    private var lostHandlers: [(ConnectionError) -> Void] = []
    private var afterDispatch: [() -> Void] = []
    private var isDisconnected = false
    private var isDispatching = false
    private var dispatchAgain = false
    /// Set once the connection has failed; nothing is sent after that.
    package private(set) var failure: ConnectionError?

    /// Connects to `name` (a socket name or absolute path), or to
    /// `WAYLAND_DISPLAY` (default `wayland-0`) when `name` is nil.
    package init(name: String? = nil) throws(ConnectionError) {
        let env = ProcessInfo.processInfo.environment
        let requested = name ?? env["WAYLAND_DISPLAY"]
        let shown = Connection.describeSocket(requested, runtimeDir: env["XDG_RUNTIME_DIR"])
        let handle: OpaquePointer? = requested.map { wl_display_connect($0) } ?? wl_display_connect(nil)
        guard let handle else {
            let reason = String(cString: strerror(errno))
            let hint: String
            if requested == nil && env["WAYLAND_DISPLAY"] == nil {
                hint =
                    "WAYLAND_DISPLAY is not set; run inside a Wayland session, set WAYLAND_DISPLAY to a compositor's socket, or use `screenplay demo`, which starts its own headless compositor"
            } else {
                hint = "is the compositor running, and is WAYLAND_DISPLAY (and XDG_RUNTIME_DIR) the one it created?"
            }
            throw ConnectionError(
                kind: .noCompositor,
                description: "cannot connect to a Wayland compositor at \(shown): \(reason); \(hint)")
        }
        display = handle
        socketDescription = shown
    }

    private static func describeSocket(_ name: String?, runtimeDir: String?) -> String {
        let n = name ?? "wayland-0"
        if n.hasPrefix("/") { return n }
        guard let runtimeDir else { return "\(n) (XDG_RUNTIME_DIR is not set)" }
        return "\(runtimeDir)/\(n)"
    }

    /// Watches the socket through the main event loop (`MainEventLoop`),
    /// which libdispatch's main queue or an app's own loop drives; `onLost`
    /// hears when the compositor goes away or raises a protocol error.
    package func startEventSource() {
        guard watch == nil else { return }
        watch = MainEventLoop.shared.watch(wl_display_get_fd(display)) { [weak self] in self?.readAndDispatch() }
        // Events may already sit in the queue from the set-up round trips.
        dispatchPending()
    }

    /// Leaves the loop before the socket closes or while it is dead: a hung-up
    /// socket stays readable and would wake the loop for ever.
    private func stopEventSource() {
        guard let watch else { return }
        self.watch = nil
        MainEventLoop.shared.unwatch(watch)
    }

    /// Runs `body` after each batch of dispatched events (render hooks).
    package func addAfterDispatch(_ body: @escaping () -> Void) { afterDispatch.append(body) }

    package func onLost(_ body: @escaping (ConnectionError) -> Void) { lostHandlers.append(body) }

    private func readAndDispatch() {
        guard failure == nil else { return }
        // Only this thread reads, but EGL reads on its own queue too, so use
        // the prepare/read protocol rather than wl_display_dispatch.
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { return fail() }
        }
        if wl_display_read_events(display) < 0 { return fail() }
        dispatchPending()
    }

    /// Dispatches queued events, runs the after-dispatch hooks and flushes.
    /// Call after anything (an EGL swap, a round trip) that may have queued
    /// events without dispatching them.
    package func dispatchPending() {
        guard failure == nil, !isDisconnected else { return }
        // Hooks render, and an EGL swap may queue events without dispatching
        // them: loop instead of recursing until nothing new arrived.
        if isDispatching {
            dispatchAgain = true
            return
        }
        isDispatching = true
        defer { isDispatching = false }
        // EGL's swap reads the socket on its own queue and leaves our events
        // queued without waking the read source: after the hooks (which
        // render), dispatch again until nothing new is queued.
        var rounds = 0
        while failure == nil && !isDisconnected && rounds < 16 {
            dispatchAgain = false
            let count = wl_display_dispatch_pending(display)
            if count < 0 { return fail() }
            if rounds > 0 && count == 0 && !dispatchAgain { break }
            // The hooks run here, after libwayland's dispatch has returned:
            // they may make and destroy proxies and even disconnect.
            for hook in afterDispatch {
                hook()
                if isDisconnected { return }
            }
            rounds += 1
        }
        flush()
    }

    package func flush() {
        guard failure == nil, !isDisconnected else { return }
        if wl_display_flush(display) < 0 && errno != EAGAIN { fail() }
    }

    /// Blocks until the compositor has handled every request sent so far.
    package func roundtrip() throws(ConnectionError) {
        if let failure { throw failure }
        if isDisconnected {
            throw ConnectionError(
                kind: .lost, description: "the connection to \(socketDescription) was closed (shutdown)")
        }
        if wl_display_roundtrip(display) < 0 {
            fail()
            throw failure!
        }
    }

    private func fail() {
        guard failure == nil else { return }
        let code = wl_display_get_error(display)
        var interface: UnsafePointer<wl_interface>?
        var objectID: UInt32 = 0
        let protocolCode = wl_display_get_protocol_error(display, &interface, &objectID)
        let error: ConnectionError
        if code == EPROTO, let interface {
            let name = String(cString: interface.pointee.name)
            error = ConnectionError(
                kind: .protocolError,
                description:
                    "the compositor raised protocol error \(protocolCode) on \(name)#\(objectID); this is a Screenplay bug, please report it with the output of `WAYLAND_DEBUG=1 screenplay ...`"
            )
        } else if code == EINVAL || code == EPROTO {
            error = ConnectionError(
                kind: .refusedMessage,
                description:
                    "the compositor at \(socketDescription) sent a message that libwayland in this process could not accept (\(String(cString: strerror(code)))), so the connection was dropped on this side while the compositor runs on; libwayland's own line before this one names the message. Compositors built on wlroots 0.15, such as sway 1.7, send one when an output goes and another comes at once: they give the new output's head the id of the head they just retired"
            )
        } else {
            let reason = code == 0 ? "connection closed" : String(cString: strerror(code))
            error = ConnectionError(
                kind: .lost,
                description:
                    "lost the connection to the compositor at \(socketDescription): \(reason) (did the compositor exit or crash?)"
            )
        }
        failure = error
        stopEventSource()
        for handler in lostHandlers { handler(error) }
    }

    /// Closes the connection. Every proxy must have been destroyed first.
    package func disconnect() {
        guard !isDisconnected else { return }
        isDisconnected = true
        stopEventSource()
        if failure == nil { wl_display_flush(display) }
        wl_display_disconnect(display)
    }
}

/// Recovers the Swift object registered as a proxy's user data.
@inline(__always)
func object<T: AnyObject>(_ data: UnsafeMutableRawPointer?, as: T.Type = T.self) -> T? {
    guard let data else { return nil }
    return Unmanaged<T>.fromOpaque(data).takeUnretainedValue()
}

@inline(__always)
func userData(_ object: AnyObject) -> UnsafeMutableRawPointer {
    Unmanaged.passUnretained(object).toOpaque()
}

@inline(__always)
func string(_ p: UnsafePointer<CChar>?) -> String? {
    p.map { String(cString: $0) }
}

/// Runs a listener's body for the Swift object behind `data`. Listeners fire
/// inside `wl_display_dispatch_pending`, which only the main thread calls.
@inline(__always)
func deliver<T: AnyObject & Sendable>(_ data: UnsafeMutableRawPointer?, to _: T.Type, _ body: @MainActor (T) -> Void) {
    guard let target = object(data, as: T.self) else { return }
    MainActor.assumeIsolated { body(target) }
}
