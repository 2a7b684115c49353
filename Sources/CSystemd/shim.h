#ifndef SCREENPLAY_CSYSTEMD_SHIM_H
#define SCREENPLAY_CSYSTEMD_SHIM_H
/* sd_notify and the watchdog interval (sd-daemon); nothing else of libsystemd. */
#include <systemd/sd-daemon.h>
#endif
