/* --paths all, shared by trace and probe: each destination's DLIDs under
 * its port's LMC (asked of the SA: NodeRecord, then PortInfoRecord) and
 * the SA's PathRecord for every DLID of the range besides the one the
 * destination was asked with (its SL may differ: QoS routing). */
#ifndef IBAHPROBE_LID_PATHS_EXPAND_H
#define IBAHPROBE_LID_PATHS_EXPAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/dest.h"
#include "sa/path_resolve.h"
#include "trace/ib_trace.h"
#include "trace/ib_trace_fetch.h"

/* One destination's range. */
struct lid_paths_dest {
	uint16_t dlid;		/* in: the DLID asked with; 0: none (skipped) */
	uint8_t lmc;		/* out: its port's LMC; 0 when unknown */
	uint16_t base;		/* out: base .. base + count - 1 */
	unsigned count;		/* out: 1 when dlid is 0 */
	/* out: why only the base DLID ("" when the LMC is known). */
	char lmc_unknown[160];
	size_t first_extra;	/* out: its first entry in the expansion */
};

/* The other DLIDs, as lid: destinations, and their PathRecords, in the
 * order of the destinations and their DLIDs. */
struct lid_paths_expansion {
	struct dest_list dests;
	struct path_result *paths;
};

/* How the SA is asked: as path_resolve_all and ib_trace_fetch_records. */
struct lid_paths_query {
	unsigned window, retries;
	uint32_t timeout_ms;
};

/* Fills every destination's range and x. store holds the records asked
 * (trace's walk shares it); stats as ib_trace_fetch_records. Returns 0,
 * or -1 with err set when the SA could not be asked. */
int lid_paths_expand(struct path_session *session,
		     const struct path_constraints *want,
		     struct trace_store *store, struct lid_paths_dest *dests,
		     size_t n, const struct lid_paths_query *q,
		     struct lid_paths_expansion *x,
		     struct trace_fetch_stats *stats, char *err,
		     size_t errlen);

/* The PathRecord of DLID base + p of d; NULL for the DLID d was asked
 * with (the caller's own). */
const struct path_result *lid_paths_result(const struct lid_paths_expansion *x,
					   const struct lid_paths_dest *d,
					   unsigned p);

void lid_paths_expansion_free(struct lid_paths_expansion *x);

/* The argument of --paths (trace, probe): base or all. Returns 0, or -1
 * with err set. */
int lid_paths_parse(const char *arg, bool *all, char *err, size_t errlen);

#endif
