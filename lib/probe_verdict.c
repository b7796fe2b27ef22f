/* Verdicts from what was sent and what was observed; see probe_verdict.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "probe_verdict.h"

#define ECN_MASK 0x03

const char *reachability_name(enum reachability reach)
{
	switch (reach) {
	case REACH_REACHABLE: return "reachable";
	case REACH_PARTIAL: return "partial loss";
	case REACH_UNREACHABLE: return "unreachable";
	}
	return "?";
}

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
	case VERDICT_HOP_LIMIT_NOT_HONOURED: return "hop_limit_not_honoured";
	case VERDICT_HOP_LIMIT_EXPIRED: return "hop_limit_expired";
	case VERDICT_TCLASS_REMARKED: return "tclass_remarked";
	case VERDICT_ECN_CHANGED: return "ecn_changed";
	case VERDICT_FLOW_LABEL_NOT_CARRIED: return "flow_label_not_carried";
	case VERDICT_FLOW_LABEL_CHANGED: return "flow_label_changed";
	case VERDICT_NO_GRH: return "no_grh";
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

/* Which hop limit left the sender. The AH's, unless the stack is known
 * to use the route's, or what arrived is more than was asked for (no
 * router increments it). */
static void judge_hop_limit_sent(const struct verdict_input *in,
				 struct verdict *v)
{
	bool above_asked = in->observed_valid && in->observed.grh_present &&
			   in->observed.hop_limit > in->asked.hop_limit;

	v->hop_limit_source = HOP_LIMIT_FROM_AH;
	v->hop_limit_sent = in->asked.hop_limit;
	if (in->link_ethernet && in->route_known &&
	    (in->stack_ignores_ah_hop_limit || above_asked)) {
		v->hop_limit_source = HOP_LIMIT_FROM_ROUTE;
		v->hop_limit_sent = in->route_hop_limit;
	} else if (above_asked) {
		v->hop_limit_source = HOP_LIMIT_UNKNOWN;
		v->hop_limit_sent = -1;
	}
	if (v->hop_limit_source != HOP_LIMIT_FROM_AH &&
	    v->hop_limit_sent != in->asked.hop_limit)
		v->flags |= VERDICT_HOP_LIMIT_NOT_HONOURED;
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
	if (v->hop_limit_source == HOP_LIMIT_UNKNOWN)
		say(v, "hop limit not honoured by the sending stack: asked %u, "
		       "arrived %u (more than was sent)",
		    in->asked.hop_limit, o->hop_limit);
	else if (v->flags & VERDICT_HOP_LIMIT_NOT_HONOURED)
		say(v, "hop limit not honoured by the sending stack: asked %u, "
		       "sent %d (the route's), arrived %u",
		    in->asked.hop_limit, v->hop_limit_sent, o->hop_limit);
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
}

/* Why every probe may have been lost: a hop limit too small for the
 * routers between us. */
static void judge_loss(const struct verdict_input *in, struct verdict *v)
{
	int sent_hl = v->hop_limit_sent;

	if (v->reach == REACH_REACHABLE || sent_hl < 0)
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

void verdict_judge(const struct verdict_input *in, struct verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->hops = -1;
	if (in->received == 0)
		v->reach = REACH_UNREACHABLE;
	else if (in->received < in->sent)
		v->reach = REACH_PARTIAL;
	else
		v->reach = REACH_REACHABLE;
	judge_hop_limit_sent(in, v);
	if (v->reach == REACH_PARTIAL)
		say(v, "partial loss: %u of %u probes lost",
		    in->sent - in->received, in->sent);
	else if (v->reach == REACH_UNREACHABLE)
		say(v, "unreachable: none of %u probes answered", in->sent);
	if (in->observed_valid)
		judge_grh(in, v);
	judge_loss(in, v);
}
