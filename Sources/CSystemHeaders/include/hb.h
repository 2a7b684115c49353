// pango's headers include <hb.h>; harfbuzz's own headers include each other
// with quotes, so this forward through the linked directory finds them all.
#include "harfbuzz/hb.h"
