// The one header CanopyNATS sees of the NATS C client (Debian's libnats-dev 3.4.1, nats.c). Only CanopyNATS imports
// this module; everything else in Canopy uses its typed Swift API (docs/cluster.md).
#ifndef CANOPY_CNATS_SHIM_H
#define CANOPY_CNATS_SHIM_H

#include <nats/nats.h>

#endif
