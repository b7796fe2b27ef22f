/* probe mcast:GROUP: the run of probe for multicast groups (a part of
 * cmd/probe.c kept apart, as trace_roce.c is of trace). */
#ifndef IBAHPROBE_PROBE_MCAST_H
#define IBAHPROBE_PROBE_MCAST_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "cli_port.h"
#include "base/diag.h"
#include "base/dest.h"
#include "base/parse.h"
#include "out/run_info.h"
#include "probe/mcast_dry_run.h"
#include "probe/mcast_print.h"
#include "probe/mcast_run.h"
#include "probe/mcast_unicast.h"
#include "sa/mcast_sender.h"
#include "verbs/ah_attr.h"

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
	/* Members expected by name (check's mcast_member=HOST): on RoCE
	 * one that is silent to the group is traced unicast, and the
	 * router that does not route the group named; NULL: none. */
	const struct dest_list *expect_hosts;
	uint64_t sa_key;		/* the member listing's (IB) */
	const struct run_info *info;
};

/* One group's run: the AH, the Q_Key and the join (IB) that were made,
 * the members, the SA's listing, and the summary; error when it could not
 * be probed (probed false). */
struct probe_mcast_group {
	bool probed;
	char error[DIAG_MSG_MAX * 4];
	struct mcast_run_config cfg;
	struct mcast_tally tally;
	struct mcast_listing listing;
	struct mcast_summary summary;
	struct mcast_print_group print;
	/* The expected members traced unicast, and their boundaries. */
	struct mcast_print_boundary *boundaries;
	size_t boundary_count;
	/* Expected members (expect_hosts) that did not answer. */
	size_t expected_silent;
	struct mcast_unicast_member *unicast;	/* their routers' text */
};

/* Probes a->dests->items[i] from local (its facts; session: the SA's,
 * NULL on RoCE). Free g after with probe_mcast_group_free. */
void probe_mcast_group_run(const struct probe_mcast_args *a,
			   const struct cli_port *local,
			   const struct ah_port_facts *facts,
			   struct path_session *session, size_t i,
			   struct probe_mcast_group *g);
void probe_mcast_group_free(struct probe_mcast_group *g);

/* RoCE: group d's AH as a run sends with it (--dry-run shows it). */
void probe_mcast_roce_target(const struct probe_mcast_args *a,
			     const struct ah_port_facts *facts,
			     const struct dest *d, struct mcast_roce_target *t);

/* Probes every group; EXIT_FINE when every member listed or expected
 * answered, EXIT_PROBLEM when one is silent or a group could not be
 * probed, else the failure's status (said already). */
int probe_mcast_exec(const struct probe_mcast_args *a);

#endif
