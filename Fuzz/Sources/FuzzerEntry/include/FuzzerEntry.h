#ifndef FUZZER_ENTRY_H
#define FUZZER_ENTRY_H

// Runs libFuzzer's driver over the fuzzer's `LLVMFuzzerTestOneInput`, with the command line `argc` and `argv`.
//
// SwiftPM links an executable with `--defsym main=<Target>_main`, so that tests can link its code; under
// `-parse-as-library` the compiler emits no such symbol, and the link fails. Each fuzzer therefore defines
// `<Target>_main` itself and calls this, which does what libFuzzer's own `main` does.
int FuzzerRunDriver(int argc, char **argv);

#endif
