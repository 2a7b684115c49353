// Hand-written (not generated): hands Swift the real addresses of the
// interface descriptions. libwayland identifies interfaces by address, and
// Swift may copy an imported `extern const struct` into a temporary.
#include <string.h>
#include "include/screenplay-interfaces.h"
#include "include/CWaylandProtocols.h"

const struct wl_interface *screenplay_interface(const char *name) {
    static const struct wl_interface *const known[] = {
        &wl_compositor_interface, &wl_output_interface, &wl_seat_interface,
        &wl_shm_interface, &xdg_wm_base_interface, &zxdg_output_manager_v1_interface,
        &zwlr_layer_shell_v1_interface, &wp_presentation_interface,
        &wp_viewporter_interface, &wp_fractional_scale_manager_v1_interface,
        &zwp_idle_inhibit_manager_v1_interface, &zwlr_output_manager_v1_interface,
        &zwlr_output_power_manager_v1_interface, &xdg_activation_v1_interface,
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(known[i]->name, name) == 0) return known[i];
    return NULL;
}
