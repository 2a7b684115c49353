// What a desktop's launcher does before it starts an app: asks the compositor
// for an xdg_activation_v1 token, to hand over in XDG_ACTIVATION_TOKEN.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A tiny Wayland client in C (built once per test process, its protocol code
/// from wayland-scanner) that requests an activation token for `app_id` and
/// prints it. KWin 5.27 grants one to an ordinary client only while no other
/// window is active (else it answers `not-granted-666`): ask before the app starts.
enum ActivationLauncher {
    static let source = """
        #include <stdio.h>
        #include <string.h>
        #include <wayland-client.h>
        #include "xdg-activation-v1-client-protocol.h"
        static struct xdg_activation_v1 *activation;
        static char token[256];
        static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                           uint32_t version) {
            if (strcmp(interface, xdg_activation_v1_interface.name) == 0)
                activation = wl_registry_bind(registry, name, &xdg_activation_v1_interface, 1);
        }
        static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {}
        static const struct wl_registry_listener registry_listener = {global, global_remove};
        static void done(void *data, struct xdg_activation_token_v1 *t, const char *value) {
            snprintf(token, sizeof token, "%s", value);
        }
        static const struct xdg_activation_token_v1_listener token_listener = {done};
        int main(int argc, char **argv) {
            struct wl_display *display = wl_display_connect(NULL);
            if (!display) { fprintf(stderr, "cannot connect to the compositor\\n"); return 1; }
            struct wl_registry *registry = wl_display_get_registry(display);
            wl_registry_add_listener(registry, &registry_listener, NULL);
            wl_display_roundtrip(display);
            if (!activation) { fprintf(stderr, "the compositor offers no xdg_activation_v1\\n"); return 2; }
            struct xdg_activation_token_v1 *request = xdg_activation_v1_get_activation_token(activation);
            xdg_activation_token_v1_add_listener(request, &token_listener, NULL);
            if (argc > 1) xdg_activation_token_v1_set_app_id(request, argv[1]);
            xdg_activation_token_v1_commit(request);
            while (!token[0] && wl_display_dispatch(display) != -1) {}
            if (!token[0]) { fprintf(stderr, "no token: the connection failed\\n"); return 3; }
            printf("%s\\n", token);
            return 0;
        }
        """

    /// The launcher's path, built on first use, its protocol code from wayland-scanner.
    static func executable() throws -> String {
        try RigPrograms.build("activation-launcher", source: source, link: ["-lwayland-client"]) { directory in
            let xml = "/usr/share/wayland-protocols/staging/xdg-activation/xdg-activation-v1.xml"
            for (mode, file) in [
                ("client-header", "xdg-activation-v1-client-protocol.h"), ("private-code", "protocol.c"),
            ] {
                let result = try runProcess("wayland-scanner", [mode, xml, directory + "/" + file], timeout: 30)
                guard result.status == 0 else {
                    throw RigError(
                        "wayland-scanner \(mode) \(xml) failed: \(result.stderr) (install libwayland-bin, wayland-protocols)"
                    )
                }
            }
            return [directory + "/protocol.c"]
        }
    }

    /// A token for `appID` from the compositor `environment` reaches.
    static func token(appID: String, environment: [String: String]) throws -> String {
        let result = try runProcess(try executable(), [appID], environment: environment, timeout: 10)
        let token = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, !token.isEmpty else {
            throw RigError("no xdg_activation_v1 token (status \(result.status)): \(result.stderr)")
        }
        return token
    }
}
