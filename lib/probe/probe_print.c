/* probe's JSON records: see probe_print.h. */
#include <string.h>

#include "verbs/ah_print.h"
#include "base/gid.h"
#include "out/output.h"
#include "probe/probe_print.h"
#include "probe/probe_text.h"

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
		out_uint("hop_limit", NULL, o->hop_limit);
		out_uint("traffic_class", NULL, o->traffic_class);
		out_uint("flow_label", NULL, o->flow_label);
		out_string("sgid", NULL, gid_format(&o->sgid, gid, sizeof(gid)));
		out_string("dgid", NULL, gid_format(&o->dgid, gid, sizeof(gid)));
		out_uint("ip_version", NULL, o->ip_version);
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

/* RoCE v2 only: the port the flow label asks for (probe_udp_sport) and
 * the one the probes carry where it is known (probe_wire_udp_sport). */
static void print_udp_sport(const struct probe_session *s,
			    const struct probe_cell *c)
{
	int32_t port = probe_udp_sport(s, c);
	int32_t wire = probe_wire_udp_sport(s, c);

	if (port >= 0)
		out_uint("udp_sport", NULL, (uint64_t)port);
	else
		out_null("udp_sport", NULL);
	if (wire >= 0)
		out_uint("wire_udp_sport", NULL, (uint64_t)wire);
	else
		out_null("wire_udp_sport", NULL);
}

static void print_rtt(const struct probe_cell *c)
{
	struct rtt_summary s;

	if (rtt_summarize(&c->rtt, &s)) {
		out_null("rtt_us", NULL);
		return;
	}
	out_open_object("rtt_us");
	out_double("min", NULL, s.min_us);
	out_double("median", NULL, s.median_us);
	out_double("p99", NULL, s.p99_us);
	out_double("max", NULL, s.max_us);
	out_close_object();
}

/* Who sent: results of many hosts merge into one report (ibahprobe
 * report), keyed by the source GID; the host name is for people. */
static void print_source(const struct probe_session *r,
			 const struct probe_cell *c)
{
	const struct gid_info *sgid = NULL;
	char gid[GID_TEXT_MAX];

	/* The summary has no cell: the GID -g names, on InfiniBand the
	 * port GID; with -g auto on RoCE each result names its own. */
	if (c && c->attr.is_global)
		sgid = ah_facts_gid(&r->facts, c->attr.grh.sgid_index);
	else if (!c && r->settings.gid_index >= 0)
		sgid = ah_facts_gid(&r->facts,
				    (uint32_t)r->settings.gid_index);
	else if ((c || r->facts.link_layer == LINK_LAYER_IB) &&
		 r->facts.gid_count)
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
	if (r->device_note[0])
		out_string("device_note", NULL, r->device_note);
	else
		out_null("device_note", NULL);
	out_close_object();
}

static void print_list(const char *key, const struct value_list *list)
{
	if (!list) {
		out_null(key, NULL);
		return;
	}
	out_open_array(key);
	for (size_t i = 0; i < list->count; i++)
		out_element_int(NULL, list->values[i]);
	out_close_array();
}

static void print_run(const struct probe_run *run,
		      const struct probe_session *s, const char *record)
{
	run_info_print(&run->info, PROBE_SCHEMA);
	out_string("record", NULL, record);
	out_open_object("run_params");
	out_uint("count", NULL, s->settings.count);
	out_bool("continuous", NULL, run->continuous);
	out_uint("interval_ms", NULL, s->settings.interval_ms);
	out_uint("size", NULL, s->settings.size);
	out_uint("window", NULL, s->settings.window);
	out_uint("timeout_ms", NULL, s->settings.timeout_ms);
	if (s->settings.gid_index >= 0)
		out_int("gid_index", NULL, s->settings.gid_index);
	else
		out_string("gid_index", NULL, "auto");
	print_list("hop_limits", run->lists[0]);
	print_list("traffic_classes", run->lists[1]);
	print_list("flow_labels", run->lists[2]);
	print_list("sls", run->lists[3]);
	out_close_object();
}

static bool cell_cut_short(const struct probe_run *run,
			   const struct probe_session *s,
			   const struct probe_cell *c)
{
	uint32_t quota = c->count ? c->count : s->settings.count;

	return run->interrupted && (run->continuous || c->sent < quota);
}

static const char *status_name(const struct probe_cell *c, uint32_t resolved)
{
	const char *st = probe_text_status(c, resolved);

	if (strcmp(st, "ok") == 0)
		return reachability_name(REACH_REACHABLE);
	if (strcmp(st, "loss") == 0)
		return reachability_name(REACH_PARTIAL);
	if (strcmp(st, "error") == 0)
		return "error";
	return reachability_name(REACH_UNREACHABLE);
}

/* A continuous run's round: its own counts beside the running ones, so a
 * log shipper needs no state to graph loss per round. */
static void print_round(const struct probe_run *run,
			const struct probe_round_cell *r)
{
	double ratio;

	out_open_object("round");
	out_uint("number", NULL, run->round);
	out_uint("sent", NULL, r->sent);
	out_uint("received", NULL, r->received);
	out_uint("lost", NULL, r->sent > r->received ? r->sent - r->received
						     : 0);
	if (probe_round_loss_ratio(r, &ratio))
		out_double("loss_ratio", NULL, ratio);
	else
		out_null("loss_ratio", NULL);
	if (r->has_rtt) {
		out_open_object("rtt_us");
		out_double("min", NULL, r->rtt.min_us);
		out_double("median", NULL, r->rtt.median_us);
		out_double("p99", NULL, r->rtt.p99_us);
		out_double("max", NULL, r->rtt.max_us);
		out_close_object();
	} else {
		out_null("rtt_us", NULL);
	}
	out_close_object();
}

static void int_or_null(const char *key, int64_t value, bool known)
{
	if (known && value >= 0)
		out_int(key, NULL, value);
	else
		out_null(key, NULL);
}

/* Which way the lost probes went; the responder's numbers only when they
 * cover the whole set (a reply's running count is in the finding). */
static void print_oneway(const struct oneway_verdict *o)
{
	out_string("loss_direction", NULL,
		   oneway_direction_name(o->direction));
	int_or_null("responder_received", o->responder_saw, o->final);
	int_or_null("responder_answered", o->responder_answered, o->final);
	int_or_null("lost_there", o->lost_there,
		    o->final || o->direction == ONEWAY_NO_LOSS);
	int_or_null("lost_back", o->lost_back,
		    o->final || o->direction == ONEWAY_NO_LOSS);
}

void probe_cell_print(const struct probe_run *run,
		      const struct probe_session *s,
		      const struct probe_cell *c, const struct verdict *v,
		      uint32_t resolved, bool running,
		      const struct probe_round_cell *round)
{
	unsigned flag;

	out_open_object(NULL);
	print_run(run, s, "result");
	out_string("dest", NULL, c->target->dest->text);
	print_source(s, c);
	out_open_object("params");
	out_uint("hop_limit", NULL, c->asked.hop_limit);
	out_uint("traffic_class", NULL, c->asked.traffic_class);
	out_uint("flow_label", NULL, c->asked.flow_label);
	print_udp_sport(s, c);
	out_uint("sl", NULL, c->asked.sl);
	out_close_object();
	out_bool("interrupted", NULL, cell_cut_short(run, s, c));
	if (run->continuous)
		out_bool("running", NULL, running);
	if (run->continuous && round)
		print_round(run, round);
	/* With -g auto: which source GID and why, also when the AH failed
	 * (a GID whose netdev does not route to the destination is a cause). */
	if (c->sgid_choice.reason[0])
		sgid_choice_print("sgid_choice", &c->sgid_choice);
	if (!c->target->ready || !c->ah) {
		out_string("status", NULL, "error");
		out_string("error", NULL,
			   c->target->ready ? c->error : c->target->error);
		out_close_object();
		return;
	}
	out_string("status", NULL, status_name(c, resolved));
	out_uint("sent", NULL, resolved);
	out_uint("received", NULL, c->received);
	out_uint("lost", NULL, resolved - c->received);
	out_uint("late", NULL, c->late);
	out_uint("duplicates", NULL, c->duplicates);
	print_rtt(c);
	print_observed(c);
	if (v->hop_limit_sent >= 0)
		out_int("hop_limit_sent", NULL, v->hop_limit_sent);
	else
		out_null("hop_limit_sent", NULL);
	out_string("hop_limit_source", NULL,
		   hop_limit_source_name(v->hop_limit_source));
	out_string("hop_limit_rule", NULL, v->hop_limit_why);
	if (v->hops >= 0)
		out_int("hops", NULL, v->hops);
	else
		out_null("hops", NULL);
	if (v->hops_back >= 0)
		out_int("hops_back", NULL, v->hops_back);
	else
		out_null("hops_back", NULL);
	print_oneway(&v->oneway);
	out_uint("ah_create_usec", NULL, c->create_usec);
	out_open_array("verdicts");
	out_element_string(NULL, status_name(c, resolved));
	for (flag = 1; flag <= VERDICT_FLAG_LAST; flag <<= 1)
		if (v->flags & flag)
			out_element_string(NULL, verdict_flag_name(
							 (enum verdict_flag)flag));
	out_close_array();
	out_open_array("findings");
	for (size_t i = 0; i < v->text_count; i++)
		out_element_string(NULL, v->text[i]);
	out_close_array();
	ah_attr_print("ah_attr", &c->attr);
	if (c->observed_valid)
		ah_attr_print("reverse_ah", &c->last_reply.reverse_ah);
	else
		out_null("reverse_ah", NULL);
	out_close_object();
}

void probe_summary_print(const struct probe_run *run,
			 const struct probe_session *s, size_t dest_count,
			 size_t set_count, int exit_status)
{
	size_t counts[4] = { 0 };	/* reachable, partial, unreachable, error */

	for (size_t i = 0; i < s->cell_count; i++) {
		const char *st = probe_text_status(&s->cells[i],
						   s->cells[i].sent);

		if (s->cells[i].target->local_port)
			continue;
		counts[strcmp(st, "ok") == 0     ? 0
		       : strcmp(st, "loss") == 0 ? 1
		       : strcmp(st, "error") == 0 ? 3
						 : 2]++;
	}
	out_open_object(NULL);
	print_run(run, s, "summary");
	print_source(s, NULL);
	out_uint("destinations", NULL, dest_count);
	out_uint("sets", NULL, set_count);
	out_open_object("counts");
	out_uint("reachable", NULL, counts[0]);
	out_uint("partial_loss", NULL, counts[1]);
	out_uint("unreachable", NULL, counts[2]);
	out_uint("error", NULL, counts[3]);
	out_close_object();
	/* Destinations that are the probing port itself: not probed. */
	out_open_array("skipped");
	for (size_t i = 0; set_count && i < s->cell_count; i += set_count)
		if (s->cells[i].target->local_port)
			out_element_string(NULL, s->cells[i].target->dest->text);
	out_close_array();
	out_uint("probes_sent", NULL, s->total_sent);
	out_bool("interrupted", NULL, run->interrupted);
	out_int("exit_status", NULL, exit_status);
	out_close_object();
}
