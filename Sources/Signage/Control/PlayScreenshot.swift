import Dispatch
import Foundation
import Screenplay

/// `screenplay ctl screenshot`: what one panel shows now, read back from
/// its scene's own buffer at the panel's pixel size when it next draws
/// (within a refresh; a static panel draws its picture once more), and
/// sent back as PNG bytes, so the service writes no file for the caller.
@MainActor
enum PlayScreenshot {
    /// How long to wait for the frame: a panel that is off or hidden draws none.
    static let timeoutSeconds = 2.0

    /// The one panel `pattern` names; with no pattern, the only panel.
    static func panel(among panels: [PlayPanel], pattern: String?) -> Result<PlayPanel, ControlError> {
        let chosen: [PlayPanel]
        switch ControlTargets.panels(panels, matching: pattern) {
        case let .success(matched): chosen = matched
        case let .failure(error): return .failure(error)
        }
        guard chosen.count == 1, let panel = chosen.first else {
            if chosen.isEmpty { return .failure(ControlError("no panel is connected, so there is nothing to capture")) }
            let which = pattern.map { "'\($0)' matches" } ?? "there are"
            return .failure(
                ControlError(
                    "\(which) \(chosen.count) panels (\(chosen.map(\.outputName).joined(separator: ", "))); a screenshot is of one: give --output naming it"
                ))
        }
        return .success(panel)
    }

    /// Captures `panel`'s next frame and replies once: the PNG, or why not.
    static func take(of panel: PlayPanel, reply: @escaping @MainActor (Data) -> Void) {
        var answered = false
        let name = panel.outputName
        func answer(_ data: Data) {
            guard !answered else { return }
            answered = true
            reply(data)
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + timeoutSeconds) {
            MainActor.assumeIsolated {
                answer(
                    ControlReply.error(
                        "\(name) drew no frame within \(Int(timeoutSeconds)) s (its panel is off, or the compositor shows it nowhere); switch it on and ask again"
                    ))
            }
        }
        let asked = panel.captureNextFrame { result in
            switch result {
            case let .failure(error):
                answer(ControlReply.error("\(error)"))
            case let .success(frame):
                do {
                    let png = try frame.pngData()
                    answer(
                        ControlReply.encode([
                            "ok": true, "output": name, "width": frame.width, "height": frame.height,
                            "png": Data(png).base64EncodedString(),
                        ]))
                } catch {
                    answer(ControlReply.error("\(name): cannot encode the frame as PNG: \(error)"))
                }
            }
        }
        if !asked {
            answer(ControlReply.error("\(name) has no scene now (its screen went); ask again once it is back"))
        }
    }
}
