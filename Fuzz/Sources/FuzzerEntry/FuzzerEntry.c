#include "FuzzerEntry.h"

#include <stddef.h>
#include <stdint.h>

// compiler-rt's FuzzerInterface.h: the driver, and the callback each fuzzer defines with `@_cdecl`.
extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
extern int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int FuzzerRunDriver(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
