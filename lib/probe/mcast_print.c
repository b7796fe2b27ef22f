/* A multicast probe's rows: see mcast_print.h. */
#include <inttypes.h>
#include <stdio.h>

#include "base/gid.h"
#include "out/output.h"
#include "out/probe_schema.h"
#include "probe/mcast_print.h"

static void print_head(const struct mcast_print_group *g, const char *record)
{
	char gid[GID_TEXT_MAX];

	out_open_object(NULL);
	if (out_is_json()) {
		run_info_print(g->info, PROBE_SCHEMA);
		out_string(PROBE_KEY_RECORD, NULL, record);
	}
	out_string(PROBE_KEY_DEST, NULL, g->dest);
	out_string("mcast_group", NULL,
		   gid_format(&g->mgid, gid, sizeof(gid)));
}

static enum probe_status member_status(const struct mcast_member *m,
				       uint32_t sent)
{
	if (m->received == 0)
		return PROBE_STATUS_UNREACHABLE;
	return m->received >= sent ? PROBE_STATUS_REACHABLE
				   : PROBE_STATUS_PARTIAL;
}

static void print_observed(const struct mcast_member *m)
{
	const struct probe_observed *o = &m->observed;
	char gid[GID_TEXT_MAX];

	if (!m->observed_valid) {
		out_null(PROBE_KEY_OBSERVED, NULL);
		return;
	}
	out_open_object(PROBE_KEY_OBSERVED);
	out_bool("grh_present", NULL, o->grh_present);
	if (o->grh_present) {
		out_uint(PROBE_KEY_HOP_LIMIT, "  arrived hop_limit %u",
			 o->hop_limit);
		out_uint(PROBE_KEY_TRAFFIC_CLASS, " tclass 0x%02x",
			 o->traffic_class);
		out_uint(PROBE_KEY_FLOW_LABEL, NULL, o->flow_label);
		out_string(PROBE_KEY_SGID, NULL,
			   gid_format(&o->sgid, gid, sizeof(gid)));
		out_string(PROBE_KEY_DGID, NULL,
			   gid_format(&o->dgid, gid, sizeof(gid)));
	} else {
		out_text("  arrived without a GRH");
	}
	if (o->sl_valid)
		out_uint(PROBE_KEY_SL, NULL, o->sl);
	else
		out_null(PROBE_KEY_SL, NULL);
	out_uint("slid", NULL, o->slid);
	out_close_object();
}

static void print_member(const struct mcast_print_group *g,
			 const struct mcast_tally *t,
			 const struct mcast_member *m)
{
	enum mcast_member_state state = mcast_member_state(t, m);
	char gid[GID_TEXT_MAX];

	print_head(g, PROBE_RECORD_MCAST_MEMBER);
	out_open_object("member");
	if (gid_is_zero(&m->who.gid))
		out_null("gid", "  member (no GRH)");
	else
		out_string("gid", "  member %s",
			   gid_format(&m->who.gid, gid, sizeof(gid)));
	if (m->host[0])
		out_string(PROBE_KEY_HOST, " (%s)", m->host);
	else
		out_null(PROBE_KEY_HOST, NULL);
	if (g->ib)
		out_uint(PROBE_KEY_LID, " lid 0x%04x", m->who.lid);
	if (m->received)
		out_uint("qpn", " qpn 0x%06x", m->who.qpn);
	else
		out_null("qpn", NULL);
	out_close_object();
	out_string("member_state", "  %s", mcast_member_state_name(state));
	if (t->listing_known)
		out_bool("listed", NULL, m->listed);
	else
		out_null("listed", NULL);
	out_string(PROBE_KEY_STATUS, NULL,
		   probe_status_name(member_status(m, t->sent)));
	out_uint(PROBE_KEY_SENT, NULL, t->sent);
	out_uint(PROBE_KEY_RECEIVED, "  %u", m->received);
	out_text("/%u", t->sent);
	out_uint("late", NULL, m->late);
	out_uint("duplicates", NULL, m->duplicates);
	if (m->received) {
		out_open_object(PROBE_KEY_RTT);
		out_double("min", "  rtt %.3f", (double)m->rtt_min_ns / 1e3);
		out_double("avg", "/%.3f",
			   (double)m->rtt_sum_ns / m->received / 1e3);
		out_double(PROBE_KEY_RTT_MAX, "/%.3f us",
			   (double)m->rtt_max_ns / 1e3);
		out_close_object();
	} else {
		out_null(PROBE_KEY_RTT, NULL);
	}
	if (m->hops >= 0)
		out_int(PROBE_KEY_HOPS, "  hops %" PRId64, m->hops);
	else
		out_null(PROBE_KEY_HOPS, m->received ? "  hops %s" : NULL);
	print_observed(m);
	if (m->reply_grh_seen)
		out_uint("reply_hop_limit_seen", NULL,
			 m->reply_hop_limit_seen);
	else
		out_null("reply_hop_limit_seen", NULL);
	out_newline();
	out_close_object();
	out_flush_record();
}

static void print_boundary(const struct mcast_print_boundary *b)
{
	char gid[GID_TEXT_MAX];
	const struct mcast_unicast_path *path = &b->silent.path;

	out_open_object(NULL);
	out_string("member", NULL, b->member);
	out_string("gid", NULL, gid_format(&b->gid, gid, sizeof(gid)));
	if (b->unicast_error[0]) {
		out_string("unicast", NULL, "not_traced");
		out_string(PROBE_KEY_ERROR, NULL, b->unicast_error);
	} else {
		out_string("unicast", NULL, b->silent.unicast_reached
						    ? "reached"
						    : "unreachable");
		out_null(PROBE_KEY_ERROR, NULL);
	}
	out_open_array("routers");
	for (size_t i = 0; i < path->count; i++)
		if (path->routers[i])
			out_element_string(NULL, path->routers[i]);
		else
			out_element_null(NULL);
	out_close_array();
	out_string("verdict", NULL,
		   mcast_boundary_verdict_name(b->boundary.verdict));
	if (b->boundary.verdict == MCAST_BOUNDARY_ROUTER) {
		out_string("boundary", NULL, path->routers[b->boundary.router]);
		if (b->router_host[0])
			out_string("boundary_host", NULL, b->router_host);
		else
			out_null("boundary_host", NULL);
	} else {
		out_null("boundary", NULL);
		out_null("boundary_host", NULL);
	}
	out_string("summary", "\n  %s", b->words);
	out_close_object();
}

void mcast_group_print(const struct mcast_print_group *g,
		       const struct mcast_tally *t,
		       const struct mcast_summary *s, const char *error)
{
	char words[256];

	char gid[GID_TEXT_MAX];

	out_text("%s (group %s)\n", g->dest,
		 gid_format_address(&g->mgid, gid, sizeof(gid)));
	for (size_t i = 0; !error && i < t->count; i++)
		print_member(g, t, &t->members[i]);
	print_head(g, PROBE_RECORD_MCAST_GROUP);
	out_uint("qkey", "  qkey 0x%08x", g->qkey);
	out_uint(PROBE_KEY_HOP_LIMIT, "  hop_limit %u", g->hop_limit);
	if (error) {
		out_string(PROBE_KEY_STATUS, NULL, PROBE_STATUS_NAME_ERROR);
		out_string(PROBE_KEY_ERROR, "\n  error: %s", error);
		out_newline();
		out_close_object();
		out_flush_record();
		return;
	}
	out_uint(PROBE_KEY_SENT, "  %u probes", t->sent);
	out_uint("answered", NULL, s->answered);
	out_uint("silent", NULL, s->silent);
	out_uint("unlisted", NULL, s->unlisted);
	if (s->expected)
		out_uint("expected_members", NULL, s->expected);
	else
		out_null("expected_members", NULL);
	out_bool("listing_known", NULL, t->listing_known);
	if (g->listing_why_not)
		out_string("listing_why_not", NULL, g->listing_why_not);
	else
		out_null("listing_why_not", NULL);
	out_uint("strangers", NULL, t->strangers);
	out_bool("ok", NULL, s->ok);
	mcast_summary_describe(s, words, sizeof(words));
	out_string("summary", "\n  %s", words);
	if (g->listing_why_not)
		out_text(" (%s)", g->listing_why_not);
	out_open_array("boundaries");
	for (size_t i = 0; i < g->boundary_count; i++)
		print_boundary(&g->boundaries[i]);
	out_close_array();
	out_newline();
	out_close_object();
	out_flush_record();
}
