// Two per-thread values of Strata in C thread-local variables: the calling thread's id
// (Sources/Strata/Realm/ThreadID.swift) and where Observation keeps its tracking pointer for the
// thread (Sources/Strata/Notifications/ObservationTrackingSlot.swift).
//
// Swift has no thread-local variables. `pthread_getspecific` costs a library call (and, behind a
// lazily made key, a one-time check: about 30 instructions in all), and a realm checks the thread
// on every property access; a C `__thread` variable of the initial-exec model is read with two
// instructions once the inline functions below are compiled into the caller.
#ifndef STRATA_THREAD_SHIM_H
#define STRATA_THREAD_SHIM_H

#include <stdint.h>

// The initial-exec model where the object format has it (ELF: Linux); elsewhere (Mach-O) the
// platform's one model.
#if defined(__ELF__)
#define STRATA_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define STRATA_TLS_MODEL
#endif

/// The calling thread's id (0 until `strata_set_thread_id` gives it one). Defined in
/// StrataThreadShim.c: one variable for the process, whichever module reads it.
extern __thread STRATA_TLS_MODEL uint64_t strata_thread_id_value;

/// The calling thread's id, 0 when it has none yet.
static inline __attribute__((always_inline)) uint64_t strata_thread_id(void) {
    return strata_thread_id_value;
}

/// Gives the calling thread its id.
static inline __attribute__((always_inline)) void strata_set_thread_id(uint64_t id) {
    strata_thread_id_value = id;
}

/// Where Observation's tracking pointer for the calling thread is (found once per thread by
/// ObservationTrackingSlot), NULL until found. Defined in StrataThreadShim.c.
extern __thread STRATA_TLS_MODEL void *strata_observation_slot_value;

/// The calling thread's Observation slot address, NULL when not found yet.
static inline __attribute__((always_inline)) void *strata_observation_slot(void) {
    return strata_observation_slot_value;
}

/// Keeps the calling thread's Observation slot address.
static inline __attribute__((always_inline)) void strata_set_observation_slot(void *slot) {
    strata_observation_slot_value = slot;
}

#endif
