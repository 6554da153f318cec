// The one definition of the thread-local id that include/StrataThreadShim.h declares.
#include "StrataThreadShim.h"

__thread __attribute__((tls_model("initial-exec"))) uint64_t strata_thread_id_value = 0;
