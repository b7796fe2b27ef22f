/* Where on a traced path the traffic class changed: from what each hop
 * saw of our datagram (a router's ICMP quote, lib/wire/icmp_quote.h; the
 * responder's own GRH as the last point), the change lies after the last
 * point that still saw the value sent and at or before the first point
 * that saw another. Points that said nothing (a silent hop, a router
 * whose quote was not read) widen the interval; they never move it.
 *
 * DSCP (the upper six bits) and ECN (the lower two) are located apart
 * (by mask): a router that sets CE under congestion is doing its job (the
 * congestion control of RoCE relies on it), one that rewrites the DSCP
 * moves the traffic to another queue. Pure (tests/unit/test_tclass_locate.c). */
#ifndef IBAHPROBE_TCLASS_LOCATE_H
#define IBAHPROBE_TCLASS_LOCATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TCLASS_MASK_DSCP 0xfc
#define TCLASS_MASK_ECN 0x03

/* What point i (hop limit i + 1; the last one may be the responder) saw
 * of the traffic class; known false: it did not say. */
struct tclass_seen {
	bool known;
	uint8_t tclass;
};

struct tclass_change {
	bool changed;		/* some point saw another value */
	/* The change lies between point `after` (the last that saw the
	 * value sent before `before`; -1: the source host itself) and point
	 * `before` (the first that saw another). Points in between said
	 * nothing. */
	int after, before;
	uint8_t sent, seen;	/* masked values */
};

/* Locates the first change of (tclass & mask) along points[0..n). */
void tclass_locate(uint8_t sent, const struct tclass_seen *points, size_t n,
		   uint8_t mask, struct tclass_change *out);

#endif
