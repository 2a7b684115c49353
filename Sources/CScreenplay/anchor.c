// CScreenplay holds libscreenplay's public header (include/screenplay/
// screenplay.h, installed as is) for ScreenplayC, which defines every
// function it declares with @_cdecl. SwiftPM needs one source file in a C
// target; this one also checks that the header compiles on its own.
#include "screenplay/screenplay.h"
#include "cscreenplay_thread.h"
