// A processor cache hint for Strata's scans (StrataStorage, Prefetch.swift).
//
// Swift has no prefetch builtin. Declaring LLVM's `llvm.prefetch` intrinsic from Swift by its
// symbol name compiled, until ThreadSanitizer builds turned the call into an `invoke`, which LLVM
// rejects for that intrinsic; a C function built by Clang is known not to unwind, so this
// one-line header is the portable route. Nothing else in Strata is C.
#ifndef STRATA_PREFETCH_SHIM_H
#define STRATA_PREFETCH_SHIM_H

/// Asks the processor to start loading the cache line holding `address` for reading. A hint:
/// it never faults, whatever the address, and changes nothing a program computes.
static inline __attribute__((always_inline)) void strata_prefetch_read(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
