// Declarations only (include/CLibFuzzer.h); SwiftPM wants a source file in a C target.
#include "CLibFuzzer.h"
