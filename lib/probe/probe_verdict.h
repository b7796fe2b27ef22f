/* Verdicts on one destination and parameter set: what reached, what the
 * network did to the GRH on the way, in words an admin acts on. Pure
 * logic over what was sent and what the responder reported. */
#ifndef IBAHPROBE_PROBE_VERDICT_H
#define IBAHPROBE_PROBE_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "out/probe_schema.h"
#include "probe/oneway_loss.h"
#include "probe/partition_reach.h"
#include "wire/probe_wire.h"
#include "verbs/provider.h"

/* Where the hop limit that left the sender came from. */
enum hop_limit_source {
	HOP_LIMIT_FROM_AH,	/* the stack honours the AH's hop limit */
	HOP_LIMIT_FROM_ROUTE,	/* the stack uses the route's (rxe does) */
	HOP_LIMIT_UNKNOWN,
};

struct verdict_input {
	struct probe_params asked;	/* what the AH carried */
	bool link_ethernet;
	bool route_known;		/* RoCE: the route toward the dest */
	uint8_t route_hop_limit;
	bool route_has_gateway;
	/* Whose hop limit leaves the host, from the provider's code
	 * (provider_hop_limit_rule), and why, for the findings. */
	enum hop_limit_rule hop_limit_rule;
	const char *hop_limit_rule_why;
	uint32_t sent, received;
	uint32_t late;			/* answered after the deadline */
	uint64_t late_max_ns;		/* the latest, past its deadline */
	uint32_t timeout_ms;		/* the deadline (-t) */
	uint32_t duplicates;
	uint32_t size;			/* probe bytes */
	uint32_t port_mtu;		/* the local port's active MTU; 0 unknown */
	/* After a run with loss the rendezvous was asked again: it
	 * answered (the responder is up), with another QPN (restarted). */
	bool rendezvous_answered;
	bool responder_restarted;
	uint32_t old_qpn, new_qpn;
	/* A continuous run followed the restart to the new QP (probes went
	 * there since restart_time, "HH:MM:SS"), rather than seeing it only
	 * at the end. */
	bool restart_followed;
	uint32_t restarts_followed;
	char restart_time[16];
	/* The QPN and Q_Key came from --qpn/--qkey, not from the responder
	 * (rendezvous or SA record): a wrong one loses every probe. */
	bool qpn_given;
	uint32_t given_qpn, given_qkey;
	bool observed_valid;		/* at least one reply */
	struct probe_observed observed;
	/* From other sets to the same destination: its distance, if known. */
	int known_hops;			/* -1: unknown */
	/* The way back: the hop limit the last reply left the responder
	 * with (its reverse_hop_limit_sent; unknown from an older responder
	 * or one whose provider's rule is unknown) and the hop limit it
	 * arrived here with (its GRH; none on IB inside the subnet). */
	bool reply_hop_limit_sent_known;
	uint8_t reply_hop_limit_sent;
	bool reply_grh_seen;
	uint8_t reply_hop_limit_seen;
	/* The responder's counts: which way the lost probes went. */
	struct oneway_input oneway;
	/* InfiniBand: the QP's partition (0: none) and the two ports'
	 * membership of it (UNKNOWN when not known): two limited members
	 * cannot talk (partition_reach). */
	uint16_t pkey;
	enum pkey_membership local_pkey_membership;
	enum pkey_membership remote_pkey_membership;
};

enum verdict_flag {
	VERDICT_HOP_LIMIT_NOT_HONOURED = 1u << 0,
	VERDICT_HOP_LIMIT_EXPIRED = 1u << 1,	/* likely cause of loss */
	VERDICT_TCLASS_REMARKED = 1u << 2,	/* DSCP changed */
	VERDICT_ECN_CHANGED = 1u << 3,		/* only the ECN bits */
	VERDICT_FLOW_LABEL_NOT_CARRIED = 1u << 4,	/* arrived as 0 */
	VERDICT_FLOW_LABEL_CHANGED = 1u << 5,
	VERDICT_NO_GRH = 1u << 6,		/* arrived without a GRH */
	VERDICT_SL_CHANGED = 1u << 7,		/* IB: arrived on another SL */
	VERDICT_RESPONDER_RESTARTED = 1u << 8,	/* new QPN during the run */
	VERDICT_DATA_PATH_BLOCKED = 1u << 9,	/* rendezvous up, UD lost */
	VERDICT_SIZE_SUSPECT = 1u << 10,	/* large probes all lost */
	VERDICT_LOST_THERE = 1u << 11,	/* the responder never saw some */
	VERDICT_LOST_BACK = 1u << 12,	/* it answered; replies lost */
	VERDICT_ASYMMETRIC_HOPS = 1u << 13,	/* hops there != hops back */
	/* seen, unanswered: its reply AH to us was still being made */
	VERDICT_FIRST_CONTACT = 1u << 14,
	/* never seen: dropped in the responder's full receive queue */
	VERDICT_RESPONDER_QUEUE = 1u << 15,
};
#define VERDICT_FLAG_LAST VERDICT_RESPONDER_QUEUE

#define VERDICT_TEXT_MAX 8
struct verdict {
	/* reachable, partial or unreachable: from the counts alone. */
	enum probe_status reach;
	enum hop_limit_source hop_limit_source;
	int hop_limit_sent;		/* -1: unknown */
	int hops;			/* L3 hops; -1: unknown */
	int hops_back;			/* of the replies; -1: unknown */
	struct oneway_verdict oneway;	/* which way the loss went */
	char hop_limit_why[200];	/* the rule applied, in words */
	unsigned flags;
	size_t text_count;
	char text[VERDICT_TEXT_MAX][160];	/* one sentence per finding */
	/* text[0..text_detail_start) only restate the loss count (a result
	 * row shows it already); the rest say more. */
	size_t text_detail_start;
	/* text[rewrite_start..rewrite_end): what the path rewrote (traffic
	 * class, ECN, flow label); a sweep's rows say one rewrite once. */
	size_t text_rewrite_start, text_rewrite_end;
};

void verdict_judge(const struct verdict_input *in, struct verdict *out);

const char *hop_limit_source_name(enum hop_limit_source source);
/* Short machine names of the flags, for JSON (PROBE_VERDICT_*). */
const char *verdict_flag_name(enum verdict_flag flag);

#endif
