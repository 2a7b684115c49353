#ifndef SCREENPLAY_CSDL2_SHIM_H
#define SCREENPLAY_CSDL2_SHIM_H
// <SDL2/SDL.h> from /usr/include: SDL's own headers include each other with
// quotes, so no -I/usr/include/SDL2 (pkg-config's) is needed.
#define SDL_MAIN_HANDLED 1
#include <SDL2/SDL.h>
#endif
