/* probe --dry-run for mcast: destinations: each group's record from the
 * SA, the AH a prober would send with (dlid = MLID, is_global 1, dgid =
 * MGID and the record's SL, rate, hop limit, traffic class and flow
 * label), the checks of verbs/ah_attr, and whether this port can join.
 * The row has the keys of a unicast dry run's (dest, status, qkey, dgid,
 * dgid_source "group", path null, pkey, ahs[{status, ah_attr,
 * violations}]) and adds group, joinable and joinable_reason, and the
 * members the SA lists (listing_known, listing_why_not, listed_members:
 * their port GIDs), those a probe of the group expects. Probing
 * the group for real is probe/mcast_run.h's. */
#ifndef IBAHPROBE_MCAST_DRY_RUN_H
#define IBAHPROBE_MCAST_DRY_RUN_H

#include <stdbool.h>

#include "sa/mcast_sender.h"
#include "sa/mcast_target.h"

/* Prints one row per destination (all DEST_MCAST) from targets and
 * listings (one each); true when every group was found, its AH passes
 * the checks and this port can join it (an unknown listing is said, not
 * failed: probe says it the same way). */
bool mcast_dry_run_print(const struct dest_list *dests,
			 const struct mcast_target *targets,
			 const struct mcast_listing *listings,
			 const struct ah_port_facts *facts);

#endif
