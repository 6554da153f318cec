// The one definition of each thread-local variable that include/StrataThreadShim.h declares.
#include "StrataThreadShim.h"

__thread STRATA_TLS_MODEL uint64_t strata_thread_id_value = 0;
__thread STRATA_TLS_MODEL void *strata_observation_slot_value = 0;
