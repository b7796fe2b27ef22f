/* The probing engine behind `probe` and `check`: see probe_engine.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "gid.h"
#include "monotonic.h"
#include "parallel.h"
#include "probe_engine.h"
#include "sgid_select.h"

#define POLL_BATCH 32

struct probe_in_flight {
	bool used;
	uint32_t sequence;
	struct probe_cell *cell;
	uint64_t sent_ns, deadline_ns;
};

static bool responder_has_gid(const struct responder_info *info,
			      const union ibv_gid *gid)
{
	for (size_t i = 0; i < info->gid_count; i++)
		if (memcmp(info->gids[i].gid.raw, gid->raw, 16) == 0)
			return true;
	return false;
}

/* The rendezvous' host: the name as given, or the address of the GID. */
static void rendezvous_host(const struct dest *d, char *host, size_t len)
{
	if (d->kind == DEST_HOST)
		snprintf(host, len, "%s", d->name);
	else
		gid_format_address(&d->gid, host, len);
}

static void probe_target_resolve(const struct probe_settings *settings,
				 const struct ah_port_facts *facts,
				 struct probe_target *t)
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
	if (t->has_qpn) {
		if (!t->has_dgid && d->kind != DEST_LID) {
			snprintf(t->error, sizeof(t->error),
				 "with --qpn, a destination is a GID, an "
				 "address or a LID, not a %s",
				 dest_kind_name(d->kind));
			return;
		}
		t->info.qpn = t->qpn;
		t->info.qkey = t->qkey;
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
		rendezvous_host(d, host, sizeof(host));
		if (rendezvous_query(host,
				     d->has_port ? d->port
						 : RENDEZVOUS_DEFAULT_PORT,
				     settings->timeout_ms, &t->info, t->error,
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

void probe_session_init(struct probe_session *s, const struct device_info *dev,
			const struct port_info *port)
{
	ah_port_facts_from_port(port, &s->facts);
	s->device = dev->name;
	if (gethostname(s->hostname, sizeof(s->hostname) - 1))
		snprintf(s->hostname, sizeof(s->hostname), "unknown");
}

int probe_session_open(struct probe_session *s, const struct device_info *dev,
		       const struct port_info *port, char *err, size_t len)
{
	const struct probe_settings *set = &s->settings;
	struct ud_config config = {
		.device = dev->name,
		.port_num = port->port_num,
		.qkey = UD_DEFAULT_QKEY,
		.recv_depth = set->window * 2 + 16,
		.send_depth = set->window,
		.max_payload = set->size > PROBE_REPLY_SIZE ? set->size
							    : PROBE_REPLY_SIZE,
	};
	struct ibv_device_attr attr;
	bool have_qkey = false;

	/* One QP has one Q_Key: the first ready responder's sets it. */
	for (size_t i = 0; i < s->cell_count && !have_qkey; i++)
		if (s->cells[i].target->ready) {
			config.qkey = s->cells[i].target->info.qkey;
			have_qkey = true;
		}
	for (size_t i = 0; i < s->cell_count; i++) {
		struct probe_target *t = s->cells[i].target;

		if (t->ready && t->info.qkey != config.qkey) {
			t->ready = false;
			snprintf(t->error, sizeof(t->error),
				 "Q_Key 0x%08x differs from the first "
				 "responder's 0x%08x: probe it in a run of "
				 "its own", t->info.qkey, config.qkey);
		}
	}
	s->flight = calloc(set->window, sizeof(*s->flight));
	if (!s->flight) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	if (ud_endpoint_open(&s->ep, &config, err, len))
		return -1;
	/* rxe (vendor 0xffffff) puts the route's hop limit on the wire. */
	if (ibv_query_device(s->ep.context, &attr) == 0 &&
	    attr.vendor_id == 0xffffff)
		s->stack_ignores_ah_hop_limit = true;
	if (getrandom(&s->probe_id, sizeof(s->probe_id), 0) !=
	    sizeof(s->probe_id))
		s->probe_id = (uint32_t)monotonic_ns();
	return 0;
}

static void lookup_route(const struct ah_port_facts *facts,
			 struct probe_cell *c)
{
	struct probe_target *t = c->target;
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

static void probe_cell_prepare(struct probe_session *s,
			       struct probe_cell *c)
{
	struct ah_fields f = {
		.has_hop_limit = true, .hop_limit = c->asked.hop_limit,
		.has_traffic_class = true, .traffic_class = c->asked.traffic_class,
		.has_flow_label = true, .flow_label = c->asked.flow_label,
		.has_sl = true, .sl = c->asked.sl,
	};
	struct probe_target *t = c->target;
	char why[DIAG_MSG_MAX * 3];
	uint64_t start;

	if (t->has_dgid) {
		f.has_dlid = t->dlid != 0;
		f.dlid = t->dlid;
		ah_build_from_gid(&t->dgid, &f, &s->facts, &c->attr);
	} else {
		f.has_dlid = true;
		f.dlid = t->dlid;
		ah_build_from_fields(&f, &s->facts, &c->attr);
	}
	if (c->attr.is_global) {
		if (s->settings.gid_index >= 0) {
			c->attr.grh.sgid_index = (uint8_t)s->settings.gid_index;
		} else {
			if (sgid_select(&s->facts, &c->attr.grh.dgid,
					t->dest->scope, &c->sgid_choice) == 0)
				c->attr.grh.sgid_index = c->sgid_choice.index;
			diag_verbose(1, "%s: %s", t->dest->text,
				     sgid_choice_describe(&c->sgid_choice, why,
							  sizeof(why)));
		}
	}
	if (ah_check(&c->attr, &s->facts, &c->check)) {
		snprintf(c->error, sizeof(c->error), "%s",
			 c->check.items[0].message);
		return;
	}
	lookup_route(&s->facts, c);
	start = monotonic_ns();
	errno = 0;
	c->ah = ibv_create_ah(s->ep.pd, &c->attr);
	c->create_usec = (monotonic_ns() - start) / 1000;
	if (!c->ah)
		ah_explain_errno(errno ? errno : EINVAL, &c->attr, &s->facts,
				 c->error, sizeof(c->error));
}

/* Jobs per target: job i acts only where cell i starts the run of its
 * target's cells (they stand together), and then on the whole run. */
static bool starts_run(const struct probe_session *s, size_t i)
{
	return i == 0 || s->cells[i - 1].target != s->cells[i].target;
}

static void resolve_run(size_t i, void *arg)
{
	struct probe_session *s = arg;

	if (starts_run(s, i))
		probe_target_resolve(&s->settings, &s->facts,
				     s->cells[i].target);
}

static void prepare_run(size_t i, void *arg)
{
	struct probe_session *s = arg;
	struct probe_target *t = s->cells[i].target;

	if (!starts_run(s, i) || !t->ready)
		return;
	for (size_t k = i; k < s->cell_count && s->cells[k].target == t; k++)
		probe_cell_prepare(s, &s->cells[k]);
}

/* One thread per target at most: the others would find nothing to do. */
static void for_each_target(struct probe_session *s,
			    void (*job)(size_t i, void *arg))
{
	unsigned targets = 0;

	for (size_t i = 0; i < s->cell_count && targets < PARALLEL_MAX_THREADS;
	     i++)
		targets += starts_run(s, i);
	parallel_for(s->cell_count, targets, job, s);
}

void probe_session_resolve_targets(struct probe_session *s)
{
	for_each_target(s, resolve_run);
}

void probe_session_prepare(struct probe_session *s)
{
	for_each_target(s, prepare_run);
}

bool probe_cell_active(const struct probe_cell *c)
{
	return c->ah != NULL;
}

static uint32_t cell_quota(const struct probe_session *s,
			   const struct probe_cell *c)
{
	return c->count ? c->count : s->settings.count;
}

static struct probe_in_flight *flight_slot(struct probe_session *s)
{
	for (uint32_t i = 0; i < s->settings.window; i++)
		if (!s->flight[i].used)
			return &s->flight[i];
	return NULL;
}

static void judge(struct probe_session *s, struct probe_cell *c)
{
	struct verdict_input in = {
		.asked = c->asked,
		.link_ethernet = s->facts.link_layer == LINK_LAYER_ETHERNET,
		.route_known = c->target->route_known,
		.route_hop_limit = c->target->route.hop_limit,
		.route_has_gateway = c->target->route.has_gateway,
		.stack_ignores_ah_hop_limit = s->stack_ignores_ah_hop_limit,
		.sent = c->sent,
		.received = c->received,
		.observed_valid = c->observed_valid,
		.observed = c->last_reply.observed,
		.known_hops = c->target->known_hops,
	};

	verdict_judge(&in, &c->verdict);
	c->judged = true;
	if (c->verdict.hops >= 0)
		c->target->known_hops = c->verdict.hops;
}

/* Streaming: a cell is handed on as soon as its last probe resolves. */
static void finish_cell_if_done(struct probe_session *s, struct probe_cell *c)
{
	if (!s->on_done || c->reported || c->sent < cell_quota(s, c))
		return;
	for (uint32_t i = 0; i < s->settings.window; i++)
		if (s->flight[i].used && s->flight[i].cell == c)
			return;
	c->reported = true;
	judge(s, c);
	s->on_done(s, c);
}

/* The RTT starts right here, not at the loop's tick, so probes sent back
 * to back do not share one start time. */
static int send_probe(struct probe_session *s, struct probe_cell *c)
{
	struct probe_in_flight *slot = flight_slot(s);
	uint8_t buf[PROBE_MAX_SIZE];
	struct probe_header h;
	uint64_t now;
	int rc;

	if (!slot)
		return -EAGAIN;
	now = monotonic_ns();
	h = (struct probe_header){
		.kind = PROBE_REQUEST,
		.probe_id = s->probe_id,
		.sequence = s->next_sequence++,
		.send_time_ns = now,
		.asked = c->asked,
	};
	probe_encode_request(&h, buf, s->settings.size);
	rc = ud_send(&s->ep, c->ah, c->target->info.qpn, c->target->info.qkey,
		     buf, s->settings.size);
	if (rc)
		return rc;
	c->sent++;
	c->next_send_ns = now + (uint64_t)s->settings.interval_ms * 1000000u;
	*slot = (struct probe_in_flight){
		.used = true, .sequence = h.sequence, .cell = c,
		.sent_ns = now,
		.deadline_ns = now + (uint64_t)s->settings.timeout_ms * 1000000u,
	};
	return 0;
}

static void take_reply(struct probe_session *s, const struct ibv_wc *wc,
		       uint64_t now)
{
	const uint8_t *buf = ud_recv_buffer(&s->ep, wc);
	struct probe_reply reply;

	if (wc->status != IBV_WC_SUCCESS || wc->byte_len < UD_GRH_BYTES)
		return;
	if (probe_decode_reply(buf + UD_GRH_BYTES, wc->byte_len - UD_GRH_BYTES,
			       &reply) != PROBE_OK ||
	    reply.header.probe_id != s->probe_id)
		return;	/* not ours: another run's late reply, or junk */
	for (uint32_t i = 0; i < s->settings.window; i++) {
		struct probe_in_flight *f = &s->flight[i];

		if (!f->used || f->sequence != reply.header.sequence)
			continue;
		f->used = false;
		f->cell->received++;
		rtt_add(&f->cell->rtt, now - f->sent_ns);
		f->cell->observed_valid = true;
		f->cell->last_reply = reply;
		finish_cell_if_done(s, f->cell);
		return;
	}
	/* Its slot expired already: a late reply, counted apart. */
	for (size_t i = 0; i < s->cell_count; i++) {
		struct probe_cell *c = &s->cells[i];

		if (memcmp(&c->asked, &reply.header.asked, sizeof(c->asked)) == 0 &&
		    c->target->info.qpn == wc->src_qp) {
			c->late++;
			break;
		}
	}
}

static void expire(struct probe_session *s, uint64_t now)
{
	for (uint32_t i = 0; i < s->settings.window; i++) {
		struct probe_in_flight *f = &s->flight[i];

		if (f->used && now >= f->deadline_ns) {
			f->used = false;
			finish_cell_if_done(s, f->cell);
		}
	}
}

static bool wants_to_send(const struct probe_session *s,
			  const struct probe_cell *c)
{
	return probe_cell_active(c) && c->sent < cell_quota(s, c);
}

static uint64_t next_event_ns(const struct probe_session *s, uint64_t now,
			      bool can_send)
{
	uint64_t next = now + 100000000u;	/* look again in 100 ms */

	for (uint32_t i = 0; i < s->settings.window; i++)
		if (s->flight[i].used && s->flight[i].deadline_ns < next)
			next = s->flight[i].deadline_ns;
	if (can_send)
		for (size_t i = 0; i < s->cell_count; i++)
			if (wants_to_send(s, &s->cells[i]) &&
			    s->cells[i].next_send_ns < next)
				next = s->cells[i].next_send_ns;
	return next > now ? next : now;
}

static bool any_in_flight(const struct probe_session *s)
{
	for (uint32_t i = 0; i < s->settings.window; i++)
		if (s->flight[i].used)
			return true;
	return false;
}

static void progress(const struct probe_session *s, uint64_t start,
		     uint64_t now, uint64_t *last)
{
	uint64_t sent = 0, got = 0, total = 0;

	if (!isatty(STDERR_FILENO) || now - start < 2000000000u ||
	    now - *last < 250000000u || diag_verbosity < 0)
		return;
	*last = now;
	for (size_t i = 0; i < s->cell_count; i++) {
		if (!probe_cell_active(&s->cells[i]))
			continue;
		sent += s->cells[i].sent;
		got += s->cells[i].received;
		total += cell_quota(s, &s->cells[i]);
	}
	fprintf(stderr, "\rprobe: %llu/%llu sent, %llu answered ",
		(unsigned long long)sent, (unsigned long long)total,
		(unsigned long long)got);
}

/* Sends one probe of the next cell due, round-robin from *rr. Returns
 * true when a cell was served (sent, or failed to send). */
static bool send_next(struct probe_session *s, size_t *rr, uint64_t now,
		      bool *window_full)
{
	for (size_t k = 0; k < s->cell_count; k++) {
		struct probe_cell *c = &s->cells[(*rr + k) % s->cell_count];
		int rc;

		if (!wants_to_send(s, c) || c->next_send_ns > now)
			continue;
		rc = send_probe(s, c);
		if (rc == -EAGAIN) {
			*window_full = true;
			return false;
		}
		if (rc) {
			c->send_errors++;
			c->sent++;
			finish_cell_if_done(s, c);
		}
		*rr = (*rr + k + 1) % s->cell_count;
		return true;
	}
	return false;
}

int probe_session_run(struct probe_session *s,
		      const volatile sig_atomic_t *stop)
{
	struct ibv_wc wcs[POLL_BATCH];
	uint64_t start = monotonic_ns(), last_progress = 0;
	size_t rr = 0;
	bool shown = false;

	for (;;) {
		uint64_t now = monotonic_ns();
		bool can_send = !*stop, window_full = false, more = false;
		int n;

		expire(s, now);
		while (can_send && !window_full &&
		       send_next(s, &rr, now, &window_full))
			;
		for (size_t i = 0; i < s->cell_count && can_send && !more; i++)
			more = wants_to_send(s, &s->cells[i]);
		if (!more && !any_in_flight(s))
			break;
		n = ud_poll(&s->ep, wcs, POLL_BATCH,
			    (int)((next_event_ns(s, now, can_send) - now +
				   999999) / 1000000));
		if (n < 0)
			return n;
		now = monotonic_ns();
		for (int i = 0; i < n; i++) {
			if (!ud_wc_is_recv(&wcs[i]))
				continue;
			take_reply(s, &wcs[i], now);
			ud_repost_recv(&s->ep, &wcs[i]);
		}
		progress(s, start, now, &last_progress);
		shown = shown || last_progress;
	}
	if (shown)
		fputs("\r\033[K", stderr);
	return 0;
}

void probe_session_judge(struct probe_session *s)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < s->cell_count; i++) {
			struct probe_cell *c = &s->cells[i];

			if (c->ah && !c->judged &&
			    (c->received > 0) == (pass == 0))
				judge(s, c);
		}
}

void probe_session_close(struct probe_session *s)
{
	if (s->ep.qp)
		ud_drain_sends(&s->ep, 1000);
	for (size_t i = 0; i < s->cell_count; i++) {
		if (s->cells[i].ah)
			ibv_destroy_ah(s->cells[i].ah);
		s->cells[i].ah = NULL;
		rtt_free(&s->cells[i].rtt);
	}
	if (s->ep.context)
		ud_endpoint_close(&s->ep);
	free(s->flight);
	s->flight = NULL;
}
