import Foundation
import Screenplay

/// `screenplay doctor`: what the compositor offers, what that means, and
/// why `present` would or would not show something on each screen. Every
/// "nothing shows" case we know of gets a sentence here.
@MainActor
enum DoctorRunner {
    struct Finding {
        enum Level: String { case ok, warning, problem }
        let level: Level
        let topic: String
        let text: String
    }

    /// Optional protocols and what their absence costs.
    static let protocols: [(interface: String, required: Bool, missing: String)] = [
        ("wl_compositor", true, "no surfaces can be made at all"),
        (
            "zwlr_layer_shell_v1", false,
            "external scenes fall back to fullscreen windows (xdg_toplevel.set_fullscreen on the screen's output): they may take keyboard focus and the compositor may place them elsewhere (GNOME has no layer shell)"
        ),
        ("xdg_wm_base", false, "no ordinary windows: --preview and the presenter console cannot open"),
        (
            "zxdg_output_manager_v1", false,
            "no logical positions or connector names from xdg-output: names fall back to wl_output v4, then to make/model"
        ),
        (
            "wp_presentation", false,
            "no presentation timestamps: the display link paces by frame callbacks and --stats counts frame callbacks"
        ),
        ("wp_viewporter", false, "no viewport: fractional scales cannot be shown sharp"),
        (
            "wp_fractional_scale_manager_v1", false,
            "fractional scales are rounded to the integer scale (sharp, but larger)"
        ),
        ("zwp_idle_inhibit_manager_v1", false, "the screen may blank or lock during a talk or signage loop"),
        ("wl_seat", false, "no keyboard: the presenter console cannot take keys"),
        (
            "zwlr_output_manager_v1", false,
            "no modes beyond what wl_output lists, no serial numbers, no disabled outputs; `present --mode` cannot work: "
                + CompositorInfo.missingProtocolSentence("change a screen's mode", "zwlr_output_manager_v1")
        ),
        (
            "zwlr_output_power_manager_v1", false,
            "`screenplay power` cannot work: "
                + CompositorInfo.missingProtocolSentence("switch a panel on or off", "zwlr_output_power_manager_v1")
        ),
    ]

    static func run(_ command: DoctorCommand) -> Int32 {
        var findings: [Finding] = []
        let env = ProcessInfo.processInfo.environment
        var options = ApplicationOptions()
        options.builtInPatterns = command.builtinPatterns
        let app: Application
        do {
            app = try Application(options: options)
        } catch {
            findings.append(Finding(level: .problem, topic: "connection", text: error.description))
            findings.append(Finding(level: .problem, topic: "connection", text: socketHint(env)))
            emit(findings, screens: [], globals: [], json: command.json)
            return ExitCode.unavailable.rawValue
        }
        defer { app.shutdown() }
        findings.append(
            Finding(level: .ok, topic: "connection", text: "connected to \(app.compositorInfo.socketDescription)"))
        let offered = Dictionary(
            app.compositorInfo.offeredProtocols.map { ($0.interface, $0.version) }, uniquingKeysWith: max)
        for p in protocols {
            if let version = offered[p.interface] {
                findings.append(Finding(level: .ok, topic: p.interface, text: "offered (version \(version))"))
            } else {
                findings.append(
                    Finding(level: p.required ? .problem : .warning, topic: p.interface, text: "missing: \(p.missing)"))
            }
        }
        if let wlOutput = offered["wl_output"], wlOutput < 4 {
            findings.append(
                Finding(
                    level: .warning, topic: "wl_output",
                    text:
                        "version \(wlOutput) has no name/description events: connector names come from xdg-output or make/model, so --output patterns may need the description"
                ))
        }
        do {
            findings.append(Finding(level: .ok, topic: "EGL/GLES", text: try app.graphicsDriver().description))
        } catch {
            findings.append(
                Finding(
                    level: .problem, topic: "EGL/GLES",
                    text: "\(error); nothing can be drawn (install Mesa: libegl1 libgles2 libgl1-mesa-dri)"))
        }
        if let partial = partialRedrawFinding(app) { findings.append(partial) }
        findings.append(videoFinding(app))
        findings.append(webFinding(app))
        if let builtin = env["SCREENPLAY_BUILTIN"] {
            findings.append(Finding(level: .ok, topic: "SCREENPLAY_BUILTIN", text: "marks \"\(builtin)\" as built-in"))
        }
        if app.screens.isEmpty {
            findings.append(
                Finding(
                    level: .problem, topic: "screens",
                    text:
                        "the compositor announces no outputs: nothing can be shown until one is connected (a headless compositor needs `create_output`; a laptop lid closed with no monitor has none)"
                ))
        }
        var targets = 0
        for screen in app.screens {
            let (isTarget, reason) = app.targetReason(screen)
            if isTarget { targets += 1 }
            var text =
                "\(screen.classification.kind.rawValue): \(screen.classification.reason). present: \(isTarget ? "a scene connects here" : "no scene here") (\(reason))"
            if screen.refreshMilliHz == 0 {
                text +=
                    ". It reports refresh 0 (nested or virtual output): the display link paces by frame callbacks and assumes 60 Hz for timing"
            }
            if !screen.hasConnectorName {
                text += ". The compositor gave no connector name; \"\(screen.name)\" is made from make/model"
            }
            findings.append(Finding(level: isTarget ? .ok : .warning, topic: "screen \(screen.name)", text: text))
        }
        if !app.screens.isEmpty && targets == 0 {
            findings.append(
                Finding(
                    level: .problem, topic: "present",
                    text:
                        "no screen would get an external scene: every screen is built-in or the main screen. Connect a display, mark the real panel with --builtin NAME (or SCREENPLAY_BUILTIN) so the others count as external, or use --all"
                ))
        } else if targets > 0 && !app.compositorInfo.hasLayerShell {
            findings.append(
                Finding(
                    level: .warning, topic: "present",
                    text:
                        "would show content on \(targets) screen(s) as fullscreen windows (no layer shell): \(app.externalScreens.map(\.name).joined(separator: ", "))"
                ))
        } else if targets > 0 {
            findings.append(
                Finding(
                    level: .ok, topic: "present",
                    text:
                        "would show content on \(targets) screen(s): \(app.externalScreens.map(\.name).joined(separator: ", "))"
                ))
        }
        findings.append(
            Finding(
                level: .ok, topic: "note",
                text:
                    "a screen switched off, an undock or a KVM switch looks like an unplug: the scene goes with the output and comes back when it returns while present runs"
            ))
        emit(
            findings, screens: app.screens, globals: app.compositorInfo.offeredProtocols.map(\.description),
            json: command.json)
        return findings.contains { $0.level == .problem } ? ExitCode.failure.rawValue : 0
    }

    /// Video: which decoder libmpv takes here (hardware or software) and why.
    /// Whether a frame that changed in part (the presenter's clock, a
    /// layout's region) redraws only that part; nil when EGL does not start
    /// (the EGL/GLES finding says why).
    private static func partialRedrawFinding(_ app: Application) -> Finding? {
        guard let driver = try? app.graphicsDriver() else { return nil }
        let (bufferAge, swapWithDamage) = (driver.offersBufferAge, driver.offersSwapWithDamage)
        if driver.presentsThroughSharedMemory {
            return Finding(
                level: .ok, topic: "partial redraws",
                text:
                    "software rendering (no EGL_EXT_buffer_age, no EGL_KHR_swap_buffers_with_damage on this driver): each scene keeps its last frame and presents through its own wl_shm buffers, so a frame redraws only the regions that changed, copies only those rows and tells the compositor exactly those rectangles"
            )
        }
        let compositor =
            swapWithDamage
            ? "EGL_KHR_swap_buffers_with_damage offered: the compositor is told only the changed rectangles"
            : "EGL_KHR_swap_buffers_with_damage not offered: the compositor is told the whole window changed"
        if bufferAge {
            return Finding(
                level: .ok, topic: "partial redraws",
                text: "EGL_EXT_buffer_age offered: a frame redraws only the regions that changed; \(compositor)")
        }
        return Finding(
            level: .warning, topic: "partial redraws",
            text:
                "EGL_EXT_buffer_age not offered (Mesa's software rendering over wl_shm lacks it), so the driver's buffers are redrawn whole every frame: a scene that changes in part (the presenter's clock, one region) draws that part into its own copy of the window and copies the whole copy into each new buffer (one full-window copy per frame, 4 bytes a pixel of memory), and while most frames repaint half the window or more each is drawn whole instead; \(compositor). Fix: a GPU driver with EGL_EXT_buffer_age (Mesa's GPU drivers offer it)"
        )
    }

    private static func videoFinding(_ app: Application) -> Finding {
        do {
            let report = try VideoPlayer.checkDecoding(on: app)
            let choice =
                report.usesHardware
                ? "hardware decoding (\(report.hardwareDecoder)) where the codec allows, software otherwise"
                : "software decoding (libavcodec; hwdec-current: \(report.hardwareDecoder))"
            return Finding(
                level: .ok, topic: "video",
                text:
                    "\(report.mpvVersion) with hwdec=auto-safe will use \(choice)\(report.explanation.isEmpty ? "" : ": \(report.explanation)")"
            )
        } catch {
            return Finding(
                level: .warning, topic: "video",
                text: "libmpv cannot decode video here: \(error); video content will not play (install libmpv2)")
        }
    }

    private static func webFinding(_ app: Application) -> Finding {
        let trust =
            "Debian 12's WPE WebKit 2.38 gets no security updates (support ended 2023-05-09): web items are for pages you trust, held to web.allow"
        do {
            let text =
                switch try WebPage.checkEngine(on: app) {
                case .eglImage: "frames as EGLImages, drawn without a copy"
                case .sharedMemory:
                    WebPage.presentsFillingFramesAsTheyAre
                        ? "frames through shared memory: a page that fills its panel is copied once into the panel's own wl_shm buffer and not drawn (software rendering, where drawing an EGLImage and reading it back would cost more); a page in a region or under other content is uploaded once per frame"
                        : "frames through shared memory, one upload per frame (EGL here cannot bind Wayland buffers: EGL_WL_bind_wayland_display is missing)"
                }
            return Finding(level: .warning, topic: "web pages", text: "WPE WebKit: \(text); \(trust)")
        } catch {
            return Finding(
                level: .warning, topic: "web pages",
                text:
                    "\(error.reason); web items will be skipped (install libwpewebkit-1.1-0 and libwpebackend-fdo-1.0-1)"
            )
        }
    }

    private static func socketHint(_ env: [String: String]) -> String {
        let runtime = env["XDG_RUNTIME_DIR"] ?? "/run/user/\(getuid())"
        let sockets = ((try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? [])
            .filter { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }.sorted()
        if sockets.isEmpty {
            return
                "no Wayland sockets in \(runtime): no compositor runs for this user (or XDG_RUNTIME_DIR is wrong); `screenplay demo` starts its own"
        }
        return "sockets in \(runtime): \(sockets.joined(separator: ", ")); set WAYLAND_DISPLAY to one of them"
    }

    private static func emit(_ findings: [Finding], screens: [Screen], globals: [String], json: Bool) {
        if json {
            let object: [String: Any] = [
                "findings": findings.map { ["level": $0.level.rawValue, "topic": $0.topic, "text": $0.text] },
                "screens": screens.map { OutputsRunner.json(for: $0, power: $0.powerState) },
                "globals": globals,
            ]
            if let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]) {
                print(String(decoding: data, as: UTF8.self))
            }
            return
        }
        for f in findings {
            let mark =
                switch f.level {
                case .ok: "ok     ";
                case .warning: "warning";
                case .problem: "PROBLEM"
                }
            print("\(mark) \(f.topic): \(f.text)")
        }
        if !globals.isEmpty { print("\nglobals: \(globals.joined(separator: ", "))") }
    }
}
