#include "FuzzDriver.h"

// libFuzzer's entry point for programs that have a main of their own.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));

int trellis_fuzz_run(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size)) {
    return LLVMFuzzerRunDriver(argc, argv, test);
}
