#ifndef CFUZZER_H
#define CFUZZER_H
#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver (from clang's fuzzer runtime, linked with -sanitize=fuzzer): runs the
// fuzzer with the command line's options, calling `callback` for every input.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
