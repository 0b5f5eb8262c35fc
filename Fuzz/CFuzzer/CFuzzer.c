// Only the header matters: it declares libFuzzer's driver for the fuzz harness.
#include "CFuzzer.h"
