/* probe --paths all: a path that lost probes is traced, the IB trace of
 * its DLID from our port with its SLID (our base LID with its source path
 * bits) over the SA's records, by trace's own engine (trace/ib_trace,
 * trace/ib_trace_fetch), so the closing lines and each row's dlid_path
 * say where the failing path runs and where the SA's walk breaks. */
#ifndef IBAHPROBE_PROBE_PATH_TRACE_H
#define IBAHPROBE_PROBE_PATH_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/probe_engine.h"
#include "probe/probe_paths.h"
#include "trace/ib_trace_fetch.h"

/* The walks of the failed paths, one per path: jobs[i] as
 * ib_trace_fetch_all takes them; each traced cell's dlid_path.trace
 * points at its path's. */
struct probe_path_traces {
	size_t count;
	struct trace_job *jobs;
};

/* Whether a path is traced: its AH was made and it lost probes (some or
 * all). A path without an AH sent nothing and has its error already. */
bool probe_path_needs_trace(const struct probe_path_count *p);

/* The SLID a path's probes left with: the SA's record's (which carries
 * the path bits), else our base LID under our LMC with the path bits. */
uint16_t probe_path_slid(const struct probe_dlid_path *dp, uint16_t our_lid,
			 uint8_t our_lmc);

/* The walks the failed paths of s need, one per path (source port
 * s->facts.port_num), each cell of a traced path pointing at its walk
 * (dlid_path.trace). Pure. Returns 0, or -1 out of memory. */
int probe_path_traces_plan(struct probe_session *s,
			   struct probe_path_traces *t);

/* Walks the planned paths over the SA of s's port. Returns 0, or -1 with
 * err set when the SA could not be asked (the paths stay untraced). */
int probe_path_traces_run(struct probe_session *s, struct probe_path_traces *t,
			  char *err, size_t len);

/* Frees the walks and clears the cells' pointers to them. */
void probe_path_traces_free(struct probe_session *s,
			    struct probe_path_traces *t);

/* Text: the walk of a traced path under its destination's "paths of"
 * line ("  path 3 traced, SLID 4 -> DLID 19, dead end:", its hops as
 * "H11 (LID 4) port 1 > S1 (LID 2) 3>8 > ...", then why it broke);
 * nothing for a path not traced. */
void probe_path_trace_print_text(const struct probe_dlid_path *dp);

/* JSON: the member trace of a traced path's dlid_path {status, slid, dlid, hops
 * [{hop, node_description, lid, in_port, out_port}],
 * broken_at, error}, keys as trace -j names them. */
void probe_path_trace_print_json(const struct probe_dlid_path *dp);

#endif
