import Foundation
import TestHarness
import TestSupport
import XCTest

/// How a scene's surface answered the compositor's frame callbacks, read
/// from libwayland's client trace (`WAYLAND_DEBUG=client`): every buffer
/// after the first should follow exactly one `done` of the frame callback
/// asked for that surface.
///
/// This is the pacing promise where the compositor itself composites with
/// llvmpipe (cage, KWin, mutter): beside another test on two cores they
/// send fewer callbacks than their outputs' refresh (CI saw cage at 42 and
/// KWin at 43 a second), and that rate is theirs, not the scene's.
struct FrameCallbackAnswers: CustomStringConvertible {
    /// The request that gives the scene's surface its role.
    enum Role {
        /// `zwlr_layer_shell_v1.get_layer_surface`.
        case layer
        /// `xdg_wm_base.get_xdg_surface`: the fullscreen fallback where the
        /// compositor has no layer shell.
        case xdgSurface
    }

    /// `done` events of the surface's frame callbacks.
    var callbacks = 0
    /// Buffers attached to the surface.
    var buffers = 0
    /// Buffers attached, after the first callback, with no callback since
    /// the buffer before: drawn without the compositor asking.
    var unasked = 0
    /// Callbacks followed by another callback before any buffer: refreshes
    /// the compositor offered that the scene let pass.
    var unanswered = 0
    /// The surface read, or nil when the trace has no surface of that role.
    var surface: String?

    init(trace: String, role: Role) {
        let lines = trace.split(separator: "\n").map(String.init)
        let request =
            switch role {
            case .layer: ".get_layer_surface(new id zwlr_layer_surface_v1@"
            case .xdgSurface: ".get_xdg_surface(new id xdg_surface@"
            }
        guard let roleLine = lines.first(where: { $0.contains(" -> ") && $0.contains(request) }),
            let surfaceRange = roleLine.range(of: #"wl_surface@\d+"#, options: .regularExpression)
        else { return }
        let surface = String(roleLine[surfaceRange])
        self.surface = surface
        var frameCallback: String?
        var sinceBuffer = 0
        for line in lines {
            if line.contains(" -> \(surface).frame(new id "),
                let id = line.range(of: #"wl_callback@\d+"#, options: .regularExpression)
            {
                frameCallback = String(line[id])
            } else if let callback = frameCallback, !line.contains(" -> "), line.contains("] \(callback).done(") {
                callbacks += 1
                sinceBuffer += 1
                if sinceBuffer > 1 { unanswered += 1 }
                frameCallback = nil
            } else if line.contains(" -> \(surface).attach(wl_buffer@") {
                buffers += 1
                if callbacks > 0 && sinceBuffer == 0 { unasked += 1 }
                sinceBuffer = 0
            }
        }
    }

    var description: String {
        "\(surface ?? "no surface"): \(callbacks) frame callbacks, \(buffers) buffers, \(unasked) unasked, \(unanswered) unanswered"
    }
}

extension ScreenplayTestCase {
    /// Asserts that the animated scene on `output` drew one buffer for each
    /// frame callback of its surface (none unasked, none let pass), that
    /// the compositor sent at least `minimumCallbacks`, and that no stats
    /// window ran faster than `hz`. `process` must run with
    /// `WAYLAND_DEBUG=client` and be stopped already.
    func assertAnswersFrameCallbacks(
        _ process: RunningProcess, output: String, role: FrameCallbackAnswers.Role, hz: Double,
        minimumCallbacks: Int = 30, _ label: String = "", file: StaticString = #filePath, line: UInt = #line
    ) {
        let answers = FrameCallbackAnswers(trace: process.stderr, role: role)
        print("frame callbacks on \(label): \(answers)")
        XCTAssertNotNil(answers.surface, "no scene surface in the client trace: \(label)", file: file, line: line)
        XCTAssertGreaterThanOrEqual(
            answers.callbacks, minimumCallbacks, "frame callbacks from \(label): \(answers)", file: file, line: line)
        XCTAssertEqual(
            answers.unasked, 0, "buffers committed with no callback since the last: \(answers)", file: file, line: line)
        XCTAssertEqual(answers.unanswered, 0, "callbacks answered by no buffer: \(answers)", file: file, line: line)
        let windows = Array(process.frames(for: output).dropFirst(2))
        XCTAssertGreaterThanOrEqual(windows.count, 2, "too few frames lines on \(output)", file: file, line: line)
        for window in windows {
            let fps = Double(window.int("presented")) / ((window.raw["window_s"] as? NSNumber)?.doubleValue ?? 1)
            XCTAssertLessThanOrEqual(
                fps, hz * 1.1, "faster than \(hz) Hz on \(label): \(windows.map(\.raw))", file: file, line: line)
        }
    }
}

extension RunningProcess {
    /// Standard error without libwayland's trace lines, for failure
    /// messages of tests that run with `WAYLAND_DEBUG=client`.
    var screenplayLines: String {
        stderr.split(separator: "\n").filter { !$0.hasPrefix("[") }.suffix(40).joined(separator: "\n")
    }
}
