/* Which routers the traces show next to which (report --traces): the
 * seen neighbours of a router, and whether a link nobody crossed could
 * join two routers (what a dead link between them needs). */
#ifndef IBAHPROBE_TRACE_NEIGHBOURS_H
#define IBAHPROBE_TRACE_NEIGHBOURS_H

#include <stdbool.h>
#include <stddef.h>

#include "report/report_traces.h"

/* The routers or switches seen one link from router (either direction),
 * as trace element numbers: at most max of them in out. Their count. */
size_t trace_neighbours(const struct report_traces *t, const char *router,
			size_t *out, size_t max);

/* a and b are no seen neighbours, yet a link a - b would close cycles
 * of four seen links a - x - y - b through three in four of the
 * neighbours of a (or of b): the shape of a multi-path fabric, where
 * each router meets the routers of the next tier and a dead link
 * leaves its two ends such cycles short. Two routers of one tier (no
 * link joins their neighbours) never qualify, nor a ToR and a spine of
 * another pod (their cycles pass only through the spine of one group),
 * nor routers no seen link joins through their neighbours. */
bool trace_may_adjoin(const struct report_traces *t, const char *a,
		      const char *b);

/* a and b are both seen next to one router: a link a - b would close a
 * triangle of seen links. Each link of a multi-tier fabric joins routers
 * of adjacent tiers, which closes none: two routers that meet a common
 * one are of one tier (two ToRs under a spine, two spines over a ToR) or
 * two tiers apart (a ToR and a core over a spine), never one link. */
bool trace_share_neighbour(const struct report_traces *t, const char *a,
			   const char *b);

#endif
