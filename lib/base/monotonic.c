/* CLOCK_MONOTONIC in nanoseconds: see monotonic.h. */
#include <time.h>

#include "base/monotonic.h"

uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
