#ifndef SCREENPLAY_CSYSTEMHEADERS_H
#define SCREENPLAY_CSYSTEMHEADERS_H
// Nothing to import: this target exists for its include directory (see anchor.c).
#endif
