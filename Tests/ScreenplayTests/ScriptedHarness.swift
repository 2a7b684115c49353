// The scripted compositor (Tests/ScriptedCompositor) in Swift terms and an Application
// connected to it: what the protocol tests of this folder drive.
import Foundation
import Screenplay
import ScriptedCompositor
import XCTest

struct Size: Equatable, CustomStringConvertible {
    var width, height: Int32
    init(_ width: Int32, _ height: Int32) {
        self.width = width
        self.height = height
    }
    var description: String { "\(width)x\(height)" }
}

/// The scripted compositor's C API in Swift terms.
@MainActor
final class ScriptedFixture {
    let handle: OpaquePointer

    init(layerShell: Bool = true, xdgOutput: Bool = true) throws {
        guard let handle = scripted_start(layerShell, xdgOutput) else {
            throw NSError(domain: "ScriptedCompositor", code: 1, userInfo: [NSLocalizedDescriptionKey: "cannot start"])
        }
        self.handle = handle
    }

    var socketPath: String { String(cString: scripted_socket_path(handle)) }
    func stop() { scripted_stop(handle) }

    func addOutput(
        _ name: String, x: Int32 = 0, y: Int32 = 0, width: Int32, height: Int32, scale: Int32 = 1,
        refreshMilliHz: Int32 = 60_000, sendDone: Bool = true
    ) -> Int32 {
        scripted_add_output(handle, name, x, y, width, height, scale, refreshMilliHz, sendDone)
    }
    func removeOutput(_ output: Int32) { scripted_remove_output(handle, output) }
    func sendEnter(layer: Int32, output: Int32) -> Bool { scripted_send_enter(handle, layer, output) }
    func removeOutputThenEnter(output: Int32, layer: Int32) -> Bool {
        scripted_remove_output_then_enter(handle, output, layer)
    }
    func removeLayerShell() { scripted_remove_layer_shell(handle) }
    func setInitialReply(
        _ reply: scripted_initial_reply, _ w1: UInt32 = 0, _ h1: UInt32 = 0, _ w2: UInt32 = 0, _ h2: UInt32 = 0
    ) {
        scripted_set_initial_reply(handle, reply, w1, h1, w2, h2)
    }
    func configure(layer: Int32, width: UInt32, height: UInt32) -> UInt32 {
        scripted_configure(handle, layer, width, height)
    }

    var layerSurfaceCount: Int32 { scripted_layer_surface_count(handle) }
    var liveLayerSurfaceCount: Int32 { scripted_live_layer_surface_count(handle) }
    func layerSurface(on output: String) -> Int32 { scripted_layer_surface_on(handle, output) }
    func layerSurfaceIsLive(_ layer: Int32) -> Bool { scripted_layer_surface_is_live(handle, layer) }
    func layerSurfaceOutput(_ layer: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        scripted_layer_surface_output(handle, layer, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    func sentSerials(_ layer: Int32) -> [UInt32] { serials { scripted_sent_serials(handle, layer, $0, $1) } }
    func ackedSerials(_ layer: Int32) -> [UInt32] { serials { scripted_acked_serials(handle, layer, $0, $1) } }
    private func serials(_ read: (UnsafeMutablePointer<UInt32>, Int32) -> Int32) -> [UInt32] {
        var buffer = [UInt32](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBufferPointer { read($0.baseAddress!, 32) }
        return Array(buffer.prefix(Int(min(count, 32))))
    }
    func firstBufferSize(_ layer: Int32) -> Size {
        var size = Size(0, 0)
        scripted_first_buffer_size(handle, layer, &size.width, &size.height)
        return size
    }
    func lastBufferSize(_ layer: Int32) -> Size {
        var size = Size(0, 0)
        scripted_last_buffer_size(handle, layer, &size.width, &size.height)
        return size
    }
    var protocolErrorCount: Int32 { scripted_protocol_error_count(handle) }
    var lastProtocolError: String {
        var buffer = [CChar](repeating: 0, count: 256)
        scripted_last_protocol_error(handle, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    var clientCount: Int32 { scripted_client_count(handle) }
    func outputResourceCount(_ output: Int32) -> Int32 { scripted_output_resource_count(handle, output) }
}

@MainActor
final class EdgeLog {
    /// Delegate calls: "connect NAME", "disconnect NAME", "resize NAME WxH".
    var events: [String] = []
    /// Application screen callbacks: "screen+ NAME", "screen- NAME".
    var screenEvents: [String] = []
    var errors: [String] = []
    var lost: [String] = []
}

@MainActor
final class EdgeDelegate: SceneDelegate {
    let log: EdgeLog
    init(log: EdgeLog) { self.log = log }
    func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        log.events.append("connect \(scene.screen?.name ?? "?")")
    }
    func sceneDidDisconnect(_ scene: Scene) { log.events.append("disconnect \(scene.screen?.name ?? "?")") }
    func sceneDidResize(_ scene: Scene) {
        log.events.append("resize \(scene.screen?.name ?? "?") \(scene.size.width)x\(scene.size.height)")
    }
    func draw(_ scene: Scene, in context: DrawingContext) throws { try context.clear(RGBColor(hex: 0x336699)) }
}

/// A scripted compositor with a built-in panel (eDP-1, never a scene
/// target) and an Application connected to it.
@MainActor
final class Harness {
    let fixture: ScriptedFixture
    let app: Application
    let log = EdgeLog()

    /// `feedback`: offer wp_presentation answering so (nil: not offered);
    /// `xdgShell`: offer xdg_wm_base (the fullscreen fallback's toplevels);
    /// `prepare` runs before the client connects (extra globals, outputs).
    init(
        layerShell: Bool = true, feedback: (mode: scripted_feedback_mode, late: Int32)? = nil, xdgShell: Bool = false,
        builtInPatterns: [String] = [], prepare: (ScriptedFixture) -> Void = { _ in }
    ) throws {
        fixture = try ScriptedFixture(layerShell: layerShell)
        if let feedback { scripted_offer_presentation(fixture.handle, feedback.mode, feedback.late) }
        if xdgShell { scripted_offer_xdg_shell(fixture.handle) }
        _ = fixture.addOutput("eDP-1", width: 1280, height: 720)
        prepare(fixture)
        var options = ApplicationOptions()
        options.displayName = fixture.socketPath
        options.builtInPatterns = builtInPatterns
        do {
            app = try Application(options: options)
        } catch {
            fixture.stop()
            throw error
        }
        let log = log
        app.onSceneError = { log.errors.append("\($0)") }
        app.onConnectionLost = { log.lost.append($0.description) }
        app.onScreenConnect = { log.screenEvents.append("screen+ \($0.name)") }
        app.onScreenDisconnect = { log.screenEvents.append("screen- \($0.name)") }
    }

    @discardableResult
    func register() -> SceneAccessoryRegistration {
        let log = log
        let config = SceneConfiguration(name: "edge") { EdgeDelegate(log: log) }
        return app.registerSceneAccessory(.externalNonInteractive(sceneConfiguration: config))
    }

    /// Client and fixture agree: events sent so far are dispatched, and the
    /// requests they caused (binds) answered. Three round trips, as a bind
    /// made while dispatching goes out after the first sync.
    func sync() throws {
        for _ in 0..<3 { try app.roundtrip() }
    }

    func settle(_ what: String, timeout: TimeInterval = 5, _ condition: () -> Bool) async throws {
        let end = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > end {
                return XCTFail("timed out waiting until \(what); log \(log.events), errors \(log.errors)")
            }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    /// No protocol error, no lost connection, the client still connected.
    func assertClean(allowSceneErrors: Bool = false, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(fixture.protocolErrorCount, 0, fixture.lastProtocolError, file: file, line: line)
        XCTAssertEqual(log.lost, [], file: file, line: line)
        XCTAssertEqual(fixture.clientCount, 1, "Screenplay stays connected", file: file, line: line)
        if !allowSceneErrors { XCTAssertEqual(log.errors, [], file: file, line: line) }
    }

    func close() {
        app.shutdown()
        fixture.stop()
    }
}
