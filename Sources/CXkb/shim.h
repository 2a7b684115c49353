#ifndef SCREENPLAY_CXKB_SHIM_H
#define SCREENPLAY_CXKB_SHIM_H
#include <xkbcommon/xkbcommon.h>
#endif
