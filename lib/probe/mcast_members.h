/* A multicast probe's answers, member by member. One probe sent to a
 * group reaches every member, and each answers it unicast with the
 * normal reply, so a reply is credited per (sequence, responder) here,
 * where probe_ledger credits one reply per sequence for one destination;
 * the members that answered are then merged with those the SA lists
 * (answered, silent, answered unlisted). Pure logic, no device. */
#ifndef IBAHPROBE_MCAST_MEMBERS_H
#define IBAHPROBE_MCAST_MEMBERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "probe/probe_ledger.h"
#include "wire/probe_wire.h"

/* Responders one group's run keeps apart at most; replies of any further
 * one are counted as strangers, not remembered. */
#define MCAST_MEMBERS_MAX 4096

/* Who answered: the reply's source as the completion and its GRH say.
 * gid is all zero when the reply came without a GRH (IB inside the
 * subnet): lid and qpn tell members apart then. */
struct mcast_responder {
	union ibv_gid gid;
	uint16_t lid;		/* wc.slid; 0 on RoCE */
	uint32_t qpn;		/* wc.src_qp */
};

struct mcast_member {
	struct mcast_responder who;
	bool listed;		/* the SA lists its port GID */
	uint32_t received, late, duplicates;
	uint64_t rtt_min_ns, rtt_max_ns, rtt_sum_ns;
	/* The probe as this member saw it arrive (its latest reply). */
	bool observed_valid;
	struct probe_observed observed;
	int hops;		/* hop limit sent less seen; -1: unknown */
	/* The GRH of its reply as it arrived here. */
	bool reply_grh_seen;
	uint8_t reply_hop_limit_seen;
	uint8_t *credited;	/* per probe of the run: 1 once answered */
	/* Its name, where the caller could tell (RoCE: the address's
	 * reverse lookup); "" when not known. */
	char host[64];
};

struct mcast_tally {
	uint32_t first_sequence;
	uint32_t capacity, sent;	/* probes: room for, and sent */
	uint64_t *deadline_ns, *sent_ns;
	size_t count, room;
	struct mcast_member *members;
	uint32_t strangers;	/* replies to no probe of ours, or past MAX */
	/* The SA's listing was merged: silent and unlisted mean something. */
	bool listing_known;
};

/* Room for probes probes; sequences start at first_sequence. 0, or -1
 * out of memory. */
int mcast_tally_init(struct mcast_tally *t, uint32_t probes,
		     uint32_t first_sequence);
void mcast_tally_free(struct mcast_tally *t);

/* Records the next probe, sent at now, due back by deadline; returns
 * the sequence it carries. The caller sends no more than capacity. */
uint32_t mcast_tally_sent(struct mcast_tally *t, uint64_t now,
			  uint64_t deadline_ns);

/* Credits one reply carrying sequence from who, arriving at now; *index
 * is the member it was credited to (a new one on its first reply).
 * UNKNOWN: no probe of this run, or too many members. */
enum probe_credit mcast_tally_credit(struct mcast_tally *t,
				     const struct mcast_responder *who,
				     uint32_t sequence, uint64_t now,
				     size_t *index);

/* What the reply said about the probe's arrival at member m, sent with
 * hop limit hop_limit_sent (-1: unknown): hops = sent - seen. */
void mcast_member_observe(struct mcast_member *m,
			  const struct probe_observed *o, int hop_limit_sent);

/* The SA's members (their port GIDs, and LIDs where known, 0 else):
 * members that answered are marked listed (GID equal, or, for a reply
 * without a GRH, LID equal), the rest are added as silent members. */
int mcast_tally_merge_listed(struct mcast_tally *t,
			     const union ibv_gid *gids, const uint16_t *lids,
			     size_t n);

enum mcast_member_state {
	MCAST_MEMBER_ANSWERED,	/* answered, listed or listing unknown */
	MCAST_MEMBER_UNLISTED,	/* answered, but the SA does not list it */
	MCAST_MEMBER_SILENT,	/* listed, never answered in time */
};

enum mcast_member_state mcast_member_state(const struct mcast_tally *t,
					   const struct mcast_member *m);
const char *mcast_member_state_name(enum mcast_member_state s);

struct mcast_summary {
	size_t answered;	/* every member that answered in time */
	size_t unlisted;	/* of them, not in the SA's listing */
	size_t silent;
	uint32_t expected;	/* --expect-members; 0: the SA's listing */
	bool ok;		/* no listed member silent, enough answered */
};

/* expect: members that must answer (0: none asked for). */
void mcast_tally_summarize(const struct mcast_tally *t, uint32_t expect,
			   struct mcast_summary *s);
/* "3 members answered, 1 silent, 1 answered without being listed", and
 * what fell short ("expected 4 members, 3 answered"). */
void mcast_summary_describe(const struct mcast_summary *s, char *buf,
			    size_t len);

#endif
