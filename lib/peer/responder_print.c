/* A responder's QP, port and GIDs, and serve's summary; see
 * responder_print.h. */
#include <stdio.h>

#include "base/gid.h"
#include "out/output.h"
#include "peer/responder.h"
#include "peer/responder_print.h"

void responder_qp_print(uint32_t qpn, uint32_t qkey,
			enum responder_qpn_form qpn_form)
{
	out_uint("qpn", qpn_form == RESPONDER_QPN_HEX ? " qpn 0x%x" : " qpn %u",
		 qpn);
	out_uint("qkey", " qkey 0x%08x", qkey);
}

void responder_info_print(const struct responder_info *info, const char *lead,
			  enum responder_qpn_form qpn_form)
{
	char device_fmt[64];

	snprintf(device_fmt, sizeof(device_fmt), "%s device %%s", lead);
	out_string("device", device_fmt, info->device);
	out_uint("port_num", " port %u", info->port_num);
	out_uint("lid", " lid %u", info->lid);
	responder_qp_print(info->qpn, info->qkey, qpn_form);
	out_string("link_layer", " link_layer %s", info->link_layer);
}

void responder_gids_print(const struct responder_info *info, bool nested)
{
	char gid[GID_TEXT_MAX];

	out_open_array("gids");
	for (size_t i = 0; i < info->gid_count; i++) {
		out_open_object(NULL);
		out_uint("index", nested ? "\n      gid %u" : "\n  gid %u",
			 info->gids[i].index);
		out_string("gid", " %s",
			   gid_format(&info->gids[i].gid, gid, sizeof(gid)));
		out_string("type", " %s", info->gids[i].type);
		out_close_object();
	}
	out_close_array();
}

/* The groups joined, a text line each: "mcast 239.1.2.3 mgid
 * ::ffff:239.1.2.3 mlid 0 qkey 0x1ab4e0be join igmp netdev eth1". */
static void groups_print(const struct responder_group *groups, size_t count)
{
	char mgid[GID_TEXT_MAX];

	out_open_array("mcast");
	for (size_t i = 0; i < count; i++) {
		const struct responder_group *g = &groups[i];

		out_open_object(NULL);
		out_string("group", "\n  mcast %s", g->group);
		out_string("mgid", " mgid %s",
			   gid_format(&g->mgid, mgid, sizeof(mgid)));
		out_uint("mlid", " mlid 0x%04x", g->mlid);
		out_uint("qkey", " qkey 0x%08x", g->qkey);
		out_string("join", " join %s", g->join);
		if (g->netdev)
			out_string("netdev", " netdev %s", g->netdev);
		else
			out_null("netdev", NULL);
		out_close_object();
	}
	out_close_array();
}

void responder_ready_print(const struct responder_info *info,
			   const char *rendezvous, bool registered,
			   const char *pidfile,
			   const struct responder_timing *timing,
			   const struct responder_group *groups,
			   size_t group_count)
{
	out_open_object(NULL);
	out_string("event", "%s:", "ready");
	responder_info_print(info, "", RESPONDER_QPN_DECIMAL);
	/* What a prober needs, then how to find it, then how to stop it. */
	if (rendezvous)
		out_string("rendezvous", "\n  rendezvous %s", rendezvous);
	else
		out_null("rendezvous", "\n  rendezvous %s");
	out_bool("registered", " registered %s", registered);
	if (pidfile)
		out_string("pidfile", "\n  pidfile %s", pidfile);
	else
		out_null("pidfile", NULL);
	if (timing) {
		/* What the dwell in each reply rests on. */
		out_string("wait", NULL,
			   timing->busy_poll ? "busy_poll" : "events");
		out_text("\n  timing: %s, completion timestamps %s",
			 timing->busy_poll ? "busy poll" : "events",
			 timing->hw_stamps ? "yes (hw)" : "no");
		out_bool("completion_timestamps", NULL, timing->hw_stamps);
		if (!timing->hw_stamps && timing->why_not &&
		    timing->why_not[0])
			out_string("completion_timestamps_note", NULL,
				   timing->why_not);
		else
			out_null("completion_timestamps_note", NULL);
	}
	groups_print(groups, group_count);
	responder_gids_print(info, false);
	out_newline();
	out_close_object();
	out_flush_record();
}

/* The reasons for dropped requests, each named as in JSON: in text only
 * those that happened, "(reverse_ah 10, rate_limited 2)"; in JSON all. */
static void drop_reasons_print(const struct responder *r)
{
	bool first = true;

	out_open_object("dropped");
	for (int i = 0; i < DROP_COUNT; i++) {
		char fmt[64];

		if (!r->dropped[i] && !out_is_json())
			continue;
		snprintf(fmt, sizeof(fmt), "%s%s %%llu", first ? " (" : ", ",
			 responder_drop_names[i]);
		out_uint(responder_drop_names[i], fmt, r->dropped[i]);
		first = false;
	}
	if (!first)
		out_text(")");
	out_close_object();
}

void responder_summary_print(const struct responder *r, const char *why)
{
	uint64_t dropped = 0;

	for (int i = 0; i < DROP_COUNT; i++)
		dropped += r->dropped[i];
	out_open_object(NULL);
	out_string("event", "%s:", "summary");
	out_string("stopped_by", " stopped by %s", why);
	out_uint("answered", ", answered %llu", r->answered);
	out_uint("dropped_total", ", dropped %llu", dropped);
	drop_reasons_print(r);
	out_uint("reverse_ahs_created", ", reverse AHs created %llu",
		 r->reverse.created);
	out_uint("reverse_ahs_failed", r->reverse.failed ? ", failed %llu"
							 : NULL,
		 r->reverse.failed);
	out_uint("repost_failed", r->repost_failed ? ", receive reposts "
			 "failed %llu" : NULL, r->repost_failed);
	out_uint("send_errors", r->send_errors ? ", send errors %llu" : NULL,
		 r->send_errors);
	out_uint("stamps_sent", r->stamps_sent ? ", stamps messages %llu"
					       : NULL,
		 r->stamps_sent);
	/* Reply AHs made again (their age, or a next hop that moved), and
	 * the receive queue's evidence (rq_drops.h). */
	out_uint("reverse_ahs_remade", r->ahs_refreshed
					      ? ", reverse AHs made again %llu"
					      : NULL,
		 r->ahs_refreshed);
	out_uint("next_hop_changes", NULL, r->neigh_moves);
	out_uint("rq_depth", NULL, r->rq_depth);
	out_uint("rq_empty_seen", r->rq_drops.rq_empty
					  ? ", receive queue found empty %llu "
					    "times"
					  : NULL,
		 r->rq_drops.rq_empty);
	if (r->rq_drops.counter_name)
		out_string("rq_drop_counter", NULL, r->rq_drops.counter_name);
	else
		out_null("rq_drop_counter", NULL);
	out_newline();
	out_close_object();
	out_flush_record();
}
