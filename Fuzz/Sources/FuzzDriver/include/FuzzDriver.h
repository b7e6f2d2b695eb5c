#ifndef TRELLIS_FUZZ_DRIVER_H
#define TRELLIS_FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer on `test`, with the command line of the process:
/// the executable's own `main` calls it, since SwiftPM gives each
/// executable the `main` of its Swift module.
int trellis_fuzz_run(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));
#endif
