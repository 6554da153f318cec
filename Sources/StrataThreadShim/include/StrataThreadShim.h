// The calling thread's Strata id, in a C thread-local variable (Sources/Strata/Realm/ThreadID.swift).
//
// Swift has no thread-local variables. `pthread_getspecific` costs a library call and a lazy
// key's one-time check (about 30 instructions), and a realm checks the thread on every property
// access; a C `__thread` variable of the initial-exec model is read with two instructions once
// the inline functions below are compiled into the caller.
#ifndef STRATA_THREAD_SHIM_H
#define STRATA_THREAD_SHIM_H

#include <stdint.h>

/// The calling thread's id (0 until `strata_set_thread_id` gives it one). Defined in
/// StrataThreadShim.c: one variable for the process, whichever module reads it.
extern __thread __attribute__((tls_model("initial-exec"))) uint64_t strata_thread_id_value;

/// The calling thread's id, 0 when it has none yet.
static inline __attribute__((always_inline)) uint64_t strata_thread_id(void) {
    return strata_thread_id_value;
}

/// Gives the calling thread its id.
static inline __attribute__((always_inline)) void strata_set_thread_id(uint64_t id) {
    strata_thread_id_value = id;
}

#endif
