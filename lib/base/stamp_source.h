/* Where a round trip's time stamps came from, weakest first: the time a
 * completion was polled after sleeping on the completion channel, the
 * same while busy polling, or the device's own completion timestamps. */
#ifndef IBAHPROBE_STAMP_SOURCE_H
#define IBAHPROBE_STAMP_SOURCE_H

enum stamp_source {
	STAMP_UNKNOWN = 0,	/* an older peer did not say */
	STAMP_SW_EVENT,		/* CLOCK_MONOTONIC after a completion event */
	STAMP_SW_BUSY,		/* CLOCK_MONOTONIC while busy polling the CQ */
	STAMP_HW,		/* the device's completion timestamps */
};

/* "sw-event", "sw-busy", "hw"; "unknown" for STAMP_UNKNOWN. */
const char *stamp_source_name(enum stamp_source source);

/* The weaker of two: a figure built from both ends' stamps is only as
 * good as the worse of them. */
enum stamp_source stamp_source_weaker(enum stamp_source a,
				      enum stamp_source b);

#endif
