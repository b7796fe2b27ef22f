/* A multicast probe's rows: one per member of the group (answered,
 * answered without being listed, or listed and silent) with its GID,
 * LID, QPN, RTT, hops and what the probe's GRH looked like on arrival,
 * then the group's line (with, for an expected member that was silent,
 * where the group stops: its boundary). Text and JSON through one call per field; the
 * JSON records are "mcast_member" and "mcast_group" of
 * ibahprobe.probe.v1 (probe(8), MULTICAST). */
#ifndef IBAHPROBE_MCAST_PRINT_H
#define IBAHPROBE_MCAST_PRINT_H

#include <stdbool.h>
#include <stddef.h>

#include <infiniband/verbs.h>

#include "base/diag.h"
#include "out/run_info.h"
#include "probe/mcast_boundary.h"
#include "probe/mcast_members.h"

/* An expected member that was silent to the group (or answered from
 * behind routers), traced unicast, and where the group stops for it
 * (probe/mcast_boundary.h); the group's row lists them as
 * "boundaries". */
struct mcast_print_boundary {
	const char *member;	/* as expected (HOST[:PORT]) */
	union ibv_gid gid;	/* its address's */
	/* Not traced: why (the rendezvous failed, no address); else "". */
	char unicast_error[DIAG_MSG_MAX * 2];
	struct mcast_silent_member silent;
	struct mcast_boundary boundary;
	char router_host[64];	/* the boundary router's name, or "" */
	char words[DIAG_MSG_MAX * 2];
};

struct mcast_print_group {
	const struct run_info *info;
	const char *dest;	/* as the user gave it */
	union ibv_gid mgid;
	uint32_t qkey;
	uint8_t hop_limit;	/* sent with */
	bool ib;		/* InfiniBand: the SA's listing is meant */
	/* Why the SA's listing is missing (RoCE has no SA; an untrusted
	 * SA hides members); NULL when it was merged. */
	const char *listing_why_not;
	/* The silent expected members, where some were named. */
	const struct mcast_print_boundary *boundaries;
	size_t boundary_count;
};

/* Every member's row, then the group's, as elements of the array the
 * caller holds open; error: the run could not be made (then only the
 * group's row, with it). */
void mcast_group_print(const struct mcast_print_group *g,
		       const struct mcast_tally *t,
		       const struct mcast_summary *s, const char *error);

#endif
