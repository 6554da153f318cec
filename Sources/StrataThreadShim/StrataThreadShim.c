// The one definition of each thread-local variable that include/StrataThreadShim.h declares.
#include "StrataThreadShim.h"

__thread __attribute__((tls_model("initial-exec"))) uint64_t strata_thread_id_value = 0;
__thread __attribute__((tls_model("initial-exec"))) void *strata_observation_slot_value = 0;
