#ifndef SCREENPLAY_CWAYLAND_SHIM_H
#define SCREENPLAY_CWAYLAND_SHIM_H
#include <wayland-client.h>
#include <wayland-cursor.h>
#include <wayland-egl.h>
#include <poll.h>
#include <errno.h>
#include <sys/mman.h>

/* glibc declares memfd_create only under _GNU_SOURCE, which a module map
   header cannot set before the system headers; the symbol is in glibc 2.27+. */
extern int memfd_create(const char *name, unsigned int flags);

/* An anonymous, sealed-size-free file for a wl_shm pool (MFD_CLOEXEC). */
static inline int screenplay_shm_file(void) { return memfd_create("screenplay-shm", 1u); }
#endif
