// An empty kernel: the driver dispatches it with a completion signal to timestamp a point of a
// queue (recordEvent), reading the packet processor's end time with profiling enabled.
#include "common.h"

KERNEL void kreplay_marker(void) {}
