/* The implementation for short_enums_user.c, built without -fshort-enums: it also reports
   the public structs' layout as it sees them. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include <stddef.h>
#include "short_enums.h"

void short_enums_layout(size_t out[SHORT_ENUMS_FIELDS])
{
   SHORT_ENUMS_MEASURE(out);
}
