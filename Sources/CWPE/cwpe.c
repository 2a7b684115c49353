// The GLib-facing half of Screenplay's web pages: WebKit's signals and
// wpebackend-fdo's exports become the plain callbacks of cwpe.h, and the
// thread's GLib main context is pumped from Screenplay's own loop.
#include "cwpe.h"

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-server.h>
#include <wpe/fdo-egl.h>
#include <wpe/unstable/fdo-shm.h>
// fdo.h would bring wpebackend-fdo's version.h, which include/wpe/ leaves
// out (libwpe's has the same name); the declarations it would add:
#define __WPE_FDO_H_INSIDE__
#include <wpe/view-backend-exportable.h>
#undef __WPE_FDO_H_INSIDE__
#include <wpe/webkit.h>

struct sp_web_view {
    sp_web_callbacks callbacks;
    struct wpe_view_backend_exportable_fdo *exportable;
    WebKitWebView *web_view;
    char **allowed;
    char *file_root;
    // The content filter that blocks requests to other origins is compiled
    // asynchronously; the page loads once it is in place (`pending_uri`).
    GCancellable *filter_cancellable;
    bool filter_ready;
    char *pending_uri;
};

static WebKitWebContext *shared_context;

// Read by WebKit as it starts (and by the web processes, which inherit them);
// set once, on the main thread, before the first view. A setting of the
// user's own stays.
static void quiet_environment(void) {
    // JavaScriptCore stops threads for its garbage collector with SIGUSR1
    // unless told another signal, and takes it over from the host with a
    // line on stderr: `play` reopens its files on SIGUSR1 (logrotate). A
    // real-time signal nothing else sends instead.
    if (!getenv("JSC_SIGNAL_FOR_GC")) {
        char number[16];
        snprintf(number, sizeof number, "%d", SIGRTMIN + 6);
        setenv("JSC_SIGNAL_FOR_GC", number, 0);
    }
    // Pages are textures in Screenplay's scenes, out of a screen reader's
    // reach, and a signage box has no accessibility bus: WebKit would look
    // for one and log that it found none. An empty address skips the look.
    if (!getenv("AT_SPI_BUS_ADDRESS")) setenv("WEBKIT_A11Y_BUS_ADDRESS", "", 0);
}

int sp_web_initialize(void *egl_display, bool prefer_shm, char *error, int error_size) {
    quiet_environment();
    // Debian ships no default backend: without this WebKit finds none.
    if (!wpe_loader_init("libWPEBackend-fdo-1.0.so.1")) {
        snprintf(error, (size_t)error_size, "libWPEBackend-fdo-1.0.so.1 could not be loaded");
        return SP_WEB_EXPORT_NONE;
    }
    if (prefer_shm && wpe_fdo_initialize_shm()) return SP_WEB_EXPORT_SHM;
    if (egl_display && wpe_fdo_initialize_for_egl_display(egl_display)) return SP_WEB_EXPORT_EGL;
    if (wpe_fdo_initialize_shm()) return SP_WEB_EXPORT_SHM;
    snprintf(error, (size_t)error_size, "wpebackend-fdo could start neither its EGL nor its SHM export");
    return SP_WEB_EXPORT_NONE;
}

bool sp_web_context_configure(bool sandbox, uint32_t memory_limit_mb, const char *sandbox_path) {
    if (shared_context) return false;
    WebKitWebsiteDataManager *data = webkit_website_data_manager_new_ephemeral();
    WebKitMemoryPressureSettings *pressure = webkit_memory_pressure_settings_new();
    if (memory_limit_mb > 0) webkit_memory_pressure_settings_set_memory_limit(pressure, memory_limit_mb);
    shared_context = WEBKIT_WEB_CONTEXT(g_object_new(WEBKIT_TYPE_WEB_CONTEXT, "website-data-manager", data,
                                                     "memory-pressure-settings", pressure, NULL));
    webkit_memory_pressure_settings_free(pressure);
    g_object_unref(data);
    // Each page its own web process: one page's crash or growth is its own.
    webkit_web_context_set_cache_model(shared_context, WEBKIT_CACHE_MODEL_DOCUMENT_VIEWER);
    webkit_web_context_set_sandbox_enabled(shared_context, sandbox);
    if (sandbox && sandbox_path && *sandbox_path)
        webkit_web_context_add_path_to_sandbox(shared_context, sandbox_path, TRUE);
    return true;
}

bool sp_web_context_sandboxed(void) {
    return shared_context && webkit_web_context_get_sandbox_enabled(shared_context);
}

// MARK: frames

static void on_egl_image(void *data, struct wpe_fdo_egl_exported_image *image) {
    sp_web_view *view = data;
    if (!view->callbacks.egl_frame) {
        wpe_view_backend_exportable_fdo_egl_dispatch_release_exported_image(view->exportable, image);
        return;
    }
    view->callbacks.egl_frame(view->callbacks.data, wpe_fdo_egl_exported_image_get_egl_image(image),
                              wpe_fdo_egl_exported_image_get_width(image),
                              wpe_fdo_egl_exported_image_get_height(image), image);
}

static void on_shm_buffer(void *data, struct wpe_fdo_shm_exported_buffer *buffer) {
    sp_web_view *view = data;
    struct wl_shm_buffer *shm = wpe_fdo_shm_exported_buffer_get_shm_buffer(buffer);
    if (shm && view->callbacks.shm_frame) {
        wl_shm_buffer_begin_access(shm);
        uint32_t format = wl_shm_buffer_get_format(shm);
        view->callbacks.shm_frame(view->callbacks.data, wl_shm_buffer_get_data(shm), wl_shm_buffer_get_stride(shm),
                                  (uint32_t)wl_shm_buffer_get_width(shm), (uint32_t)wl_shm_buffer_get_height(shm),
                                  format == WL_SHM_FORMAT_XRGB8888);
        wl_shm_buffer_end_access(shm);
    }
    // The pixels are in a texture now: the web process may draw the next frame into this buffer.
    wpe_view_backend_exportable_fdo_egl_dispatch_release_shm_exported_buffer(view->exportable, buffer);
}

static const struct wpe_view_backend_exportable_fdo_egl_client exportable_client = {
    .export_fdo_egl_image = on_egl_image,
    .export_shm_buffer = on_shm_buffer,
};

// MARK: signals

static void on_load_changed(WebKitWebView *web_view, WebKitLoadEvent event, gpointer data) {
    (void)web_view;
    sp_web_view *view = data;
    if (view->callbacks.load_changed) view->callbacks.load_changed(view->callbacks.data, (int)event);
}

static gboolean on_load_failed(WebKitWebView *web_view, WebKitLoadEvent event, gchar *uri, GError *error,
                               gpointer data) {
    (void)web_view;
    (void)event;
    sp_web_view *view = data;
    if (view->callbacks.load_failed) view->callbacks.load_failed(view->callbacks.data, uri, error->message);
    // No error page: the owner shows something else and says why.
    return TRUE;
}

static gboolean on_tls_failed(WebKitWebView *web_view, gchar *uri, GTlsCertificate *certificate,
                              GTlsCertificateFlags errors, gpointer data) {
    (void)web_view;
    (void)certificate;
    sp_web_view *view = data;
    char reason[160];
    snprintf(reason, sizeof reason, "the TLS certificate is not trusted (GTlsCertificateFlags 0x%x)",
             (unsigned)errors);
    if (view->callbacks.load_failed) view->callbacks.load_failed(view->callbacks.data, uri, reason);
    return TRUE;
}

static void on_terminated(WebKitWebView *web_view, WebKitWebProcessTerminationReason reason, gpointer data) {
    (void)web_view;
    sp_web_view *view = data;
    int why = reason == WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT ? SP_WEB_EXCEEDED_MEMORY
              : reason == WEBKIT_WEB_PROCESS_TERMINATED_BY_API   ? SP_WEB_TERMINATED_BY_API
                                                                 : SP_WEB_CRASHED;
    if (view->callbacks.terminated) view->callbacks.terminated(view->callbacks.data, why);
}

// "scheme://host[:port]" in lower case, the port only when not the scheme's default.
static char *origin_of(const char *uri) {
    GUri *parsed = g_uri_parse(uri, G_URI_FLAGS_NONE, NULL);
    if (!parsed) return NULL;
    const char *scheme = g_uri_get_scheme(parsed);
    const char *host = g_uri_get_host(parsed);
    int port = g_uri_get_port(parsed);
    char *origin = NULL;
    if (scheme && host) {
        bool default_port = port == -1 || (port == 80 && !g_ascii_strcasecmp(scheme, "http")) ||
                            (port == 443 && !g_ascii_strcasecmp(scheme, "https"));
        char *raw = default_port ? g_strdup_printf("%s://%s", scheme, host)
                                 : g_strdup_printf("%s://%s:%d", scheme, host, port);
        origin = g_ascii_strdown(raw, -1);
        g_free(raw);
    }
    g_uri_unref(parsed);
    return origin;
}

static bool allowed_uri(sp_web_view *view, const char *uri) {
    if (!uri) return false;
    if (g_str_has_prefix(uri, "about:") || g_str_has_prefix(uri, "data:")) return true;
    if (g_str_has_prefix(uri, "file:")) {
        if (!view->file_root) return false;
        char *path = g_filename_from_uri(uri, NULL, NULL);
        char *real = path ? realpath(path, NULL) : NULL;
        size_t root = strlen(view->file_root);
        bool inside = real && strncmp(real, view->file_root, root) == 0 && (real[root] == '/' || real[root] == 0);
        free(real);
        g_free(path);
        return inside;
    }
    if (!view->allowed || !view->allowed[0]) return true;
    char *origin = origin_of(uri);
    bool found = false;
    for (char **entry = view->allowed; origin && *entry && !found; entry++) found = strcmp(*entry, origin) == 0;
    g_free(origin);
    return found;
}

static gboolean on_decide_policy(WebKitWebView *web_view, WebKitPolicyDecision *decision,
                                 WebKitPolicyDecisionType type, gpointer data) {
    sp_web_view *view = data;
    if (type == WEBKIT_POLICY_DECISION_TYPE_RESPONSE) {
        // WebKit shows a server's error page as a page: for the main
        // document an HTTP error, or a type it cannot show, is a failure.
        WebKitResponsePolicyDecision *response_decision = WEBKIT_RESPONSE_POLICY_DECISION(decision);
        WebKitURIResponse *response = webkit_response_policy_decision_get_response(response_decision);
        const char *uri = webkit_uri_response_get_uri(response);
        const char *main_uri = webkit_web_view_get_uri(web_view);
        if (!uri || !main_uri || strcmp(uri, main_uri) != 0) return FALSE;
        guint status = webkit_uri_response_get_status_code(response);
        char reason[160];
        if (status >= 400) {
            snprintf(reason, sizeof reason, "the server answered HTTP %u", status);
        } else if (!webkit_response_policy_decision_is_mime_type_supported(response_decision)) {
            const char *mime = webkit_uri_response_get_mime_type(response);
            snprintf(reason, sizeof reason, "not a page WebKit can show (type %s)", mime ? mime : "unknown");
        } else {
            return FALSE;
        }
        webkit_policy_decision_ignore(decision);
        if (view->callbacks.load_failed) view->callbacks.load_failed(view->callbacks.data, uri, reason);
        return TRUE;
    }
    WebKitNavigationAction *action =
        webkit_navigation_policy_decision_get_navigation_action(WEBKIT_NAVIGATION_POLICY_DECISION(decision));
    const char *uri = webkit_uri_request_get_uri(webkit_navigation_action_get_request(action));
    // A new window has nowhere to go on a panel.
    if (type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION || !allowed_uri(view, uri)) {
        webkit_policy_decision_ignore(decision);
        if (view->callbacks.blocked) view->callbacks.blocked(view->callbacks.data, uri ? uri : "");
        return TRUE;
    }
    return FALSE;
}

// MARK: requests to other origins

// decide-policy sees navigations only. Sub-resources (images, scripts,
// fetch) are held to the same origins by a WebKit content filter: block
// everything, then let through about:, data:, blob:, each allowed origin
// and files under the root. Content-blocker regexes have no alternation,
// so each is a rule of its own.
static void append_escaped(GString *json, const char *text) {
    for (const char *c = text; *c; c++) {
        if (strchr(".*+?()[]{}|^$\\", *c)) g_string_append(json, "\\\\");
        if (*c == '"') g_string_append(json, "\\");
        g_string_append_c(json, *c);
    }
}

static void append_allow(GString *json, const char *prefix, const char *literal, const char *suffix) {
    g_string_append(json, ",{\"trigger\":{\"url-filter\":\"");
    g_string_append(json, prefix);
    if (literal) append_escaped(json, literal);
    g_string_append(json, suffix);
    g_string_append(json, "\"},\"action\":{\"type\":\"ignore-previous-rules\"}}");
}

static char *filter_rules(sp_web_view *view) {
    GString *json = g_string_new("[{\"trigger\":{\"url-filter\":\".*\"},\"action\":{\"type\":\"block\"}}");
    append_allow(json, "^about:", NULL, "");
    append_allow(json, "^data:", NULL, "");
    append_allow(json, "^blob:", NULL, "");
    for (char **entry = view->allowed; entry && *entry; entry++) append_allow(json, "^", *entry, "/");
    if (view->file_root) {
        append_allow(json, "^file://", view->file_root, "/");
    }
    g_string_append(json, "]");
    return g_string_free(json, FALSE);
}

static void load_now(sp_web_view *view) {
    view->filter_ready = true;
    if (view->pending_uri) {
        webkit_web_view_load_uri(view->web_view, view->pending_uri);
        g_free(view->pending_uri);
        view->pending_uri = NULL;
    }
}

static void on_filter_saved(GObject *source, GAsyncResult *result, gpointer data) {
    GError *error = NULL;
    WebKitUserContentFilter *filter =
        webkit_user_content_filter_store_save_finish(WEBKIT_USER_CONTENT_FILTER_STORE(source), result, &error);
    if (error && g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
        // The view is gone: nothing of it may be touched.
        g_error_free(error);
        return;
    }
    sp_web_view *view = data;
    if (filter) {
        webkit_user_content_manager_add_filter(webkit_web_view_get_user_content_manager(view->web_view), filter);
        webkit_user_content_filter_unref(filter);
        load_now(view);
    } else {
        // Loading without the filter would let every origin in: the page is refused instead.
        if (view->callbacks.load_failed)
            view->callbacks.load_failed(view->callbacks.data, view->pending_uri ? view->pending_uri : "",
                                    error ? error->message : "the request filter could not be compiled");
    }
    if (error) g_error_free(error);
}

static void install_filter(sp_web_view *view) {
    static WebKitUserContentFilterStore *store;
    if (!store) {
        char *folder = g_strdup_printf("%s/screenplay-web-filters-%u", g_get_tmp_dir(), (unsigned)getuid());
        store = webkit_user_content_filter_store_new(folder);
        g_free(folder);
    }
    char *rules = filter_rules(view);
    char *id = g_compute_checksum_for_string(G_CHECKSUM_SHA256, rules, -1);
    GBytes *bytes = g_bytes_new_take(rules, strlen(rules));
    view->filter_cancellable = g_cancellable_new();
    webkit_user_content_filter_store_save(store, id, bytes, view->filter_cancellable, on_filter_saved, view);
    g_bytes_unref(bytes);
    g_free(id);
}

// MARK: views

static void destroy_exportable(gpointer data) {
    wpe_view_backend_exportable_fdo_destroy((struct wpe_view_backend_exportable_fdo *)data);
}

sp_web_view *sp_web_view_new(const sp_web_callbacks *callbacks, uint32_t width, uint32_t height, float scale,
                             const char *const *allowed, const char *file_root) {
    if (!shared_context) sp_web_context_configure(true, 0, NULL);
    sp_web_view *view = calloc(1, sizeof *view);
    view->callbacks = *callbacks;
    view->allowed = g_strdupv((char **)allowed);
    view->file_root = file_root ? realpath(file_root, NULL) : NULL;
    view->exportable = wpe_view_backend_exportable_fdo_egl_create(&exportable_client, view, width, height);
    struct wpe_view_backend *backend = wpe_view_backend_exportable_fdo_get_view_backend(view->exportable);
    WebKitWebViewBackend *web_backend = webkit_web_view_backend_new(backend, destroy_exportable, view->exportable);
    view->web_view = webkit_web_view_new_with_context(web_backend, shared_context);
    wpe_view_backend_dispatch_set_device_scale_factor(backend, scale);
    // Focused too: keys typed in a preview window reach the page.
    wpe_view_backend_add_activity_state(backend, wpe_view_activity_state_visible | wpe_view_activity_state_in_window |
                                                     wpe_view_activity_state_focused);
    g_signal_connect(view->web_view, "load-changed", G_CALLBACK(on_load_changed), view);
    g_signal_connect(view->web_view, "load-failed", G_CALLBACK(on_load_failed), view);
    g_signal_connect(view->web_view, "load-failed-with-tls-errors", G_CALLBACK(on_tls_failed), view);
    g_signal_connect(view->web_view, "web-process-terminated", G_CALLBACK(on_terminated), view);
    g_signal_connect(view->web_view, "decide-policy", G_CALLBACK(on_decide_policy), view);
    // Without a list every origin may load (the library's default): no filter.
    if ((view->allowed && view->allowed[0]) || view->file_root) {
        install_filter(view);
    } else {
        view->filter_ready = true;
    }
    return view;
}

void sp_web_view_load(sp_web_view *view, const char *uri) {
    if (view->filter_ready) {
        webkit_web_view_load_uri(view->web_view, uri);
    } else {
        g_free(view->pending_uri);
        view->pending_uri = g_strdup(uri);
    }
}

void sp_web_view_reload(sp_web_view *view) { webkit_web_view_reload(view->web_view); }

void sp_web_view_resize(sp_web_view *view, uint32_t width, uint32_t height, float scale) {
    struct wpe_view_backend *backend = wpe_view_backend_exportable_fdo_get_view_backend(view->exportable);
    wpe_view_backend_dispatch_set_device_scale_factor(backend, scale);
    wpe_view_backend_dispatch_set_size(backend, width, height);
}

void sp_web_view_frame_complete(sp_web_view *view) {
    wpe_view_backend_exportable_fdo_dispatch_frame_complete(view->exportable);
}

void sp_web_view_release_image(sp_web_view *view, void *handle) {
    wpe_view_backend_exportable_fdo_egl_dispatch_release_exported_image(
        view->exportable, (struct wpe_fdo_egl_exported_image *)handle);
}

void sp_web_view_terminate_web_process(sp_web_view *view) { webkit_web_view_terminate_web_process(view->web_view); }

static struct wpe_view_backend *backend_of(sp_web_view *view) {
    return wpe_view_backend_exportable_fdo_get_view_backend(view->exportable);
}

static uint32_t now_ms(void) { return (uint32_t)(g_get_monotonic_time() / 1000); }

void sp_web_view_pointer_motion(sp_web_view *view, int x, int y) {
    struct wpe_input_pointer_event event = {wpe_input_pointer_event_type_motion, now_ms(), x, y, 0, 0, 0};
    wpe_view_backend_dispatch_pointer_event(backend_of(view), &event);
}

void sp_web_view_pointer_button(sp_web_view *view, int x, int y, uint32_t button, bool pressed) {
    // The modifiers carry the buttons held (MouseEvent.buttons): button 1 is bit 0 of them.
    uint32_t held = pressed && button >= 1 && button <= 3 ? (uint32_t)wpe_input_pointer_modifier_button1 << (button - 1) : 0;
    struct wpe_input_pointer_event event = {wpe_input_pointer_event_type_button, now_ms(), x, y, button,
                                            pressed ? 1 : 0, held};
    wpe_view_backend_dispatch_pointer_event(backend_of(view), &event);
}

void sp_web_view_scroll(sp_web_view *view, int x, int y, int dx, int dy) {
    // WPE's axis 0 is vertical, 1 horizontal; positive values scroll up and left.
    if (dy) {
        struct wpe_input_axis_event event = {wpe_input_axis_event_type_motion, now_ms(), x, y, 0, -dy, 0};
        wpe_view_backend_dispatch_axis_event(backend_of(view), &event);
    }
    if (dx) {
        struct wpe_input_axis_event event = {wpe_input_axis_event_type_motion, now_ms(), x, y, 1, -dx, 0};
        wpe_view_backend_dispatch_axis_event(backend_of(view), &event);
    }
}

void sp_web_view_key(sp_web_view *view, uint32_t keysym, uint32_t hardware_keycode, bool pressed,
                     uint32_t modifiers) {
    struct wpe_input_keyboard_event event = {now_ms(), keysym, hardware_keycode, pressed, modifiers};
    wpe_view_backend_dispatch_keyboard_event(backend_of(view), &event);
}

void sp_web_view_destroy(sp_web_view *view) {
    if (!view) return;
    g_signal_handlers_disconnect_by_data(view->web_view, view);
    if (view->filter_cancellable) {
        g_cancellable_cancel(view->filter_cancellable);
        g_object_unref(view->filter_cancellable);
    }
    g_free(view->pending_uri);
    // The backend (and with it the exportable) goes with the last reference to the view.
    g_object_unref(view->web_view);
    g_strfreev(view->allowed);
    free(view->file_root);
    free(view);
}

// MARK: the GLib context

static GPollFD *poll_fds;
static int poll_count;
static int poll_capacity;
static gint max_priority;
static bool prepared;
static bool acquired;

int sp_glib_pump(int32_t *fds, int16_t *events, int capacity, int32_t *timeout_ms) {
    GMainContext *context = g_main_context_default();
    // Held for good: GLib wakes an owned context when another thread adds a
    // source to it, and an unowned one never.
    if (!acquired) {
        if (!g_main_context_acquire(context)) return -1;
        acquired = true;
    }
    if (prepared) {
        for (int i = 0; i < poll_count; i++) poll_fds[i].revents = 0;
        if (poll_count > 0) g_poll(poll_fds, (guint)poll_count, 0);
        if (g_main_context_check(context, max_priority, poll_fds, poll_count)) g_main_context_dispatch(context);
        prepared = false;
    }
    g_main_context_prepare(context, &max_priority);
    gint timeout = -1;
    int count;
    while ((count = g_main_context_query(context, max_priority, &timeout, poll_fds, poll_capacity)) > poll_capacity) {
        poll_capacity = count;
        poll_fds = g_renew(GPollFD, poll_fds, poll_capacity);
    }
    poll_count = count;
    prepared = true;
    *timeout_ms = timeout;
    int out = 0;
    for (int i = 0; i < count && out < capacity; i++, out++) {
        fds[out] = poll_fds[i].fd;
        events[out] = (int16_t)poll_fds[i].events;
    }
    return out;
}
