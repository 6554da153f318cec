// The shim is header-only (include/StrataPrefetchShim.h); SwiftPM needs one source file per C target.
#include "StrataPrefetchShim.h"
