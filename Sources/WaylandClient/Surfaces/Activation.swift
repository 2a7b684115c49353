import CWaylandProtocols
import Foundation

/// The launcher's `xdg_activation_v1` token: a desktop that starts an app
/// passes one in `XDG_ACTIVATION_TOKEN` so the app's first window may take
/// the focus (KWin's focus stealing prevention otherwise leaves it behind
/// the window that had it). Read once and removed from the environment, as
/// the protocol asks, so that children the app starts do not reuse it.
@MainActor
package enum LaunchActivation {
    private static var taken = false

    /// The token the process was started with, the first time it is asked
    /// for; nil after that, or when there was none.
    package static func takeToken() -> String? {
        guard !taken else { return nil }
        taken = true
        guard let token = ProcessInfo.processInfo.environment["XDG_ACTIVATION_TOKEN"], !token.isEmpty else {
            return nil
        }
        unsetenv("XDG_ACTIVATION_TOKEN")
        return token
    }
}

extension Surface {
    /// Asks the compositor to activate (focus) this surface's toplevel with
    /// a launcher's `token`; false when it offers no `xdg_activation_v1`.
    package func activate(token: String) -> Bool {
        guard let activation = compositor.activation else { return false }
        xdg_activation_v1_activate(activation, token, proxy)
        return true
    }
}
