// The libmpv functions Screenplay calls, each forwarding to libmpv.so.2
// opened on first use (dlopen, RTLD_LOCAL): the binary does not link libmpv,
// so a process that never plays video never maps it or FFmpeg's libraries.
// All symbols are resolved at once, under pthread_once: mpv's own threads
// may call in (wakeup and update callbacks run there).
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include "shim.h"

#define SP_MPV_FUNCTIONS(X)                                                                                    \
    X(mpv_handle *, mpv_create, (void), ())                                                                    \
    X(int, mpv_initialize, (mpv_handle * ctx), (ctx))                                                          \
    X(void, mpv_terminate_destroy, (mpv_handle * ctx), (ctx))                                                  \
    X(int, mpv_set_option_string, (mpv_handle * ctx, const char *name, const char *data), (ctx, name, data))   \
    X(int, mpv_command, (mpv_handle * ctx, const char **args), (ctx, args))                                    \
    X(int, mpv_command_async, (mpv_handle * ctx, uint64_t reply, const char **args), (ctx, reply, args))       \
    X(int, mpv_get_property, (mpv_handle * ctx, const char *name, mpv_format format, void *data),              \
      (ctx, name, format, data))                                                                               \
    X(char *, mpv_get_property_string, (mpv_handle * ctx, const char *name), (ctx, name))                      \
    X(int, mpv_observe_property, (mpv_handle * ctx, uint64_t reply, const char *name, mpv_format format),      \
      (ctx, reply, name, format))                                                                              \
    X(int, mpv_request_log_messages, (mpv_handle * ctx, const char *level), (ctx, level))                      \
    X(mpv_event *, mpv_wait_event, (mpv_handle * ctx, double timeout), (ctx, timeout))                         \
    X(void, mpv_set_wakeup_callback, (mpv_handle * ctx, void (*cb)(void *), void *d), (ctx, cb, d))            \
    X(void, mpv_free, (void *data), (data))                                                                    \
    X(const char *, mpv_error_string, (int error), (error))                                                    \
    X(int, mpv_render_context_create, (mpv_render_context * *res, mpv_handle * mpv, mpv_render_param * params), \
      (res, mpv, params))                                                                                      \
    X(void, mpv_render_context_free, (mpv_render_context * ctx), (ctx))                                        \
    X(int, mpv_render_context_render, (mpv_render_context * ctx, mpv_render_param * params), (ctx, params))    \
    X(void, mpv_render_context_report_swap, (mpv_render_context * ctx), (ctx))                                 \
    X(uint64_t, mpv_render_context_update, (mpv_render_context * ctx), (ctx))                                  \
    X(int, mpv_render_context_get_info, (mpv_render_context * ctx, mpv_render_param param), (ctx, param))      \
    X(void, mpv_render_context_set_update_callback,                                                            \
      (mpv_render_context * ctx, mpv_render_update_fn callback, void *callback_ctx), (ctx, callback, callback_ctx))

#define SP_POINTER(ret, name, params, args) static ret(*sp_##name) params;
SP_MPV_FUNCTIONS(SP_POINTER)

static pthread_once_t sp_once = PTHREAD_ONCE_INIT;
static char sp_error[512];
static int sp_loaded;

static void sp_load(void) {
    void *library = dlopen("libmpv.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(sp_error, sizeof sp_error, "libmpv.so.2 could not be loaded (%s); install libmpv2", dlerror());
        return;
    }
#define SP_RESOLVE(ret, name, params, args)                                                            \
    *(void **)(&sp_##name) = dlsym(library, #name);                                                  \
    if (!sp_##name) {                                                                                \
        snprintf(sp_error, sizeof sp_error, "libmpv.so.2 lacks %s: a libmpv older than 0.35?", #name); \
        return;                                                                                      \
    }
    SP_MPV_FUNCTIONS(SP_RESOLVE)
    sp_loaded = 1;
}

static int sp_ready(void) {
    pthread_once(&sp_once, sp_load);
    return sp_loaded;
}

const char *screenplay_mpv_load_error(void) { return sp_ready() ? NULL : sp_error; }

// Without the library nothing but mpv_create and mpv_error_string can be
// reached (every other call takes a handle mpv_create made): those answer
// NULL and the reason; the rest answer MPV_ERROR_UNSUPPORTED or nothing.
mpv_handle *mpv_create(void) { return sp_ready() ? sp_mpv_create() : NULL; }
const char *mpv_error_string(int error) { return sp_ready() ? sp_mpv_error_string(error) : sp_error; }

#define SP_FORWARD_INT(name, params, args) \
    int name params { return sp_ready() ? sp_##name args : MPV_ERROR_UNSUPPORTED; }
#define SP_FORWARD_VOID(name, params, args) \
    void name params {                      \
        if (sp_ready()) sp_##name args;     \
    }

SP_FORWARD_INT(mpv_initialize, (mpv_handle * ctx), (ctx))
SP_FORWARD_VOID(mpv_terminate_destroy, (mpv_handle * ctx), (ctx))
SP_FORWARD_INT(mpv_set_option_string, (mpv_handle * ctx, const char *name, const char *data), (ctx, name, data))
SP_FORWARD_INT(mpv_command, (mpv_handle * ctx, const char **args), (ctx, args))
SP_FORWARD_INT(mpv_command_async, (mpv_handle * ctx, uint64_t reply, const char **args), (ctx, reply, args))
SP_FORWARD_INT(mpv_get_property, (mpv_handle * ctx, const char *name, mpv_format format, void *data),
               (ctx, name, format, data))
char *mpv_get_property_string(mpv_handle *ctx, const char *name) {
    return sp_ready() ? sp_mpv_get_property_string(ctx, name) : NULL;
}
SP_FORWARD_INT(mpv_observe_property, (mpv_handle * ctx, uint64_t reply, const char *name, mpv_format format),
               (ctx, reply, name, format))
SP_FORWARD_INT(mpv_request_log_messages, (mpv_handle * ctx, const char *level), (ctx, level))
mpv_event *mpv_wait_event(mpv_handle *ctx, double timeout) {
    return sp_ready() ? sp_mpv_wait_event(ctx, timeout) : NULL;
}
SP_FORWARD_VOID(mpv_set_wakeup_callback, (mpv_handle * ctx, void (*cb)(void *), void *d), (ctx, cb, d))
SP_FORWARD_VOID(mpv_free, (void *data), (data))
SP_FORWARD_INT(mpv_render_context_create, (mpv_render_context * *res, mpv_handle * mpv, mpv_render_param * params),
               (res, mpv, params))
SP_FORWARD_VOID(mpv_render_context_free, (mpv_render_context * ctx), (ctx))
SP_FORWARD_INT(mpv_render_context_render, (mpv_render_context * ctx, mpv_render_param * params), (ctx, params))
SP_FORWARD_VOID(mpv_render_context_report_swap, (mpv_render_context * ctx), (ctx))
uint64_t mpv_render_context_update(mpv_render_context *ctx) {
    return sp_ready() ? sp_mpv_render_context_update(ctx) : 0;
}
SP_FORWARD_INT(mpv_render_context_get_info, (mpv_render_context * ctx, mpv_render_param param), (ctx, param))
SP_FORWARD_VOID(mpv_render_context_set_update_callback,
                (mpv_render_context * ctx, mpv_render_update_fn callback, void *callback_ctx),
                (ctx, callback, callback_ctx))
