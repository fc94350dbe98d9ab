// The one header CanopyServer sees of libwebsockets 4.1.6. Macros such as LWS_PRE do not import into Swift;
// the helpers below stand in for the ones the server needs.
#ifndef CANOPY_CLIBWEBSOCKETS_SHIM_H
#define CANOPY_CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>

/// Head-room lws needs in front of every buffer passed to lws_write.
static inline size_t canopy_lws_pre(void) { return LWS_PRE; }

#endif
