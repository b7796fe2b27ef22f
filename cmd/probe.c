/* ibahprobe probe: UD probes to many destinations at once, optionally
 * sweeping hop limit, traffic class, flow label and SL; per destination
 * and parameter set: loss, RTT, what the responder saw of the GRH, the
 * hop count, and verdicts in words. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "ah_attr.h"
#include "ah_print.h"
#include "cli.h"
#include "dest.h"
#include "device.h"
#include "diag.h"
#include "gid.h"
#include "output.h"
#include "parse.h"
#include "probe_verdict.h"
#include "probe_wire.h"
#include "rendezvous.h"
#include "responder_discovery.h"
#include "route_info.h"
#include "rtt_stats.h"
#include "sgid_select.h"
#include "ud_endpoint.h"

enum probe_option {
	PR_OPT_QPN, PR_OPT_QKEY, PR_OPT_HOP_LIMIT, PR_OPT_TCLASS,
	PR_OPT_FLOW_LABEL, PR_OPT_SL, PR_OPT_COUNT, PR_OPT_INTERVAL,
	PR_OPT_SIZE, PR_OPT_WINDOW, PR_OPT_JSONL, PR_OPT_FILE,
	PR_OPT_DISCOVER, PR_OPT_LIST, PR_OPT_END,
};

static const struct opt_spec probe_options[] = {
	[PR_OPT_QPN] = { "qpn", 0, "QPN", "the responder's QPN (skips the "
			 "rendezvous; DEST is then a GID, address or LID)",
			 COMPLETE_NONE, NULL },
	[PR_OPT_QKEY] = { "qkey", 0, "QKEY", "the responder's Q_Key (with "
			  "--qpn; default 0x1ab4e0be)", COMPLETE_NONE, NULL },
	[PR_OPT_HOP_LIMIT] = { "hop-limit", 0, "LIST", "GRH hop limits to "
			       "try, e.g. 1-3,64 (default 64)", COMPLETE_NONE,
			       NULL },
	[PR_OPT_TCLASS] = { "tclass", 0, "LIST", "traffic classes to try, "
			    "e.g. 0,0x28,0xb8 (default 0)", COMPLETE_NONE,
			    NULL },
	[PR_OPT_FLOW_LABEL] = { "flow-label", 0, "LIST", "flow labels to "
				"try (20 bits; default 0)", COMPLETE_NONE,
				NULL },
	[PR_OPT_SL] = { "sl", 0, "LIST", "service levels to try (0-15; "
			"default 0)", COMPLETE_NONE, NULL },
	[PR_OPT_COUNT] = { "count", 'c', "N", "probes per destination and "
			   "parameter set (default 5)", COMPLETE_NONE, NULL },
	[PR_OPT_INTERVAL] = { "interval", 'i', "MS", "least time between two "
			      "probes of one set (default 0)", COMPLETE_NONE,
			      NULL },
	[PR_OPT_SIZE] = { "size", 's', "BYTES", "probe size (136 up to the "
			  "path MTU; default 136)", COMPLETE_NONE, NULL },
	[PR_OPT_WINDOW] = { "window", 'w', "N", "probes in flight across all "
			    "destinations (default 32)", COMPLETE_NONE, NULL },
	[PR_OPT_JSONL] = { "jsonl", 0, NULL, "JSON Lines: one object per "
			   "result as it completes", COMPLETE_NONE, NULL },
	[PR_OPT_FILE] = { "file", 'f', "FILE", "read destinations from FILE "
			  "('-' for stdin), one per line", COMPLETE_FILE,
			  NULL },
	[PR_OPT_DISCOVER] = { "discover", 0, NULL, "probe every responder "
			      "registered in the SA (serve --register; "
			      "InfiniBand), instead of DESTs", COMPLETE_NONE,
			      NULL },
	[PR_OPT_LIST] = { "list", 0, NULL, "with --discover: list the "
			  "registered responders, probe nothing",
			  COMPLETE_NONE, NULL },
	[PR_OPT_END] = OPT_END,
};

#define PROBE_DEFAULT_COUNT 5
#define PROBE_DEFAULT_WINDOW 32
#define PROBE_MAX_SETS 4096
#define PROBE_MAX_WINDOW 1024
#define PROBE_POLL_BATCH 32

static struct {
	bool has_qpn, has_qkey;
	uint32_t qpn, qkey;
	const char *lists[4];	/* hop limit, tclass, flow label, sl */
	uint32_t count, interval_ms, size, window;
	bool jsonl;
	const char *file;
	bool discover, list;
} opts = {
	.qkey = UD_DEFAULT_QKEY, .count = PROBE_DEFAULT_COUNT,
	.size = PROBE_REQUEST_MIN_SIZE, .window = PROBE_DEFAULT_WINDOW,
};

static int probe_option(int index, const char *arg)
{
	char err[DIAG_MSG_MAX];
	int rc = 0;

	switch (index) {
	case PR_OPT_QPN:
		opts.has_qpn = true;
		rc = parse_qpn(arg, &opts.qpn, err, sizeof(err));
		break;
	case PR_OPT_QKEY:
		opts.has_qkey = true;
		rc = parse_qkey(arg, &opts.qkey, err, sizeof(err));
		break;
	case PR_OPT_HOP_LIMIT:
	case PR_OPT_TCLASS:
	case PR_OPT_FLOW_LABEL:
	case PR_OPT_SL:
		opts.lists[index - PR_OPT_HOP_LIMIT] = arg;
		break;
	case PR_OPT_COUNT:
		rc = parse_u32(arg, "count", 1, 1000000, &opts.count, err,
			       sizeof(err));
		break;
	case PR_OPT_INTERVAL:
		rc = parse_u32(arg, "interval (ms)", 0, 3600000,
			       &opts.interval_ms, err, sizeof(err));
		break;
	case PR_OPT_SIZE:
		rc = parse_u32(arg, "probe size", PROBE_REQUEST_MIN_SIZE,
			       PROBE_MAX_SIZE, &opts.size, err, sizeof(err));
		break;
	case PR_OPT_WINDOW:
		rc = parse_u32(arg, "window", 1, PROBE_MAX_WINDOW,
			       &opts.window, err, sizeof(err));
		break;
	case PR_OPT_JSONL:
		opts.jsonl = true;
		break;
	case PR_OPT_FILE:
		opts.file = arg;
		break;
	case PR_OPT_DISCOVER:
		opts.discover = true;
		break;
	case PR_OPT_LIST:
		opts.list = true;
		break;
	}
	return rc ? cli_usage_error("%s", err) : 0;
}

/* A responder, as the rendezvous (or --qpn) describes it. */
struct target {
	const struct dest *dest;
	bool ready;
	char error[DIAG_MSG_MAX * 2];
	struct responder_info info;
	union ibv_gid dgid;
	bool has_dgid;
	uint16_t dlid;
	struct route_info route;
	bool route_known;
	int known_hops;
};

/* One destination with one parameter set. */
struct cell {
	struct target *target;
	struct probe_params asked;
	struct ibv_ah_attr attr;
	struct ah_check check;
	struct ibv_ah *ah;
	char error[DIAG_MSG_MAX * 2];
	uint64_t create_usec;
	uint32_t sent, received, late, send_errors;
	uint64_t next_send_ns;
	struct rtt_samples rtt;
	bool observed_valid;
	struct probe_reply last_reply;
	bool reported;
	struct verdict verdict;
};

struct in_flight {
	bool used;
	uint32_t sequence;
	struct cell *cell;
	uint64_t sent_ns, deadline_ns;
};

struct run {
	struct ud_endpoint ep;
	struct ah_port_facts facts;
	char hostname[256];	/* names the source in merged reports */
	const char *device;
	bool stack_ignores_ah_hop_limit;
	struct target *targets;
	size_t target_count;
	struct cell *cells;
	size_t cell_count;
	struct in_flight *flight;
	uint32_t probe_id, next_sequence;
	uint64_t timeout_ns;
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Parameter sets: every combination of the four lists. */
struct sweep {
	struct value_list lists[4];
	size_t count;
};

static int build_sweep(struct sweep *sw)
{
	static const struct { const char *what, *def; uint32_t max; } kinds[4] = {
		{ "hop limit", "64", 255 },
		{ "traffic class", "0", 255 },
		{ "20-bit flow label", "0", 0xfffff },
		{ "4-bit sl", "0", 15 },
	};
	char err[DIAG_MSG_MAX];

	sw->count = 1;
	for (int k = 0; k < 4; k++) {
		const char *text = opts.lists[k] ? opts.lists[k] : kinds[k].def;

		if (parse_value_list(text, kinds[k].what, 0, kinds[k].max,
				     PROBE_MAX_SETS, &sw->lists[k], err,
				     sizeof(err)))
			return cli_usage_error("%s", err);
		sw->count *= sw->lists[k].count;
	}
	if (sw->count > PROBE_MAX_SETS)
		return cli_usage_error("%zu parameter sets is more than %d: "
				       "narrow the sweep", sw->count,
				       PROBE_MAX_SETS);
	return 0;
}

static struct probe_params sweep_params(const struct sweep *sw, size_t i)
{
	struct probe_params p;
	size_t n0 = sw->lists[0].count, n1 = sw->lists[1].count;
	size_t n2 = sw->lists[2].count;

	p.hop_limit = (uint8_t)sw->lists[0].values[i % n0];
	p.traffic_class = (uint8_t)sw->lists[1].values[i / n0 % n1];
	p.flow_label = sw->lists[2].values[i / n0 / n1 % n2];
	p.sl = (uint8_t)sw->lists[3].values[i / n0 / n1 / n2];
	return p;
}

static void sweep_free(struct sweep *sw)
{
	for (int k = 0; k < 4; k++)
		value_list_free(&sw->lists[k]);
}

static bool responder_has_gid(const struct responder_info *info,
			      const union ibv_gid *gid)
{
	for (size_t i = 0; i < info->gid_count; i++)
		if (memcmp(info->gids[i].gid.raw, gid->raw, 16) == 0)
			return true;
	return false;
}

/* Learns QPN/Q_Key (rendezvous or --qpn) and the address to probe. */
static void resolve_target(const struct common_opts *common,
			   const struct ah_port_facts *facts,
			   struct target *t)
{
	struct dest *d = (struct dest *)t->dest;
	char host[GID_TEXT_MAX];

	t->known_hops = -1;
	if (d->kind == DEST_HOST &&
	    dest_resolve_host(d, t->error, sizeof(t->error)))
		return;
	if (d->has_gid) {
		t->dgid = d->gid;
		t->has_dgid = true;
	}
	if (d->kind == DEST_LID)
		t->dlid = d->lid;
	if (opts.has_qpn) {
		if (!t->has_dgid && d->kind != DEST_LID) {
			snprintf(t->error, sizeof(t->error),
				 "with --qpn, a destination is a GID, an "
				 "address or a LID, not a %s",
				 dest_kind_name(d->kind));
			return;
		}
		t->info.qpn = opts.qpn;
		t->info.qkey = opts.qkey;
	} else {
		if (d->kind != DEST_ADDR && d->kind != DEST_HOST &&
		    d->kind != DEST_GID) {
			snprintf(t->error, sizeof(t->error),
				 "a %s destination has no rendezvous address: "
				 "give the responder's address or host name, "
				 "or --qpn and --qkey",
				 dest_kind_name(d->kind));
			return;
		}
		if (d->kind == DEST_HOST)
			snprintf(host, sizeof(host), "%s", d->name);
		else if (gid_is_ipv4_mapped(&d->gid))
			snprintf(host, sizeof(host), "%u.%u.%u.%u",
				 d->gid.raw[12], d->gid.raw[13],
				 d->gid.raw[14], d->gid.raw[15]);
		else
			gid_format(&d->gid, host, sizeof(host));
		if (rendezvous_query(host,
				     d->has_port ? d->port
						 : RENDEZVOUS_DEFAULT_PORT,
				     common->timeout_ms, &t->info, t->error,
				     sizeof(t->error)))
			return;
		if (!responder_has_gid(&t->info, &t->dgid))
			diag_warn("%s: the responder does not list %s among "
				  "its GIDs; probing it anyway", d->text,
				  gid_format(&t->dgid, host, sizeof(host)));
		if (!t->dlid)
			t->dlid = t->info.lid;
	}
	if (facts->link_layer == LINK_LAYER_ETHERNET && !t->has_dgid) {
		snprintf(t->error, sizeof(t->error),
			 "RoCE needs a GID or address to probe, not a %s",
			 dest_kind_name(d->kind));
		return;
	}
	t->ready = true;
}

static void lookup_route(const struct ah_port_facts *facts, struct cell *c)
{
	struct target *t = c->target;
	const struct gid_info *sgid;
	char addr[GID_TEXT_MAX], err[DIAG_MSG_MAX];

	if (t->route_known || facts->link_layer != LINK_LAYER_ETHERNET)
		return;
	sgid = ah_facts_gid(facts, c->attr.grh.sgid_index);
	gid_format(&t->dgid, addr, sizeof(addr));
	if (route_lookup(addr, sgid && sgid->netdev[0] ? sgid->netdev : NULL,
			 &t->route, err, sizeof(err)) == 0)
		t->route_known = true;
	else
		diag_verbose(1, "%s: %s", t->dest->text, err);
}

static void prepare_cell(const struct common_opts *common, struct run *r,
			 struct cell *c)
{
	struct ah_fields f = {
		.has_hop_limit = true, .hop_limit = c->asked.hop_limit,
		.has_traffic_class = true, .traffic_class = c->asked.traffic_class,
		.has_flow_label = true, .flow_label = c->asked.flow_label,
		.has_sl = true, .sl = c->asked.sl,
	};
	struct target *t = c->target;
	char reason[DIAG_MSG_MAX];
	uint64_t start;

	if (t->has_dgid) {
		f.has_dlid = t->dlid != 0;
		f.dlid = t->dlid;
		ah_build_from_gid(&t->dgid, &f, &r->facts, &c->attr);
	} else {
		f.has_dlid = true;
		f.dlid = t->dlid;
		ah_build_from_fields(&f, &r->facts, &c->attr);
	}
	if (c->attr.is_global) {
		if (common->gid_index != GID_INDEX_AUTO)
			c->attr.grh.sgid_index = (uint8_t)common->gid_index;
		else if (sgid_select(&r->facts, &c->attr.grh.dgid,
				     &c->attr.grh.sgid_index, reason,
				     sizeof(reason)) == 0)
			diag_verbose(1, "%s: sgid_index %u: %s", t->dest->text,
				     c->attr.grh.sgid_index, reason);
	}
	if (ah_check(&c->attr, &r->facts, &c->check)) {
		snprintf(c->error, sizeof(c->error), "%s",
			 c->check.items[0].message);
		return;
	}
	lookup_route(&r->facts, c);
	start = monotonic_ns();
	errno = 0;
	c->ah = ibv_create_ah(r->ep.pd, &c->attr);
	c->create_usec = (monotonic_ns() - start) / 1000;
	if (!c->ah)
		ah_explain_errno(errno ? errno : EINVAL, &c->attr, &r->facts,
				 c->error, sizeof(c->error));
}

static bool cell_active(const struct cell *c)
{
	return c->ah != NULL;
}

static struct in_flight *flight_slot(struct run *r)
{
	for (uint32_t i = 0; i < opts.window; i++)
		if (!r->flight[i].used)
			return &r->flight[i];
	return NULL;
}

static int send_probe(struct run *r, struct cell *c, uint64_t now)
{
	struct probe_header h = {
		.kind = PROBE_REQUEST,
		.probe_id = r->probe_id,
		.sequence = r->next_sequence++,
		.send_time_ns = now,
		.asked = c->asked,
	};
	uint8_t buf[PROBE_MAX_SIZE];
	struct in_flight *slot = flight_slot(r);
	int rc;

	if (!slot)
		return -EAGAIN;
	probe_encode_request(&h, buf, opts.size);
	rc = ud_send(&r->ep, c->ah, c->target->info.qpn, c->target->info.qkey,
		     buf, opts.size);
	if (rc)
		return rc;
	c->sent++;
	c->next_send_ns = now + (uint64_t)opts.interval_ms * 1000000u;
	*slot = (struct in_flight){ .used = true, .sequence = h.sequence,
				    .cell = c, .sent_ns = now,
				    .deadline_ns = now + r->timeout_ns };
	return 0;
}

static void emit_cell_if_done(struct run *r, struct cell *c);

static void take_reply(struct run *r, const struct ibv_wc *wc, uint64_t now)
{
	const uint8_t *buf = ud_recv_buffer(&r->ep, wc);
	struct probe_reply reply;

	if (wc->status != IBV_WC_SUCCESS || wc->byte_len < UD_GRH_BYTES)
		return;
	if (probe_decode_reply(buf + UD_GRH_BYTES, wc->byte_len - UD_GRH_BYTES,
			       &reply) != PROBE_OK ||
	    reply.header.probe_id != r->probe_id)
		return;	/* not ours: another run's late reply, or junk */
	for (uint32_t i = 0; i < opts.window; i++) {
		struct in_flight *f = &r->flight[i];

		if (!f->used || f->sequence != reply.header.sequence)
			continue;
		f->used = false;
		f->cell->received++;
		rtt_add(&f->cell->rtt, now - f->sent_ns);
		f->cell->observed_valid = true;
		f->cell->last_reply = reply;
		emit_cell_if_done(r, f->cell);
		return;
	}
	/* Its slot expired already: a late reply, counted apart. */
	for (size_t i = 0; i < r->cell_count; i++) {
		struct cell *c = &r->cells[i];

		if (memcmp(&c->asked, &reply.header.asked, sizeof(c->asked)) == 0 &&
		    c->target->info.qpn == wc->src_qp) {
			c->late++;
			break;
		}
	}
}

static void expire(struct run *r, uint64_t now)
{
	for (uint32_t i = 0; i < opts.window; i++) {
		struct in_flight *f = &r->flight[i];

		if (f->used && now >= f->deadline_ns) {
			f->used = false;
			emit_cell_if_done(r, f->cell);
		}
	}
}

static uint64_t next_event_ns(const struct run *r, uint64_t now,
			      bool can_send)
{
	uint64_t next = now + 100000000u;	/* look again in 100 ms */

	for (uint32_t i = 0; i < opts.window; i++)
		if (r->flight[i].used && r->flight[i].deadline_ns < next)
			next = r->flight[i].deadline_ns;
	if (can_send)
		for (size_t i = 0; i < r->cell_count; i++)
			if (cell_active(&r->cells[i]) &&
			    r->cells[i].sent < opts.count &&
			    r->cells[i].next_send_ns < next)
				next = r->cells[i].next_send_ns;
	return next > now ? next : now;
}

static bool any_in_flight(const struct run *r)
{
	for (uint32_t i = 0; i < opts.window; i++)
		if (r->flight[i].used)
			return true;
	return false;
}

static void progress(const struct run *r, uint64_t start, uint64_t now,
		     uint64_t *last)
{
	uint64_t sent = 0, got = 0, total = 0;

	if (!isatty(STDERR_FILENO) || now - start < 2000000000u ||
	    now - *last < 250000000u || diag_verbosity < 0)
		return;
	*last = now;
	for (size_t i = 0; i < r->cell_count; i++) {
		if (!cell_active(&r->cells[i]))
			continue;
		sent += r->cells[i].sent;
		got += r->cells[i].received;
		total += opts.count;
	}
	fprintf(stderr, "\rprobe: %llu/%llu sent, %llu answered ",
		(unsigned long long)sent, (unsigned long long)total,
		(unsigned long long)got);
}

/* Sends round-robin over the cells, at most opts.window in flight. */
static int run_engine(struct run *r)
{
	struct ibv_wc wcs[PROBE_POLL_BATCH];
	uint64_t start = monotonic_ns(), last_progress = 0;
	size_t rr = 0;
	bool shown = false;

	for (;;) {
		uint64_t now = monotonic_ns();
		bool can_send = !interrupted, sent_one = true;
		int n;

		expire(r, now);
		while (can_send && sent_one) {
			sent_one = false;
			for (size_t k = 0; k < r->cell_count; k++) {
				struct cell *c = &r->cells[(rr + k) % r->cell_count];

				if (!cell_active(c) || c->sent >= opts.count ||
				    c->next_send_ns > now)
					continue;
				n = send_probe(r, c, now);
				if (n == -EAGAIN)
					break;
				if (n) {
					c->send_errors++;
					c->sent++;
					emit_cell_if_done(r, c);
				}
				rr = (rr + k + 1) % r->cell_count;
				sent_one = true;
				break;
			}
		}
		bool more = false;

		for (size_t i = 0; i < r->cell_count && can_send; i++)
			if (cell_active(&r->cells[i]) &&
			    r->cells[i].sent < opts.count)
				more = true;
		if (!more && !any_in_flight(r))
			break;
		n = ud_poll(&r->ep, wcs, PROBE_POLL_BATCH,
			    (int)((next_event_ns(r, now, can_send) - now +
				   999999) / 1000000));
		if (n < 0)
			return n;
		now = monotonic_ns();
		for (int i = 0; i < n; i++) {
			if (!ud_wc_is_recv(&wcs[i]))
				continue;
			take_reply(r, &wcs[i], now);
			ud_repost_recv(&r->ep, &wcs[i]);
		}
		progress(r, start, now, &last_progress);
		shown = shown || last_progress;
	}
	if (shown)
		fputs("\r\033[K", stderr);
	return 0;
}

static void judge(struct run *r, struct cell *c)
{
	struct verdict_input in = {
		.asked = c->asked,
		.link_ethernet = r->facts.link_layer == LINK_LAYER_ETHERNET,
		.route_known = c->target->route_known,
		.route_hop_limit = c->target->route.hop_limit,
		.route_has_gateway = c->target->route.has_gateway,
		.stack_ignores_ah_hop_limit = r->stack_ignores_ah_hop_limit,
		.sent = c->sent,
		.received = c->received,
		.observed_valid = c->observed_valid,
		.observed = c->last_reply.observed,
		.known_hops = c->target->known_hops,
	};

	verdict_judge(&in, &c->verdict);
	if (c->verdict.hops >= 0)
		c->target->known_hops = c->verdict.hops;
}

static void print_observed(const struct cell *c)
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
	out_uint("sl", NULL, o->sl);
	out_uint("slid", NULL, o->slid);
	out_uint("src_qp", NULL, o->src_qp);
	out_uint("pkey_index", NULL, o->pkey_index);
	out_close_object();
}

static void print_rtt(const struct cell *c)
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
static void print_source(const struct run *r, const struct cell *c)
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
	out_uint("lid", NULL, r->facts.lid);
	if (sgid)
		out_string("sgid", NULL, gid_format(&sgid->gid, gid, sizeof(gid)));
	else
		out_null("sgid", NULL);
	out_close_object();
}

static void print_cell(const struct run *r, const struct cell *c)
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
	print_rtt(c);
	print_observed(c);
	if (v->hop_limit_sent >= 0)
		out_int("hop_limit_sent", " sent_hl %lld", v->hop_limit_sent);
	else
		out_null("hop_limit_sent", NULL);
	out_string("hop_limit_source", NULL,
		   hop_limit_source_name(v->hop_limit_source));
	if (v->hops >= 0)
		out_int("hops", " hops %lld", v->hops);
	else
		out_null("hops", NULL);
	out_uint("ah_create_usec", NULL, c->create_usec);
	out_newline();
	out_open_array("verdicts");
	out_element_string(NULL, reachability_name(v->reach));
	for (flag = 1; flag <= VERDICT_NO_GRH; flag <<= 1)
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

/* JSON Lines: a cell is reported as soon as its last probe resolves. */
static void emit_cell_if_done(struct run *r, struct cell *c)
{
	(void)r;
	if (!opts.jsonl || c->reported || c->sent < opts.count)
		return;
	for (uint32_t i = 0; i < opts.window; i++)
		if (r->flight[i].used && r->flight[i].cell == c)
			return;
	c->reported = true;
	judge(r, c);
	print_cell(r, c);
	out_flush_record();
}

static int open_endpoint(struct run *r, const struct device_info *dev,
			 const struct port_info *port, char *err, size_t len)
{
	struct ud_config config = {
		.device = dev->name,
		.port_num = port->port_num,
		.qkey = r->targets[0].info.qkey,
		.recv_depth = opts.window * 2 + 16,
		.send_depth = opts.window,
		.max_payload = opts.size > PROBE_REPLY_SIZE ? opts.size
							    : PROBE_REPLY_SIZE,
	};
	struct ibv_device_attr attr;

	for (size_t i = 0; i < r->target_count; i++)
		if (r->targets[i].ready) {
			config.qkey = r->targets[i].info.qkey;
			break;
		}
	if (ud_endpoint_open(&r->ep, &config, err, len))
		return -1;
	/* rxe (vendor 0xffffff) puts the route's hop limit on the wire. */
	if (ibv_query_device(r->ep.context, &attr) == 0 &&
	    attr.vendor_id == 0xffffff)
		r->stack_ignores_ah_hop_limit = true;
	for (size_t i = 0; i < r->target_count; i++) {
		struct target *t = &r->targets[i];

		if (t->ready && t->info.qkey != config.qkey) {
			t->ready = false;
			snprintf(t->error, sizeof(t->error),
				 "Q_Key 0x%08x differs from the first "
				 "responder's 0x%08x: probe it in a run of "
				 "its own", t->info.qkey, config.qkey);
		}
	}
	return 0;
}

/* --discover: the SA names the responders, their QPNs and Q_Keys; DESTs,
 * if any, choose whose records are looked up, by GID. */
static int discover_usage(const struct dest_list *dests)
{
	if (opts.has_qpn || opts.has_qkey)
		return cli_usage_error("--discover takes each responder's QPN "
				       "and Q_Key from its SA record: drop "
				       "--qpn and --qkey");
	for (size_t i = 0; i < dests->count; i++) {
		const struct dest *d = &dests->items[i];

		if (d->kind != DEST_GID && d->kind != DEST_GUID &&
		    d->kind != DEST_ADDR)
			return cli_usage_error("with --discover, a destination "
					       "is a GID or guid: whose record "
					       "the SA has, not a %s "
					       "destination: '%s'",
					       dest_kind_name(d->kind),
					       d->text);
	}
	return 0;
}

/* Asks the SA for every record, or for the records of dests; without
 * dests, fills them (one per record, in order) unless listing. Returns 0,
 * or the exit status after saying why. */
static int discover_responders(const struct common_opts *common,
			       const char *ca, uint8_t port,
			       struct discovery *d, struct dest_list *dests)
{
	char err[DIAG_MSG_MAX * 3];
	bool table = dests->count == 0;
	int rc = discovery_fetch(ca, port, common->timeout_ms, dests, d, err,
				 sizeof(err));

	if (rc)
		return cli_fail(rc, "%s", err);
	if (d->truncated) {
		discovery_truncation_message(d, err, sizeof(err));
		diag_warn("%s", err);
	}
	/* An empty list is a result; nothing to probe is a setup failure,
	 * as when no rendezvous answers. */
	if (table && d->count == 0)
		return cli_fail(opts.list ? EXIT_PROBLEM : EXIT_ENVIRONMENT,
				"no ibahprobe responder is registered in the "
				"SA: start 'ibahprobe serve --register' on the "
				"responders");
	if (opts.list) {
		discovery_print(d);
		for (size_t i = 0; i < d->count; i++)
			if (!d->items[i].path_ok)
				return EXIT_PROBLEM;
		return d->truncated ? EXIT_PROBLEM : EXIT_FINE;
	}
	if (table && discovery_to_dests(d, dests, err, sizeof(err)))
		return cli_fail(EXIT_ENVIRONMENT, "%s", err);
	return 0;
}

/* A discovered responder as a target: its record and path say it all. */
static void take_discovered(const struct discovered_responder *found,
			    struct target *t)
{
	t->known_hops = -1;
	if (!found->path_ok) {
		snprintf(t->error, sizeof(t->error), "%s", found->error);
		return;
	}
	t->info.qpn = found->responder.qpn;
	t->info.qkey = found->responder.qkey;
	t->dgid = found->responder.gid;
	t->has_dgid = true;
	t->dlid = found->dlid;
	t->ready = true;
}

static int collect_dests(int argc, char **argv, struct dest_list *dests)
{
	char err[DIAG_MSG_MAX + 64];

	if (opts.list && !opts.discover)
		return cli_usage_error("--list needs --discover");
	if (dest_list_collect(dests, argc, argv, opts.file, err, sizeof(err)))
		return cli_usage_error("%s", err);
	if (opts.discover)
		return discover_usage(dests);
	if (dests->count == 0)
		return cli_usage_error("probe needs at least one destination; "
				       "'ibahprobe probe -h' shows the forms");
	if (opts.has_qkey && !opts.has_qpn)
		return cli_usage_error("--qkey needs --qpn: without them the "
				       "rendezvous tells both");
	return 0;
}

static void free_run(struct run *r)
{
	if (r->ep.qp)
		ud_drain_sends(&r->ep, 1000);
	for (size_t i = 0; i < r->cell_count; i++) {
		if (r->cells[i].ah)
			ibv_destroy_ah(r->cells[i].ah);
		rtt_free(&r->cells[i].rtt);
	}
	if (r->ep.context)
		ud_endpoint_close(&r->ep);
	free(r->cells);
	free(r->targets);
	free(r->flight);
}

static int probe_run(const struct common_opts *common, int argc, char **argv)
{
	struct dest_list dests = { 0 };
	struct device_list devices = { 0 };
	struct discovery disc = { 0 };
	const struct device_info *dev;
	const struct port_info *port;
	struct sweep sw = { 0 };
	struct run r = { 0 };
	struct sigaction sa = { .sa_handler = on_signal };
	char err[DIAG_MSG_MAX];
	size_t ready = 0, good = 0;
	int rc;

	rc = build_sweep(&sw);
	if (rc == 0)
		rc = collect_dests(argc, argv, &dests);
	if (rc)
		goto out;
	/* Listing needs no verbs device: it works on umad alone. */
	if (opts.list) {
		rc = discover_responders(common, common->device, common->port,
					 &disc, &dests);
		goto out;
	}
	if (opts.jsonl)
		out_init(OUT_JSONL, false);
	if (device_discover(&devices, common->device, err, sizeof(err))) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out;
	}
	port = device_pick_port(&devices, common->device, common->port, &dev,
				err, sizeof(err));
	if (!port || dev->source != DEVICE_FROM_VERBS) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s",
			      port ? "probing needs a verbs device; this one "
				     "is visible through umad only"
				   : err);
		goto out;
	}
	if (port->active_mtu && opts.size > port->active_mtu) {
		rc = cli_usage_error("probe size %u exceeds the path MTU %u of "
				     "%s port %u", opts.size, port->active_mtu,
				     dev->name, port->port_num);
		goto out;
	}
	if (opts.discover && port->link_layer == LINK_LAYER_ETHERNET) {
		rc = cli_fail(EXIT_ENVIRONMENT, "--discover needs an InfiniBand "
			      "port: %s port %u is RoCE, which has no SA; give "
			      "the responders' addresses instead", dev->name,
			      port->port_num);
		goto out;
	}
	if (opts.discover) {
		rc = discover_responders(common, dev->name, port->port_num,
					 &disc, &dests);
		if (rc)
			goto out;
	}
	ah_port_facts_from_port(port, &r.facts);
	r.device = dev->name;
	if (gethostname(r.hostname, sizeof(r.hostname) - 1))
		snprintf(r.hostname, sizeof(r.hostname), "unknown");
	r.timeout_ns = (uint64_t)common->timeout_ms * 1000000u;
	r.target_count = dests.count;
	r.targets = calloc(dests.count, sizeof(*r.targets));
	r.cell_count = dests.count * sw.count;
	r.cells = calloc(r.cell_count, sizeof(*r.cells));
	r.flight = calloc(opts.window, sizeof(*r.flight));
	if (!r.targets || !r.cells || !r.flight) {
		rc = cli_fail(EXIT_ENVIRONMENT, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < dests.count; i++) {
		r.targets[i].dest = &dests.items[i];
		if (opts.discover)
			take_discovered(&disc.items[i], &r.targets[i]);
		else
			resolve_target(common, &r.facts, &r.targets[i]);
		ready += r.targets[i].ready;
	}
	if (ready == 0 && !opts.has_qpn) {
		for (size_t i = 0; i < dests.count; i++)
			diag_error("%s: %s", dests.items[i].text,
				   r.targets[i].error);
		rc = cli_fail(EXIT_ENVIRONMENT, "no responder reachable: "
			      "start 'ibahprobe serve' on the destinations");
		goto out;
	}
	if (open_endpoint(&r, dev, port, err, sizeof(err))) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out;
	}
	if (getrandom(&r.probe_id, sizeof(r.probe_id), 0) !=
	    sizeof(r.probe_id))
		r.probe_id = (uint32_t)monotonic_ns();
	for (size_t t = 0; t < dests.count; t++) {
		for (size_t s = 0; s < sw.count; s++) {
			struct cell *c = &r.cells[t * sw.count + s];

			c->target = &r.targets[t];
			c->asked = sweep_params(&sw, s);
			if (c->target->ready)
				prepare_cell(common, &r, c);
		}
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	rc = run_engine(&r);
	if (rc) {
		rc = cli_fail(EXIT_ENVIRONMENT, "polling completions failed: "
			      "%s", strerror(-rc));
		goto out;
	}
	/* Judge sets that answered first: their hop counts explain the
	 * losses of the others to the same destination. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < r.cell_count; i++)
			if (r.cells[i].ah && !r.cells[i].reported &&
			    (r.cells[i].received > 0) == (pass == 0))
				judge(&r, &r.cells[i]);
	if (!opts.jsonl)
		out_open_array(NULL);
	for (size_t i = 0; i < r.cell_count; i++) {
		struct cell *c = &r.cells[i];

		if (c->ah && c->verdict.reach == REACH_REACHABLE)
			good++;
		if (c->reported)
			continue;
		print_cell(&r, c);
		if (opts.jsonl)
			out_flush_record();
	}
	if (!opts.jsonl)
		out_close_array();
	rc = good == r.cell_count && !interrupted && !disc.truncated
		     ? EXIT_FINE : EXIT_PROBLEM;
out:
	discovery_free(&disc);
	free_run(&r);
	sweep_free(&sw);
	device_list_free(&devices);
	dest_list_free(&dests);
	return rc;
}

const struct command cmd_probe = {
	.name = "probe",
	.args = "DEST... | --discover [DEST...]",
	.summary = "UD probes: reachability, RTT and what happens to the GRH, "
		   "per destination and parameter set",
	.options = probe_options,
	.option = probe_option,
	.run = probe_run,
};
