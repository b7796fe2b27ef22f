/* ibahprobe trace on RoCE v2: see trace_roce.h. Per destination the
 * rendezvous, the source GID and the responder's QP come from the probe
 * engine's own set-up (probe_session_*), so trace and probe pick the same
 * GID and reach the same responder; then each flow (flow label, traffic
 * class) is traced by lib/trace/roce_tracer.h and printed by
 * lib/trace/roce_trace_print.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verbs/device.h"
#include "base/diag.h"
#include "base/monotonic.h"
#include "out/output.h"
#include "probe/probe_engine.h"
#include "probe/roce_flow_cell.h"
#include "wire/probe_wire.h"
#include "wire/roce_packet.h"
#include "trace/icmp_raw.h"
#include "trace/nic_tracer.h"
#include "trace/roce_trace_print.h"
#include "trace/roce_tracer.h"
#include "cli_port.h"
#include "trace_roce.h"

/* One run of trace on a RoCE port: what it was asked, the port, the
 * probe engine's session (rendezvous, source GID, our UD QP) and the
 * flows, per_dest of them for each destination. */
struct trace_roce {
	const struct common_opts *common;
	const struct dest_list *dests;
	const struct trace_roce_options *o;
	/* Each flow is a flow label (its UDP source port), or with
	 * --udp-sport a source port as given: keys; then a traffic class. */
	bool by_port;
	const struct value_list *keys;
	size_t nkeys, per_dest;
	const struct device_info *dev;
	const struct port_info *port;
	struct probe_session *s;
	struct probe_target *targets;
	struct roce_flow *flows;
	struct roce_tracer tracer;
	struct roce_trace_printer printer;
	/* The next destination to print, and the flows that reached. */
	size_t next_dest, reached;
};

/* Cell and flow k: destination t, key (flow label or port) i % nkeys,
 * traffic class i / nkeys. */
static void make_flow(struct trace_roce *r, size_t t, size_t i)
{
	static const uint32_t zero = 0;
	const struct value_list *tcs = r->o->traffic_classes;
	size_t k = t * r->per_dest + i;
	const struct trace_flow_key *own =
		r->o->per_dest ? &r->o->per_dest[t] : NULL;
	const uint32_t *fl = own ? &own->value
			     : r->keys && r->keys->count
				     ? &r->keys->values[i % r->nkeys]
				     : &zero;
	bool by_port = own ? own->by_port : r->by_port;
	const uint32_t *tc =
		tcs && tcs->count ? &tcs->values[i / r->nkeys] : &zero;
	struct probe_cell *c = &r->s->cells[k];
	struct roce_flow *f = &r->flows[k];

	c->target = &r->targets[t];
	c->asked = (struct probe_params){
		.hop_limit = 64, .traffic_class = (uint8_t)*tc,
		.flow_label = by_port ? 0 : *fl,
	};
	f->port_given = by_port;
	f->fidelity.method = r->o->nic ? TRACE_METHOD_NIC : TRACE_METHOD_SOCKET;
	f->fidelity.priority = -1;
	f->flow_label = by_port ? 0 : *fl;
	f->udp_sport =
		by_port ? (uint16_t)*fl : roce_flow_label_to_udp_sport(*fl);
}

/* The session's cells and targets, the flows and the printer's scratch;
 * an exit status when out of memory. */
static int make_flows(struct trace_roce *r)
{
	const struct trace_roce_options *o = r->o;
	const struct dest_list *dests = r->dests;
	struct probe_session *s = r->s;
	size_t ntc = o->traffic_classes && o->traffic_classes->count
			     ? o->traffic_classes->count
			     : 1;

	/* --failed: one key of its own per destination. */
	r->keys = o->per_dest ? NULL
			      : roce_flow_keys(o->udp_sports, o->flow_labels,
					       &r->by_port);
	r->nkeys = r->keys && r->keys->count ? r->keys->count : 1;
	r->per_dest = r->nkeys * ntc;
	probe_session_init(s, r->dev, r->port);
	r->targets = calloc(dests->count, sizeof(*r->targets));
	r->flows = calloc(dests->count * r->per_dest, sizeof(*r->flows));
	if (probe_session_alloc_cells(s, dests->count * r->per_dest) ||
	    roce_trace_printer_init(&r->printer, s->hostname, s->device,
				    o->queries, r->keys && r->keys->count > 1,
				    r->per_dest) ||
	    !r->targets || !r->flows)
		return cli_fail(EXIT_ENVIRONMENT, "out of memory");
	r->printer.flow_label_source = o->flow_label_source;
	for (size_t t = 0; t < dests->count; t++) {
		r->targets[t].dest = &dests->items[t];
		for (size_t i = 0; i < r->per_dest; i++)
			make_flow(r, t, i);
	}
	return EXIT_FINE;
}

/* --nic where it cannot work: a provider whose AHs carry the route's hop
 * limit (RoCE v2: no link-local RoCE v1 exception), or no CAP_NET_RAW
 * for the raw ICMP socket the routers' answers come on. An exit status. */
static int nic_refusal(enum provider provider)
{
	struct hop_limit_rule_input in = {
		.provider = provider, .link_layer = LINK_LAYER_ETHERNET,
	};
	char rule_why[200], why[400];
	enum hop_limit_rule rule =
		provider_hop_limit_rule(&in, rule_why, sizeof(rule_why));
	int fd;

	if (!nic_trace_possible(rule, rule_why, why, sizeof(why)))
		return cli_fail(EXIT_ENVIRONMENT, "%s", why);
	fd = icmp_raw_open(AF_INET);
	if (fd < 0)
		return cli_fail(EXIT_ENVIRONMENT, "--nic reads the routers' "
				"time exceeded from a raw ICMP socket: %s (it "
				"needs CAP_NET_RAW); trace without --nic needs "
				"no privilege", strerror(errno));
	close(fd);
	return EXIT_FINE;
}

/* The rendezvous with every destination's serve, our UD QP and the AHs,
 * as probe sets them up; an exit status when the QP cannot be opened. */
static int meet_responders(struct trace_roce *r)
{
	struct probe_session *s = r->s;
	char err[DIAG_MSG_MAX];
	size_t ready = 0;

	probe_session_resolve_targets(s);
	for (size_t t = 0; t < r->dests->count; t++)
		ready += r->targets[t].ready;
	if (ready && probe_session_open(s, r->dev, r->port, err, sizeof(err)))
		return cli_fail(EXIT_ENVIRONMENT, "%s", err);
	if (ready)
		probe_session_prepare(s);
	if (ready && r->o->nic) {
		int rc = nic_refusal(s->provider);

		if (rc)
			return rc;
	}
	roce_tracer_init(&r->tracer, &s->ep, s->probe_id, r->o->max_hops,
			 r->o->queries, r->common->timeout_ms);
	r->tracer.silent_after =
		r->o->max_hops_given ? 0 : ROCE_TRACE_SILENT_AFTER;
	r->tracer.max_in_flight = r->o->max_in_flight;
	r->tracer.rate = r->o->rate;
	return EXIT_FINE;
}

/* A flow silent after its last router: did its datagrams reach the
 * responder? Its count of each silent hop's set (the requests carry the
 * hop limit they were sent with as asked, so each hop is a set of its
 * own) says so, as probe asks after loss. A responder that does not
 * answer the question leaves the flow as it was. */
static void ask_silent_tail(struct trace_roce *r, struct roce_flow *f,
			    const struct probe_cell *c, uint64_t start_ns)
{
	struct rendezvous_count_question q = {
		.probe_id = r->s->probe_id,
		.qpn = r->s->ep.qp ? r->s->ep.qp->qp_num : 0,
		.asked = f->asked,
	};
	struct rendezvous_count_answer a;
	char err[DIAG_MSG_MAX * 2];
	unsigned first, last;
	uint32_t received = 0;
	bool known = false;

	if (!roce_trace_silent_tail(&f->trace, &first, &last) ||
	    !c->target->from_rendezvous)
		return;
	if (f->has_grh && f->sgid)
		q.gid = f->sgid->gid;
	q.age_ms = (uint32_t)((monotonic_ns() - start_ns) / 1000000u) + 1000;
	for (unsigned hl = first; hl <= last; hl++) {
		q.asked.hop_limit = (uint8_t)hl;
		if (probe_session_ask_count(r->s, c->target, &q, &a, err,
					    sizeof(err))) {
			diag_verbose(1, "%s: count: %s", f->dest, err);
			return;
		}
		if (a.state != RENDEZVOUS_COUNT_KNOWN)
			return;
		known = true;
		received += a.received;
	}
	if (known)
		roce_trace_note_responder_count(&f->trace, received);
}

/* Flow k as the probe engine set it up; an error when its destination
 * failed already (it is not traced). */
static void prepare_flow(struct trace_roce *r, size_t k)
{
	struct roce_flow *f = &r->flows[k];
	const struct probe_cell *c = &r->s->cells[k];

	roce_flow_from_cell(r->s, f, c);
	if (!c->target->ready)
		snprintf(f->error, sizeof(f->error), "%s",
			 c->target->error[0] ? c->target->error
					     : "no responder");
	else if (c->target->local_port)
		snprintf(f->error, sizeof(f->error), "the destination "
			 "is this port itself");
	else if (c->error[0])
		snprintf(f->error, sizeof(f->error), "%s", c->error);
}

static bool flow_over(const struct roce_flow *f)
{
	return f->error[0] || f->trace.end != ROCE_TRACE_RUNNING;
}

/* The tracer's progress: each destination, in order, once its flows are
 * over: the responder asked about silent tails (once nothing is in
 * flight: the asks block), the paths, the page. */
static int trace_progress(void *ctx, bool quiet)
{
	struct trace_roce *r = ctx;

	for (; r->next_dest < r->dests->count; r->next_dest++) {
		size_t first = r->next_dest * r->per_dest;
		struct roce_flow *flows = &r->flows[first];
		unsigned a, b;
		bool asks = false;

		for (size_t i = 0; i < r->per_dest; i++) {
			if (!flow_over(&flows[i]))
				return 0;
			asks |= !flows[i].error[0] &&
				r->s->cells[first + i].target->from_rendezvous &&
				roce_trace_silent_tail(&flows[i].trace, &a, &b);
		}
		if (asks && !quiet)
			return 1;
		for (size_t i = 0; i < r->per_dest; i++) {
			struct roce_flow *f = &flows[i];

			if (!f->error[0])
				ask_silent_tail(r, f, &r->s->cells[first + i],
						f->started_ns);
			r->reached += !f->error[0] &&
				      f->trace.end == ROCE_TRACE_REACHED;
			roce_flow_path(f, r->o->queries);
		}
		if (roce_trace_print_destination(&r->printer, flows,
						 r->per_dest))
			return -1;
	}
	return 0;
}

/* --nic: each flow in turn with our QP's own sends (one QP, one hop
 * limit per AH: one query at a time), the pages as trace_progress makes
 * them. -1 when out of memory. */
static int trace_nic(struct trace_roce *r)
{
	for (size_t k = 0; k < r->s->cell_count; k++) {
		struct roce_flow *f = &r->flows[k];

		if (!f->error[0]) {
			f->started_ns = monotonic_ns();
			if (nic_tracer_trace_flow(
				    &r->tracer, f, &r->s->cells[k].attr,
				    provider_wire_udp_sport(r->s->provider,
							    f->flow_label,
							    r->s->ep.qp->qp_num)) &&
			    !f->error[0])
				snprintf(f->error, sizeof(f->error),
					 "not traced");
		}
		if (trace_progress(r, true) < 0)
			return -1;
	}
	return 0;
}

/* Every flow, side by side; each destination printed in order as soon as
 * its flows are over; the exit status. */
static int trace_all(struct trace_roce *r)
{
	size_t cells = r->s->cell_count;

	r->printer.provider = r->s->provider;
	r->tracer.provider = r->s->provider;
	for (size_t k = 0; k < cells; k++)
		prepare_flow(r, k);
	out_open_array(NULL);
	if (r->o->nic) {
		if (trace_nic(r))
			return cli_fail(EXIT_ENVIRONMENT, "out of memory");
	} else if (roce_tracer_run(&r->tracer, r->flows, cells,
				   trace_progress, r)) {
		return cli_fail(EXIT_ENVIRONMENT, "out of memory");
	}
	out_close_array();
	out_text("\n%zu flow%s: %zu reached the responder, %zu did not\n",
		 cells, cells == 1 ? "" : "s", r->reached, cells - r->reached);
	return r->reached == cells ? EXIT_FINE : EXIT_PROBLEM;
}

static void trace_roce_free(struct trace_roce *r)
{
	roce_tracer_close(&r->tracer);
	if (r->s->cells)
		probe_session_close(r->s);
	roce_trace_printer_free(&r->printer);
	free(r->flows);
	free(r->targets);
}

int trace_roce_run(const struct common_opts *common,
		   const struct dest_list *dests,
		   const struct trace_roce_options *o)
{
	struct cli_port local = { 0 };
	struct probe_session s = {
		.settings = {
			.count = 1, .interval_ms = 0,
			.size = PROBE_REQUEST_MIN_SIZE, .window = 1,
			.timeout_ms = common->timeout_ms,
			.gid_index = common->gid_index,
			.skip_local_port = true,
		},
	};
	struct trace_roce r = {
		.common = common, .dests = dests, .o = o, .s = &s,
		.tracer.raw_fd = { -1, -1 },
	};
	int rc;

	/* The note goes into the trace's own header, not to stderr. */
	rc = cli_open_port(&local, common->device, common->port,
			   CLI_PORT_KEEP_NOTE);
	if (!rc)
		rc = cli_check_gid_index(&local, common->gid_index);
	if (rc)
		goto out;
	snprintf(s.device_note, sizeof(s.device_note), "%s", local.note);
	if (local.dev->source != DEVICE_FROM_VERBS) {
		rc = cli_fail(EXIT_ENVIRONMENT, "trace on RoCE needs a verbs "
			      "device (its UD QP takes the responder's "
			      "replies); %s is visible through umad only",
			      local.dev->name);
		goto out;
	}
	r.dev = local.dev;
	r.port = local.port;
	rc = make_flows(&r);
	if (rc == EXIT_FINE)
		rc = meet_responders(&r);
	if (rc == EXIT_FINE)
		rc = trace_all(&r);
out:
	trace_roce_free(&r);
	cli_close_port(&local);
	return rc;
}
