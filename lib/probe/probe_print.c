/* probe's JSON records: see probe_print.h. */
#include <string.h>

#include "verbs/ah_print.h"
#include "base/gid.h"
#include "out/output.h"
#include "out/probe_schema.h"
#include "probe/probe_paths.h"
#include "probe/probe_print.h"
#include "probe/probe_text.h"

static void print_observed(const struct probe_cell *c)
{
	const struct probe_observed *o = &c->last_reply.observed;
	char gid[GID_TEXT_MAX];

	if (!c->observed_valid) {
		out_null(PROBE_KEY_OBSERVED, NULL);
		return;
	}
	out_open_object(PROBE_KEY_OBSERVED);
	out_bool("grh_present", NULL, o->grh_present);
	if (o->grh_present) {
		out_uint(PROBE_KEY_HOP_LIMIT, NULL, o->hop_limit);
		out_uint(PROBE_KEY_TRAFFIC_CLASS, NULL, o->traffic_class);
		out_uint(PROBE_KEY_FLOW_LABEL, NULL, o->flow_label);
		out_string(PROBE_KEY_SGID, NULL,
			   gid_format(&o->sgid, gid, sizeof(gid)));
		out_string(PROBE_KEY_DGID, NULL,
			   gid_format(&o->dgid, gid, sizeof(gid)));
		out_uint("ip_version", NULL, o->ip_version);
	}
	/* On RoCE wc.sl holds no SL (provider_wc_sl_is_sl): unknown. */
	if (o->sl_valid)
		out_uint(PROBE_KEY_SL, NULL, o->sl);
	else
		out_null(PROBE_KEY_SL, NULL);
	out_uint("slid", NULL, o->slid);
	out_uint("src_qp", NULL, o->src_qp);
	out_uint("pkey_index", NULL, o->pkey_index);
	out_close_object();
}

static void uint_or_null(const char *key, bool known, uint64_t value)
{
	if (known)
		out_uint(key, NULL, value);
	else
		out_null(key, NULL);
}

static void string_or_null(const char *key, const char *text)
{
	if (text && text[0])
		out_string(key, NULL, text);
	else
		out_null(key, NULL);
}

/* The priority (PCP) the probes left with and the VLAN tag the responder
 * saw them arrive with (probe_vlan_judge); unknown is null with a
 * reason. */
static void print_vlan(const struct probe_run *run,
		       const struct probe_session *s,
		       const struct probe_cell *c, const struct verdict *v)
{
	struct probe_vlan_judgement j;

	probe_vlan_of_cell(s, run->vlans, c, v->hops, &j);
	uint_or_null("vlan_sent", j.sent.on_vlan, j.sent.vid);
	uint_or_null("priority_sent", j.sent.known, j.sent.pcp);
	out_string("priority_sent_why", NULL, j.sent.why);
	uint_or_null("vlan_seen", j.vlan_seen_known, j.vlan_seen);
	uint_or_null("pcp_seen", j.pcp_seen_known, j.pcp_seen);
	string_or_null("vlan_seen_why", j.seen_why);
	string_or_null("priority_mismatch",
		       j.mismatch ? j.mismatch_text : NULL);
}

/* RoCE v2 only: the port the flow label asks for (probe_udp_sport) and
 * the one the probes carry where it is known (probe_wire_udp_sport). */
static void print_udp_sport(const struct probe_session *s,
			    const struct probe_cell *c)
{
	int32_t port = probe_udp_sport(s, c);
	int32_t wire = probe_wire_udp_sport(s, c);

	if (port >= 0)
		out_uint(PROBE_KEY_UDP_SPORT, NULL, (uint64_t)port);
	else
		out_null(PROBE_KEY_UDP_SPORT, NULL);
	if (wire >= 0)
		out_uint(PROBE_KEY_WIRE_UDP_SPORT, NULL, (uint64_t)wire);
	else
		out_null(PROBE_KEY_WIRE_UDP_SPORT, NULL);
}

static void print_samples(const char *key, const struct rtt_samples *samples)
{
	struct rtt_summary s;

	if (rtt_summarize(samples, &s)) {
		out_null(key, NULL);
		return;
	}
	out_open_object(key);
	out_double("min", NULL, s.min_us);
	out_double(PROBE_KEY_RTT_MEDIAN, NULL, s.median_us);
	out_double("p99", NULL, s.p99_us);
	out_double(PROBE_KEY_RTT_MAX, NULL, s.max_us);
	out_close_object();
}

/* rtt_us end to end; network_rtt_us without the responder's dwell, which
 * responder_us gives (null where the responder did not say: an older
 * one), and the stamps both rest on. */
static void print_rtt(const struct probe_cell *c)
{
	struct rtt_summary dwell;

	print_samples(PROBE_KEY_RTT, &c->rtt);
	print_samples(PROBE_KEY_NETWORK_RTT, &c->network);
	if (rtt_summarize(&c->dwell, &dwell) == 0) {
		out_open_object(PROBE_KEY_RESPONDER_US);
		out_double(PROBE_KEY_RTT_MEDIAN, NULL, dwell.median_us);
		out_double(PROBE_KEY_RTT_MAX, NULL, dwell.max_us);
		out_double("reply_ah_wait_max", NULL,
			   (double)c->reply_ah_wait_max_ns / 1000.0);
		out_close_object();
	} else {
		out_null(PROBE_KEY_RESPONDER_US, NULL);
	}
	if (c->stamps_seen)
		out_string(PROBE_KEY_STAMPS, NULL, stamp_source_name(c->stamps));
	else
		out_null(PROBE_KEY_STAMPS, NULL);
	out_uint("dwell_unknown", NULL, c->dwell_unknown);
	out_uint("clock_errors", NULL, c->clock_errors);
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
	out_open_object(PROBE_KEY_SOURCE);
	out_string(PROBE_KEY_HOST, NULL, r->hostname);
	out_string(PROBE_KEY_DEVICE, NULL, r->device);
	out_uint(PROBE_KEY_PORT_NUM, NULL, r->facts.port_num);
	out_string(PROBE_KEY_PROVIDER, NULL, provider_name(r->provider));
	out_uint(PROBE_KEY_LID, NULL, r->facts.lid);
	if (sgid)
		out_string(PROBE_KEY_SGID, NULL,
			   gid_format(&sgid->gid, gid, sizeof(gid)));
	else
		out_null(PROBE_KEY_SGID, NULL);
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

static const char *probe_flow_label_source_name(
	enum probe_flow_label_source source)
{
	switch (source) {
	case PROBE_FLOW_LABELS_DEFAULT: return "default";
	case PROBE_FLOW_LABELS_COMMAND_LINE: return "command_line";
	case PROBE_FLOW_LABELS_FILE: return "file";
	}
	return "default";
}

static void print_run(const struct probe_run *run,
		      const struct probe_session *s, const char *record)
{
	run_info_print(&run->info, PROBE_SCHEMA);
	out_string(PROBE_KEY_RECORD, NULL, record);
	out_open_object(PROBE_KEY_RUN_PARAMS);
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
	out_string("flow_label_source", NULL,
		   probe_flow_label_source_name(run->flow_label_source));
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

/* A continuous run follows a renumbered responder to its new address:
 * how often, the latest when, and its old and new GID (and LID on IB). */
static void print_renumbered(const struct probe_target *t)
{
	char gid[GID_TEXT_MAX];
	bool lids = t->renumbered_followed && t->renumbered_to_lid;

	out_open_object("responder_renumbered");
	out_uint("count", NULL, t->renumbered_followed);
	if (t->renumbered_followed)
		out_string("last_at", NULL, t->renumbered_time);
	else
		out_null("last_at", NULL);
	if (t->renumbered_followed && t->renumbered_has_gid) {
		out_string("from", NULL, gid_format(&t->renumbered_from, gid,
						    sizeof(gid)));
		out_string("to", NULL, gid_format(&t->renumbered_to, gid,
						  sizeof(gid)));
	} else {
		out_null("from", NULL);
		out_null("to", NULL);
	}
	if (lids) {
		out_uint("from_lid", NULL, t->renumbered_from_lid);
		out_uint("to_lid", NULL, t->renumbered_to_lid);
	} else {
		out_null("from_lid", NULL);
		out_null("to_lid", NULL);
	}
	out_close_object();
}

/* A continuous run's round: its own counts beside the running ones, so a
 * log shipper needs no state to graph loss per round. */
static void print_round(const struct probe_run *run,
			const struct probe_round_cell *r)
{
	double ratio;

	out_open_object("round");
	out_uint("number", NULL, run->round);
	out_uint(PROBE_KEY_SENT, NULL, r->sent);
	out_uint(PROBE_KEY_RECEIVED, NULL, r->received);
	out_uint("lost", NULL, r->sent > r->received ? r->sent - r->received
						     : 0);
	if (probe_round_loss_ratio(r, &ratio))
		out_double("loss_ratio", NULL, ratio);
	else
		out_null("loss_ratio", NULL);
	if (r->has_rtt) {
		out_open_object(PROBE_KEY_RTT);
		out_double("min", NULL, r->rtt.min_us);
		out_double(PROBE_KEY_RTT_MEDIAN, NULL, r->rtt.median_us);
		out_double("p99", NULL, r->rtt.p99_us);
		out_double(PROBE_KEY_RTT_MAX, NULL, r->rtt.max_us);
		out_close_object();
	} else {
		out_null(PROBE_KEY_RTT, NULL);
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
	/* Of the late replies, those that waited for the responder's reply
	 * AH: first contact, not in lost_back. */
	int_or_null("late_first_contact", o->answered_late,
		    o->answered_late >= 0);
}

void probe_cell_print(const struct probe_run *run,
		      const struct probe_session *s,
		      const struct probe_cell *c, const struct verdict *v,
		      uint32_t resolved, bool running,
		      const struct probe_round_cell *round)
{
	enum probe_status status = probe_cell_status(c, resolved);
	unsigned flag;

	out_open_object(NULL);
	print_run(run, s, PROBE_RECORD_RESULT);
	out_string(PROBE_KEY_DEST, NULL, c->target->dest->text);
	print_source(s, c);
	out_open_object(PROBE_KEY_PARAMS);
	out_uint(PROBE_KEY_HOP_LIMIT, NULL, c->asked.hop_limit);
	out_uint(PROBE_KEY_TRAFFIC_CLASS, NULL, c->asked.traffic_class);
	out_uint(PROBE_KEY_FLOW_LABEL, NULL, c->asked.flow_label);
	print_udp_sport(s, c);
	out_uint(PROBE_KEY_SL, NULL, c->asked.sl);
	out_close_object();
	/* --paths all: which of the destination's LMC paths. */
	probe_dlid_path_print(c, NULL);
	out_bool(PROBE_KEY_INTERRUPTED, NULL, cell_cut_short(run, s, c));
	if (run->continuous)
		out_bool("running", NULL, running);
	if (run->continuous && round)
		print_round(run, round);
	/* A continuous run follows a restarted responder to its new QP:
	 * how often, the latest when, and the QPN the probes go to now. */
	if (run->continuous) {
		const struct probe_target *t = c->target;

		out_open_object("responder_restarts");
		out_uint("count", NULL, t->restarts_followed);
		if (t->followed) {
			out_string("last_at", NULL, t->followed_time);
			out_uint("first_qpn", NULL, t->first_qpn);
			out_uint("qpn", NULL, t->info.qpn);
		} else {
			out_null("last_at", NULL);
			out_null("first_qpn", NULL);
			out_null("qpn", NULL);
		}
		out_close_object();
		print_renumbered(c->target);
	}
	/* With -g auto: which source GID and why, also when the AH failed
	 * (a GID whose netdev does not route to the destination is a cause). */
	if (c->sgid_choice.reason[0])
		sgid_choice_print("sgid_choice", &c->sgid_choice);
	if (status == PROBE_STATUS_ERROR) {
		out_string(PROBE_KEY_STATUS, NULL,
			   probe_status_name(PROBE_STATUS_ERROR));
		out_string(PROBE_KEY_ERROR, NULL,
			   c->target->ready ? c->error : c->target->error);
		out_close_object();
		return;
	}
	out_string(PROBE_KEY_STATUS, NULL, probe_status_name(status));
	out_uint(PROBE_KEY_SENT, NULL, resolved);
	out_uint(PROBE_KEY_RECEIVED, NULL, c->received);
	out_uint("lost", NULL, resolved - c->received);
	out_uint("late", NULL, c->late);
	out_uint("duplicates", NULL, c->duplicates);
	print_rtt(c);
	print_observed(c);
	print_vlan(run, s, c, v);
	if (v->hop_limit_sent >= 0)
		out_int("hop_limit_sent", NULL, v->hop_limit_sent);
	else
		out_null("hop_limit_sent", NULL);
	out_string("hop_limit_source", NULL,
		   hop_limit_source_name(v->hop_limit_source));
	out_string("hop_limit_rule", NULL, v->hop_limit_why);
	if (v->hops >= 0)
		out_int(PROBE_KEY_HOPS, NULL, v->hops);
	else
		out_null(PROBE_KEY_HOPS, NULL);
	if (v->hops_back >= 0)
		out_int("hops_back", NULL, v->hops_back);
	else
		out_null("hops_back", NULL);
	print_oneway(&v->oneway);
	out_uint("ah_create_usec", NULL, c->create_usec);
	out_open_array(PROBE_KEY_VERDICTS);
	out_element_string(NULL, probe_status_name(status));
	for (flag = 1; flag <= VERDICT_FLAG_LAST; flag <<= 1)
		if (v->flags & flag)
			out_element_string(NULL, verdict_flag_name(
							 (enum verdict_flag)flag));
	out_close_array();
	out_open_array(PROBE_KEY_FINDINGS);
	for (size_t i = 0; i < v->text_count; i++)
		out_element_string(NULL, v->text[i]);
	out_close_array();
	ah_attr_print(PROBE_KEY_AH_ATTR, &c->attr);
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
	size_t counts[PROBE_STATUS_COUNT] = { 0 };

	for (size_t i = 0; i < s->cell_count; i++)
		if (!s->cells[i].target->local_port)
			counts[probe_cell_status(&s->cells[i],
						 s->cells[i].sent)]++;
	/* Not one probe resolved is none answered. */
	counts[PROBE_STATUS_UNREACHABLE] += counts[PROBE_STATUS_PENDING];
	out_open_object(NULL);
	print_run(run, s, PROBE_RECORD_SUMMARY);
	print_source(s, NULL);
	out_uint("destinations", NULL, dest_count);
	out_uint("sets", NULL, set_count);
	out_open_object("counts");
	out_uint(PROBE_STATUS_NAME_REACHABLE, NULL,
		 counts[PROBE_STATUS_REACHABLE]);
	out_uint(PROBE_STATUS_NAME_PARTIAL, NULL, counts[PROBE_STATUS_PARTIAL]);
	out_uint(PROBE_STATUS_NAME_UNREACHABLE, NULL,
		 counts[PROBE_STATUS_UNREACHABLE]);
	out_uint(PROBE_STATUS_NAME_ERROR, NULL, counts[PROBE_STATUS_ERROR]);
	out_close_object();
	/* Destinations that are the probing port itself: not probed. */
	out_open_array("skipped");
	for (size_t i = 0; set_count && i < s->cell_count; i += set_count)
		if (s->cells[i].target->local_port)
			out_element_string(NULL, s->cells[i].target->dest->text);
	out_close_array();
	out_uint("probes_sent", NULL, s->total_sent);
	/* The probing phase alone: what a multi-destination run costs
	 * beyond one destination, setup apart (tests/bench/probe-vm). */
	out_uint("probing_usec", NULL,
		 s->total_sent && s->run_end_ns > s->run_start_ns
			 ? (s->run_end_ns - s->run_start_ns) / 1000u : 0);
	out_bool(PROBE_KEY_INTERRUPTED, NULL, run->interrupted);
	out_int(PROBE_KEY_EXIT_STATUS, NULL, exit_status);
	out_close_object();
}
