#ifndef SCREENPLAY_CPOPPLER_SHIM_H
#define SCREENPLAY_CPOPPLER_SHIM_H
#include <poppler.h>
#include <cairo.h>
#include <cairo-pdf.h>
#include <glib.h>
#endif
