/* The probing engine behind `probe` and `check`: see probe_engine.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "base/gid.h"
#include "wire/grh.h"
#include "sa/ib_target.h"
#include "base/monotonic.h"
#include "base/parallel.h"
#include "sa/path_resolve.h"
#include "probe/probe_engine.h"
#include "probe/probe_paths.h"
#include "probe/partition_reach.h"
#include "peer/rendezvous_count.h"
#include "verbs/sgid_select.h"
#include "verbs/wc_failure.h"

#define POLL_BATCH 32
/* Without device stamps a probe's send completion tells nothing (its time
 * is taken before the post): one in this many asks for one, as perftest
 * signals one send in cq_mod, so a round trip polls one CQE, not two
 * (and an event-driven prober is not woken by its own send). */
#define SEND_SIGNAL_EVERY 16

static bool responder_has_gid(const struct responder_info *info,
			      const union ibv_gid *gid)
{
	for (size_t i = 0; i < info->gid_count; i++)
		if (memcmp(info->gids[i].gid.raw, gid->raw, 16) == 0)
			return true;
	return false;
}

/* The rendezvous' host: the name as given, or the address of the GID. */
static void rendezvous_host(const struct dest *d, char *host, size_t len);

void probe_target_rendezvous(const struct probe_target *t, char *host,
			     size_t len, uint16_t *port)
{
	rendezvous_host(t->dest, host, len);
	*port = t->dest->has_port ? t->dest->port : RENDEZVOUS_DEFAULT_PORT;
}

static void rendezvous_host(const struct dest *d, char *host, size_t len)
{
	size_t n;

	if (d->kind == DEST_HOST) {
		snprintf(host, len, "%s", d->name);
		return;
	}
	gid_format_address(&d->gid, host, len);
	/* A link-local address means nothing without its interface:
	 * getaddrinfo takes the scope as "fe80::2%eth1". */
	n = strlen(host);
	if (d->scope[0] && n < len)
		snprintf(host + n, len - n, "%%%s", d->scope);
}

/* With --qpn there is no rendezvous: the destination itself must say
 * where the responder is. */
static int given_qpn_target(const struct ah_port_facts *facts,
			    struct probe_target *t)
{
	const struct dest *d = t->dest;
	bool ib = facts->link_layer == LINK_LAYER_IB;

	/* On IB an address is no GID and a name finds only a rendezvous;
	 * guid: and node: the SA resolves with the paths. */
	if (ib && (d->kind == DEST_ADDR || d->kind == DEST_HOST)) {
		snprintf(t->error, sizeof(t->error),
			 "on InfiniBand an address or host name only finds "
			 "the responder's rendezvous, which --qpn skips: give "
			 "its port GID (gid:), LID, guid: or node:");
		return -1;
	}
	if (!ib && !t->has_dgid && d->kind != DEST_LID) {
		snprintf(t->error, sizeof(t->error),
			 "with --qpn, a destination is a GID, an address or a "
			 "LID, not a %s", dest_kind_name(d->kind));
		return -1;
	}
	t->info.qpn = t->qpn;
	t->info.qkey = t->qkey;
	if (t->has_dgid)
		snprintf(t->dgid_source, sizeof(t->dgid_source), "as given");
	return 0;
}

/* On IB, the DGID is the port GID the responder advertises, not the
 * address its rendezvous answered at. */
static int ib_rendezvous_dgid(struct probe_target *t)
{
	const struct dest *d = t->dest;
	char why[DIAG_MSG_MAX], text[GID_TEXT_MAX];
	bool listed;

	if (ib_responder_dgid(&t->info, d->kind == DEST_GID ? &d->gid : NULL,
			      &t->dgid, &listed, why, sizeof(why))) {
		snprintf(t->error, sizeof(t->error), "%s", why);
		return -1;
	}
	t->has_dgid = true;
	snprintf(t->dgid_source, sizeof(t->dgid_source), "%s", why);
	if (!listed)
		diag_warn("%s: the responder does not list %s among its GIDs; "
			  "probing it anyway", d->text,
			  gid_format(&t->dgid, text, sizeof(text)));
	return 0;
}

/* The destination is the probing port itself: its DGID is one of ours. */
static bool skip_local_port(const struct probe_settings *settings,
			    const struct ah_port_facts *facts,
			    struct probe_target *t)
{
	if (!settings->skip_local_port || !t->has_dgid)
		return false;
	for (size_t g = 0; g < facts->gid_count; g++)
		if (memcmp(facts->gids[g].gid.raw, t->dgid.raw,
			   sizeof(t->dgid.raw)) == 0) {
			t->local_port = true;
			snprintf(t->error, sizeof(t->error),
				 "skipped: the probing port itself");
			return true;
		}
	return false;
}

static void probe_target_resolve(const struct probe_settings *settings,
				 const struct ah_port_facts *facts,
				 struct probe_target *t)
{
	struct dest *d = (struct dest *)t->dest;
	bool ib = facts->link_layer == LINK_LAYER_IB;
	char host[GID_TEXT_MAX];

	t->known_hops = -1;
	if (t->preset)
		return;
	if (d->kind == DEST_HOST &&
	    dest_resolve_host(d, t->error, sizeof(t->error)))
		return;
	/* On IB the address of a name is where the rendezvous listens,
	 * never the DGID; the rendezvous answer or the SA gives that. */
	if (d->has_gid && (!ib || d->kind == DEST_GID)) {
		t->dgid = d->gid;
		t->has_dgid = true;
	}
	/* Known before any rendezvous on RoCE (the address is the GID):
	 * our own responder need not be up to be skipped. */
	if (skip_local_port(settings, facts, t))
		return;
	if (d->kind == DEST_LID)
		t->dlid = d->lid;
	if (t->has_qpn) {
		if (given_qpn_target(facts, t))
			return;
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
		t->from_rendezvous = true;
		if (ib) {
			if (ib_rendezvous_dgid(t) ||
			    skip_local_port(settings, facts, t))
				return;
		} else {
			snprintf(t->dgid_source, sizeof(t->dgid_source),
				 "the destination's address");
			if (!responder_has_gid(&t->info, &t->dgid))
				diag_warn("%s: the responder does not list %s "
					  "among its GIDs; probing it anyway",
					  d->text, gid_format(&t->dgid, host,
							      sizeof(host)));
		}
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
	s->port_mtu = port->active_mtu;
	s->device = dev->name;
	if (gethostname(s->hostname, sizeof(s->hostname) - 1))
		snprintf(s->hostname, sizeof(s->hostname), "unknown");
}

int probe_session_alloc_cells(struct probe_session *s, size_t count)
{
	s->cells = calloc(count ? count : 1, sizeof(*s->cells));
	s->cell_count = s->cells ? count : 0;
	return s->cells ? 0 : -1;
}

static uint64_t endpoint_delta(const void *ep, uint64_t from, uint64_t to)
{
	return ud_stamp_delta_ns(ep, from, to);
}

static void finish_cell_if_done(struct probe_session *s, struct probe_cell *c);

/* A round trip split: its network share and the responder's dwell join
 * the cell's samples. */
static void timing_done(void *ctx, uint32_t cell, const struct rtt_split *t,
			bool waited)
{
	struct probe_session *s = ctx;
	struct probe_cell *c;

	if (cell >= s->cell_count)
		return;
	c = &s->cells[cell];
	if (waited && c->timing_waiting)
		c->timing_waiting--;
	if (!t->network_known) {
		c->dwell_unknown++;
	} else {
		rtt_add(&c->network, t->network_ns);
		rtt_add(&c->dwell, t->dwell_ns);
		c->clock_errors += t->clock_error;
		c->stamps = c->stamps_seen
				    ? stamp_source_weaker(c->stamps, t->source)
				    : t->source;
		c->stamps_seen = true;
	}
	finish_cell_if_done(s, c);
}

int probe_session_open(struct probe_session *s, const struct device_info *dev,
		       const struct port_info *port, char *err, size_t len)
{
	const struct probe_settings *set = &s->settings;
	struct ud_config config = {
		.device = dev->name,
		.port_num = port->port_num,
		.pkey_index = s->pkey_index,
		.qkey = UD_DEFAULT_QKEY,
		.recv_depth = set->window * 2 + 16,
		/* Room for the unsignalled sends before the signalled one
		 * whose completion gives their slots back. */
		.send_depth = set->window + SEND_SIGNAL_EVERY,
		.signal_every = SEND_SIGNAL_EVERY,
		.max_payload = set->size > PROBE_REPLY_SIZE ? set->size
							    : PROBE_REPLY_SIZE,
		.busy_poll = set->busy_poll,
		.hw_stamps = true,
	};
	struct ibv_device_attr attr;
	struct provider_facts facts;
	char driver[64];
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
	if (probe_ledger_init(&s->ledger, set->window)) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	if (ud_endpoint_open(&s->ep, &config, err, len))
		return -1;
	/* Room for the window and the replies waiting for stamps. */
	if (rtt_join_init(&s->join, (size_t)set->window * 4 + 64,
			  endpoint_delta, &s->ep, timing_done, s)) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	/* Whose hop limit leaves the host depends on the provider. */
	if (ibv_query_device(s->ep.context, &attr))
		attr.vendor_id = 0;
	provider_facts_read(dev->name, attr.vendor_id, driver, sizeof(driver),
			    &facts);
	s->provider = provider_identify(&facts);
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

/* InfiniBand with a PathRecord: the kernel's path rule
 * (ib_init_ah_attr_from_path): DLID, SL, rate, source path bits and
 * sgid_index from the path, a GRH only off the subnet or where the port
 * requires one. The asked GRH fields apply to that GRH; the asked SL only
 * when the user chose it. */
static int build_from_path(struct probe_session *s, struct probe_cell *c,
			   struct ah_fields *f)
{
	struct probe_target *t = c->target;
	char text[GID_TEXT_MAX];
	struct ah_path ap;

	f->has_sl = c->sl_given;
	/* --paths all: the PathRecord to this cell's DLID, from the source
	 * LID of its path bits (ah_build_from_path takes them from it). */
	path_record_to_ah_path(c->dlid_path.of ? &c->dlid_path.record
					       : &t->path, &ap);
	if (ah_build_from_path(&ap, f, &s->facts, &c->attr)) {
		snprintf(c->error, sizeof(c->error),
			 "the path's SGID %s is not in the GID table of port "
			 "%u", gid_format(&ap.sgid, text, sizeof(text)),
			 s->facts.port_num);
		return -1;
	}
	c->asked.sl = c->attr.sl;
	return 0;
}

bool probe_cell_sgid_choice_repeats(const struct probe_session *s,
				    const struct probe_cell *c)
{
	size_t i = (size_t)(c - s->cells);

	return i > 0 && i < s->cell_count &&
	       s->cells[i - 1].target == c->target &&
	       strcmp(s->cells[i - 1].sgid_choice.reason,
		      c->sgid_choice.reason) == 0;
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

	if (c->dlid_path.of && !c->dlid_path.has_path) {
		snprintf(c->error, sizeof(c->error), "%s", c->dlid_path.error);
		return;
	}
	if (t->has_path) {
		if (build_from_path(s, c, &f))
			return;
	} else if (t->has_dgid) {
		f.has_dlid = t->dlid != 0;
		f.dlid = t->dlid;
		ah_build_from_gid(&t->dgid, &f, &s->facts, &c->attr);
	} else {
		f.has_dlid = true;
		f.dlid = t->dlid;
		ah_build_from_fields(&f, &s->facts, &c->attr);
	}
	/* A path's SGID chose the source already (-g went into the query). */
	if (c->attr.is_global && !t->has_path) {
		if (s->settings.gid_index >= 0) {
			c->attr.grh.sgid_index = (uint8_t)s->settings.gid_index;
		} else {
			if (sgid_select(&s->facts, &c->attr.grh.dgid,
					t->dest->scope, &c->sgid_choice) == 0)
				c->attr.grh.sgid_index = c->sgid_choice.index;
			/* Once per destination: its parameter sets (prepared
			 * in turn) choose alike. */
			if (!probe_cell_sgid_choice_repeats(s, c))
				diag_verbose(1, "%s: %s", t->dest->text,
					     sgid_choice_describe(
						     &c->sgid_choice, why,
						     sizeof(why)));
		}
	}
	if (ah_check(&c->attr, &s->facts, &c->check)) {
		snprintf(c->error, sizeof(c->error), "%s",
			 c->check.items[0].message);
		return;
	}
	if (s->settings.dry_run)
		return;
	lookup_route(&s->facts, c);
	start = monotonic_ns();
	errno = 0;
	c->ah = ibv_create_ah(s->ep.pd, &c->attr);
	c->create_usec = (monotonic_ns() - start) / 1000;
	if (!c->ah)
		ah_explain_errno(errno, &c->attr, &s->facts,
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

int probe_session_read_pkeys(struct probe_session *s,
			     const struct device_info *dev, char *err,
			     size_t len)
{
	s->pkeys_known = pkey_table_read(dev, s->facts.port_num, &s->pkeys,
					 err, len) == 0;
	return s->pkeys_known ? 0 : -1;
}

/* The one destination the SA is asked about for t: its DGID, else its
 * LID, else the guid: or node: the SA looks up first. The copy shares
 * the original's strings. */
static struct dest path_dest_of(const struct probe_target *t)
{
	struct dest d = *t->dest;

	if (t->has_dgid) {
		d.kind = DEST_GID;
		d.gid = t->dgid;
		d.has_gid = true;
	} else if (t->dlid) {
		d.kind = DEST_LID;
		d.lid = t->dlid;
		d.has_gid = false;
	}
	return d;
}

/* A failed PathRecord is its target's error. Only a lid: destination
 * makes an AH without one, and only when the SA did not answer at all
 * (an admin expects a LID to work with no SM around; "no records" is an
 * answer, and it says the LID leads nowhere). */
static void take_path(struct probe_target *t, bool sa_answered,
		      const struct path_result *r, const char *sa_error)
{
	if (sa_answered && r->status == PATH_OK) {
		t->has_path = true;
		t->path = r->record;
		t->dlid = r->record.dlid;
		if (!t->has_dgid) {
			t->dgid = r->record.dgid;
			t->has_dgid = true;
			snprintf(t->dgid_source, sizeof(t->dgid_source),
				 "the PathRecord's");
		}
		return;
	}
	if (t->dest->kind == DEST_LID &&
	    (!sa_answered || r->status == PATH_TIMEOUT)) {
		t->has_dgid = false;
		snprintf(t->path_note, sizeof(t->path_note),
			 "no PathRecord (%s): LID %u only, no GRH, SL as "
			 "asked", sa_answered ? r->error : sa_error, t->dlid);
		diag_warn("%s: %s", t->dest->text, t->path_note);
		return;
	}
	t->ready = false;
	if (sa_answered)
		snprintf(t->error, sizeof(t->error), "%s", r->error);
	else
		snprintf(t->error, sizeof(t->error),
			 "needs an SA PathRecord: %s", sa_error);
}

void probe_session_path_wants(const struct probe_session *s, uint16_t pkey,
			      struct path_constraints *want)
{
	const struct gid_info *g = s->settings.gid_index >= 0
		? ah_facts_gid(&s->facts, (uint32_t)s->settings.gid_index)
		: NULL;

	memset(want, 0, sizeof(*want));
	if (pkey) {
		want->has_pkey = true;
		want->pkey = pkey;
	}
	if (g) {
		want->has_sgid = true;
		want->sgid = g->gid;
	}
}

/* IB: one windowed SA batch for every ready target (path_resolve_all). */
static void ib_resolve_paths(struct probe_session *s)
{
	struct path_constraints want;
	struct dest_list batch = { 0 };
	struct probe_target **targets;
	struct path_result *results;
	struct path_session ps;
	char err[DIAG_MSG_MAX * 2] = "";
	bool answered = false;

	targets = calloc(s->cell_count, sizeof(*targets));
	batch.items = calloc(s->cell_count, sizeof(*batch.items));
	results = calloc(s->cell_count, sizeof(*results));
	if (!targets || !batch.items || !results) {
		snprintf(err, sizeof(err), "out of memory");
		goto out;
	}
	for (size_t i = 0; i < s->cell_count; i++) {
		struct probe_target *t = s->cells[i].target;

		if (!starts_run(s, i) || !t->ready)
			continue;
		targets[batch.count] = t;
		batch.items[batch.count++] = path_dest_of(t);
	}
	if (batch.count == 0)
		goto out;
	/* The partition and source GID the QP will use are constraints. */
	probe_session_path_wants(s, s->settings.has_pkey ? s->settings.pkey : 0,
				 &want);
	if (path_session_open(&ps, s->device, s->facts.port_num, err,
			      sizeof(err)) == SA_CLIENT_OK) {
		answered = path_resolve_all(&ps, &batch, &want,
					    PATH_DEFAULT_WINDOW,
					    s->settings.timeout_ms,
					    PATH_DEFAULT_RETRIES, results, err,
					    sizeof(err)) == 0;
		path_session_close(&ps);
	}
out:
	for (size_t k = 0; k < batch.count; k++) {
		take_path(targets[k], answered, &results[k], err);
		if (answered && !targets[k]->ready && want.has_pkey)
			partition_reach_note_path(
				targets[k]->error, sizeof(targets[k]->error),
				want.pkey, s->pkeys_known ? &s->pkeys : NULL);
	}
	free(targets);
	free(batch.items);	/* copies: the strings are the targets' */
	free(results);
}

/* One QP, one pkey_index: the user's partition or the first path's;
 * targets whose path lies in another partition cannot be probed here. */
static void choose_partition(struct probe_session *s)
{
	const struct probe_target *first = NULL;
	char err[DIAG_MSG_MAX];
	int rc;

	for (size_t i = 0; i < s->cell_count && !first; i++)
		if (s->cells[i].target->ready && s->cells[i].target->has_path)
			first = s->cells[i].target;
	rc = ib_partition_choose(s->settings.has_pkey, s->settings.pkey,
				 first != NULL, first ? first->path.pkey : 0,
				 s->pkeys_known ? &s->pkeys : NULL, &s->pkey,
				 &s->pkey_index, err, sizeof(err));
	for (size_t i = 0; i < s->cell_count; i++) {
		struct probe_target *t = s->cells[i].target;

		if (!starts_run(s, i) || !t->ready)
			continue;
		if (rc) {
			t->ready = false;
			snprintf(t->error, sizeof(t->error), "%s", err);
		} else if (t->has_path && s->pkey &&
			   !pkey_same_partition(t->path.pkey, s->pkey)) {
			t->ready = false;
			snprintf(t->error, sizeof(t->error),
				 "its path's P_Key 0x%04x is another partition "
				 "than the QP's 0x%04x: one QP is in one "
				 "partition; probe it in a run of its own "
				 "(--pkey 0x%04x)", t->path.pkey, s->pkey,
				 t->path.pkey);
		}
	}
}

void probe_session_resolve_targets(struct probe_session *s)
{
	for_each_target(s, resolve_run);
	if (s->facts.link_layer == LINK_LAYER_IB)
		ib_resolve_paths(s);
	choose_partition(s);
	if (s->facts.link_layer == LINK_LAYER_IB)
		probe_session_expand_paths(s);
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
	return probe_send_quota(c->count, s->settings.count);
}

static uint32_t cell_index(const struct probe_session *s,
			   const struct probe_cell *c)
{
	return (uint32_t)(c - s->cells);
}

/* The kernel's rdma_link_local_addr, which ib_resolve_unicast_gid_dmac
 * asks: fe80::/64 exactly, narrower than the fe80::/10 of IPv6. */
static bool kernel_link_local(const union ibv_gid *gid)
{
	static const uint8_t prefix[8] = { 0xfe, 0x80 };

	return memcmp(gid->raw, prefix, sizeof(prefix)) == 0;
}

static enum hop_limit_rule cell_hop_limit_rule(const struct probe_session *s,
					       const struct probe_cell *c,
					       char *why, size_t len)
{
	const struct gid_info *sgid =
		ah_facts_gid(&s->facts, c->attr.grh.sgid_index);
	struct hop_limit_rule_input in = {
		.provider = s->provider,
		.link_layer = s->facts.link_layer,
		.sgid_roce_v1 = sgid && sgid->kind == GID_KIND_ROCE_V1,
		.dgid_link_local = kernel_link_local(&c->attr.grh.dgid),
	};

	return provider_hop_limit_rule(&in, why, len);
}

void probe_cell_judge(const struct probe_session *s,
		      const struct probe_cell *c, uint32_t sent,
		      struct verdict *v)
{
	/* Followed to its new QP, and not restarted again since. */
	bool followed = c->target->followed && !c->target->restarted;
	char why[200];
	struct verdict_input in = {
		.asked = c->asked,
		.link_ethernet = s->facts.link_layer == LINK_LAYER_ETHERNET,
		.route_known = c->target->route_known,
		.route_hop_limit = c->target->route.hop_limit,
		.route_has_gateway = c->target->route.has_gateway,
		.hop_limit_rule = cell_hop_limit_rule(s, c, why, sizeof(why)),
		.hop_limit_rule_why = why,
		.sent = sent,
		.received = c->received,
		.late = c->late,
		.late_max_ns = c->late_max_ns,
		.timeout_ms = s->settings.timeout_ms,
		.duplicates = c->duplicates,
		.size = probe_cell_size(s, c),
		.port_mtu = s->port_mtu,
		.pkey = s->pkey,
		.local_pkey_membership = pkey_table_membership(
			s->pkeys_known ? &s->pkeys : NULL, s->pkey),
		.rendezvous_answered = c->target->rechecked &&
				       c->target->rendezvous_again,
		.responder_restarted = c->target->restarted,
		.old_qpn = followed ? c->target->first_qpn
				    : c->target->info.qpn,
		.new_qpn = followed ? c->target->info.qpn
				    : c->target->new_qpn,
		.restart_followed = followed,
		.restarts_followed = c->target->restarts_followed,
		.qpn_given = c->target->has_qpn && !c->target->preset,
		.given_qpn = c->target->info.qpn,
		.given_qkey = c->target->info.qkey,
		.observed_valid = c->observed_valid,
		.observed = c->last_reply.observed,
		.known_hops = c->target->known_hops,
		.reply_hop_limit_sent_known =
			c->observed_valid && c->last_reply.hop_limit_sent_known,
		.reply_hop_limit_sent = c->last_reply.hop_limit_sent,
		.reply_grh_seen = c->reply_grh_seen,
		.reply_hop_limit_seen = c->reply_hop_limit_seen,
		.oneway = {
			.sent = sent,
			.arrived = c->received + c->late,
			.final = probe_dlid_path_shares_set(&c->dlid_path)
					 ? ONEWAY_FINAL_NOT_ASKED
				 : s->run_over ? c->final : ONEWAY_FINAL_LATER,
			.final_received = c->final_received,
			.final_answered = c->final_answered,
			.final_reasons_known = c->final_reasons_known,
			.final_resolving = c->final_resolving,
			.late_after_park = c->late_after_park,
			.reply_count = probe_dlid_path_shares_set(&c->dlid_path)
					       ? 0 : c->reply_count,
			.reply_ordinal = probe_dlid_path_shares_set(&c->dlid_path)
						 ? 0 : c->reply_ordinal,
			.replies_seen = c->received + c->late > 0,
			.rq = c->final_rq,
		},
	};

	snprintf(in.restart_time, sizeof(in.restart_time), "%s",
		 c->target->followed_time);
	verdict_judge(&in, v);
}

static void judge(struct probe_session *s, struct probe_cell *c)
{
	probe_cell_judge(s, c, c->sent, &c->verdict);
	c->judged = true;
	if (c->verdict.hops >= 0)
		c->target->known_hops = c->verdict.hops;
}

uint32_t probe_cell_resolved(const struct probe_session *s,
			     const struct probe_cell *c)
{
	return c->sent - probe_ledger_in_flight(&s->ledger, cell_index(s, c));
}

enum probe_status probe_cell_status(const struct probe_cell *c,
				    uint32_t resolved)
{
	if (!c->target->ready || !c->ah)
		return PROBE_STATUS_ERROR;
	if (resolved == 0)
		return PROBE_STATUS_PENDING;
	if (c->received >= resolved)
		return PROBE_STATUS_REACHABLE;
	return c->received ? PROBE_STATUS_PARTIAL : PROBE_STATUS_UNREACHABLE;
}

void probe_cell_running_verdict(const struct probe_session *s,
				const struct probe_cell *c, struct verdict *v)
{
	probe_cell_judge(s, c, probe_cell_resolved(s, c), v);
}

/* Streaming: a cell is handed on as soon as its last probe resolves,
 * when every probe was answered. One with loss waits for the end of the
 * run: the rendezvous is asked again then (probe_session_recheck), and
 * other sets' hop counts explain its loss (probe_session_judge). */
static void finish_cell_if_done(struct probe_session *s, struct probe_cell *c)
{
	if (!s->on_done || c->reported || c->timing_waiting ||
	    !probe_ledger_cell_done(&s->ledger, cell_index(s, c), c->sent,
				    cell_quota(s, c), c->received))
		return;
	c->reported = true;
	judge(s, c);
	s->on_done(s, c);
}

/* A send's tag names its sequence (0 is no tag). */
static uint64_t send_tag_of(uint32_t sequence)
{
	return (1ull << 32) | sequence;
}

/* The RTT starts right here, not at the loop's tick, so probes sent back
 * to back do not share one start time. */
static int send_probe(struct probe_session *s, struct probe_cell *c)
{
	uint8_t buf[PROBE_MAX_SIZE];
	struct probe_header h;
	uint64_t now;
	int rc;

	if (probe_ledger_window_full(&s->ledger))
		return -EAGAIN;
	h = (struct probe_header){
		.kind = PROBE_REQUEST,
		.probe_id = s->probe_id,
		.sequence = probe_ledger_take_sequence(&s->ledger),
		.send_time_ns = monotonic_ns(),
		.asked = c->asked,
		.flags = PROBE_REQUEST_WANTS_TIMING,
	};
	probe_encode_request(&h, buf, probe_cell_size(s, c));
	/* The send time is the last thing before the post. */
	now = monotonic_ns();
	rc = ud_send_tagged(&s->ep, c->ah, c->target->info.qpn,
			    c->target->info.qkey, buf, probe_cell_size(s, c),
			    send_tag_of(h.sequence));
	if (rc)
		return rc;
	rtt_join_sent(&s->join, h.sequence, (uint32_t)cell_index(s, c));
	c->sent++;
	s->total_sent++;
	c->next_send_ns = now + (uint64_t)s->settings.interval_ms * 1000000u;
	probe_ledger_sent(&s->ledger, h.sequence, cell_index(s, c), c->sent,
			  now, now + (uint64_t)s->settings.timeout_ms *
					     1000000u);
	if (s->total_sent == 1)
		s->run_start_ns = now;
	return 0;
}

/* What a reply says beyond its arrival: the responder's running count
 * of the set (the latest probe's counts: it saw that many of the first
 * `ordinal`), and the hop limit the reply arrived with, read from its
 * GRH in the form our own source GID (the reply's DGID) has. */
static void note_reply(const struct probe_session *s, struct probe_cell *c,
		       uint32_t ordinal, const struct probe_reply *reply,
		       const uint8_t *grh_area, const struct ibv_wc *wc)
{
	const struct gid_info *own =
		ah_facts_gid(&s->facts, c->attr.grh.sgid_index);
	struct grh_local_gids local = { own ? &own->gid : NULL, own ? 1 : 0 };
	struct grh_fields grh;
	char err[DIAG_MSG_MAX];

	/* Replies that waited for their reply AH and came back anyway: the
	 * rest of the responder's answered_after_park never did. */
	if (reply->dwell_known && reply->reply_ah_wait_ns)
		c->arrived_after_park++;
	if (ordinal >= c->reply_ordinal) {
		c->reply_ordinal = ordinal;
		c->reply_count = reply->responder_received;
	}
	if (grh_decode_local(grh_area, wc->wc_flags & IBV_WC_GRH, &local, &grh,
			     err, sizeof(err)) == 0 && grh.present) {
		c->reply_grh_seen = true;
		c->reply_hop_limit_seen = grh.hop_limit;
	}
}

bool probe_session_reply_ours(const struct probe_session *s,
			      const uint8_t *buf, size_t len,
			      struct probe_reply *reply)
{
	if (len < UD_GRH_BYTES)
		return false;
	/* Not ours: another run's late reply, or junk. */
	return probe_decode_reply(buf + UD_GRH_BYTES, len - UD_GRH_BYTES,
				  reply) == PROBE_OK &&
	       reply->header.probe_id == s->probe_id;
}

/* How long a reply that announced a stamps message waits for it: the
 * responder sends it on the reply's own send completion, microseconds
 * later; a lost one must not hold the cell long. */
#define STAMPS_WAIT_NS (100ull * 1000000u)

/* The responder's stamps message: its device dwell for one reply. */
static void take_stamps(struct probe_session *s, const uint8_t *buf,
			size_t len)
{
	struct probe_stamps m;

	if (len < UD_GRH_BYTES ||
	    probe_decode_stamps(buf + UD_GRH_BYTES, len - UD_GRH_BYTES, &m) !=
		    PROBE_OK ||
	    m.header.probe_id != s->probe_id)
		return;
	rtt_join_stamps(&s->join, m.header.sequence, m.hw_dwell_known,
			m.hw_dwell_ns);
}

/* The reply's software stamps and the responder's dwell go to the join,
 * which splits the round trip now or once the stamps message is in. */
static void join_reply(struct probe_session *s, struct probe_cell *c,
		       const struct probe_credit_info *credit,
		       const struct probe_reply *reply,
		       const struct ud_completion *comp)
{
	struct rtt_stamps stamps = {
		.sent_ns = 0,
		.received_ns = credit->rtt_ns,
		.prober_wait = s->settings.busy_poll ? STAMP_SW_BUSY
						     : STAMP_SW_EVENT,
		.dwell_known = reply->dwell_known,
		.dwell_ns = reply->dwell_ns,
		.responder_wait = reply->responder_wait,
	};
	bool wait = reply->stamps_follow && s->ep.clock.hw;

	if (reply->dwell_known &&
	    reply->reply_ah_wait_ns > c->reply_ah_wait_max_ns)
		c->reply_ah_wait_max_ns = reply->reply_ah_wait_ns;
	c->timing_waiting += wait;
	rtt_join_reply(&s->join, reply->header.sequence, credit->cell, &stamps,
		       comp->hw_valid, comp->hw_stamp, wait, comp->polled_ns,
		       STAMPS_WAIT_NS);
}

/* A reply goes to the cell its sequence was sent for, whatever its
 * parameters: cells with equal parameters (and responders with equal
 * QPNs: every rxe device's first QP is 17) are never confused. Its time
 * is the completion's own, not the batch's. */
static void take_reply(struct probe_session *s,
		       const struct ud_completion *comp)
{
	const struct ibv_wc *wc = &comp->wc;
	const uint8_t *buf = ud_recv_buffer(&s->ep, wc);
	struct probe_credit_info credit;
	struct probe_reply reply;
	enum probe_credit got;
	struct probe_cell *c;

	if (wc->status != IBV_WC_SUCCESS)
		return;
	if (!probe_session_reply_ours(s, buf, wc->byte_len, &reply)) {
		take_stamps(s, buf, wc->byte_len);
		return;
	}
	got = probe_ledger_credit(&s->ledger, reply.header.sequence,
				  comp->polled_ns, &credit);
	if (got == PROBE_CREDIT_UNKNOWN)
		return;
	c = &s->cells[credit.cell];
	if (got == PROBE_CREDIT_ANSWERED || got == PROBE_CREDIT_LATE)
		note_reply(s, c, credit.ordinal, &reply, buf, wc);
	switch (got) {
	case PROBE_CREDIT_LATE:
		c->late++;
		if (reply.dwell_known && reply.reply_ah_wait_ns)
			c->late_after_park++;
		if (credit.late_by_ns > c->late_max_ns)
			c->late_max_ns = credit.late_by_ns;
		return;
	case PROBE_CREDIT_DUPLICATE:
		c->duplicates++;
		return;
	default:
		break;
	}
	c->received++;
	rtt_add(&c->rtt, credit.rtt_ns);
	c->last_reply_ns = comp->polled_ns;
	c->observed_valid = true;
	c->last_reply = reply;
	join_reply(s, c, &credit, &reply, comp);
	finish_cell_if_done(s, c);
}

static void expired_cell(uint32_t cell, void *ctx)
{
	struct probe_session *s = ctx;

	finish_cell_if_done(s, &s->cells[cell]);
}

static void expire(struct probe_session *s, uint64_t now)
{
	probe_ledger_expire(&s->ledger, now, expired_cell, s);
}

static struct probe_send_state send_state_of(size_t i, const void *ctx)
{
	const struct probe_session *s = ctx;
	const struct probe_cell *c = &s->cells[i];

	return (struct probe_send_state){
		.active = probe_cell_active(c),
		.paused = c->paused,
		.sent = c->sent,
		.quota = cell_quota(s, c),
		.next_send_ns = c->next_send_ns,
	};
}

static struct probe_schedule schedule_of(const struct probe_session *s)
{
	return (struct probe_schedule){
		.cells = s->cell_count, .state_of = send_state_of, .ctx = s,
	};
}

uint32_t probe_cell_size(const struct probe_session *s,
			 const struct probe_cell *c)
{
	return c->size ? c->size : s->settings.size;
}

void probe_cell_restart(struct probe_cell *c)
{
	c->sent = c->received = c->send_errors = 0;
	c->late = c->duplicates = 0;
	c->late_max_ns = 0;
	c->next_send_ns = 0;
	c->reply_count = c->reply_ordinal = 0;
	c->final = ONEWAY_FINAL_NOT_ASKED;
	c->final_received = c->final_answered = 0;
	c->final_reasons_known = false;
	c->final_resolving = 0;
	c->final_after_park_known = false;
	c->final_answered_after_park = c->arrived_after_park = 0;
	c->late_after_park = 0;
	memset(&c->final_rq, 0, sizeof(c->final_rq));
	c->reported = c->judged = false;
	memset(&c->verdict, 0, sizeof(c->verdict));
}

static uint64_t next_event_ns(const struct probe_session *s, uint64_t now,
			      bool can_send)
{
	struct probe_schedule sch = schedule_of(s);

	return probe_next_event_ns(&s->ledger, &sch, now, can_send,
				   s->on_period != NULL, s->next_period_ns);
}

void probe_session_progress_clear(struct probe_session *s)
{
	if (!s->progress_shown)
		return;
	fputs("\r\033[K", stderr);
	s->progress_shown = false;
}

static void progress(struct probe_session *s, uint64_t start, uint64_t now,
		     uint64_t *last)
{
	uint64_t sent = 0, got = 0, total = 0;

	/* A run until interrupted prints its own running rows. The clock
	 * first: isatty() is a system call, not for every loop turn. */
	if (!s->settings.count || now - start < 2000000000u ||
	    now - *last < 250000000u || diag_verbosity < 0 ||
	    !isatty(STDERR_FILENO))
		return;
	*last = now;
	for (size_t i = 0; i < s->cell_count; i++) {
		if (!probe_cell_active(&s->cells[i]) || s->cells[i].paused)
			continue;
		sent += s->cells[i].sent;
		got += s->cells[i].received;
		total += cell_quota(s, &s->cells[i]);
	}
	fprintf(stderr, "\rprobe: %llu/%llu sent, %llu answered ",
		(unsigned long long)sent, (unsigned long long)total,
		(unsigned long long)got);
	s->progress_shown = true;
}

/* Sends one probe of the next cell due, round-robin from *rr. Returns
 * true when a cell was served (sent, or failed to send). */
static bool send_next(struct probe_session *s, size_t *rr, uint64_t now,
		      bool *window_full)
{
	struct probe_schedule sch = schedule_of(s);
	size_t i = probe_schedule_next_due(&sch, *rr, now);
	struct probe_cell *c;
	int rc;

	if (i == s->cell_count)
		return false;
	c = &s->cells[i];
	rc = send_probe(s, c);
	if (rc == -EAGAIN) {
		*window_full = true;
		return false;
	}
	/* A send that failed counts as sent: the cell still ends. */
	if (rc) {
		c->send_errors++;
		c->sent++;
		finish_cell_if_done(s, c);
	}
	*rr = (i + 1) % s->cell_count;
	return true;
}

/* Our own QP failed: the run ends with a local error (exit 3). Returns
 * true when the failure is fatal (wc_failure_judge). */
static bool completion_failed(struct probe_session *s, const struct ibv_wc *wc)
{
	enum ibv_qp_state state = IBV_QPS_ERR;
	bool known = ud_qp_state(&s->ep, &state);
	bool recv = ud_wc_is_recv(wc);

	if (wc_failure_judge(wc->status, recv, known, state) !=
	    WC_FAILURE_FATAL)
		return false;
	wc_failure_describe(wc->status, recv, known, state, s->device,
			    s->fatal, sizeof(s->fatal));
	return true;
}

static bool repost_failed(struct probe_session *s)
{
	enum ibv_qp_state state;

	if (ud_qp_state(&s->ep, &state) && state != IBV_QPS_ERR)
		return false;
	snprintf(s->fatal, sizeof(s->fatal), "the local UD QP on %s failed: "
		 "a receive could not be posted again (QP state ERR); this "
		 "is not the destination's fault", s->device);
	return true;
}

static void drained_reply(void *ctx, const struct ibv_wc *wc)
{
	struct ud_completion comp = { .wc = *wc, .polled_ns = monotonic_ns() };

	take_reply(ctx, &comp);
}

/* A send completion: its device stamp is the request's t1. */
static void take_send(struct probe_session *s,
		      const struct ud_completion *comp)
{
	if (comp->tag >> 32 && comp->hw_valid)
		rtt_join_send_stamp(&s->join, (uint32_t)comp->tag,
				    comp->hw_stamp);
}

/* The poll's wait: the next event's, shorter while replies wait for
 * their stamps messages. */
static int wait_ms(const struct probe_session *s, uint64_t next, uint64_t now)
{
	int ms = (int)((next - now + 999999) / 1000000);

	return s->join.waiting && ms > 1 ? 1 : ms;
}

int probe_session_run(struct probe_session *s,
		      const volatile sig_atomic_t *stop)
{
	struct probe_schedule sch = schedule_of(s);
	struct ud_completion comps[POLL_BATCH];
	uint64_t start = monotonic_ns(), last_progress = 0;
	size_t rr = 0;

	s->next_period_ns = start + (uint64_t)s->period_ms * 1000000u;
	for (;;) {
		uint64_t now = monotonic_ns();
		bool can_send = !*stop, window_full = false, more;
		int n;

		expire(s, now);
		rtt_join_expire(&s->join, now, false);
		while (can_send && !window_full &&
		       send_next(s, &rr, now, &window_full))
			;
		more = can_send && probe_schedule_more(&sch);
		if (!more && !probe_ledger_any_in_flight(&s->ledger) &&
		    !s->join.waiting)
			break;
		n = ud_poll_stamped(&s->ep, comps, POLL_BATCH,
				    wait_ms(s, next_event_ns(s, now, can_send &&
							     !window_full),
					    now));
		if (n < 0)
			return n;
		now = monotonic_ns();
		/* Deadlines first: a reply that comes after its probe's
		 * deadline is late, even when the two land in one wake-up. */
		expire(s, now);
		for (int i = 0; i < n; i++) {
			const struct ibv_wc *wc = &comps[i].wc;

			if (wc->status != IBV_WC_SUCCESS &&
			    completion_failed(s, wc))
				return -EIO;
			if (!ud_wc_is_recv(wc)) {
				take_send(s, &comps[i]);
				continue;
			}
			take_reply(s, &comps[i]);
			if (ud_repost_recv(&s->ep, wc) && repost_failed(s))
				return -EIO;
		}
		if (s->on_period && now >= s->next_period_ns && !*stop) {
			s->next_period_ns = now + (uint64_t)s->period_ms *
							  1000000u;
			s->on_period(s);
		}
		progress(s, start, now, &last_progress);
	}
	s->run_end_ns = monotonic_ns();
	probe_session_progress_clear(s);
	/* The last sends' completions: replies that arrive meanwhile are
	 * taken (late or duplicate), not thrown away before the verdicts. */
	ud_drain_sends(&s->ep, 1000, drained_reply, s);
	rtt_join_expire(&s->join, monotonic_ns(), true);
	return 0;
}

static bool target_lost_probes(const struct probe_session *s, size_t i)
{
	const struct probe_target *t = s->cells[i].target;

	for (size_t k = i; k < s->cell_count && s->cells[k].target == t; k++)
		if (s->cells[k].ah && s->cells[k].received < s->cells[k].sent)
			return true;
	return false;
}

/* The question that names a cell's set as the responder keyed it: our
 * QPN, and the source GID and LID its requests arrived with (a GID only
 * with a GRH, a LID only on InfiniBand, as request_set_key_of takes
 * them). */
static void count_question(const struct probe_session *s,
			   const struct probe_cell *c, uint64_t now,
			   struct rendezvous_count_question *q)
{
	const struct gid_info *own =
		ah_facts_gid(&s->facts, c->attr.grh.sgid_index);

	memset(q, 0, sizeof(*q));
	q->probe_id = s->probe_id;
	q->qpn = s->ep.qp ? s->ep.qp->qp_num : 0;
	if (c->attr.is_global && own)
		q->gid = own->gid;
	if (s->facts.link_layer == LINK_LAYER_IB)
		q->lid = (uint16_t)(s->facts.lid | c->attr.src_path_bits);
	q->asked = c->asked;
	/* A second more than the run: the responder's clock ticks apart
	 * from ours, and too old only makes it say "forgotten". */
	q->age_ms = (uint32_t)((now - s->run_start_ns) / 1000000u) + 1000;
}

/* Each lossy set's final count: which way its probes went. */
static void ask_counts(struct probe_session *s, size_t first,
		       const char *host, uint16_t port)
{
	const struct probe_target *t = s->cells[first].target;

	for (size_t k = first; k < s->cell_count && s->cells[k].target == t;
	     k++) {
		struct probe_cell *c = &s->cells[k];
		struct rendezvous_count_question q;
		struct rendezvous_count_answer a;
		char err[DIAG_MSG_MAX * 2];

		if (!c->ah || c->received + c->late >= c->sent ||
		    probe_dlid_path_shares_set(&c->dlid_path))
			continue;
		count_question(s, c, monotonic_ns(), &q);
		c->final = ONEWAY_FINAL_NO_ANSWER;
		if (rendezvous_ask_count(host, port, s->settings.timeout_ms, &q,
					 &a, err, sizeof(err))) {
			diag_verbose(1, "%s: count: %s", t->dest->text, err);
			continue;
		}
		switch (a.state) {
		case RENDEZVOUS_COUNT_KNOWN:
			c->final = ONEWAY_FINAL_KNOWN;
			c->final_received = a.received;
			c->final_answered = a.answered;
			c->final_reasons_known = a.reasons_known;
			c->final_resolving =
				a.unanswered[UNANSWERED_RESOLVING];
			c->final_after_park_known = a.after_park_known;
			c->final_answered_after_park = a.answered_after_park;
			c->final_rq = a.rq_drops;
			break;
		case RENDEZVOUS_COUNT_FORGOTTEN:
			c->final = ONEWAY_FINAL_FORGOTTEN;
			break;
		case RENDEZVOUS_COUNT_NOT_UNDERSTOOD:
			c->final = ONEWAY_FINAL_OLD;
			break;
		}
	}
}

static void recheck_run(size_t i, void *arg)
{
	struct probe_session *s = arg;
	struct probe_target *t = s->cells[i].target;
	struct responder_info again;
	char host[GID_TEXT_MAX + IF_NAMESIZE + 1], err[DIAG_MSG_MAX * 2];

	if (!starts_run(s, i) || !t->ready || !t->from_rendezvous ||
	    !target_lost_probes(s, i))
		return;
	rendezvous_host(t->dest, host, sizeof(host));
	t->rechecked = true;
	/* Until the rendezvous answers the count question, it did not. */
	for (size_t k = i; k < s->cell_count && s->cells[k].target == t; k++)
		if (s->cells[k].ah)
			s->cells[k].final = ONEWAY_FINAL_NO_ANSWER;
	if (rendezvous_query(host, t->dest->has_port ? t->dest->port
						     : RENDEZVOUS_DEFAULT_PORT,
			     s->settings.timeout_ms, &again, err,
			     sizeof(err)))
		return;
	t->rendezvous_again = true;
	if (again.qpn != t->info.qpn) {
		t->restarted = true;
		t->new_qpn = again.qpn;
		return;	/* a new QP's counts are not our run's */
	}
	ask_counts(s, i, host, t->dest->has_port ? t->dest->port
						  : RENDEZVOUS_DEFAULT_PORT);
}

int probe_session_ask_count(const struct probe_session *s,
			    const struct probe_target *t,
			    const struct rendezvous_count_question *q,
			    struct rendezvous_count_answer *a, char *err,
			    size_t errlen)
{
	char host[GID_TEXT_MAX + IF_NAMESIZE + 1];

	rendezvous_host(t->dest, host, sizeof(host));
	return rendezvous_ask_count(host, t->dest->has_port
						  ? t->dest->port
						  : RENDEZVOUS_DEFAULT_PORT,
				    s->settings.timeout_ms, q, a, err, errlen);
}

/* Whether the responder says it answered, after waiting for its reply
 * AH, more of c's probes than have come back: those replies left it
 * before its count answer did, so they are in our queue or close. */
static bool parked_replies_due(const struct probe_session *s)
{
	for (size_t i = 0; i < s->cell_count; i++) {
		const struct probe_cell *c = &s->cells[i];

		if (c->final == ONEWAY_FINAL_KNOWN &&
		    c->final_after_park_known &&
		    c->final_answered_after_park > c->arrived_after_park)
			return true;
	}
	return false;
}

/* Replies serve posted only once its reply AH was made, after our
 * deadlines (first contact): taken as late, with what they say, rather
 * than counted lost on the way back. The wait is bounded: a reply the
 * responder posted before it answered the count question and that is
 * not here within LATE_PARKED_WAIT_MS was lost after all. */
#define LATE_PARKED_WAIT_MS 500

static void take_late_parked(struct probe_session *s)
{
	struct ud_completion comps[POLL_BATCH];
	uint64_t end = monotonic_ns() + LATE_PARKED_WAIT_MS * 1000000ull;

	while (parked_replies_due(s)) {
		uint64_t now = monotonic_ns();
		int n;

		if (now >= end)
			break;
		n = ud_poll_stamped(&s->ep, comps, POLL_BATCH,
				    (int)((end - now + 999999) / 1000000));
		if (n < 0)
			break;
		for (int i = 0; i < n; i++) {
			const struct ibv_wc *wc = &comps[i].wc;

			if (wc->status != IBV_WC_SUCCESS)
				continue;
			if (!ud_wc_is_recv(wc)) {
				take_send(s, &comps[i]);
				continue;
			}
			take_reply(s, &comps[i]);
			if (ud_repost_recv(&s->ep, wc))
				return;
		}
	}
}

void probe_session_recheck(struct probe_session *s)
{
	for_each_target(s, recheck_run);
	if (s->ep.qp)
		take_late_parked(s);
	s->run_over = true;
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
	/* An AH goes only after the sends using it, or after the QP that
	 * holds them when they never complete. */
	if (s->ep.qp && ud_drain_sends(&s->ep, 1000, NULL, NULL))
		ud_endpoint_destroy_qp(&s->ep);
	for (size_t i = 0; i < s->cell_count; i++) {
		if (s->cells[i].ah)
			ibv_destroy_ah(s->cells[i].ah);
		s->cells[i].ah = NULL;
		rtt_free(&s->cells[i].rtt);
		rtt_free(&s->cells[i].network);
		rtt_free(&s->cells[i].dwell);
	}
	free(s->cells);
	s->cells = NULL;
	s->cell_count = 0;
	if (s->ep.context)
		ud_endpoint_close(&s->ep);
	probe_ledger_free(&s->ledger);
	rtt_join_free(&s->join);
}
