// The scripted test compositor (see include/ScriptedCompositor.h).
// Everything touching libwayland-server runs under `lock`: the server thread
// takes it to dispatch, command functions take it to act and flush.
#define _GNU_SOURCE
#include "renames.h"
#include "ScriptedCompositor.h"

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>
#include "protocols/wlr-layer-shell-unstable-v1-server-protocol.h"
#include "protocols/xdg-output-unstable-v1-server-protocol.h"
#include "protocols/xdg-shell-server-protocol.h"
#include "protocols/presentation-time-server-protocol.h"
#include "protocols/wlr-output-management-unstable-v1-server-protocol.h"
#include "protocols/wlr-output-power-management-unstable-v1-server-protocol.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define MAX_OUTPUTS 16
#define MAX_LAYERS 64
#define MAX_SERIALS 32
#define MAX_MODES 8
#define MAX_CONFIGS 64

struct sc_output {
    scripted_compositor *c;
    char name[64];
    int32_t x, y, width, height, scale, refresh;
    bool send_done;
    struct wl_global *global;
    struct wl_list resources;     // wl_output
    struct wl_list xdg_resources; // zxdg_output_v1
    // Output management: the head's identity and modes ({w, h, mHz}).
    bool has_wl_output;           // false: a disabled head with no wl_output
    char make[64], model[64], serial[64];
    int32_t modes[MAX_MODES][3];
    int mode_count, preferred, current; // current: index, or -1 for a custom mode
    struct wl_list heads;          // struct sc_head (one per manager resource)
    // Power: on unless switched off; frame callbacks of surfaces on an
    // output that is off wait here, as a panel that is off shows nothing.
    bool power_off;
    struct wl_list power_resources; // zwlr_output_power_v1
    struct wl_list held_frames;
};

struct sc_head {
    struct wl_list link;
    struct wl_resource *resource;
    struct wl_resource *modes[MAX_MODES];
    struct sc_output *o;
};

struct sc_config {
    scripted_compositor *c;
    uint32_t serial;
    int output;           // the head given a mode, or -1
    int mode;             // listed mode index, or -1 for custom
    int32_t custom[3];
    bool done;
};

struct sc_config_head {
    struct sc_config *cfg;
    int output;
};

struct sc_layer;
struct sc_toplevel;

struct sc_surface {
    scripted_compositor *c;
    struct wl_resource *resource;
    struct wl_resource *pending_buffer;
    struct wl_listener pending_buffer_destroyed;
    bool attached;
    struct wl_list pending_frames; // wl_callback resources until commit
    struct wl_list pending_feedback; // sc_feedback until commit
    struct sc_layer *layer;
    struct sc_toplevel *toplevel;
};

// A wp_presentation_feedback: pending on its surface until the commit, then
// waiting in the compositor's list for its due tick (or forever).
struct sc_feedback {
    struct wl_resource *resource;
    struct wl_list link;
    uint64_t due_tick;
    bool answer;
};

// An xdg_toplevel (with its xdg_surface): the fullscreen fallback's role.
struct sc_toplevel {
    struct wl_resource *xdg_surface; // NULL once destroyed
    struct wl_resource *resource;    // the xdg_toplevel; NULL once destroyed
    struct sc_surface *surface;
    int fullscreen_output;           // -1: not fullscreen or no output named
    bool initial_commit_done;
};

struct sc_layer {
    struct wl_resource *resource; // NULL once destroyed
    struct sc_surface *surface;   // NULL once the wl_surface is gone
    char output_name[64];
    int output;
    bool initial_commit_done;
    uint32_t sent[MAX_SERIALS];
    int sent_count;
    uint32_t acked[MAX_SERIALS];
    int acked_count;
    uint32_t unacked[MAX_SERIALS]; // sent, not yet acked or superseded
    int unacked_count;
    int32_t first_w, first_h, last_w, last_h;
};

struct scripted_compositor {
    pthread_mutex_t lock;
    pthread_t thread;
    int wake[2];
    bool stopping;
    struct wl_display *display;
    struct wl_event_loop *loop;
    struct wl_event_source *frame_timer;
    struct wl_protocol_logger *logger;
    struct wl_listener client_created;
    char dir[64];
    char socket_path[96];
    struct wl_global *layer_shell;
    struct sc_output outputs[MAX_OUTPUTS];
    int output_count;
    struct sc_layer layers[MAX_LAYERS];
    int layer_count;
    struct sc_toplevel toplevels[MAX_LAYERS];
    int toplevel_count;
    scripted_feedback_mode feedback_mode;
    int feedback_late;
    uint64_t tick;
    struct wl_list committed_feedback; // sc_feedback after their commit
    int feedback_requested, feedback_answered, feedback_live, feedback_commits;
    struct wl_list ready_frames; // wl_callback resources to fire on the next tick
    scripted_initial_reply reply;
    uint32_t reply_size[4];
    int errors;
    char last_error[256];
    int clients;
    int layer_shell_binds;
    // Output management and power.
    struct wl_list managers; // zwlr_output_manager_v1 resources
    uint32_t head_serial;
    scripted_config_reply config_reply;
    bool serial_change_pending;
    struct sc_config configs[MAX_CONFIGS];
    int config_count;
    struct sc_config_head config_heads[MAX_CONFIGS * 4];
    int config_head_count;
    uint32_t last_config_serial;
    bool power_refuses;
    int power_requests;
    // The seat (offered on request): wl_pointer and wl_touch resources, the
    // surface the pointer is over, and set_cursor requests seen.
    struct wl_list pointers;
    struct wl_list touches;
    struct wl_resource *pointer_focus;
    int cursor_sets;
    // A keyboard on the seat (offered on request): wl_keyboard resources and
    // the surface they have focus on.
    bool seat_keyboard;
    struct wl_list keyboards;
    struct wl_resource *keyboard_focus;
};

// A resource kept in a wl_list through its link; unlinked on destruction.
static void unlink_resource(struct wl_resource *resource) {
    wl_list_remove(wl_resource_get_link(resource));
}

static void destroy_resource(struct wl_client *client, struct wl_resource *resource) {
    (void)client;
    wl_resource_destroy(resource);
}

static uint32_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

static void flush(scripted_compositor *c) { wl_display_flush_clients(c->display); }

// MARK: wl_output and xdg-output

static const struct wl_output_interface output_impl = {.release = destroy_resource};

static void output_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
    struct sc_output *o = data;
    struct wl_resource *r = wl_resource_create(client, &wl_output_interface, (int)version, id);
    if (!r) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_resource_set_implementation(r, &output_impl, o, unlink_resource);
    wl_list_insert(&o->resources, wl_resource_get_link(r));
    wl_output_send_geometry(
        r, o->x, o->y, 300, 200, WL_OUTPUT_SUBPIXEL_UNKNOWN, "Scripted", o->name, WL_OUTPUT_TRANSFORM_NORMAL);
    wl_output_send_mode(
        r, WL_OUTPUT_MODE_CURRENT | WL_OUTPUT_MODE_PREFERRED, o->width, o->height, o->refresh);
    if (version >= WL_OUTPUT_SCALE_SINCE_VERSION) wl_output_send_scale(r, o->scale);
    if (version >= WL_OUTPUT_NAME_SINCE_VERSION) {
        wl_output_send_name(r, o->name);
        wl_output_send_description(r, o->name);
    }
    if (o->send_done && version >= WL_OUTPUT_DONE_SINCE_VERSION) wl_output_send_done(r);
}

static const struct zxdg_output_v1_interface xdg_output_impl = {.destroy = destroy_resource};

static void get_xdg_output(struct wl_client *client, struct wl_resource *manager, uint32_t id, struct wl_resource *output) {
    struct sc_output *o = wl_resource_get_user_data(output);
    int version = wl_resource_get_version(manager);
    struct wl_resource *r = wl_resource_create(client, &zxdg_output_v1_interface, version, id);
    if (!r) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_resource_set_implementation(r, &xdg_output_impl, o, unlink_resource);
    wl_list_insert(&o->xdg_resources, wl_resource_get_link(r));
    zxdg_output_v1_send_logical_position(r, o->x, o->y);
    zxdg_output_v1_send_logical_size(r, o->width / o->scale, o->height / o->scale);
    if (version >= ZXDG_OUTPUT_V1_NAME_SINCE_VERSION) {
        zxdg_output_v1_send_name(r, o->name);
        zxdg_output_v1_send_description(r, o->name);
    }
    if (!o->send_done) return;
    // v3 deprecates xdg_output.done: wl_output.done closes both descriptions.
    if (version >= 3) {
        if (wl_resource_get_version(output) >= WL_OUTPUT_DONE_SINCE_VERSION) wl_output_send_done(output);
    } else {
        zxdg_output_v1_send_done(r);
    }
}

static const struct zxdg_output_manager_v1_interface xdg_manager_impl = {
    .destroy = destroy_resource,
    .get_xdg_output = get_xdg_output,
};

static void xdg_manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(client, &zxdg_output_manager_v1_interface, (int)version, id);
    if (!r) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_resource_set_implementation(r, &xdg_manager_impl, data, NULL);
}

// MARK: layer shell

static struct sc_layer *layer_of(struct wl_resource *resource) { return wl_resource_get_user_data(resource); }

static uint32_t send_configure(scripted_compositor *c, struct sc_layer *l, uint32_t w, uint32_t h) {
    if (!l->resource) return 0;
    uint32_t serial = wl_display_next_serial(c->display);
    if (l->sent_count < MAX_SERIALS) l->sent[l->sent_count++] = serial;
    if (l->unacked_count < MAX_SERIALS) l->unacked[l->unacked_count++] = serial;
    zwlr_layer_surface_v1_send_configure(l->resource, serial, w, h);
    return serial;
}

static void layer_set_size(struct wl_client *cl, struct wl_resource *r, uint32_t w, uint32_t h) {
    (void)cl; (void)r; (void)w; (void)h;
}
static void layer_set_anchor(struct wl_client *cl, struct wl_resource *r, uint32_t anchor) {
    (void)cl;
    if (anchor > 15) wl_resource_post_error(r, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_ANCHOR, "anchor %u", anchor);
}
static void layer_set_zone(struct wl_client *cl, struct wl_resource *r, int32_t zone) { (void)cl; (void)r; (void)zone; }
static void layer_set_margin(struct wl_client *cl, struct wl_resource *r, int32_t t, int32_t ri, int32_t b, int32_t le) {
    (void)cl; (void)r; (void)t; (void)ri; (void)b; (void)le;
}
static void layer_set_keyboard(struct wl_client *cl, struct wl_resource *r, uint32_t k) {
    (void)cl;
    if (k > 2) wl_resource_post_error(r, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_KEYBOARD_INTERACTIVITY, "mode %u", k);
}
static void layer_get_popup(struct wl_client *cl, struct wl_resource *r, struct wl_resource *popup) {
    (void)cl; (void)popup;
    wl_resource_post_error(r, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE, "the fixture has no popups");
}
static void layer_set_layer(struct wl_client *cl, struct wl_resource *r, uint32_t layer) {
    (void)cl;
    if (layer > ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY)
        wl_resource_post_error(r, ZWLR_LAYER_SHELL_V1_ERROR_INVALID_LAYER, "layer %u", layer);
}

// As wlroots: a serial must be one sent and not yet acked or superseded;
// acking it supersedes every earlier one.
static void layer_ack(struct wl_client *cl, struct wl_resource *r, uint32_t serial) {
    (void)cl;
    struct sc_layer *l = layer_of(r);
    int found = -1;
    for (int i = 0; i < l->unacked_count; i++)
        if (l->unacked[i] == serial) found = i;
    if (found < 0) {
        wl_resource_post_error(r, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE, "wrong configure serial %u", serial);
        return;
    }
    memmove(l->unacked, l->unacked + found + 1, sizeof(uint32_t) * (size_t)(l->unacked_count - found - 1));
    l->unacked_count -= found + 1;
    if (l->acked_count < MAX_SERIALS) l->acked[l->acked_count++] = serial;
}

static void layer_destroyed(struct wl_resource *r) {
    struct sc_layer *l = layer_of(r);
    if (l->surface) l->surface->layer = NULL;
    l->surface = NULL;
    l->resource = NULL;
}

static const struct zwlr_layer_surface_v1_interface layer_impl = {
    .set_size = layer_set_size,
    .set_anchor = layer_set_anchor,
    .set_exclusive_zone = layer_set_zone,
    .set_margin = layer_set_margin,
    .set_keyboard_interactivity = layer_set_keyboard,
    .get_popup = layer_get_popup,
    .ack_configure = layer_ack,
    .destroy = destroy_resource,
    .set_layer = layer_set_layer,
};

static void get_layer_surface(
    struct wl_client *client, struct wl_resource *shell, uint32_t id, struct wl_resource *surface_resource,
    struct wl_resource *output, uint32_t layer, const char *namespace) {
    (void)namespace;
    scripted_compositor *c = wl_resource_get_user_data(shell);
    struct sc_surface *s = wl_resource_get_user_data(surface_resource);
    if (layer > ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY) {
        wl_resource_post_error(shell, ZWLR_LAYER_SHELL_V1_ERROR_INVALID_LAYER, "layer %u", layer);
        return;
    }
    if (s->layer) {
        wl_resource_post_error(shell, ZWLR_LAYER_SHELL_V1_ERROR_ROLE, "surface already has a role");
        return;
    }
    if (c->layer_count >= MAX_LAYERS) {
        wl_client_post_no_memory(client);
        return;
    }
    struct wl_resource *r = wl_resource_create(client, &zwlr_layer_surface_v1_interface, wl_resource_get_version(shell), id);
    if (!r) {
        wl_client_post_no_memory(client);
        return;
    }
    struct sc_layer *l = &c->layers[c->layer_count++];
    memset(l, 0, sizeof *l);
    l->resource = r;
    l->surface = s;
    l->output = -1;
    if (output) {
        struct sc_output *o = wl_resource_get_user_data(output);
        l->output = (int)(o - c->outputs);
        snprintf(l->output_name, sizeof l->output_name, "%s", o->name);
    }
    s->layer = l;
    wl_resource_set_implementation(r, &layer_impl, l, layer_destroyed);
}

static const struct zwlr_layer_shell_v1_interface layer_shell_impl = {
    .get_layer_surface = get_layer_surface,
    .destroy = destroy_resource,
};

static void layer_shell_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
    scripted_compositor *c = data;
    struct wl_resource *r = wl_resource_create(client, &zwlr_layer_shell_v1_interface, (int)version, id);
    if (!r) {
        wl_client_post_no_memory(client);
        return;
    }
    c->layer_shell_binds++;
    wl_resource_set_implementation(r, &layer_shell_impl, c, NULL);
}

// The first commit of a layer surface asks for its first configure.
static void initial_reply(scripted_compositor *c, struct sc_layer *l) {
    uint32_t w = c->reply_size[0], h = c->reply_size[1];
    switch (c->reply) {
    case SCRIPTED_CONFIGURE_OUTPUT_SIZE: {
        const struct sc_output *o = l->output >= 0 ? &c->outputs[l->output] : (c->output_count ? &c->outputs[0] : NULL);
        send_configure(c, l, o ? (uint32_t)(o->width / o->scale) : 640, o ? (uint32_t)(o->height / o->scale) : 480);
        break;
    }
    case SCRIPTED_CONFIGURE_SIZE:
        send_configure(c, l, w, h);
        break;
    case SCRIPTED_CONFIGURE_TWICE:
        send_configure(c, l, w, h);
        send_configure(c, l, c->reply_size[2], c->reply_size[3]);
        break;
    case SCRIPTED_CLOSE:
        zwlr_layer_surface_v1_send_closed(l->resource);
        break;
    }
}

// MARK: wp_presentation

static void feedback_destroyed(struct wl_resource *r) {
    struct sc_feedback *f = wl_resource_get_user_data(r);
    wl_list_remove(&f->link);
    free(f);
}

static void presentation_feedback(
    struct wl_client *client, struct wl_resource *presentation, struct wl_resource *surface, uint32_t id) {
    scripted_compositor *c = wl_resource_get_user_data(presentation);
    struct sc_surface *s = wl_resource_get_user_data(surface);
    struct sc_feedback *f = calloc(1, sizeof *f);
    if (!f) {
        wl_client_post_no_memory(client);
        return;
    }
    f->resource = wl_resource_create(client, &wp_presentation_feedback_interface, 1, id);
    if (!f->resource) {
        free(f);
        wl_client_post_no_memory(client);
        return;
    }
    c->feedback_requested++;
    c->feedback_live++;
    wl_list_insert(s->pending_feedback.prev, &f->link);
    wl_resource_set_implementation(f->resource, NULL, f, feedback_destroyed);
}

static const struct wp_presentation_interface presentation_impl = {
    .destroy = destroy_resource,
    .feedback = presentation_feedback,
};

static void presentation_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(client, &wp_presentation_interface, (int)version, id);
    if (!r) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_resource_set_implementation(r, &presentation_impl, data, NULL);
    wp_presentation_send_clock_id(r, CLOCK_MONOTONIC);
}

// On commit the surface's feedback requests wait for their tick; which are
// ever answered depends on the scripted mode.
static void commit_feedback(scripted_compositor *c, struct sc_surface *s) {
    if (wl_list_empty(&s->pending_feedback)) return;
    c->feedback_commits++;
    bool answer = c->feedback_mode == SCRIPTED_FEEDBACK_LATE
        || (c->feedback_mode == SCRIPTED_FEEDBACK_ALTERNATE && c->feedback_commits % 2 == 0);
    struct sc_feedback *f, *tmp;
    wl_list_for_each_safe(f, tmp, &s->pending_feedback, link) {
        f->due_tick = c->tick + (uint64_t)(c->feedback_late > 0 ? c->feedback_late : 1);
        f->answer = answer;
        wl_list_remove(&f->link);
        wl_list_insert(c->committed_feedback.prev, &f->link);
    }
}

static void answer_due_feedback(scripted_compositor *c) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t sec = (uint64_t)ts.tv_sec;
    struct sc_feedback *f, *tmp;
    wl_list_for_each_safe(f, tmp, &c->committed_feedback, link) {
        if (!f->answer || f->due_tick > c->tick) continue;
        wp_presentation_feedback_send_presented(
            f->resource, (uint32_t)(sec >> 32), (uint32_t)sec, (uint32_t)ts.tv_nsec, 16666667,
            (uint32_t)(c->tick >> 32), (uint32_t)c->tick, 0);
        c->feedback_answered++;
        c->feedback_live--;
        wl_resource_destroy(f->resource); // frees f through feedback_destroyed
    }
}

// MARK: xdg-shell (toplevels only)

static struct sc_toplevel *toplevel_of(struct wl_resource *r) { return wl_resource_get_user_data(r); }

static void toplevel_configure(scripted_compositor *c, struct sc_toplevel *t) {
    if (!t->resource || !t->xdg_surface) return;
    int32_t w = 0, h = 0;
    struct wl_array states;
    wl_array_init(&states);
    if (t->fullscreen_output >= 0) {
        const struct sc_output *o = &c->outputs[t->fullscreen_output];
        w = o->width / o->scale;
        h = o->height / o->scale;
        uint32_t *state = wl_array_add(&states, sizeof *state);
        if (state) *state = XDG_TOPLEVEL_STATE_FULLSCREEN;
    }
    xdg_toplevel_send_configure(t->resource, w, h, &states);
    wl_array_release(&states);
    xdg_surface_send_configure(t->xdg_surface, wl_display_next_serial(c->display));
}

static void tl_set_parent(struct wl_client *cl, struct wl_resource *r, struct wl_resource *p) { (void)cl; (void)r; (void)p; }
static void tl_set_string(struct wl_client *cl, struct wl_resource *r, const char *v) { (void)cl; (void)r; (void)v; }
static void tl_show_menu(struct wl_client *cl, struct wl_resource *r, struct wl_resource *seat, uint32_t serial, int32_t x, int32_t y) {
    (void)cl; (void)r; (void)seat; (void)serial; (void)x; (void)y;
}
static void tl_move(struct wl_client *cl, struct wl_resource *r, struct wl_resource *seat, uint32_t serial) {
    (void)cl; (void)r; (void)seat; (void)serial;
}
static void tl_resize(struct wl_client *cl, struct wl_resource *r, struct wl_resource *seat, uint32_t serial, uint32_t edges) {
    (void)cl; (void)r; (void)seat; (void)serial; (void)edges;
}
static void tl_set_size(struct wl_client *cl, struct wl_resource *r, int32_t w, int32_t h) { (void)cl; (void)r; (void)w; (void)h; }
static void tl_nothing(struct wl_client *cl, struct wl_resource *r) { (void)cl; (void)r; }
static void tl_set_fullscreen(struct wl_client *cl, struct wl_resource *r, struct wl_resource *output) {
    (void)cl;
    struct sc_toplevel *t = toplevel_of(r);
    struct sc_output *o = output ? wl_resource_get_user_data(output) : NULL;
    t->fullscreen_output = o ? (int)(o - t->surface->c->outputs) : -1;
}
static void tl_unset_fullscreen(struct wl_client *cl, struct wl_resource *r) {
    (void)cl;
    toplevel_of(r)->fullscreen_output = -1;
}

static const struct xdg_toplevel_interface toplevel_impl = {
    .destroy = destroy_resource,
    .set_parent = tl_set_parent,
    .set_title = tl_set_string,
    .set_app_id = tl_set_string,
    .show_window_menu = tl_show_menu,
    .move = tl_move,
    .resize = tl_resize,
    .set_max_size = tl_set_size,
    .set_min_size = tl_set_size,
    .set_maximized = tl_nothing,
    .unset_maximized = tl_nothing,
    .set_fullscreen = tl_set_fullscreen,
    .unset_fullscreen = tl_unset_fullscreen,
    .set_minimized = tl_nothing,
};

static void toplevel_destroyed(struct wl_resource *r) { toplevel_of(r)->resource = NULL; }

static void xs_get_toplevel(struct wl_client *client, struct wl_resource *r, uint32_t id) {
    struct sc_toplevel *t = toplevel_of(r);
    t->resource = wl_resource_create(client, &xdg_toplevel_interface, wl_resource_get_version(r), id);
    if (!t->resource) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_resource_set_implementation(t->resource, &toplevel_impl, t, toplevel_destroyed);
}
static void xs_get_popup(struct wl_client *cl, struct wl_resource *r, uint32_t id, struct wl_resource *parent, struct wl_resource *pos) {
    (void)cl; (void)id; (void)parent; (void)pos;
    wl_resource_post_error(r, XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT, "the fixture has no popups");
}
static void xs_set_geometry(struct wl_client *cl, struct wl_resource *r, int32_t x, int32_t y, int32_t w, int32_t h) {
    (void)cl; (void)r; (void)x; (void)y; (void)w; (void)h;
}
static void xs_ack(struct wl_client *cl, struct wl_resource *r, uint32_t serial) { (void)cl; (void)r; (void)serial; }

static const struct xdg_surface_interface xdg_surface_impl = {
    .destroy = destroy_resource,
    .get_toplevel = xs_get_toplevel,
    .get_popup = xs_get_popup,
    .set_window_geometry = xs_set_geometry,
    .ack_configure = xs_ack,
};

static void xdg_surface_destroyed(struct wl_resource *r) {
    struct sc_toplevel *t = toplevel_of(r);
    t->xdg_surface = NULL;
    if (t->surface) t->surface->toplevel = NULL;
    t->surface = NULL;
}

static void wm_create_positioner(struct wl_client *cl, struct wl_resource *r, uint32_t id) {
    (void)cl; (void)id;
    wl_resource_post_error(r, XDG_WM_BASE_ERROR_INVALID_POSITIONER, "the fixture has no positioners");
}
static void wm_get_xdg_surface(struct wl_client *client, struct wl_resource *r, uint32_t id, struct wl_resource *surface) {
    scripted_compositor *c = wl_resource_get_user_data(r);
    struct sc_surface *s = wl_resource_get_user_data(surface);
    if (s->layer || s->toplevel) {
        wl_resource_post_error(r, XDG_WM_BASE_ERROR_ROLE, "surface already has a role");
        return;
    }
    if (c->toplevel_count >= MAX_LAYERS) {
        wl_client_post_no_memory(client);
        return;
    }
    struct sc_toplevel *t = &c->toplevels[c->toplevel_count++];
    memset(t, 0, sizeof *t);
    t->surface = s;
    t->fullscreen_output = -1;
    t->xdg_surface = wl_resource_create(client, &xdg_surface_interface, wl_resource_get_version(r), id);
    if (!t->xdg_surface) {
        wl_client_post_no_memory(client);
        return;
    }
    s->toplevel = t;
    wl_resource_set_implementation(t->xdg_surface, &xdg_surface_impl, t, xdg_surface_destroyed);
}
static void wm_pong(struct wl_client *cl, struct wl_resource *r, uint32_t serial) { (void)cl; (void)r; (void)serial; }

static const struct xdg_wm_base_interface wm_base_impl = {
    .destroy = destroy_resource,
    .create_positioner = wm_create_positioner,
    .get_xdg_surface = wm_get_xdg_surface,
    .pong = wm_pong,
};

static void wm_base_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(client, &xdg_wm_base_interface, (int)version, id);
    if (!r) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_resource_set_implementation(r, &wm_base_impl, data, NULL);
}

// MARK: wl_surface, wl_region, wl_compositor

static void pending_buffer_destroyed(struct wl_listener *listener, void *data) {
    (void)data;
    struct sc_surface *s = wl_container_of(listener, s, pending_buffer_destroyed);
    wl_list_remove(&listener->link);
    wl_list_init(&listener->link);
    s->pending_buffer = NULL;
}

static void surface_attach(struct wl_client *cl, struct wl_resource *r, struct wl_resource *buffer, int32_t x, int32_t y) {
    (void)cl; (void)x; (void)y;
    struct sc_surface *s = wl_resource_get_user_data(r);
    if (s->pending_buffer) pending_buffer_destroyed(&s->pending_buffer_destroyed, NULL);
    s->attached = true;
    s->pending_buffer = buffer;
    if (buffer) wl_resource_add_destroy_listener(buffer, &s->pending_buffer_destroyed);
}

static void surface_damage(struct wl_client *cl, struct wl_resource *r, int32_t x, int32_t y, int32_t w, int32_t h) {
    (void)cl; (void)r; (void)x; (void)y; (void)w; (void)h;
}

static void callback_destroyed(struct wl_resource *r) { unlink_resource(r); }

static void surface_frame(struct wl_client *client, struct wl_resource *r, uint32_t id) {
    struct sc_surface *s = wl_resource_get_user_data(r);
    struct wl_resource *cb = wl_resource_create(client, &wl_callback_interface, 1, id);
    if (!cb) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_resource_set_implementation(cb, NULL, NULL, callback_destroyed);
    wl_list_insert(s->pending_frames.prev, wl_resource_get_link(cb));
}

static void surface_set_region(struct wl_client *cl, struct wl_resource *r, struct wl_resource *region) {
    (void)cl; (void)r; (void)region;
}

static void surface_commit(struct wl_client *cl, struct wl_resource *r) {
    (void)cl;
    struct sc_surface *s = wl_resource_get_user_data(r);
    scripted_compositor *c = s->c;
    struct wl_resource *buffer = s->attached ? s->pending_buffer : NULL;
    s->attached = false;
    if (s->pending_buffer) pending_buffer_destroyed(&s->pending_buffer_destroyed, NULL);
    struct sc_layer *l = s->layer;
    struct wl_list *due = &c->ready_frames;
    if (l && l->output >= 0 && c->outputs[l->output].power_off) due = &c->outputs[l->output].held_frames;
    wl_list_insert_list(due->prev, &s->pending_frames);
    wl_list_init(&s->pending_frames);
    commit_feedback(c, s);
    struct sc_toplevel *t = s->toplevel;
    if (t && !t->initial_commit_done) {
        t->initial_commit_done = true;
        toplevel_configure(c, t);
        return;
    }
    if (l && !l->initial_commit_done) {
        l->initial_commit_done = true;
        if (buffer) {
            wl_resource_post_error(
                l->resource, ZWLR_LAYER_SHELL_V1_ERROR_ALREADY_CONSTRUCTED, "buffer attached before the first configure");
            return;
        }
        initial_reply(c, l);
        return;
    }
    if (!buffer) return;
    if (l && l->acked_count == 0) {
        wl_resource_post_error(
            l->resource, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE, "buffer committed before any ack_configure");
        return;
    }
    struct wl_shm_buffer *shm = wl_shm_buffer_get(buffer);
    if (l && shm) {
        l->last_w = wl_shm_buffer_get_width(shm);
        l->last_h = wl_shm_buffer_get_height(shm);
        if (!l->first_w) {
            l->first_w = l->last_w;
            l->first_h = l->last_h;
        }
    }
    // Nothing is composited: the buffer is free again at once.
    wl_buffer_send_release(buffer);
}

static void surface_set_int(struct wl_client *cl, struct wl_resource *r, int32_t value) {
    (void)cl; (void)r; (void)value;
}

static void surface_offset(struct wl_client *cl, struct wl_resource *r, int32_t x, int32_t y) {
    (void)cl; (void)r; (void)x; (void)y;
}

static const struct wl_surface_interface surface_impl = {
    .destroy = destroy_resource,
    .attach = surface_attach,
    .damage = surface_damage,
    .frame = surface_frame,
    .set_opaque_region = surface_set_region,
    .set_input_region = surface_set_region,
    .commit = surface_commit,
    .set_buffer_transform = surface_set_int,
    .set_buffer_scale = surface_set_int,
    .damage_buffer = surface_damage,
    .offset = surface_offset,
};

static void surface_destroyed(struct wl_resource *r) {
    struct sc_surface *s = wl_resource_get_user_data(r);
    if (s->pending_buffer) pending_buffer_destroyed(&s->pending_buffer_destroyed, NULL);
    // Callbacks asked for but never committed: answer them anyway.
    wl_list_insert_list(s->c->ready_frames.prev, &s->pending_frames);
    // Feedback asked for but never committed: discarded, as the protocol says.
    struct sc_feedback *f, *tmp;
    wl_list_for_each_safe(f, tmp, &s->pending_feedback, link) {
        wp_presentation_feedback_send_discarded(f->resource);
        s->c->feedback_answered++;
        s->c->feedback_live--;
        wl_resource_destroy(f->resource);
    }
    if (s->layer) s->layer->surface = NULL;
    if (s->toplevel) s->toplevel->surface = NULL;
    free(s);
}

static void region_add(struct wl_client *cl, struct wl_resource *r, int32_t x, int32_t y, int32_t w, int32_t h) {
    (void)cl; (void)r; (void)x; (void)y; (void)w; (void)h;
}

static const struct wl_region_interface region_impl = {
    .destroy = destroy_resource,
    .add = region_add,
    .subtract = region_add,
};

static void create_surface(struct wl_client *client, struct wl_resource *compositor, uint32_t id) {
    struct sc_surface *s = calloc(1, sizeof *s);
    if (!s) {
        wl_client_post_no_memory(client);
        return;
    }
    s->resource = wl_resource_create(client, &wl_surface_interface, wl_resource_get_version(compositor), id);
    if (!s->resource) {
        free(s);
        wl_client_post_no_memory(client);
        return;
    }
    s->c = wl_resource_get_user_data(compositor);
    wl_list_init(&s->pending_frames);
    wl_list_init(&s->pending_feedback);
    wl_list_init(&s->pending_buffer_destroyed.link);
    s->pending_buffer_destroyed.notify = pending_buffer_destroyed;
    wl_resource_set_implementation(s->resource, &surface_impl, s, surface_destroyed);
}

static void create_region(struct wl_client *client, struct wl_resource *compositor, uint32_t id) {
    struct wl_resource *r = wl_resource_create(client, &wl_region_interface, wl_resource_get_version(compositor), id);
    if (!r) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_resource_set_implementation(r, &region_impl, NULL, NULL);
}

static const struct wl_compositor_interface compositor_impl = {
    .create_surface = create_surface,
    .create_region = create_region,
};

static void compositor_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(client, &wl_compositor_interface, (int)version, id);
    if (!r) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_resource_set_implementation(r, &compositor_impl, data, NULL);
}

// MARK: output management (zwlr_output_manager_v1) and power

static void head_destroyed(struct wl_resource *r) {
    struct sc_head *h = wl_resource_get_user_data(r);
    if (!h) return;
    wl_list_remove(&h->link);
    free(h);
}

static const struct zwlr_output_head_v1_interface head_impl = {.release = destroy_resource};
static const struct zwlr_output_mode_v1_interface mode_impl = {.release = destroy_resource};

static void mode_destroyed(struct wl_resource *r) {
    struct sc_head *h = wl_resource_get_user_data(r);
    if (!h) return;
    for (int i = 0; i < MAX_MODES; i++)
        if (h->modes[i] == r) h->modes[i] = NULL;
}

static void send_head(scripted_compositor *c, struct wl_resource *manager, struct sc_output *o) {
    struct wl_client *client = wl_resource_get_client(manager);
    int version = wl_resource_get_version(manager);
    struct sc_head *h = calloc(1, sizeof *h);
    if (!h) return;
    h->o = o;
    h->resource = wl_resource_create(client, &zwlr_output_head_v1_interface, version, 0);
    if (!h->resource) {
        free(h);
        return;
    }
    wl_resource_set_implementation(h->resource, &head_impl, h, head_destroyed);
    wl_list_insert(&o->heads, &h->link);
    zwlr_output_manager_v1_send_head(manager, h->resource);
    zwlr_output_head_v1_send_name(h->resource, o->name);
    zwlr_output_head_v1_send_description(h->resource, o->name);
    zwlr_output_head_v1_send_physical_size(h->resource, 300, 200);
    if (version >= ZWLR_OUTPUT_HEAD_V1_MAKE_SINCE_VERSION) {
        if (o->make[0]) zwlr_output_head_v1_send_make(h->resource, o->make);
        if (o->model[0]) zwlr_output_head_v1_send_model(h->resource, o->model);
        if (o->serial[0]) zwlr_output_head_v1_send_serial_number(h->resource, o->serial);
    }
    for (int i = 0; i < o->mode_count; i++) {
        struct wl_resource *m = wl_resource_create(client, &zwlr_output_mode_v1_interface, version >= 3 ? 3 : version, 0);
        if (!m) continue;
        wl_resource_set_implementation(m, &mode_impl, h, mode_destroyed);
        h->modes[i] = m;
        zwlr_output_head_v1_send_mode(h->resource, m);
        zwlr_output_mode_v1_send_size(m, o->modes[i][0], o->modes[i][1]);
        if (o->modes[i][2] > 0) zwlr_output_mode_v1_send_refresh(m, o->modes[i][2]);
        if (i == o->preferred) zwlr_output_mode_v1_send_preferred(m);
    }
    zwlr_output_head_v1_send_enabled(h->resource, o->has_wl_output);
    if (o->has_wl_output) {
        if (o->current >= 0 && h->modes[o->current]) zwlr_output_head_v1_send_current_mode(h->resource, h->modes[o->current]);
        zwlr_output_head_v1_send_position(h->resource, o->x, o->y);
        zwlr_output_head_v1_send_transform(h->resource, WL_OUTPUT_TRANSFORM_NORMAL);
        zwlr_output_head_v1_send_scale(h->resource, wl_fixed_from_int(o->scale));
    }
    if (version >= ZWLR_OUTPUT_HEAD_V1_ADAPTIVE_SYNC_SINCE_VERSION)
        zwlr_output_head_v1_send_adaptive_sync(h->resource, ZWLR_OUTPUT_HEAD_V1_ADAPTIVE_SYNC_STATE_DISABLED);
}

static void send_manager_done(scripted_compositor *c) {
    struct wl_resource *r;
    wl_resource_for_each(r, &c->managers) zwlr_output_manager_v1_send_done(r, c->head_serial);
}

static struct sc_config *config_of(struct wl_resource *r) { return wl_resource_get_user_data(r); }

static void config_head_set_mode(struct wl_client *cl, struct wl_resource *r, struct wl_resource *mode) {
    (void)cl;
    struct sc_config_head *ch = wl_resource_get_user_data(r);
    struct sc_head *h = wl_resource_get_user_data(mode);
    if (!ch || !h) return;
    if (h->o != &ch->cfg->c->outputs[ch->output]) {
        wl_resource_post_error(r, ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_MODE, "mode of another head");
        return;
    }
    for (int i = 0; i < MAX_MODES; i++)
        if (h->modes[i] == mode) {
            ch->cfg->output = ch->output;
            ch->cfg->mode = i;
        }
}

static void config_head_set_custom_mode(struct wl_client *cl, struct wl_resource *r, int32_t w, int32_t h, int32_t refresh) {
    (void)cl;
    struct sc_config_head *ch = wl_resource_get_user_data(r);
    if (!ch) return;
    struct sc_config *cfg = ch->cfg;
    cfg->output = ch->output;
    cfg->mode = -1;
    cfg->custom[0] = w; cfg->custom[1] = h; cfg->custom[2] = refresh;
}

static void config_head_ignore_xy(struct wl_client *cl, struct wl_resource *r, int32_t a, int32_t b) { (void)cl; (void)r; (void)a; (void)b; }
static void config_head_ignore_int(struct wl_client *cl, struct wl_resource *r, int32_t a) { (void)cl; (void)r; (void)a; }
static void config_head_ignore_uint(struct wl_client *cl, struct wl_resource *r, uint32_t a) { (void)cl; (void)r; (void)a; }

static const struct zwlr_output_configuration_head_v1_interface config_head_impl = {
    .set_mode = config_head_set_mode,
    .set_custom_mode = config_head_set_custom_mode,
    .set_position = config_head_ignore_xy,
    .set_transform = config_head_ignore_int,
    .set_scale = config_head_ignore_int,
    .set_adaptive_sync = config_head_ignore_uint,
};

static void config_enable_head(struct wl_client *client, struct wl_resource *r, uint32_t id, struct wl_resource *head) {
    struct sc_config *cfg = config_of(r);
    struct wl_resource *ch = wl_resource_create(client, &zwlr_output_configuration_head_v1_interface, wl_resource_get_version(r), id);
    if (!ch) {
        wl_client_post_no_memory(client);
        return;
    }
    struct sc_head *h = wl_resource_get_user_data(head);
    struct sc_config_head *record = NULL;
    if (h && cfg->c->config_head_count < MAX_CONFIGS * 4) {
        record = &cfg->c->config_heads[cfg->c->config_head_count++];
        record->cfg = cfg;
        record->output = (int)(h->o - cfg->c->outputs);
    }
    wl_resource_set_implementation(ch, &config_head_impl, record, NULL);
}

static void config_disable_head(struct wl_client *cl, struct wl_resource *r, struct wl_resource *head) {
    (void)cl; (void)r; (void)head;
}

static void apply_mode_locked(scripted_compositor *c, struct sc_config *cfg) {
    if (cfg->output < 0) return;
    struct sc_output *o = &c->outputs[cfg->output];
    if (cfg->mode >= 0) {
        o->current = cfg->mode;
        o->width = o->modes[cfg->mode][0];
        o->height = o->modes[cfg->mode][1];
        o->refresh = o->modes[cfg->mode][2];
    } else if (cfg->custom[0] > 0) {
        o->current = -1;
        o->width = cfg->custom[0];
        o->height = cfg->custom[1];
        o->refresh = cfg->custom[2];
    } else {
        return;
    }
    struct wl_resource *r;
    wl_resource_for_each(r, &o->resources) {
        wl_output_send_mode(r, WL_OUTPUT_MODE_CURRENT, o->width, o->height, o->refresh);
        if (wl_resource_get_version(r) >= WL_OUTPUT_DONE_SINCE_VERSION) wl_output_send_done(r);
    }
    struct sc_head *h;
    wl_list_for_each(h, &o->heads, link) {
        if (o->current >= 0 && h->modes[o->current]) zwlr_output_head_v1_send_current_mode(h->resource, h->modes[o->current]);
    }
    c->head_serial++;
    send_manager_done(c);
}

static void config_answer(struct wl_resource *r, bool apply) {
    struct sc_config *cfg = config_of(r);
    scripted_compositor *c = cfg->c;
    if (cfg->done) {
        wl_resource_post_error(r, ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_ALREADY_USED, "configuration already used");
        return;
    }
    cfg->done = true;
    if (cfg->serial != c->head_serial) {
        zwlr_output_configuration_v1_send_cancelled(r);
    } else if (c->config_reply == SCRIPTED_CONFIG_FAIL) {
        zwlr_output_configuration_v1_send_failed(r);
    } else {
        if (apply) apply_mode_locked(c, cfg);
        zwlr_output_configuration_v1_send_succeeded(r);
    }
}

static void config_apply(struct wl_client *cl, struct wl_resource *r) { (void)cl; config_answer(r, true); }
static void config_test(struct wl_client *cl, struct wl_resource *r) { (void)cl; config_answer(r, false); }

static const struct zwlr_output_configuration_v1_interface config_impl = {
    .enable_head = config_enable_head,
    .disable_head = config_disable_head,
    .apply = config_apply,
    .test = config_test,
    .destroy = destroy_resource,
};

static void create_configuration(struct wl_client *client, struct wl_resource *manager, uint32_t id, uint32_t serial) {
    scripted_compositor *c = wl_resource_get_user_data(manager);
    if (c->config_count >= MAX_CONFIGS) {
        wl_client_post_no_memory(client);
        return;
    }
    struct sc_config *cfg = &c->configs[c->config_count++];
    memset(cfg, 0, sizeof *cfg);
    cfg->c = c;
    cfg->serial = serial;
    cfg->output = -1;
    cfg->mode = -1;
    c->last_config_serial = serial;
    struct wl_resource *r = wl_resource_create(client, &zwlr_output_configuration_v1_interface, wl_resource_get_version(manager), id);
    if (!r) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_resource_set_implementation(r, &config_impl, cfg, NULL);
    // As a hot-plug racing the client: the state changes after the client
    // read its serial, so this configuration will be cancelled.
    if (c->serial_change_pending) {
        c->serial_change_pending = false;
        c->head_serial++;
        send_manager_done(c);
    }
}

static void manager_stop(struct wl_client *cl, struct wl_resource *r) {
    (void)cl;
    zwlr_output_manager_v1_send_finished(r);
    wl_resource_destroy(r);
}

static const struct zwlr_output_manager_v1_interface manager_impl = {
    .create_configuration = create_configuration,
    .stop = manager_stop,
};

static void output_manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
    scripted_compositor *c = data;
    struct wl_resource *r = wl_resource_create(client, &zwlr_output_manager_v1_interface, (int)version, id);
    if (!r) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_resource_set_implementation(r, &manager_impl, c, unlink_resource);
    wl_list_insert(&c->managers, wl_resource_get_link(r));
    // Heads in the reverse order of the wl_outputs, so a client matching
    // by position instead of by name gets them wrong.
    for (int i = c->output_count - 1; i >= 0; i--) send_head(c, r, &c->outputs[i]);
    zwlr_output_manager_v1_send_done(r, c->head_serial);
}

static void set_power_locked(scripted_compositor *c, struct sc_output *o, bool on) {
    o->power_off = !on;
    struct wl_resource *r;
    wl_resource_for_each(r, &o->power_resources) zwlr_output_power_v1_send_mode(r, on ? ZWLR_OUTPUT_POWER_V1_MODE_ON : ZWLR_OUTPUT_POWER_V1_MODE_OFF);
    if (on) {
        wl_list_insert_list(c->ready_frames.prev, &o->held_frames);
        wl_list_init(&o->held_frames);
    }
}

static void power_set_mode(struct wl_client *cl, struct wl_resource *r, uint32_t mode) {
    (void)cl;
    struct sc_output *o = wl_resource_get_user_data(r);
    scripted_compositor *c = o->c;
    c->power_requests++;
    if (mode > ZWLR_OUTPUT_POWER_V1_MODE_ON) {
        wl_resource_post_error(r, ZWLR_OUTPUT_POWER_V1_ERROR_INVALID_MODE, "power mode %u", mode);
        return;
    }
    if (c->power_refuses) {
        zwlr_output_power_v1_send_failed(r);
        return;
    }
    set_power_locked(c, o, mode == ZWLR_OUTPUT_POWER_V1_MODE_ON);
}

static const struct zwlr_output_power_v1_interface power_impl = {
    .set_mode = power_set_mode,
    .destroy = destroy_resource,
};

static void get_output_power(struct wl_client *client, struct wl_resource *manager, uint32_t id, struct wl_resource *output) {
    (void)manager;
    struct sc_output *o = wl_resource_get_user_data(output);
    struct wl_resource *r = wl_resource_create(client, &zwlr_output_power_v1_interface, 1, id);
    if (!r) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_resource_set_implementation(r, &power_impl, o, unlink_resource);
    wl_list_insert(&o->power_resources, wl_resource_get_link(r));
    zwlr_output_power_v1_send_mode(r, o->power_off ? ZWLR_OUTPUT_POWER_V1_MODE_OFF : ZWLR_OUTPUT_POWER_V1_MODE_ON);
}

static const struct zwlr_output_power_manager_v1_interface power_manager_impl = {
    .get_output_power = get_output_power,
    .destroy = destroy_resource,
};

static void power_manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(client, &zwlr_output_power_manager_v1_interface, (int)version, id);
    if (!r) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_resource_set_implementation(r, &power_manager_impl, data, NULL);
}

// MARK: frame clock, error log, clients

// A 60 Hz "vblank": Mesa's eglSwapBuffers waits for the previous frame's
// callback, so callbacks must come, but not faster than a display would.
static int frame_tick(void *data) {
    scripted_compositor *c = data;
    struct wl_resource *cb, *tmp;
    uint32_t time = now_ms();
    c->tick++;
    answer_due_feedback(c);
    wl_resource_for_each_safe(cb, tmp, &c->ready_frames) {
        wl_callback_send_done(cb, time);
        wl_resource_destroy(cb);
    }
    wl_event_source_timer_update(c->frame_timer, 16);
    return 0;
}

// Sees every wl_display.error, including those libwayland-server raises
// itself (bad object ids, unknown opcodes), not only the fixture's own.
static void log_message(void *data, enum wl_protocol_logger_type direction, const struct wl_protocol_logger_message *m) {
    scripted_compositor *c = data;
    if (direction != WL_PROTOCOL_LOGGER_EVENT || strcmp(m->message->name, "error") != 0) return;
    if (strcmp(wl_resource_get_class(m->resource), "wl_display") != 0 || m->arguments_count < 3) return;
    struct wl_resource *object = (struct wl_resource *)m->arguments[0].o;
    c->errors++;
    snprintf(
        c->last_error, sizeof c->last_error, "%s#%u: error %u: %s", object ? wl_resource_get_class(object) : "?",
        object ? wl_resource_get_id(object) : 0, m->arguments[1].u, m->arguments[2].s ? m->arguments[2].s : "");
}

// One per client: counts connected clients (a client that hit a protocol
// error is disconnected, so the count tells that too).
struct client_watch {
    struct wl_listener destroyed;
    scripted_compositor *c;
};

static void client_destroyed(struct wl_listener *listener, void *data) {
    (void)data;
    struct client_watch *w = wl_container_of(listener, w, destroyed);
    w->c->clients--;
    free(w);
}

static void client_created(struct wl_listener *listener, void *data) {
    scripted_compositor *c = wl_container_of(listener, c, client_created);
    struct client_watch *w = calloc(1, sizeof *w);
    if (!w) return;
    w->c = c;
    w->destroyed.notify = client_destroyed;
    c->clients++;
    wl_client_add_destroy_listener(data, &w->destroyed);
}

// MARK: thread and lifetime

static void *serve(void *data) {
    scripted_compositor *c = data;
    struct pollfd fds[2] = {
        {.fd = wl_event_loop_get_fd(c->loop), .events = POLLIN},
        {.fd = c->wake[0], .events = POLLIN},
    };
    for (;;) {
        if (poll(fds, 2, -1) < 0 && errno != EINTR) break;
        pthread_mutex_lock(&c->lock);
        bool stop = c->stopping;
        if (!stop) {
            wl_event_loop_dispatch(c->loop, 0);
            flush(c);
        }
        pthread_mutex_unlock(&c->lock);
        if (stop) break;
    }
    return NULL;
}

static int listen_socket(scripted_compositor *c) {
    snprintf(c->dir, sizeof c->dir, "/tmp/scripted-compositor-XXXXXX");
    if (!mkdtemp(c->dir)) return -1;
    snprintf(c->socket_path, sizeof c->socket_path, "%s/wayland-scripted", c->dir);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", c->socket_path);
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(fd, 16) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

scripted_compositor *scripted_start(bool offer_layer_shell, bool offer_xdg_output) {
    scripted_compositor *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    pthread_mutex_init(&c->lock, NULL);
    wl_list_init(&c->ready_frames);
    wl_list_init(&c->committed_feedback);
    wl_list_init(&c->managers);
    wl_list_init(&c->pointers);
    wl_list_init(&c->touches);
    wl_list_init(&c->keyboards);
    c->head_serial = 1;
    c->display = wl_display_create();
    if (!c->display || pipe2(c->wake, O_CLOEXEC) < 0) goto fail;
    c->loop = wl_display_get_event_loop(c->display);
    int fd = listen_socket(c);
    if (fd < 0 || wl_display_add_socket_fd(c->display, fd) < 0) goto fail;
    wl_display_init_shm(c->display);
    wl_global_create(c->display, &wl_compositor_interface, 4, c, compositor_bind);
    if (offer_xdg_output) wl_global_create(c->display, &zxdg_output_manager_v1_interface, 3, c, xdg_manager_bind);
    if (offer_layer_shell)
        c->layer_shell = wl_global_create(c->display, &zwlr_layer_shell_v1_interface, 4, c, layer_shell_bind);
    c->logger = wl_display_add_protocol_logger(c->display, log_message, c);
    c->client_created.notify = client_created;
    wl_display_add_client_created_listener(c->display, &c->client_created);
    c->frame_timer = wl_event_loop_add_timer(c->loop, frame_tick, c);
    wl_event_source_timer_update(c->frame_timer, 16);
    if (pthread_create(&c->thread, NULL, serve, c) != 0) goto fail;
    return c;
fail:
    if (c->display) wl_display_destroy(c->display);
    if (c->socket_path[0]) unlink(c->socket_path);
    if (c->dir[0]) rmdir(c->dir);
    free(c);
    return NULL;
}

void scripted_stop(scripted_compositor *c) {
    if (!c) return;
    pthread_mutex_lock(&c->lock);
    c->stopping = true;
    pthread_mutex_unlock(&c->lock);
    ssize_t n = write(c->wake[1], "x", 1);
    (void)n;
    pthread_join(c->thread, NULL);
    // The timer's source is not freed by wl_display_destroy (LeakSanitizer
    // saw 88 bytes per fixture).
    wl_event_source_remove(c->frame_timer);
    wl_display_destroy_clients(c->display);
    wl_protocol_logger_destroy(c->logger);
    wl_list_remove(&c->client_created.link);
    wl_display_destroy(c->display);
    close(c->wake[0]);
    close(c->wake[1]);
    unlink(c->socket_path);
    rmdir(c->dir);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

const char *scripted_socket_path(const scripted_compositor *c) { return c->socket_path; }

// MARK: commands

// Runs the block under the lock, then flushes and unlocks; `continue` leaves
// the block early (it jumps to the unlock).
#define LOCKED(c) for (int once_ = (pthread_mutex_lock(&(c)->lock), 1); once_; once_ = (flush(c), pthread_mutex_unlock(&(c)->lock), 0))

int scripted_add_output(
    scripted_compositor *c, const char *name, int32_t x, int32_t y, int32_t width, int32_t height, int32_t scale,
    int32_t refresh_mhz, bool send_done) {
    int index = -1;
    LOCKED(c) {
        if (c->output_count >= MAX_OUTPUTS) continue;
        index = c->output_count++;
        struct sc_output *o = &c->outputs[index];
        o->c = c;
        snprintf(o->name, sizeof o->name, "%s", name);
        o->x = x; o->y = y; o->width = width; o->height = height;
        o->scale = scale > 0 ? scale : 1;
        o->refresh = refresh_mhz;
        o->send_done = send_done;
        wl_list_init(&o->resources);
        wl_list_init(&o->xdg_resources);
        wl_list_init(&o->heads);
        wl_list_init(&o->power_resources);
        wl_list_init(&o->held_frames);
        o->has_wl_output = true;
        o->modes[0][0] = width; o->modes[0][1] = height; o->modes[0][2] = refresh_mhz;
        o->mode_count = 1;
        o->preferred = 0;
        o->current = 0;
        o->global = wl_global_create(c->display, &wl_output_interface, 4, o, output_bind);
    }
    return index;
}

static bool valid_output(scripted_compositor *c, int output) { return output >= 0 && output < c->output_count; }
static bool valid_layer(scripted_compositor *c, int layer) { return layer >= 0 && layer < c->layer_count; }

void scripted_send_output_done(scripted_compositor *c, int output) {
    LOCKED(c) {
        if (!valid_output(c, output)) continue;
        struct sc_output *o = &c->outputs[output];
        o->send_done = true;
        struct wl_resource *r;
        wl_resource_for_each(r, &o->resources) {
            if (wl_resource_get_version(r) >= WL_OUTPUT_DONE_SINCE_VERSION) wl_output_send_done(r);
        }
    }
}

// The global goes; resources stay until their clients release them, and
// the global itself is destroyed with the display (late binds stay safe).
static void remove_output_locked(scripted_compositor *c, int output) {
    struct sc_output *o = &c->outputs[output];
    if (o->global) wl_global_remove(o->global);
}

void scripted_remove_output(scripted_compositor *c, int output) {
    LOCKED(c) {
        if (valid_output(c, output)) remove_output_locked(c, output);
    }
}

static bool send_enter_locked(scripted_compositor *c, int layer, int output) {
    if (!valid_layer(c, layer) || !valid_output(c, output)) return false;
    struct sc_layer *l = &c->layers[layer];
    if (!l->surface) return false;
    struct wl_resource *out = wl_resource_find_for_client(
        &c->outputs[output].resources, wl_resource_get_client(l->surface->resource));
    if (!out) return false;
    wl_surface_send_enter(l->surface->resource, out);
    return true;
}

bool scripted_send_enter(scripted_compositor *c, int layer_surface, int output) {
    bool sent = false;
    LOCKED(c) { sent = send_enter_locked(c, layer_surface, output); }
    return sent;
}

bool scripted_remove_output_then_enter(scripted_compositor *c, int output, int layer_surface) {
    bool sent = false;
    LOCKED(c) {
        if (!valid_output(c, output)) continue;
        remove_output_locked(c, output);
        sent = send_enter_locked(c, layer_surface, output);
    }
    return sent;
}

uint32_t scripted_remove_output_then_configure(
    scripted_compositor *c, int output, int layer_surface, uint32_t width, uint32_t height) {
    uint32_t serial = 0;
    LOCKED(c) {
        if (!valid_output(c, output) || !valid_layer(c, layer_surface)) continue;
        remove_output_locked(c, output);
        serial = send_configure(c, &c->layers[layer_surface], width, height);
    }
    return serial;
}

void scripted_remove_layer_shell(scripted_compositor *c) {
    LOCKED(c) {
        if (c->layer_shell) wl_global_remove(c->layer_shell);
    }
}

void scripted_set_initial_reply(
    scripted_compositor *c, scripted_initial_reply reply, uint32_t w1, uint32_t h1, uint32_t w2, uint32_t h2) {
    LOCKED(c) {
        c->reply = reply;
        c->reply_size[0] = w1; c->reply_size[1] = h1; c->reply_size[2] = w2; c->reply_size[3] = h2;
    }
}

uint32_t scripted_configure(scripted_compositor *c, int layer_surface, uint32_t width, uint32_t height) {
    uint32_t serial = 0;
    LOCKED(c) {
        if (valid_layer(c, layer_surface)) serial = send_configure(c, &c->layers[layer_surface], width, height);
    }
    return serial;
}

// MARK: queries

int scripted_layer_surface_count(scripted_compositor *c) {
    int n = 0;
    LOCKED(c) { n = c->layer_count; }
    return n;
}

int scripted_live_layer_surface_count(scripted_compositor *c) {
    int n = 0;
    LOCKED(c) {
        for (int i = 0; i < c->layer_count; i++) n += c->layers[i].resource != NULL;
    }
    return n;
}

int scripted_layer_surface_on(scripted_compositor *c, const char *output_name) {
    int found = -1;
    LOCKED(c) {
        for (int i = 0; i < c->layer_count; i++)
            if (c->layers[i].resource && strcmp(c->layers[i].output_name, output_name) == 0) found = i;
    }
    return found;
}

bool scripted_layer_surface_is_live(scripted_compositor *c, int layer_surface) {
    bool live = false;
    LOCKED(c) { live = valid_layer(c, layer_surface) && c->layers[layer_surface].resource; }
    return live;
}

void scripted_layer_surface_output(scripted_compositor *c, int layer_surface, char *buffer, size_t size) {
    LOCKED(c) {
        snprintf(buffer, size, "%s", valid_layer(c, layer_surface) ? c->layers[layer_surface].output_name : "");
    }
}

static int copy_serials(const uint32_t *from, int count, uint32_t *to, int capacity) {
    for (int i = 0; i < count && i < capacity; i++) to[i] = from[i];
    return count;
}

int scripted_sent_serials(scripted_compositor *c, int layer_surface, uint32_t *serials, int capacity) {
    int n = 0;
    LOCKED(c) {
        if (valid_layer(c, layer_surface))
            n = copy_serials(c->layers[layer_surface].sent, c->layers[layer_surface].sent_count, serials, capacity);
    }
    return n;
}

int scripted_acked_serials(scripted_compositor *c, int layer_surface, uint32_t *serials, int capacity) {
    int n = 0;
    LOCKED(c) {
        if (valid_layer(c, layer_surface))
            n = copy_serials(c->layers[layer_surface].acked, c->layers[layer_surface].acked_count, serials, capacity);
    }
    return n;
}

void scripted_first_buffer_size(scripted_compositor *c, int layer_surface, int32_t *width, int32_t *height) {
    *width = 0;
    *height = 0;
    LOCKED(c) {
        if (valid_layer(c, layer_surface)) {
            *width = c->layers[layer_surface].first_w;
            *height = c->layers[layer_surface].first_h;
        }
    }
}

void scripted_last_buffer_size(scripted_compositor *c, int layer_surface, int32_t *width, int32_t *height) {
    *width = 0;
    *height = 0;
    LOCKED(c) {
        if (valid_layer(c, layer_surface)) {
            *width = c->layers[layer_surface].last_w;
            *height = c->layers[layer_surface].last_h;
        }
    }
}

int scripted_protocol_error_count(scripted_compositor *c) {
    int n = 0;
    LOCKED(c) { n = c->errors; }
    return n;
}

void scripted_last_protocol_error(scripted_compositor *c, char *buffer, size_t size) {
    LOCKED(c) { snprintf(buffer, size, "%s", c->last_error); }
}

int scripted_client_count(scripted_compositor *c) {
    int n = 0;
    LOCKED(c) { n = c->clients; }
    return n;
}

int scripted_output_resource_count(scripted_compositor *c, int output) {
    int n = 0;
    LOCKED(c) {
        if (valid_output(c, output))
            n = wl_list_length(&c->outputs[output].resources) + wl_list_length(&c->outputs[output].xdg_resources);
    }
    return n;
}

int scripted_layer_shell_binds(scripted_compositor *c) {
    int n = 0;
    LOCKED(c) { n = c->layer_shell_binds; }
    return n;
}

// MARK: presentation feedback and toplevels

void scripted_offer_presentation(scripted_compositor *c, scripted_feedback_mode mode, int late_frames) {
    LOCKED(c) {
        c->feedback_mode = mode;
        c->feedback_late = late_frames;
        wl_global_create(c->display, &wp_presentation_interface, 1, c, presentation_bind);
    }
}

void scripted_offer_xdg_shell(scripted_compositor *c) {
    LOCKED(c) { wl_global_create(c->display, &xdg_wm_base_interface, 3, c, wm_base_bind); }
}

void scripted_feedback_counts(scripted_compositor *c, int *requested, int *answered, int *live) {
    LOCKED(c) {
        *requested = c->feedback_requested;
        *answered = c->feedback_answered;
        *live = c->feedback_live;
    }
}

int scripted_toplevel_count(scripted_compositor *c) {
    int n = 0;
    LOCKED(c) { n = c->toplevel_count; }
    return n;
}

int scripted_toplevel_fullscreen_output(scripted_compositor *c, int toplevel) {
    int o = -1;
    LOCKED(c) {
        if (toplevel >= 0 && toplevel < c->toplevel_count) o = c->toplevels[toplevel].fullscreen_output;
    }
    return o;
}

bool scripted_send_toplevel_outputs(scripted_compositor *c, int toplevel, const int *ops, int count) {
    bool sent = true;
    LOCKED(c) {
        if (toplevel < 0 || toplevel >= c->toplevel_count || !c->toplevels[toplevel].surface) {
            sent = false;
            continue;
        }
        struct wl_resource *surface = c->toplevels[toplevel].surface->resource;
        for (int i = 0; i < count; i++) {
            int output = ops[i] >= 0 ? ops[i] : -ops[i] - 1;
            if (!valid_output(c, output)) {
                sent = false;
                continue;
            }
            struct wl_resource *out =
                wl_resource_find_for_client(&c->outputs[output].resources, wl_resource_get_client(surface));
            if (!out) {
                sent = false;
                continue;
            }
            if (ops[i] >= 0) wl_surface_send_enter(surface, out);
            else wl_surface_send_leave(surface, out);
        }
    }
    return sent;
}

// MARK: output management and power commands

void scripted_offer_output_management(scripted_compositor *c) {
    LOCKED(c) {
        wl_global_create(c->display, &zwlr_output_manager_v1_interface, 4, c, output_manager_bind);
        wl_global_create(c->display, &zwlr_output_power_manager_v1_interface, 1, c, power_manager_bind);
    }
}

void scripted_set_head(
    scripted_compositor *c, int output, const char *make, const char *model, const char *serial, const int32_t *modes,
    int mode_count, int preferred, int current) {
    LOCKED(c) {
        if (!valid_output(c, output)) continue;
        struct sc_output *o = &c->outputs[output];
        snprintf(o->make, sizeof o->make, "%s", make ? make : "");
        snprintf(o->model, sizeof o->model, "%s", model ? model : "");
        snprintf(o->serial, sizeof o->serial, "%s", serial ? serial : "");
        o->mode_count = mode_count < MAX_MODES ? mode_count : MAX_MODES;
        for (int i = 0; i < o->mode_count; i++)
            for (int k = 0; k < 3; k++) o->modes[i][k] = modes[i * 3 + k];
        o->preferred = preferred;
        o->current = current;
    }
}

int scripted_add_disabled_head(scripted_compositor *c, const char *name) {
    int index = -1;
    LOCKED(c) {
        if (c->output_count >= MAX_OUTPUTS) continue;
        index = c->output_count++;
        struct sc_output *o = &c->outputs[index];
        memset(o, 0, sizeof *o);
        o->c = c;
        snprintf(o->name, sizeof o->name, "%s", name);
        o->scale = 1;
        wl_list_init(&o->resources);
        wl_list_init(&o->xdg_resources);
        wl_list_init(&o->heads);
        wl_list_init(&o->power_resources);
        wl_list_init(&o->held_frames);
        o->modes[0][0] = 1920; o->modes[0][1] = 1080; o->modes[0][2] = 60000;
        o->mode_count = 1;
        o->current = -1;
    }
    return index;
}

// What a wlroots 0.15 compositor (sway 1.7) does when an output goes and
// another comes in one go: `finished` for each head and mode, their
// resources destroyed at once so their ids are free again, and the head
// announced anew, which takes a freed id while the client still holds the
// old proxy (libwayland's client makes new_id proxies when it reads).
void scripted_retire_and_reannounce_heads(scripted_compositor *c, int output) {
    LOCKED(c) {
        if (!valid_output(c, output)) continue;
        struct sc_output *o = &c->outputs[output];
        struct sc_head *h, *next;
        wl_list_for_each_safe(h, next, &o->heads, link) {
            for (int i = 0; i < MAX_MODES; i++) {
                if (!h->modes[i]) continue;
                zwlr_output_mode_v1_send_finished(h->modes[i]);
                wl_resource_destroy(h->modes[i]);
            }
            zwlr_output_head_v1_send_finished(h->resource);
            wl_resource_destroy(h->resource);
        }
        struct wl_resource *manager;
        wl_resource_for_each(manager, &c->managers) send_head(c, manager, o);
        c->head_serial++;
        send_manager_done(c);
    }
}

void scripted_set_config_reply(scripted_compositor *c, scripted_config_reply reply) {
    LOCKED(c) {
        c->config_reply = reply == SCRIPTED_CONFIG_CHANGE_SERIAL_ONCE ? SCRIPTED_CONFIG_SUCCEED : reply;
        c->serial_change_pending = reply == SCRIPTED_CONFIG_CHANGE_SERIAL_ONCE;
    }
}

int scripted_configuration_count(scripted_compositor *c) {
    int n = 0;
    LOCKED(c) { n = c->config_count; }
    return n;
}

uint32_t scripted_head_serial(scripted_compositor *c) {
    uint32_t n = 0;
    LOCKED(c) { n = c->head_serial; }
    return n;
}

uint32_t scripted_last_configuration_serial(scripted_compositor *c) {
    uint32_t n = 0;
    LOCKED(c) { n = c->last_config_serial; }
    return n;
}

void scripted_output_mode(scripted_compositor *c, int output, int32_t *width, int32_t *height, int32_t *refresh) {
    LOCKED(c) {
        if (!valid_output(c, output)) continue;
        *width = c->outputs[output].width;
        *height = c->outputs[output].height;
        *refresh = c->outputs[output].refresh;
    }
}

bool scripted_power_is_on(scripted_compositor *c, int output) {
    bool on = false;
    LOCKED(c) { on = valid_output(c, output) && !c->outputs[output].power_off; }
    return on;
}

void scripted_set_power(scripted_compositor *c, int output, bool on) {
    LOCKED(c) {
        if (valid_output(c, output)) set_power_locked(c, &c->outputs[output], on);
    }
}

void scripted_set_power_refuses(scripted_compositor *c, bool refuses) {
    LOCKED(c) { c->power_refuses = refuses; }
}

int scripted_power_requests(scripted_compositor *c) {
    int n = 0;
    LOCKED(c) { n = c->power_requests; }
    return n;
}

// MARK: wl_seat, wl_pointer, wl_touch

static void pointer_set_cursor(
    struct wl_client *cl, struct wl_resource *r, uint32_t serial, struct wl_resource *surface, int32_t x, int32_t y) {
    (void)cl; (void)serial; (void)x; (void)y;
    scripted_compositor *c = wl_resource_get_user_data(r);
    if (surface) c->cursor_sets++;
}

static const struct wl_pointer_interface pointer_impl = {.set_cursor = pointer_set_cursor, .release = destroy_resource};
static const struct wl_touch_interface touch_impl = {.release = destroy_resource};

static void seat_get_pointer(struct wl_client *client, struct wl_resource *r, uint32_t id) {
    scripted_compositor *c = wl_resource_get_user_data(r);
    struct wl_resource *p = wl_resource_create(client, &wl_pointer_interface, wl_resource_get_version(r), id);
    if (!p) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_resource_set_implementation(p, &pointer_impl, c, unlink_resource);
    wl_list_insert(&c->pointers, wl_resource_get_link(p));
}

static void seat_get_touch(struct wl_client *client, struct wl_resource *r, uint32_t id) {
    scripted_compositor *c = wl_resource_get_user_data(r);
    struct wl_resource *t = wl_resource_create(client, &wl_touch_interface, wl_resource_get_version(r), id);
    if (!t) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_resource_set_implementation(t, &touch_impl, c, unlink_resource);
    wl_list_insert(&c->touches, wl_resource_get_link(t));
}

static const struct wl_keyboard_interface keyboard_impl = {.release = destroy_resource};

// An ordinary US layout, resolved by the client's xkbcommon from the
// system's xkeyboard-config (as every compositor's keymap is).
static const char keymap_text[] =
    "xkb_keymap {\n"
    "  xkb_keycodes { include \"evdev+aliases(qwerty)\" };\n"
    "  xkb_types { include \"complete\" };\n"
    "  xkb_compat { include \"complete\" };\n"
    "  xkb_symbols { include \"pc+us+inet(evdev)\" };\n"
    "};\n";

static void send_keymap(struct wl_resource *k) {
    int fd = memfd_create("scripted-keymap", MFD_CLOEXEC);
    if (fd < 0) return;
    size_t size = sizeof keymap_text;
    if (write(fd, keymap_text, size) == (ssize_t)size) {
        wl_keyboard_send_keymap(k, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, (uint32_t)size);
    }
    close(fd);
}

static void seat_get_keyboard(struct wl_client *client, struct wl_resource *r, uint32_t id) {
    scripted_compositor *c = wl_resource_get_user_data(r);
    if (!c->seat_keyboard) {
        wl_resource_post_error(r, WL_SEAT_ERROR_MISSING_CAPABILITY, "the fixture's seat has no keyboard");
        return;
    }
    struct wl_resource *k = wl_resource_create(client, &wl_keyboard_interface, wl_resource_get_version(r), id);
    if (!k) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_resource_set_implementation(k, &keyboard_impl, c, unlink_resource);
    wl_list_insert(&c->keyboards, wl_resource_get_link(k));
    send_keymap(k);
}

static const struct wl_seat_interface seat_impl = {
    .get_pointer = seat_get_pointer,
    .get_keyboard = seat_get_keyboard,
    .get_touch = seat_get_touch,
    .release = destroy_resource,
};

static void seat_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(client, &wl_seat_interface, (int)version, id);
    if (!r) {
        wl_client_post_no_memory(client);
        return;
    }
    wl_resource_set_implementation(r, &seat_impl, data, NULL);
    scripted_compositor *c = data;
    wl_seat_send_capabilities(
        r, WL_SEAT_CAPABILITY_POINTER | WL_SEAT_CAPABILITY_TOUCH | (c->seat_keyboard ? WL_SEAT_CAPABILITY_KEYBOARD : 0));
}

void scripted_offer_seat(scripted_compositor *c) {
    LOCKED(c) { wl_global_create(c->display, &wl_seat_interface, 7, c, seat_bind); }
}

void scripted_offer_seat_with_keyboard(scripted_compositor *c) {
    LOCKED(c) {
        c->seat_keyboard = true;
        wl_global_create(c->display, &wl_seat_interface, 7, c, seat_bind);
    }
}

static struct wl_resource *toplevel_surface(scripted_compositor *c, int toplevel);

bool scripted_key(scripted_compositor *c, int toplevel, uint32_t key, bool pressed) {
    bool sent = false;
    LOCKED(c) {
        struct wl_resource *surface = toplevel_surface(c, toplevel);
        struct wl_resource *r;
        if (surface) wl_resource_for_each(r, &c->keyboards) {
            if (wl_resource_get_client(r) != wl_resource_get_client(surface)) continue;
            if (c->keyboard_focus != surface) {
                struct wl_array none;
                wl_array_init(&none);
                wl_keyboard_send_enter(r, wl_display_next_serial(c->display), surface, &none);
                wl_array_release(&none);
                wl_keyboard_send_modifiers(r, wl_display_next_serial(c->display), 0, 0, 0, 0);
            }
            wl_keyboard_send_key(
                r, wl_display_next_serial(c->display), now_ms(), key,
                pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED);
            sent = true;
        }
        if (sent) c->keyboard_focus = surface;
    }
    return sent;
}

/// The toplevel's wl_surface, or NULL when it is gone.
static struct wl_resource *toplevel_surface(scripted_compositor *c, int toplevel) {
    if (toplevel < 0 || toplevel >= c->toplevel_count) return NULL;
    struct sc_toplevel *t = &c->toplevels[toplevel];
    return t->surface ? t->surface->resource : NULL;
}

static void pointer_frame(struct wl_resource *r) {
    if (wl_resource_get_version(r) >= WL_POINTER_FRAME_SINCE_VERSION) wl_pointer_send_frame(r);
}

bool scripted_pointer_enter(scripted_compositor *c, int toplevel, double x, double y) {
    bool sent = false;
    LOCKED(c) {
        struct wl_resource *surface = toplevel_surface(c, toplevel);
        struct wl_resource *r;
        // (No `break` inside LOCKED: it would skip the unlock.)
        if (surface) wl_resource_for_each(r, &c->pointers) {
            if (wl_resource_get_client(r) != wl_resource_get_client(surface)) continue;
            wl_pointer_send_enter(r, wl_display_next_serial(c->display), surface, wl_fixed_from_double(x), wl_fixed_from_double(y));
            pointer_frame(r);
            sent = true;
        }
        c->pointer_focus = sent ? surface : NULL;
    }
    return sent;
}

/// Runs `send` for every wl_pointer of the focused surface's client.
static bool to_focused_pointers(scripted_compositor *c, void (*send)(struct wl_resource *, const double *), const double *args) {
    bool sent = false;
    LOCKED(c) {
        struct wl_resource *r;
        if (c->pointer_focus) wl_resource_for_each(r, &c->pointers) {
            if (wl_resource_get_client(r) != wl_resource_get_client(c->pointer_focus)) continue;
            send(r, args);
            pointer_frame(r);
            sent = true;
        }
    }
    return sent;
}

static void send_motion(struct wl_resource *r, const double *a) {
    wl_pointer_send_motion(r, now_ms(), wl_fixed_from_double(a[0]), wl_fixed_from_double(a[1]));
}
static void send_button(struct wl_resource *r, const double *a) {
    scripted_compositor *c = wl_resource_get_user_data(r);
    wl_pointer_send_button(
        r, wl_display_next_serial(c->display), now_ms(), (uint32_t)a[0],
        a[1] != 0 ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED);
}
static void send_axis(struct wl_resource *r, const double *a) {
    wl_pointer_send_axis(r, now_ms(), WL_POINTER_AXIS_VERTICAL_SCROLL, wl_fixed_from_double(a[0]));
}

bool scripted_pointer_motion(scripted_compositor *c, double x, double y) {
    const double args[2] = {x, y};
    return to_focused_pointers(c, send_motion, args);
}

bool scripted_pointer_button(scripted_compositor *c, uint32_t button, bool pressed) {
    const double args[2] = {(double)button, pressed ? 1 : 0};
    return to_focused_pointers(c, send_button, args);
}

bool scripted_pointer_scroll(scripted_compositor *c, double dy) {
    const double args[1] = {dy};
    return to_focused_pointers(c, send_axis, args);
}

bool scripted_pointer_leave(scripted_compositor *c) {
    bool sent = false;
    LOCKED(c) {
        struct wl_resource *r;
        if (c->pointer_focus) wl_resource_for_each(r, &c->pointers) {
            if (wl_resource_get_client(r) != wl_resource_get_client(c->pointer_focus)) continue;
            wl_pointer_send_leave(r, wl_display_next_serial(c->display), c->pointer_focus);
            pointer_frame(r);
            sent = true;
        }
        c->pointer_focus = NULL;
    }
    return sent;
}

int scripted_cursor_sets(scripted_compositor *c) {
    int n = 0;
    LOCKED(c) { n = c->cursor_sets; }
    return n;
}

bool scripted_touch(scripted_compositor *c, scripted_touch_kind kind, int toplevel, int32_t id, double x, double y) {
    bool sent = false;
    LOCKED(c) {
        struct wl_resource *surface = toplevel_surface(c, toplevel);
        struct wl_resource *r;
        if (surface) wl_resource_for_each(r, &c->touches) {
            if (wl_resource_get_client(r) != wl_resource_get_client(surface)) continue;
            uint32_t serial = wl_display_next_serial(c->display);
            switch (kind) {
            case SCRIPTED_TOUCH_DOWN:
                wl_touch_send_down(r, serial, now_ms(), surface, id, wl_fixed_from_double(x), wl_fixed_from_double(y));
                break;
            case SCRIPTED_TOUCH_MOTION:
                wl_touch_send_motion(r, now_ms(), id, wl_fixed_from_double(x), wl_fixed_from_double(y));
                break;
            case SCRIPTED_TOUCH_UP: wl_touch_send_up(r, serial, now_ms(), id); break;
            case SCRIPTED_TOUCH_CANCEL: wl_touch_send_cancel(r); break;
            }
            if (kind != SCRIPTED_TOUCH_CANCEL) wl_touch_send_frame(r);
            sent = true;
        }
    }
    return sent;
}
