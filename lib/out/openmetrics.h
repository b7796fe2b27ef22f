/* Metrics of a continuous run for Prometheus: per destination and
 * parameter set, the numbers of the round just closed, rendered as the
 * Prometheus text exposition format 0.0.4 and published atomically for
 * node_exporter's textfile collector (see ibahprobe-probe(8), METRICS).
 *
 * 0.0.4 and not OpenMetrics 1.0: node_exporter's textfile collector
 * (collector/textfile.go: Update reads *.prom files only, processFile
 * parses them with expfmt.TextParser, the 0.0.4 parser, and hasTimestamps
 * drops a whole file whose samples carry timestamps) wants the Prometheus
 * text format without timestamps, and Prometheus scrapes it alike. */
#ifndef IBAHPROBE_OPENMETRICS_H
#define IBAHPROBE_OPENMETRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Labels of one series: few values each, fixed for the run. */
struct om_labels {
	const char *dest;		/* as given */
	const char *dest_device;	/* the responder's device; NULL: unknown */
	const char *source_device;
	uint32_t source_port;
	/* A parameter is a label only when the run was given it (swept,
	 * even over one value): defaults add nothing to tell apart. */
	bool has_hop_limit, has_traffic_class, has_flow_label, has_sl;
	uint32_t hop_limit, traffic_class, flow_label, sl;
	/* probe --paths all: the path's DLID, and our source path bits
	 * where our LMC is above 0. */
	bool has_dlid, has_src_path_bits;
	uint32_t dlid, src_path_bits;
};

/* One destination and parameter set after a round. */
struct om_series {
	struct om_labels labels;
	bool error;		/* could not be probed (no responder, no AH) */
	uint64_t sent_total, received_total;
	bool has_loss;		/* a probe resolved in this round */
	double loss_ratio;	/* of this round */
	bool has_rtt;		/* a reply in this round */
	double rtt_min_s, rtt_median_s, rtt_p99_s, rtt_max_s;	/* this round */
	uint64_t rtt_count;	/* since the start */
	double rtt_sum_s;
	int hops;		/* L3 hops from the latest reply; -1 unknown */
	bool has_remark;	/* a reply carried the GRH back */
	bool remarked;		/* the traffic class (DSCP) arrived changed */
	/* With has_remark: the flow label arrived other than sent (changed,
	 * or 0 where one was sent: not carried). */
	bool flow_label_changed;
	double last_success_unix;	/* 0: never */
	/* Restarts of the responder the run followed to its new QP. */
	uint64_t responder_restarts;
	/* Renumberings of its host (a new GID or LID) the run followed. */
	uint64_t responder_renumbered;
};

/* The run. */
struct om_run {
	const char *source_device;
	uint32_t source_port;
	uint64_t rounds;		/* closed so far */
	uint32_t round_seconds;
	double round_end_unix;
};

/* Writes the exposition text: each metric family once, its HELP and TYPE
 * lines, then one sample per series. Returns 0, or -1 if f failed. */
int openmetrics_render(FILE *f, const struct om_run *run,
		       const struct om_series *series, size_t count);

/* Checks at the start of a run that path can be published (its directory
 * takes path.tmp, path is no directory), so a bad --metrics fails before
 * any probe. Returns 0, or -1 with err. */
int openmetrics_check_target(const char *path, char *err, size_t len);

/* Renders into a temporary file next to path and renames it over path
 * (base/atomic_file.h): a reader sees the previous round or this one,
 * never half.
 * Returns 0, or -1 with err (path is then unchanged). */
int openmetrics_publish(const char *path, const struct om_run *run,
			const struct om_series *series, size_t count,
			char *err, size_t len);

#endif
