// Counts heap allocations by interposing the allocator's entry points.
//
// The executable defines malloc, calloc, realloc, free and the aligned variants. The dynamic linker
// resolves every shared library's calls to them (libswiftCore's swift_slowAlloc, Foundation, libdispatch)
// to these definitions, because an executable's symbols come first in the lookup order, so no LD_PRELOAD
// is needed. Each definition forwards to glibc's own exported implementation (__libc_malloc and friends).
//
// Why not dlsym(RTLD_NEXT, "malloc"): dlsym itself allocates (calloc for its error state), so the first
// call would recurse into a wrapper whose pointer is not resolved yet, and needs a bootstrap arena. The
// __libc_* entry points are resolved by the linker before main and have no such cycle.
// Why not mallinfo2(): it reports bytes in use, so an allocation freed within the measured region leaves
// no trace, and it walks the arenas (slow).
//
// Counting costs one relaxed atomic load per allocation while off, and one relaxed increment while on.

#include "CAllocationCounter.h"

#if defined(__linux__) && defined(__GLIBC__)

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static atomic_int counting;
static atomic_uint_fast64_t allocations;

static inline void note_allocation(void) {
    if (atomic_load_explicit(&counting, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    }
}

void *malloc(size_t size) {
    note_allocation();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    note_allocation();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    note_allocation();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) { __libc_free(pointer); }

void *memalign(size_t alignment, size_t size) {
    note_allocation();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    note_allocation();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    // posix_memalign's contract: a power of two, and a multiple of sizeof(void *).
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    note_allocation();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

int allocation_counter_available(void) { return 1; }

void allocation_counter_begin(void) {
    atomic_store_explicit(&allocations, 0, memory_order_relaxed);
    atomic_store_explicit(&counting, 1, memory_order_seq_cst);
}

uint64_t allocation_counter_end(void) {
    atomic_store_explicit(&counting, 0, memory_order_seq_cst);
    return atomic_load_explicit(&allocations, memory_order_relaxed);
}

#else

int allocation_counter_available(void) { return 0; }
void allocation_counter_begin(void) {}
uint64_t allocation_counter_end(void) { return 0; }

#endif
