/* Bring-up checklists (`ibahprobe check FILE`): one destination per line,
 * then what to send and what to expect, as words an admin writes:
 *
 *   # DEST          what to send       what to expect
 *   host-c:18517    tclass=0x28        reachable hops=1 tclass_preserved
 *   198.18.4.4      tclass=0x28        hops=1-2 tclass_seen=0x30 loss<=20%
 *   lid:12                             path_mtu>=2048 path_sl=3 grh_required=no
 *   mcast:ipoib                        mcast_joinable mcast_members>=3
 *   mcast:239.1.2.3  count=3           mcast_member=host-c
 *
 * A line with a destination and no expectation expects `reachable` (a
 * group: `mcast_members>=1`); a group takes only the mcast_ expectations
 * and a unicast destination none of them. '#'
 * starts a comment; blank lines are skipped. Errors name the line and the
 * column. Pure logic: the file is parsed completely before anything is
 * sent, so a typo never runs half a checklist. */
#ifndef IBAHPROBE_CHECKLIST_H
#define IBAHPROBE_CHECKLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/dest.h"
#include "base/diag.h"
#include "wire/probe_wire.h"

enum expect_kind {
	EXPECT_REACHABLE,		/* at least one probe answered */
	EXPECT_UNREACHABLE,		/* none answered */
	EXPECT_HOPS,			/* L3 hops, exact or a range */
	EXPECT_LOSS,			/* lost probes, percent, at most */
	EXPECT_RTT_MEDIAN,		/* microseconds, at most */
	EXPECT_RTT_P99,
	EXPECT_TCLASS_PRESERVED,	/* traffic class seen == sent */
	EXPECT_TCLASS_SEEN,		/* traffic class seen == value */
	EXPECT_FLOW_LABEL_PRESERVED,	/* flow label seen == sent */
	EXPECT_PATH_MTU,		/* bytes, at least */
	EXPECT_PATH_SL,			/* the path record's SL */
	EXPECT_GRH_REQUIRED,		/* the AH needs a GRH: yes or no */
	/* The round trip less the responder's dwell (probe(8) TIMING),
	 * microseconds, at most. */
	EXPECT_NETWORK_RTT_MEDIAN,
	EXPECT_NETWORK_RTT_P99,
	/* The responder is up (its rendezvous answers) and none of the
	 * probes reached it (its count says 0): partitions and ACLs. */
	EXPECT_ISOLATED,
	/* The VLAN priority (PCP) the responder saw the probes arrive
	 * with == value (where its device reports it). */
	EXPECT_PCP_SEEN,
	/* Groups (mcast: destinations only). This port can join the group
	 * by the SA's rule (sa/mcast_joinable.h; IB only). */
	EXPECT_MCAST_JOINABLE,
	/* At least N members answered a probe sent to the group. */
	EXPECT_MCAST_MEMBERS,
	/* The member HOST (a GID, an address or a host name) answered. */
	EXPECT_MCAST_MEMBER,
	/* InfiniBand: every LMC path of the destination (probe --paths
	 * all: each DLID, from each of our source path bits) answered
	 * every probe. Written paths_ok=all. */
	EXPECT_PATHS_OK,
	EXPECT_KIND_COUNT,
};

/* What an expectation needs measured. */
enum expect_need {
	NEED_PROBE,	/* UD probes through a responder */
	NEED_PATH,	/* the path (SA PathRecord on IB, the port on RoCE) */
	NEED_AH,	/* only the AH that would be built */
	NEED_MCAST_SA,	/* the group's record and this port's caps */
	NEED_MCAST_PROBE,	/* probes sent to the group */
};

struct expectation {
	enum expect_kind kind;
	unsigned column;
	uint64_t low, high;	/* the value, or an inclusive range */
	char text[272];		/* as written (a whole word), for the report */
};

struct check_entry {
	unsigned line;
	struct dest dest;
	/* What to send; has_ says the line chose it. */
	bool has_hop_limit, has_traffic_class, has_flow_label, has_sl;
	struct probe_params send;
	bool has_count;
	uint32_t count;
	bool has_qpn;		/* qpn= and qkey=: no rendezvous */
	bool has_qkey;		/* a group's: qkey= alone */
	uint32_t qpn, qkey;
	size_t expect_count;
	struct expectation *expects;
};

struct checklist {
	size_t count, capacity;
	struct check_entry *entries;
};

/* Broken lines a checklist's error names at most; the rest are counted. */
#define CHECKLIST_ERRORS_SHOWN 20
/* Room for their messages (each under DIAG_MSG_MAX * 2) and the count. */
#define CHECKLIST_ERRORS_BYTES ((CHECKLIST_ERRORS_SHOWN + 1) * DIAG_MSG_MAX * 2)

/* Parses a whole checklist. On error returns -1 with err as one line
 * "LABEL:LINE:COLUMN: what is wrong" per broken line, '\n' between them
 * (the first CHECKLIST_ERRORS_SHOWN, then "LABEL: N more broken lines"),
 * and frees what it built. Lines are of 4095 characters at most, without
 * NUL bytes (where reading stops), 100,000 at most. */
int checklist_read(struct checklist *list, FILE *in, const char *label,
		   char *err, size_t errlen);
/* Parses one line (no newline) as line number `line`; an empty or
 * comment-only line adds nothing. Errors as "LINE:COLUMN: ...". */
int checklist_add_line(struct checklist *list, const char *text,
		       unsigned line, char *err, size_t errlen);
void checklist_free(struct checklist *list);

/* The value of a name= expectation (mcast_member=HOST): HOST. */
const char *expectation_name_value(const struct expectation *e);
/* Whether the kind is one of a group's (mcast: destinations only). */
bool expect_kind_is_mcast(enum expect_kind kind);
const char *expect_kind_name(enum expect_kind kind);
enum expect_need expect_need_of(enum expect_kind kind);
bool entry_needs(const struct check_entry *entry, enum expect_need need);

#endif
