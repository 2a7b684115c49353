#ifndef SCREENPLAY_CPIXBUF_SHIM_H
#define SCREENPLAY_CPIXBUF_SHIM_H
#include <gdk-pixbuf/gdk-pixbuf.h>

/* gdk-pixbuf's animation iterators take GTimeVal, which GLib deprecates;
   Swift would warn at every use. These take microseconds on the caller's own
   clock instead, so an animation can be stepped to any moment (tests, clock
   alignment), not only to the wall clock. */
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
static inline GdkPixbufAnimationIter *screenplay_animation_iter_at(GdkPixbufAnimation *animation, gint64 microseconds) {
    GTimeVal start = { (glong)(microseconds / G_USEC_PER_SEC), (glong)(microseconds % G_USEC_PER_SEC) };
    return gdk_pixbuf_animation_get_iter(animation, &start);
}
static inline gboolean screenplay_animation_iter_advance_to(GdkPixbufAnimationIter *iter, gint64 microseconds) {
    GTimeVal now = { (glong)(microseconds / G_USEC_PER_SEC), (glong)(microseconds % G_USEC_PER_SEC) };
    return gdk_pixbuf_animation_iter_advance(iter, &now);
}
G_GNUC_END_IGNORE_DEPRECATIONS
#endif
