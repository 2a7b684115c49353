#ifndef SCREENPLAY_CRSVG_SHIM_H
#define SCREENPLAY_CRSVG_SHIM_H
#include <librsvg/rsvg.h>
#endif
