// A virtual keyboard with the standard keymap, for compositors nested in sway
// that read raw key codes with a keymap of their own (KWin's wayland backend).
import Foundation

/// Types one key through `zwp_virtual_keyboard_v1` with the default XKB keymap
/// (us): the key code sent is the one that key has on a real keyboard. wtype
/// instead makes a keymap per call with its keys on codes 1, 2, ...: a nested
/// KWin ignores that keymap and reads code 1 as Escape. The protocol's two
/// interfaces are declared here by hand (Debian ships no XML for it).
enum StandardKeyboard {
    static let source = """
        #define _GNU_SOURCE
        #include <stdio.h>
        #include <string.h>
        #include <sys/mman.h>
        #include <unistd.h>
        #include <wayland-client.h>
        #include <xkbcommon/xkbcommon.h>
        static const struct wl_interface keyboard_interface;
        static const struct wl_interface *no_types[] = {NULL, NULL, NULL, NULL};
        static const struct wl_interface *create_types[] = {&wl_seat_interface, &keyboard_interface};
        static const struct wl_message keyboard_requests[] = {
            {"keymap", "uhu", no_types}, {"key", "uuu", no_types}, {"modifiers", "uuuu", no_types}, {"destroy", "", no_types},
        };
        static const struct wl_interface keyboard_interface = {"zwp_virtual_keyboard_v1", 1, 4, keyboard_requests, 0, NULL};
        static const struct wl_message manager_requests[] = {{"create_virtual_keyboard", "on", create_types}};
        static const struct wl_interface manager_interface = {
            "zwp_virtual_keyboard_manager_v1", 1, 1, manager_requests, 0, NULL};
        static struct wl_seat *seat;
        static struct wl_proxy *manager;
        static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                           uint32_t version) {
            if (strcmp(interface, "wl_seat") == 0 && !seat)
                seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
            if (strcmp(interface, manager_interface.name) == 0)
                manager = wl_registry_bind(registry, name, &manager_interface, 1);
        }
        static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {}
        static const struct wl_registry_listener registry_listener = {global, global_remove};
        int main(int argc, char **argv) {
            if (argc < 2) { fprintf(stderr, "usage: keyboard KEYSYM-NAME\\n"); return 64; }
            struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
            struct xkb_keymap *keymap = xkb_keymap_new_from_names(context, NULL, XKB_KEYMAP_COMPILE_NO_FLAGS);
            xkb_keysym_t wanted = xkb_keysym_from_name(argv[1], XKB_KEYSYM_NO_FLAGS);
            if (!keymap || wanted == XKB_KEY_NoSymbol) { fprintf(stderr, "no keymap or no keysym %s\\n", argv[1]); return 65; }
            xkb_keycode_t code = 0;
            for (xkb_keycode_t k = xkb_keymap_min_keycode(keymap); k <= xkb_keymap_max_keycode(keymap) && !code; k++) {
                const xkb_keysym_t *syms;
                int n = xkb_keymap_key_get_syms_by_level(keymap, k, 0, 0, &syms);
                for (int i = 0; i < n; i++) if (syms[i] == wanted) code = k;
            }
            if (!code) { fprintf(stderr, "%s is on no key of the default keymap\\n", argv[1]); return 65; }
            struct wl_display *display = wl_display_connect(NULL);
            if (!display) { fprintf(stderr, "cannot connect to the compositor\\n"); return 1; }
            wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, NULL);
            wl_display_roundtrip(display);
            if (!seat || !manager) { fprintf(stderr, "no wl_seat or no zwp_virtual_keyboard_manager_v1\\n"); return 2; }
            struct wl_proxy *keyboard =
                wl_proxy_marshal_constructor(manager, 0, &keyboard_interface, seat, NULL);
            char *text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1);
            size_t size = strlen(text) + 1;
            int fd = memfd_create("keymap", MFD_CLOEXEC);
            if (fd < 0 || write(fd, text, size) != (ssize_t)size) { perror("keymap"); return 1; }
            wl_proxy_marshal(keyboard, 0, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, (uint32_t)size);
            wl_display_roundtrip(display);
            usleep(150000); /* a client binds wl_keyboard only when a keyboard appears on the seat */
            wl_proxy_marshal(keyboard, 1, 0, code - 8, WL_KEYBOARD_KEY_STATE_PRESSED);
            wl_display_roundtrip(display);
            wl_proxy_marshal(keyboard, 1, 20, code - 8, WL_KEYBOARD_KEY_STATE_RELEASED);
            wl_display_roundtrip(display);
            wl_proxy_marshal(keyboard, 3);
            wl_display_roundtrip(display);
            return 0;
        }
        """

    /// Types `key` (a keysym name: `Right`, `q`) on the compositor `environment` reaches.
    static func type(_ key: String, environment: [String: String]) throws {
        let program = try RigPrograms.build(
            "standard-keyboard", source: source, link: ["-lwayland-client", "-lxkbcommon"])
        let result = try runProcess(program, [key], environment: environment, timeout: 10)
        guard result.status == 0 else {
            throw RigError("the standard keyboard could not type \(key) (status \(result.status)): \(result.stderr)")
        }
    }
}
