/* Verdicts from what was sent and what was observed; see probe_verdict.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe_verdict.h"

#define ECN_MASK 0x03

const char *hop_limit_source_name(enum hop_limit_source source)
{
	switch (source) {
	case HOP_LIMIT_FROM_AH: return "ah";
	case HOP_LIMIT_FROM_ROUTE: return "route";
	case HOP_LIMIT_UNKNOWN: break;
	}
	return "unknown";
}

const char *verdict_flag_name(enum verdict_flag flag)
{
	switch (flag) {
	case VERDICT_HOP_LIMIT_NOT_HONOURED:
		return PROBE_VERDICT_HOP_LIMIT_NOT_HONOURED;
	case VERDICT_HOP_LIMIT_EXPIRED: return PROBE_VERDICT_HOP_LIMIT_EXPIRED;
	case VERDICT_TCLASS_REMARKED: return PROBE_VERDICT_TCLASS_REMARKED;
	case VERDICT_ECN_CHANGED: return PROBE_VERDICT_ECN_CHANGED;
	case VERDICT_FLOW_LABEL_NOT_CARRIED:
		return PROBE_VERDICT_FLOW_LABEL_NOT_CARRIED;
	case VERDICT_FLOW_LABEL_CHANGED:
		return PROBE_VERDICT_FLOW_LABEL_CHANGED;
	case VERDICT_NO_GRH: return PROBE_VERDICT_NO_GRH;
	case VERDICT_SL_CHANGED: return PROBE_VERDICT_SL_CHANGED;
	case VERDICT_RESPONDER_RESTARTED:
		return PROBE_VERDICT_RESPONDER_RESTARTED;
	case VERDICT_DATA_PATH_BLOCKED: return PROBE_VERDICT_DATA_PATH_BLOCKED;
	case VERDICT_SIZE_SUSPECT: return PROBE_VERDICT_SIZE_SUSPECT;
	case VERDICT_LOST_THERE: return PROBE_VERDICT_LOST_THERE;
	case VERDICT_LOST_BACK: return PROBE_VERDICT_LOST_BACK;
	case VERDICT_ASYMMETRIC_HOPS: return PROBE_VERDICT_ASYMMETRIC_HOPS;
	case VERDICT_FIRST_CONTACT: return PROBE_VERDICT_FIRST_CONTACT;
	case VERDICT_RESPONDER_QUEUE: return PROBE_VERDICT_RESPONDER_QUEUE;
	}
	return "?";
}

static void say(struct verdict *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say(struct verdict *v, const char *fmt, ...)
{
	va_list ap;

	if (v->text_count >= VERDICT_TEXT_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(v->text[v->text_count++], sizeof(v->text[0]), fmt, ap);
	va_end(ap);
}

static void sent_from(struct verdict *v, enum hop_limit_source source,
		      int value)
{
	v->hop_limit_source = source;
	v->hop_limit_sent = value;
}

/* Which hop limit left the sender: the provider's rule says whose (the
 * AH's or the route's); what arrived can contradict it (no router
 * increments a hop limit), and then only a value at least as large as
 * what arrived can have been sent. Unknown stays unknown: no hop count is
 * better than a wrong one. */
static void judge_hop_limit_sent(const struct verdict_input *in,
				 struct verdict *v)
{
	int asked = in->asked.hop_limit;
	int route = in->link_ethernet && in->route_known ? in->route_hop_limit
							 : -1;
	int arrived = in->observed_valid && in->observed.grh_present
			      ? in->observed.hop_limit : -1;

	snprintf(v->hop_limit_why, sizeof(v->hop_limit_why), "%s",
		 in->hop_limit_rule_why ? in->hop_limit_rule_why : "");
	sent_from(v, HOP_LIMIT_UNKNOWN, -1);
	switch (in->hop_limit_rule) {
	case HOP_LIMIT_RULE_AH:
		if (arrived <= asked)
			sent_from(v, HOP_LIMIT_FROM_AH, asked);
		else if (route >= arrived)
			sent_from(v, HOP_LIMIT_FROM_ROUTE, route);
		break;
	case HOP_LIMIT_RULE_ROUTE:
		if (route >= 0 && arrived <= route)
			sent_from(v, HOP_LIMIT_FROM_ROUTE, route);
		break;
	case HOP_LIMIT_RULE_UNKNOWN: {
		/* Either could have left: decided only when one alone fits
		 * what arrived, or both are the same number. */
		bool ah_fits = arrived <= asked;
		bool route_fits = route >= 0 && arrived <= route;

		/* Without the route's value the route's cannot be ruled
		 * out: a hop count would be a guess. */
		if (route < 0 || (ah_fits && route_fits && route != asked))
			break;
		if (ah_fits)
			sent_from(v, HOP_LIMIT_FROM_AH, asked);
		else if (route_fits)
			sent_from(v, HOP_LIMIT_FROM_ROUTE, route);
		break;
	}
	}
	if (v->hop_limit_source == HOP_LIMIT_FROM_ROUTE &&
	    v->hop_limit_sent != asked)
		v->flags |= VERDICT_HOP_LIMIT_NOT_HONOURED;
	if (arrived > asked && v->hop_limit_source != HOP_LIMIT_FROM_ROUTE)
		v->flags |= VERDICT_HOP_LIMIT_NOT_HONOURED;
}

/* On InfiniBand the responder's wc.sl is the SL from the packet's LRH,
 * which switches never rewrite: a difference means the AH carried
 * another SL than was asked. On RoCE the responder leaves sl_valid clear
 * (provider_wc_sl_is_sl), so nothing is judged there. */
static void judge_sl(const struct verdict_input *in, struct verdict *v)
{
	const struct probe_observed *o = &in->observed;

	if (o->sl_valid && o->sl != in->asked.sl) {
		v->flags |= VERDICT_SL_CHANGED;
		say(v, "sent SL %u, arrived SL %u", in->asked.sl, o->sl);
	}
}

static void judge_grh(const struct verdict_input *in, struct verdict *v)
{
	const struct probe_observed *o = &in->observed;
	uint8_t asked_tc = in->asked.traffic_class;

	if (!o->grh_present) {
		v->flags |= VERDICT_NO_GRH;
		say(v, "arrived without a GRH: hop limit, traffic class and "
		       "flow label not observable");
		return;
	}
	if (v->hop_limit_sent >= 0 && o->hop_limit <= v->hop_limit_sent)
		v->hops = v->hop_limit_sent - o->hop_limit;
	if (v->hop_limit_source == HOP_LIMIT_UNKNOWN &&
	    o->hop_limit > in->asked.hop_limit)
		say(v, "hop limit not honoured by the sending stack: asked %u, "
		       "arrived %u (more than was sent); hop count unknown",
		    in->asked.hop_limit, o->hop_limit);
	else if (v->hop_limit_source == HOP_LIMIT_UNKNOWN)
		say(v, "hop count unknown: the hop limit that left this host "
		       "is not known (%s)", v->hop_limit_why);
	else if (v->flags & VERDICT_HOP_LIMIT_NOT_HONOURED)
		say(v, "hop limit not honoured by the sending stack: asked %u, "
		       "sent %d (the route's), arrived %u",
		    in->asked.hop_limit, v->hop_limit_sent, o->hop_limit);
	v->text_rewrite_start = v->text_count;
	if ((o->traffic_class & ~ECN_MASK) != (asked_tc & ~ECN_MASK)) {
		v->flags |= VERDICT_TCLASS_REMARKED;
		say(v, "traffic class remarked: sent 0x%02x (DSCP %u), seen "
		       "0x%02x (DSCP %u)",
		    asked_tc, asked_tc >> 2, o->traffic_class,
		    o->traffic_class >> 2);
	} else if (o->traffic_class != asked_tc) {
		v->flags |= VERDICT_ECN_CHANGED;
		say(v, "ECN bits changed on the way: sent 0x%02x, seen 0x%02x "
		       "(congestion marking?)",
		    asked_tc, o->traffic_class);
	}
	v->text_rewrite_end = v->text_count;
	/* IPv4 has no flow label; RoCE v2 maps it to the UDP source port. */
	if (o->grh_ipv4 || in->asked.flow_label == o->flow_label)
		return;
	if (o->flow_label == 0) {
		v->flags |= VERDICT_FLOW_LABEL_NOT_CARRIED;
		say(v, "flow label not carried: sent 0x%05x, seen 0",
		    in->asked.flow_label);
	} else {
		v->flags |= VERDICT_FLOW_LABEL_CHANGED;
		say(v, "flow label changed: sent 0x%05x, seen 0x%05x",
		    in->asked.flow_label, o->flow_label);
	}
	v->text_rewrite_end = v->text_count;
}

/* The routers on the way back: the hop limit the reply left with minus
 * the one it arrived with (no router raises it: more arriving than left
 * is no count). A route that differs from the forward one is named. */
static void judge_hops_back(const struct verdict_input *in, struct verdict *v)
{
	if (!in->reply_hop_limit_sent_known || !in->reply_grh_seen ||
	    in->reply_hop_limit_seen > in->reply_hop_limit_sent)
		return;
	v->hops_back = in->reply_hop_limit_sent - in->reply_hop_limit_seen;
	if (v->hops < 0 || v->hops == v->hops_back)
		return;
	v->flags |= VERDICT_ASYMMETRIC_HOPS;
	say(v, "asymmetric routing: %d hop%s there, %d back", v->hops,
	    v->hops == 1 ? "" : "s", v->hops_back);
}

/* Which way the lost probes went, from the responder's counts. */
static void judge_direction(const struct verdict_input *in, struct verdict *v)
{
	oneway_judge(&in->oneway, &v->oneway);
	/* Dropped in the responder's receive queue: not the path's. */
	if (v->oneway.direction == ONEWAY_RQ_FULL)
		v->flags |= VERDICT_RESPONDER_QUEUE;
	else if (v->oneway.lost_there > 0)
		v->flags |= VERDICT_LOST_THERE;
	if (v->oneway.lost_back > 0)
		v->flags |= VERDICT_LOST_BACK;
	if (v->oneway.resolving > 0)
		v->flags |= VERDICT_FIRST_CONTACT;
	if (v->oneway.text[0])
		say(v, "%s", v->oneway.text);
	if (v->oneway.note[0])
		say(v, "%s", v->oneway.note);
}

/* Why every probe may have been lost: a hop limit too small for the
 * routers between us. */
static void judge_loss(const struct verdict_input *in, struct verdict *v)
{
	int sent_hl = v->hop_limit_sent;

	if (v->reach == PROBE_STATUS_REACHABLE || sent_hl < 0)
		return;
	if (in->known_hops > 0 && sent_hl <= in->known_hops) {
		v->flags |= VERDICT_HOP_LIMIT_EXPIRED;
		say(v, "hop limit expired on the way (likely): %d leaves the "
		       "sender, the destination is %d router hop%s away",
		    sent_hl, in->known_hops, in->known_hops == 1 ? "" : "s");
	} else if (sent_hl <= 1 && in->route_known && in->route_has_gateway) {
		v->flags |= VERDICT_HOP_LIMIT_EXPIRED;
		say(v, "hop limit expired on the way (likely): %d leaves the "
		       "sender and the destination is behind a router",
		    sent_hl);
	}
}

/* Nothing arrived in a partition where this port is a limited member:
 * a limited responder cannot answer it (partition_reach). */
static void judge_partition(const struct verdict_input *in, struct verdict *v)
{
	char words[sizeof(v->text[0])];

	if (in->pkey &&
	    partition_reach_words(
		    partition_reach_judge(in->local_pkey_membership,
					  in->remote_pkey_membership),
		    in->pkey, words, sizeof(words)))
		say(v, "%s", words);
}

/* Loss with causes a prober can see from its side: the responder came
 * back with another QPN (the rest went to its old QP); the responder is
 * up (its rendezvous answered over TCP) but no datagram came back; the
 * probes were large, so a narrower link may drop them. */
static void judge_loss_cause(const struct verdict_input *in, struct verdict *v)
{
	if (v->reach == PROBE_STATUS_REACHABLE)
		return;
	if (in->restart_followed) {
		v->flags |= VERDICT_RESPONDER_RESTARTED;
		if (in->restarts_followed > 1)
			say(v, "the responder restarted %u times, last at %s "
			       "(QPN %u -> %u): the probes followed it; those "
			       "sent while it was down are lost",
			    in->restarts_followed, in->restart_time,
			    in->old_qpn, in->new_qpn);
		else
			say(v, "the responder restarted at %s (QPN %u -> %u): "
			       "the probes followed it; those sent while it "
			       "was down are lost", in->restart_time,
			    in->old_qpn, in->new_qpn);
		return;
	}
	if (in->responder_restarted) {
		v->flags |= VERDICT_RESPONDER_RESTARTED;
		say(v, "the responder restarted during the run (QPN %u, now "
		       "%u): probes after that went to its old QP", in->old_qpn,
		    in->new_qpn);
		return;
	}
	if (v->reach != PROBE_STATUS_UNREACHABLE)
		return;
	judge_partition(in, v);
	if (in->port_mtu && in->size > in->port_mtu / 2) {
		v->flags |= VERDICT_SIZE_SUSPECT;
		say(v, "every %u-byte probe was lost: a link narrower than the "
		       "port's MTU %u may drop them (an MTU blackhole); try a "
		       "smaller --size", in->size, in->port_mtu);
	}
	/* A UD receiver drops a datagram whose Q_Key is not its QP's and
	 * only counts a Q_Key violation (rxe_recv.c check_keys bumps
	 * qkey_viol_cntr); nothing tells a prober that skipped the
	 * rendezvous. */
	if (in->qpn_given)
		say(v, "--qpn %u --qkey 0x%08x must both match the responder's "
		       "(serve prints them when ready): a wrong Q_Key drops "
		       "every probe unseen", in->given_qpn, in->given_qkey);
	/* Every probe arrived and none was lost on the way back: the
	 * responder did not answer (first contact, its rate), nothing on
	 * the way is blocked. */
	if (in->rendezvous_answered &&
	    v->oneway.direction != ONEWAY_AT_RESPONDER &&
	    v->oneway.direction != ONEWAY_RQ_FULL) {
		v->flags |= VERDICT_DATA_PATH_BLOCKED;
		say(v, "the responder is up (its rendezvous answered over "
		       "TCP); RoCE v2 (UDP 4791) or the IB data path is "
		       "blocked on the way");
	}
}

void verdict_judge(const struct verdict_input *in, struct verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->hops = -1;
	v->hops_back = -1;
	if (in->received == 0)
		v->reach = PROBE_STATUS_UNREACHABLE;
	else if (in->received < in->sent)
		v->reach = PROBE_STATUS_PARTIAL;
	else
		v->reach = PROBE_STATUS_REACHABLE;
	judge_hop_limit_sent(in, v);
	if (v->reach == PROBE_STATUS_PARTIAL)
		say(v, "partial loss: %u of %u probes lost",
		    in->sent - in->received, in->sent);
	else if (v->reach == PROBE_STATUS_UNREACHABLE)
		say(v, "unreachable: none of %u probes answered", in->sent);
	v->text_detail_start = v->text_count;
	/* A responder that restarted answers for its new QP: its counts
	 * are not this run's (judge_loss_cause says what happened). */
	if (v->reach != PROBE_STATUS_REACHABLE && !in->responder_restarted &&
	    !in->restart_followed)
		judge_direction(in, v);
	else
		oneway_judge(&in->oneway, &v->oneway);
	if (in->late)
		say(v, "%u repl%s came after the %u ms deadline, the latest "
		       "%llu ms after it: a longer -t counts them",
		    in->late, in->late == 1 ? "y" : "ies", in->timeout_ms,
		    (unsigned long long)((in->late_max_ns + 999999) / 1000000));
	if (in->duplicates)
		say(v, "%u duplicate repl%s (a probe or reply was duplicated "
		       "on the way); counted once", in->duplicates,
		    in->duplicates == 1 ? "y" : "ies");
	if (in->observed_valid) {
		judge_grh(in, v);
		judge_sl(in, v);
		judge_hops_back(in, v);
	}
	judge_loss(in, v);
	judge_loss_cause(in, v);
}
