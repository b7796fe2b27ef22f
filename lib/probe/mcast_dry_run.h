/* probe --dry-run for mcast: destinations: each group's record from the
 * SA, the AH a prober would send with (dlid = MLID, is_global 1, dgid =
 * MGID and the record's SL, rate, hop limit, traffic class and flow
 * label), the checks of verbs/ah_attr, and whether this port can join.
 * The row has the keys of a unicast dry run's (dest, status, qkey, dgid,
 * dgid_source "group", path null, pkey, ahs[{status, ah_attr,
 * violations}]) and adds group, joinable and joinable_reason, and the
 * members the SA lists (listing_known, listing_why_not, listed_members:
 * their port GIDs), those a probe of the group expects; on RoCE
 * the AH from the group's address and the route's source GID. Probing
 * the group for real is probe/mcast_run.h's. */
#ifndef IBAHPROBE_MCAST_DRY_RUN_H
#define IBAHPROBE_MCAST_DRY_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "base/diag.h"

#include "sa/mcast_sender.h"
#include "sa/mcast_target.h"
#include "verbs/sgid_select.h"

/* RoCE: a group's AH from its address, as probe mcast: sends with it:
 * dgid = the group's GID (IPv4-mapped or IPv6), is_global 1, the hop
 * limit and the source GID the route to the group picks (sgid_select),
 * the members' Q_Key; no SA, no join, no MLID. */
struct mcast_roce_target {
	bool built;
	char error[DIAG_MSG_MAX * 4];
	uint32_t qkey;
	struct ibv_ah_attr attr;
	/* How sgid_index was chosen: given (-g), or by the route to the
	 * group (sgid_select). */
	bool sgid_given;
	struct sgid_choice sgid_choice;
};

/* Prints one row per destination (all DEST_MCAST) from RoCE targets,
 * with the keys of mcast_dry_run_print's rows (pkey and group null,
 * joinable absent: RoCE has no SA) and sgid_choice, as a unicast dry
 * run has it (null when -g gave the index); true when every AH
 * was built and passes the checks. */
bool mcast_dry_run_print_roce(const struct dest_list *dests,
			      const struct mcast_roce_target *targets,
			      const struct ah_port_facts *facts);

/* Prints one row per destination (all DEST_MCAST) from targets and
 * listings (one each); true when every group was found, its AH passes
 * the checks and this port can join it (an unknown listing is said, not
 * failed: probe says it the same way). */
bool mcast_dry_run_print(const struct dest_list *dests,
			 const struct mcast_target *targets,
			 const struct mcast_listing *listings,
			 const struct ah_port_facts *facts);

#endif
