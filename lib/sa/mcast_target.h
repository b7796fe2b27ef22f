/* mcast: destinations resolved through the SA: each group's record (an
 * MCMemberRecord GetTable by MGID), the AH built from it
 * (verbs/ah_mcast.h), and whether this port can join it
 * (sa/mcast_joinable.h, this port's PortInfoRecord asked once). What
 * `ah mcast:` and `probe --dry-run mcast:` show, what `probe mcast:`
 * sends with and what check's mcast_joinable judges. */
#ifndef IBAHPROBE_MCAST_TARGET_H
#define IBAHPROBE_MCAST_TARGET_H

#include "base/dest.h"
#include "sa/mcast_group.h"
#include "sa/mcast_joinable.h"
#include "verbs/ah_attr.h"

struct mcast_target {
	bool built;		/* the group was found and its AH built */
	char error[DIAG_MSG_MAX * 2];
	struct mcmember_record group;
	struct ibv_ah_attr attr;
	bool has_joinability;	/* the port's caps were read */
	struct mcast_joinability joinability;
	char joinable_words[DIAG_MSG_MAX];
};

/* Resolves dests' DEST_MCAST items where want[i] (want NULL: all);
 * targets[i] for dests->items[i]. fields override the records, as ah's
 * flags do. */
void mcast_targets_resolve(struct path_session *s,
			   const struct dest_list *dests, const bool *want,
			   const struct ah_fields *fields,
			   const struct ah_port_facts *facts,
			   uint32_t timeout_ms, struct mcast_target *targets);

#endif
