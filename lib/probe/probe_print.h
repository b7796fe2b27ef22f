/* probe's records for scripts (JSON, JSON Lines), merged by `report`:
 * one "result" per destination and parameter set, a closing "summary",
 * every record with the schema, run id, start time and the parameters
 * of the run (see ibahprobe-probe(8), JSON OUTPUT). The text table is
 * probe_text's. */
#ifndef IBAHPROBE_PROBE_PRINT_H
#define IBAHPROBE_PROBE_PRINT_H

#include "base/parse.h"
#include "out/probe_schema.h"
#include "probe/probe_engine.h"
#include "probe/probe_round.h"
#include "probe/probe_vlan.h"
#include "out/run_info.h"

/* What a run was asked to do and how it went, for every record. */
/* Where a run's flow labels came from: its run_params'
 * "flow_label_source". */
enum probe_flow_label_source {
	PROBE_FLOW_LABELS_DEFAULT,	/* none given: 0 */
	PROBE_FLOW_LABELS_COMMAND_LINE,	/* --flow-label */
	PROBE_FLOW_LABELS_FILE,		/* -f FILE's "# flow-label" line */
};

struct probe_run {
	struct run_info info;
	/* hop limits, traffic classes, flow labels, SLs (NULL: the
	 * path's SL, none given) */
	const struct value_list *lists[4];
	enum probe_flow_label_source flow_label_source;
	bool continuous;
	bool interrupted;
	uint64_t round;		/* continuous: the number of the latest round */
	/* The VLAN netdevs of the port's GIDs (NULL: none read). */
	const struct probe_vlans *vlans;
};

/* A result. resolved: the probes counted (all sent, for a finished
 * cell); v: its verdict; running: a continuous run's interim record;
 * round: what the cell did in run->round (continuous runs), else NULL. */
void probe_cell_print(const struct probe_run *run,
		      const struct probe_session *s,
		      const struct probe_cell *c, const struct verdict *v,
		      uint32_t resolved, bool running,
		      const struct probe_round_cell *round);

/* The closing record: counts by status, interrupted, the exit status. */
void probe_summary_print(const struct probe_run *run,
			 const struct probe_session *s, size_t dest_count,
			 size_t set_count, int exit_status);

#endif
