/* One probe result through the output layer: see probe_print.h. */
#include "ah_print.h"
#include "diag.h"
#include "gid.h"
#include "output.h"
#include "probe_print.h"

static void print_observed(const struct probe_cell *c)
{
	const struct probe_observed *o = &c->last_reply.observed;
	char gid[GID_TEXT_MAX];

	if (!c->observed_valid) {
		out_null("observed", NULL);
		return;
	}
	out_open_object("observed");
	out_bool("grh_present", NULL, o->grh_present);
	if (o->grh_present) {
		out_uint("hop_limit", " seen_hl %u", o->hop_limit);
		out_uint("traffic_class", " seen_tc 0x%02x", o->traffic_class);
		out_uint("flow_label", " seen_fl 0x%05x", o->flow_label);
		out_string("sgid", NULL, gid_format(&o->sgid, gid, sizeof(gid)));
		out_string("dgid", NULL, gid_format(&o->dgid, gid, sizeof(gid)));
		out_uint("ip_version", NULL, o->ip_version);
	} else {
		out_text(" no GRH");
	}
	/* On RoCE wc.sl holds no SL (provider_wc_sl_is_sl): unknown. */
	if (o->sl_valid)
		out_uint("sl", NULL, o->sl);
	else
		out_null("sl", NULL);
	out_uint("slid", NULL, o->slid);
	out_uint("src_qp", NULL, o->src_qp);
	out_uint("pkey_index", NULL, o->pkey_index);
	out_close_object();
}

static void print_rtt(const struct probe_cell *c)
{
	struct rtt_summary s;

	if (rtt_summarize(&c->rtt, &s)) {
		out_null("rtt_us", " rtt %s");
		return;
	}
	out_open_object("rtt_us");
	out_double("min", " rtt min/med/p99/max %.1f", s.min_us);
	out_double("median", "/%.1f", s.median_us);
	out_double("p99", "/%.1f", s.p99_us);
	out_double("max", "/%.1f us", s.max_us);
	out_close_object();
}

/* Who sent: results of many hosts merge into one report (ibahprobe
 * report), keyed by the source GID; the host name is for people. */
static void print_source(const struct probe_session *r, const struct probe_cell *c)
{
	const struct gid_info *sgid = NULL;
	char gid[GID_TEXT_MAX];

	if (c->attr.is_global)
		sgid = ah_facts_gid(&r->facts, c->attr.grh.sgid_index);
	else if (r->facts.gid_count)
		sgid = &r->facts.gids[0];
	out_open_object("source");
	out_string("host", NULL, r->hostname);
	out_string("device", NULL, r->device);
	out_uint("port_num", NULL, r->facts.port_num);
	out_string("provider", NULL, provider_name(r->provider));
	out_uint("lid", NULL, r->facts.lid);
	if (sgid)
		out_string("sgid", NULL, gid_format(&sgid->gid, gid, sizeof(gid)));
	else
		out_null("sgid", NULL);
	out_close_object();
}

void probe_cell_print(const struct probe_session *r,
		      const struct probe_cell *c)
{
	const struct verdict *v = &c->verdict;
	unsigned flag;

	out_open_object(NULL);
	out_string("dest", "%s", c->target->dest->text);
	print_source(r, c);
	out_open_object("params");
	out_uint("hop_limit", " hl %u", c->asked.hop_limit);
	out_uint("traffic_class", " tc 0x%02x", c->asked.traffic_class);
	out_uint("flow_label", " fl 0x%05x", c->asked.flow_label);
	out_uint("sl", " sl %u", c->asked.sl);
	out_close_object();
	/* With -g auto: which source GID and why, also when the AH failed
	 * (a GID whose netdev does not route to the destination is a cause). */
	if (c->sgid_choice.reason[0])
		sgid_choice_print("sgid_choice", &c->sgid_choice);
	if (!c->target->ready || !c->ah) {
		out_string("status", ": %s", "error");
		out_string("error", " %s",
			   c->target->ready ? c->error : c->target->error);
		out_newline();
		out_close_object();
		return;
	}
	out_string("status", ": %s", reachability_name(v->reach));
	out_uint("sent", " sent %u", c->sent);
	out_uint("received", " recv %u", c->received);
	out_uint("lost", " lost %u", c->sent - c->received);
	out_uint("late", NULL, c->late);
	out_uint("duplicates", NULL, c->duplicates);
	print_rtt(c);
	print_observed(c);
	if (v->hop_limit_sent >= 0)
		out_int("hop_limit_sent", " sent_hl %lld", v->hop_limit_sent);
	else
		out_null("hop_limit_sent", NULL);
	out_string("hop_limit_source", NULL,
		   hop_limit_source_name(v->hop_limit_source));
	out_string("hop_limit_rule", diag_verbosity > 0 ?
		   "\n    hop limit rule: %s" : NULL, v->hop_limit_why);
	if (v->hops >= 0)
		out_int("hops", " hops %lld", v->hops);
	else
		out_null("hops", NULL);
	out_uint("ah_create_usec", NULL, c->create_usec);
	out_newline();
	out_open_array("verdicts");
	out_element_string(NULL, reachability_name(v->reach));
	for (flag = 1; flag <= VERDICT_FLAG_LAST; flag <<= 1)
		if (v->flags & flag)
			out_element_string(NULL, verdict_flag_name(
							 (enum verdict_flag)flag));
	out_close_array();
	out_open_array("findings");
	for (size_t i = 0; i < v->text_count; i++)
		out_element_string("    %s\n", v->text[i]);
	out_close_array();
	out_text("    ");
	ah_attr_print("ah_attr", &c->attr);
	out_newline();
	if (c->observed_valid) {
		out_text("    reverse ");
		ah_attr_print("reverse_ah", &c->last_reply.reverse_ah);
		out_newline();
	} else {
		out_null("reverse_ah", NULL);
	}
	out_close_object();
}

