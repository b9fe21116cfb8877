#ifndef C_ALLOCATION_COUNTER_H
#define C_ALLOCATION_COUNTER_H

#include <stdint.h>

/// Whether this build counts allocations: 1 on Linux with glibc, where malloc is interposed; 0 elsewhere.
int allocation_counter_available(void);

/// Starts counting heap allocations made by any thread, from zero.
void allocation_counter_begin(void);

/// Stops counting and returns the number of allocations (malloc, calloc, realloc, memalign,
/// aligned_alloc, posix_memalign) made since allocation_counter_begin().
uint64_t allocation_counter_end(void);

#endif
