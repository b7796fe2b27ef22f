/* Every path an LMC gives a port: a port of LMC n answers 2^n DLIDs,
 * base .. base + 2^n - 1 (IBA 7.11.1), which the SM routes each its own
 * way; the port's LMC as the SA tells it. */
#ifndef IBAHPROBE_LID_PATHS_H
#define IBAHPROBE_LID_PATHS_H

#include <stddef.h>
#include <stdint.h>

#include "trace/ib_trace.h"

/* The most DLIDs of one port: LMC 7. */
#define LID_PATHS_MAX 128

enum lid_paths_state {
	LID_PATHS_KNOWN,	/* *lmc set */
	LID_PATHS_NEED,		/* ask *need, then again */
	LID_PATHS_UNKNOWN,	/* why says why: the base DLID alone */
};

/* The LMC of the port of base LID base, from the store: its NodeRecord
 * (node type, and the port a CA's LID is on) and that port's
 * PortInfoRecord (LMC; a switch's port 0, whose LMC is 0 unless the SM
 * gives it one: opensm lmc_esp0). */
enum lid_paths_state lid_paths_lmc(const struct trace_store *store,
				   uint16_t base, uint8_t *lmc,
				   struct trace_key *need, char *why,
				   size_t whylen);

/* The base LID of the port that answers lid under LMC lmc. */
uint16_t lid_paths_base(uint16_t lid, uint8_t lmc);

/* How many DLIDs of a port of LMC lmc fit under the unicast LIDs from
 * base (0xBFFF is the last): 2^lmc, or fewer at the very top. */
unsigned lid_paths_count(uint16_t base, uint8_t lmc);

#endif
