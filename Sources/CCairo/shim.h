#ifndef SCREENPLAY_CCAIRO_SHIM_H
#define SCREENPLAY_CCAIRO_SHIM_H
#include <cairo.h>
#include <pango/pangocairo.h>

#endif
