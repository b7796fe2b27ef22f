/* probe mcast:GROUP: the run of probe for multicast groups (a part of
 * cmd/probe.c kept apart, as trace_roce.c is of trace). */
#ifndef IBAHPROBE_PROBE_MCAST_H
#define IBAHPROBE_PROBE_MCAST_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "base/dest.h"
#include "base/parse.h"
#include "out/run_info.h"

struct probe_mcast_args {
	const struct common_opts *common;
	const struct dest_list *dests;	/* every one DEST_MCAST */
	/* hop limit, traffic class, flow label, SL as given (NULL: not
	 * given; on IB the group's record decides then) */
	const struct value_list *lists[4];
	bool has_qkey;
	uint32_t qkey;
	uint32_t count, interval_ms, size;
	bool busy_poll;
	uint32_t expect_members;	/* 0: none asked for */
	const struct run_info *info;
};

/* Probes every group; EXIT_FINE when every member listed or expected
 * answered, EXIT_PROBLEM when one is silent or a group could not be
 * probed, else the failure's status (said already). */
int probe_mcast_exec(const struct probe_mcast_args *a);

#endif
