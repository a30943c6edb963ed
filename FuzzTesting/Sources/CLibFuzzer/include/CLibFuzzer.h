#ifndef STOREKEEPER_CLIBFUZZER_H
#define STOREKEEPER_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt's FuzzerInterface.h): parses libFuzzer's
/// options from argc/argv and runs `callback` on every input. The runtime
/// linked by -sanitize=fuzzer defines it.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
