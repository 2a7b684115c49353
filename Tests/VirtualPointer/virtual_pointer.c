// See include/VirtualPointer.h. Each call sends its requests and a frame,
// then round-trips, so the compositor has delivered the events to the
// focused client's queue by the time the call returns.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>
#include "include/VirtualPointer.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"

struct virtual_pointer {
    struct wl_display *display;
    struct wl_registry *registry;
    struct wl_seat *seat;
    struct zwlr_virtual_pointer_manager_v1 *manager;
    struct zwlr_virtual_pointer_v1 *pointer;
};

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    struct virtual_pointer *p = data;
    if (strcmp(interface, wl_seat_interface.name) == 0 && p->seat == NULL) {
        p->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    } else if (strcmp(interface, zwlr_virtual_pointer_manager_v1_interface.name) == 0) {
        p->manager = wl_registry_bind(registry, name, &zwlr_virtual_pointer_manager_v1_interface, 1);
    }
    (void)version;
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data; (void)registry; (void)name;
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

static uint32_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

virtual_pointer *virtual_pointer_connect(const char *display, char *error) {
    struct virtual_pointer *p = calloc(1, sizeof *p);
    if (!p) { snprintf(error, 256, "out of memory"); return NULL; }
    p->display = wl_display_connect(display);
    if (!p->display) {
        snprintf(error, 256, "cannot connect to the compositor at %s", display ? display : "$WAYLAND_DISPLAY");
        free(p);
        return NULL;
    }
    p->registry = wl_display_get_registry(p->display);
    wl_registry_add_listener(p->registry, &registry_listener, p);
    wl_display_roundtrip(p->display);
    if (!p->manager) {
        snprintf(error, 256, "the compositor offers no zwlr_virtual_pointer_manager_v1");
        virtual_pointer_disconnect(p);
        return NULL;
    }
    p->pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(p->manager, p->seat);
    wl_display_roundtrip(p->display);
    return p;
}

static bool finish(virtual_pointer *p) {
    zwlr_virtual_pointer_v1_frame(p->pointer);
    return wl_display_roundtrip(p->display) >= 0;
}

bool virtual_pointer_move(virtual_pointer *p, uint32_t x, uint32_t y, uint32_t width, uint32_t height) {
    zwlr_virtual_pointer_v1_motion_absolute(p->pointer, now_ms(), x, y, width, height);
    return finish(p);
}

bool virtual_pointer_button(virtual_pointer *p, uint32_t button, bool pressed) {
    zwlr_virtual_pointer_v1_button(
        p->pointer, now_ms(), button, pressed ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED);
    return finish(p);
}

bool virtual_pointer_scroll(virtual_pointer *p, double value) {
    zwlr_virtual_pointer_v1_axis(p->pointer, now_ms(), WL_POINTER_AXIS_VERTICAL_SCROLL, wl_fixed_from_double(value));
    return finish(p);
}

void virtual_pointer_disconnect(virtual_pointer *p) {
    if (!p) return;
    if (p->pointer) zwlr_virtual_pointer_v1_destroy(p->pointer);
    if (p->manager) zwlr_virtual_pointer_manager_v1_destroy(p->manager);
    if (p->seat) wl_seat_destroy(p->seat);
    if (p->registry) wl_registry_destroy(p->registry);
    wl_display_roundtrip(p->display);
    wl_display_disconnect(p->display);
    free(p);
}
