/* The device's completion clock: whether a CQ can carry hardware completion
 * timestamps, and the difference of two of them in nanoseconds. Pure: the
 * capabilities come in as numbers (ibv_query_device_ex), no device needed. */
#ifndef IBAHPROBE_COMPLETION_CLOCK_H
#define IBAHPROBE_COMPLETION_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* From ibv_query_device_ex(): completion_timestamp_mask, hca_core_clock. */
struct completion_clock_caps {
	uint64_t timestamp_mask;	/* the bits a timestamp has; 0: none */
	uint64_t core_clock_khz;	/* the clock that counts them; 0: unknown */
};

struct completion_clock {
	bool hw;		/* the CQ carries device timestamps */
	bool wallclock;		/* the stamps are ns already (not cycles) */
	uint64_t mask;
	uint64_t khz;
	char why_not[160];	/* when !hw: why, in words */
};

/* hw only when the device reports a non-zero mask and a clock; why_not
 * says which is missing. Decided from capabilities, never from a provider
 * name. wallclock is left false: see completion_clock.c. */
void completion_clock_decide(const struct completion_clock_caps *caps,
			     struct completion_clock *clk);

/* to - from in ns. Stamps are taken modulo the mask: to < from means the
 * counter wrapped once in between. Cycles become ns through the kHz
 * clock without overflow; wallclock stamps are ns already. */
uint64_t completion_clock_delta_ns(const struct completion_clock *clk,
				   uint64_t from, uint64_t to);

#endif
