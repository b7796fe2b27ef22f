/* Following a restarted or renumbered responder in a continuous run;
 * see responder_follow.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <time.h>

#include "base/dest.h"
#include "base/gid.h"
#include "sa/ib_target.h"
#include "sa/path_resolve.h"
#include "verbs/ah_attr.h"
#include "verbs/sgid_select.h"
#include "probe/probe_engine.h"
#include "probe/probe_round.h"
#include "probe/responder_follow.h"

static bool has_gid(const struct responder_info *info,
		    const union ibv_gid *gid)
{
	for (size_t i = 0; i < info->gid_count; i++)
		if (memcmp(info->gids[i].gid.raw, gid->raw, sizeof(gid->raw)) ==
		    0)
			return true;
	return false;
}

static bool gid_equal(const union ibv_gid *a, const union ibv_gid *b)
{
	return memcmp(a->raw, b->raw, sizeof(a->raw)) == 0;
}

enum follow_change follow_judge(const struct responder_info *now,
				const struct responder_info *answer,
				const union ibv_gid *dgid, bool infiniband,
				uint16_t dlid, const union ibv_gid *reached)
{
	/* An answer without GIDs (an older serve lists none) cannot say
	 * the address moved. A LID moves within the responder's LMC range
	 * only by our choice: the base LID is what the answer gives. On
	 * RoCE a name that now gives another address moved the responder
	 * even while its host still holds the old one (added the new
	 * address first, the old not yet taken away). */
	if ((dgid && answer->gid_count && !has_gid(answer, dgid)) ||
	    (!infiniband && dgid && reached && !gid_equal(dgid, reached)) ||
	    (infiniband && answer->lid && dlid &&
	     (dlid < answer->lid || dlid - answer->lid >= 128)))
		return FOLLOW_RENUMBERED;
	if (answer->qpn != now->qpn || answer->qkey != now->qkey)
		return FOLLOW_NEW_QP;
	return FOLLOW_SAME;
}

int follow_new_address(const struct responder_info *answer,
		       const union ibv_gid *old_dgid,
		       const union ibv_gid *reached, bool infiniband,
		       struct follow_address *to, char *why, size_t len)
{
	char text[GID_TEXT_MAX];
	bool listed;

	memset(to, 0, sizeof(*to));
	if (infiniband) {
		/* The SM gave the port a new LID, or the port is another
		 * (a moved cable, a replaced HCA): the GID it advertises
		 * and its LID; the name's address is IPoIB's, no GID. */
		to->lid = answer->lid;
		if (answer->gid_count &&
		    ib_responder_dgid(answer, NULL, &to->dgid, &listed, text,
				      sizeof(text)) == 0)
			to->has_dgid = true;
		if (!to->has_dgid && !to->lid) {
			snprintf(why, len, "its rendezvous names neither a "
				 "port GID nor a LID");
			return -1;
		}
		return 0;
	}
	/* RoCE v2: the GID is the netdev's address, so the address the
	 * rendezvous answered at is the new DGID. */
	if (!reached) {
		snprintf(why, len, "the address its rendezvous answered at "
			 "is not known");
		return -1;
	}
	if (old_dgid && gid_equal(reached, old_dgid)) {
		snprintf(why, len, "its rendezvous answers at %s, which it no "
			 "longer lists among its GIDs",
			 gid_format_address(reached, text, sizeof(text)));
		return -1;
	}
	to->has_dgid = true;
	to->dgid = *reached;
	return 0;
}

void follow_renumber_text(const union ibv_gid *old_dgid, uint16_t old_lid,
			  const struct follow_address *to, bool infiniband,
			  char *buf, size_t len)
{
	char a[GID_TEXT_MAX], b[GID_TEXT_MAX];
	size_t n = 0;

	buf[0] = '\0';
	if (old_dgid && to->has_dgid && !gid_equal(old_dgid, &to->dgid))
		n = (size_t)snprintf(buf, len, "GID %s -> %s",
				     gid_format(old_dgid, a, sizeof(a)),
				     gid_format(&to->dgid, b, sizeof(b)));
	if (infiniband && to->lid && old_lid != to->lid && n < len)
		snprintf(buf + n, len - n, "%sLID 0x%04x -> 0x%04x",
			 n ? ", " : "", old_lid, to->lid);
}

void follow_state_init(struct follow_state *f, uint32_t qpn)
{
	memset(f, 0, sizeof(*f));
	pthread_mutex_init(&f->ask.lock, NULL);
	f->first_qpn = qpn;
}

static void *ask_thread(void *arg)
{
	struct follow_ask *a = arg;
	struct dest name = { .kind = DEST_HOST, .name = a->host };
	char address[GID_TEXT_MAX], err[sizeof(a->err)];
	const char *host = a->host;
	struct responder_info answer;
	int rc = 0;

	memset(&answer, 0, sizeof(answer));
	/* A name is resolved again (its host may have been renumbered),
	 * and the address it gives is asked: the one the probes will go
	 * to if they follow. */
	if (a->by_name) {
		rc = dest_resolve_host(&name, err, sizeof(err));
		if (rc == 0)
			host = gid_format_address(&name.gid, address,
						  sizeof(address));
	}
	if (rc == 0)
		rc = rendezvous_query(host, a->port, a->timeout_ms, &answer,
				      err, sizeof(err));
	pthread_mutex_lock(&a->lock);
	if (a->by_name && name.has_gid) {
		a->has_reached = true;
		a->reached = name.gid;
	}
	a->rc = rc;
	a->answer = answer;
	memcpy(a->err, err, sizeof(err));
	a->done = true;
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

int follow_ask_start(struct follow_state *f, const char *host,
		     uint16_t port, uint32_t timeout_ms, bool by_name,
		     const union ibv_gid *reached)
{
	struct follow_ask *a = &f->ask;

	if (a->running)
		return 0;
	snprintf(a->host, sizeof(a->host), "%s", host);
	a->port = port;
	a->timeout_ms = timeout_ms;
	a->by_name = by_name;
	a->has_reached = reached != NULL;
	if (reached)
		a->reached = *reached;
	a->done = false;
	if (pthread_create(&a->thread, NULL, ask_thread, a))
		return -1;
	a->running = true;
	return 0;
}

int follow_ask_take(struct follow_state *f, struct responder_info *answer,
		    const union ibv_gid **reached, char *err, size_t errlen)
{
	struct follow_ask *a = &f->ask;
	bool done;

	if (!a->running)
		return -1;
	pthread_mutex_lock(&a->lock);
	done = a->done;
	pthread_mutex_unlock(&a->lock);
	if (!done)
		return -1;
	pthread_join(a->thread, NULL);
	a->running = false;
	*reached = a->has_reached ? &a->reached : NULL;
	if (a->rc) {
		snprintf(err, errlen, "%s", a->err);
		return 0;
	}
	*answer = a->answer;
	return 1;
}

bool follow_ask_pending(struct follow_state *f)
{
	bool done;

	if (!f->ask.running)
		return false;
	pthread_mutex_lock(&f->ask.lock);
	done = f->ask.done;
	pthread_mutex_unlock(&f->ask.lock);
	return !done;
}

void follow_state_free(struct follow_state *f)
{
	if (f->ask.running)
		pthread_join(f->ask.thread, NULL);
	f->ask.running = false;
	pthread_mutex_destroy(&f->ask.lock);
}

/* Whether every probe of the destination's round was lost (some sent). */
static bool round_all_lost(const struct probe_cell *cells, size_t n,
			   const struct probe_round_cell *rounds)
{
	uint32_t sent = 0, received = 0;

	for (size_t i = 0; i < n; i++) {
		if (!cells[i].ah)
			continue;
		sent += rounds[i].sent;
		received += rounds[i].received;
	}
	return sent > 0 && received == 0;
}

/* Whether a probe of the destination's round came back. */
static bool round_answered(const struct probe_cell *cells, size_t n,
			   const struct probe_round_cell *rounds)
{
	for (size_t i = 0; i < n; i++)
		if (cells[i].ah && rounds[i].received)
			return true;
	return false;
}

static void clock_text(double unix_time, char *buf, size_t len)
{
	time_t t = (time_t)unix_time;
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, len, "%H:%M:%S", &tm))
		snprintf(buf, len, "?");
}

/* A new QPN or Q_Key taken from answer: a restart followed. */
static void take_new_qp(struct follow_state *f, struct probe_target *t,
			const struct responder_info *answer, double now_unix)
{
	f->old_qpn = t->info.qpn;
	f->new_qpn = answer->qpn;
	f->restarts++;
	f->restart_unix = now_unix;
	t->info.qpn = answer->qpn;
	t->info.qkey = answer->qkey;
	t->followed = true;
	t->first_qpn = f->first_qpn;
	t->restarts_followed = f->restarts;
	clock_text(now_unix, t->followed_time, sizeof(t->followed_time));
}

/* IB: the SA's PathRecord to the responder's new GID (else its LID),
 * with the constraints the run began with. */
static int follow_path(const struct follow_port *port,
		       const struct probe_target *t,
		       const struct follow_address *to,
		       struct path_record *record, char *err, size_t len)
{
	struct dest d = *t->dest;	/* shares its strings: not freed */
	struct dest_list batch = { .count = 1, .capacity = 1, .items = &d };
	struct path_result result;
	struct path_session ps;
	int rc;

	memset(&result, 0, sizeof(result));
	d.kind = to->has_dgid ? DEST_GID : DEST_LID;
	d.has_gid = to->has_dgid;
	d.gid = to->dgid;
	d.lid = to->lid;
	if (path_session_open(&ps, port->device, port->facts->port_num, err,
			      len) != SA_CLIENT_OK)
		return -1;
	rc = path_resolve_all(&ps, &batch, port->want, 1, port->timeout_ms,
			      PATH_DEFAULT_RETRIES, &result, err, len);
	path_session_close(&ps);
	if (rc)
		return -1;
	if (result.status != PATH_OK) {
		snprintf(err, len, "%s", result.error);
		return -1;
	}
	*record = result.record;
	return 0;
}

/* A cell's attr built again for its target's new address: from the new
 * PathRecord on IB (ib_init_ah_attr_from_path, as at the start), else
 * the new DGID (and DLID); with -g auto the source GID is chosen again
 * (the route to the new address may leave by another netdev). */
static int readdress_cell(struct probe_cell *c, const struct probe_target *t,
			  const struct ah_port_facts *facts)
{
	struct ah_fields fields = {
		.has_hop_limit = true, .hop_limit = c->asked.hop_limit,
		.has_traffic_class = true,
		.traffic_class = c->asked.traffic_class,
		.has_flow_label = true, .flow_label = c->asked.flow_label,
		.has_sl = c->sl_given, .sl = c->asked.sl,
	};
	struct ah_path path;

	if (t->has_path) {
		path_record_to_ah_path(&t->path, &path);
		if (ah_build_from_path(&path, &fields, facts, &c->attr))
			return -1;
		c->asked.sl = c->attr.sl;
		return 0;
	}
	if (facts->link_layer == LINK_LAYER_IB)
		c->attr.dlid = t->dlid;
	if (c->attr.is_global && t->has_dgid) {
		c->attr.grh.dgid = t->dgid;
		if (c->sgid_choice.reason[0] &&
		    sgid_select(facts, &t->dgid, t->dest->scope,
				&c->sgid_choice) == 0)
			c->attr.grh.sgid_index = c->sgid_choice.index;
	}
	return 0;
}

/* A renumbering that cannot be followed: said once until probes come
 * back; asked again after the next round without a reply. */
static enum follow_change follow_stuck(struct follow_state *f,
				       const char *why, char *event,
				       size_t event_len)
{
	if (!f->stuck_said) {
		f->stuck_said = true;
		snprintf(event, event_len, "the responder's host was "
			 "renumbered and the probes cannot follow: %s", why);
	}
	return FOLLOW_SAME;
}

static enum follow_change follow_renumbered(struct follow_state *f,
					    struct probe_target *t,
					    struct probe_cell *cells,
					    size_t cell_count,
					    const struct follow_port *port,
					    const struct responder_info *answer,
					    const union ibv_gid *reached,
					    double now_unix, char *event,
					    size_t event_len)
{
	bool ib = port->facts->link_layer == LINK_LAYER_IB;
	char why[DIAG_MSG_MAX * 2], words[2 * GID_TEXT_MAX + 40];
	struct follow_address to;
	struct path_record record;
	union ibv_gid old_dgid = t->dgid;
	bool old_has_dgid = t->has_dgid;
	uint16_t old_lid = t->dlid;

	if (follow_new_address(answer, t->has_dgid ? &t->dgid : NULL, reached,
			       ib, &to, why, sizeof(why)))
		return follow_stuck(f, why, event, event_len);
	for (size_t i = 0; i < cell_count; i++)
		if (cells[i].dlid_path.of)
			return follow_stuck(f, "--paths all keeps the LMC "
					    "paths it began with; start the "
					    "run again", event, event_len);
	if (ib && t->has_path &&
	    follow_path(port, t, &to, &record, why, sizeof(why)))
		return follow_stuck(f, why, event, event_len);
	follow_renumber_text(old_has_dgid ? &old_dgid : NULL, old_lid, &to,
			     ib, words, sizeof(words));
	if (answer->qpn != t->info.qpn || answer->qkey != t->info.qkey)
		take_new_qp(f, t, answer, now_unix);
	t->info = *answer;
	if (to.has_dgid) {
		t->dgid = to.dgid;
		t->has_dgid = true;
		snprintf(t->dgid_source, sizeof(t->dgid_source),
			 "the renumbered responder's");
	}
	if (ib && t->has_path) {
		t->path = record;
		t->dlid = record.dlid;
	} else if (to.lid) {
		t->dlid = to.lid;
	}
	/* The hops known belong to the old route. */
	t->route_known = false;
	for (size_t i = 0; i < cell_count; i++)
		if (readdress_cell(&cells[i], t, port->facts))
			diag_verbose(1, "%s: the path's SGID is not in the GID "
				     "table: its AH stays", t->dest->text);
	f->renumbered++;
	f->renumbered_unix = now_unix;
	f->stuck_said = false;
	t->renumbered_followed = f->renumbered;
	clock_text(now_unix, t->renumbered_time, sizeof(t->renumbered_time));
	t->renumbered_has_gid = old_has_dgid && to.has_dgid;
	t->renumbered_from = old_dgid;
	t->renumbered_to = t->dgid;
	t->renumbered_from_lid = ib ? old_lid : 0;
	t->renumbered_to_lid = ib ? t->dlid : 0;
	snprintf(event, event_len, "responder renumbered at %s (%s): "
		 "following it", t->renumbered_time, words);
	return FOLLOW_RENUMBERED;
}

/* The rendezvous did not answer after a round without a reply: said
 * once until probes come back (the cause only with -v: a line stays
 * short). A destination given as an address stays at it. */
static void follow_unanswered(struct follow_state *f, struct probe_target *t,
			      const union ibv_gid *reached, const char *err,
			      char *event, size_t event_len)
{
	char address[GID_TEXT_MAX];

	diag_verbose(1, "%s: %s", t->dest->text, err);
	if (f->unanswered_said)
		return;
	f->unanswered_said = true;
	if (f->ask.by_name && reached)
		snprintf(event, event_len, "the responder no longer answers "
			 "at %s (%s)", f->ask.host,
			 gid_format_address(reached, address,
					    sizeof(address)));
	else
		snprintf(event, event_len, "the responder no longer answers "
			 "at %s", f->ask.host);
}

enum follow_change follow_take(struct follow_state *f, struct probe_target *t,
			       struct probe_cell *cells, size_t cell_count,
			       const struct follow_port *port, double now_unix,
			       char *event, size_t event_len)
{
	const struct ibv_ah_attr *attr = cell_count ? &cells[0].attr : NULL;
	bool ib = port->facts->link_layer == LINK_LAYER_IB;
	const union ibv_gid *reached;
	struct responder_info answer;
	char err[DIAG_MSG_MAX * 2];
	int rc;

	event[0] = '\0';
	if (!t->ready || !t->from_rendezvous)
		return FOLLOW_SAME;
	if (!f->first_qpn)
		f->first_qpn = t->info.qpn;
	/* A failed ask (the responder still down) is asked again after
	 * the next round without a reply. */
	rc = follow_ask_take(f, &answer, &reached, err, sizeof(err));
	if (rc == 0)
		follow_unanswered(f, t, reached, err, event, event_len);
	if (rc != 1)
		return FOLLOW_SAME;
	switch (follow_judge(&t->info, &answer,
			     attr && attr->is_global ? &attr->grh.dgid : NULL,
			     ib, attr ? attr->dlid : 0, ib ? NULL : reached)) {
	case FOLLOW_NEW_QP:
		take_new_qp(f, t, &answer, now_unix);
		snprintf(event, event_len, "responder restarted at %s (QPN %u "
			 "-> %u): following it", t->followed_time, f->old_qpn,
			 f->new_qpn);
		return FOLLOW_NEW_QP;
	case FOLLOW_RENUMBERED:
		return follow_renumbered(f, t, cells, cell_count, port,
					 &answer, reached, now_unix, event,
					 event_len);
	case FOLLOW_SAME:
		break;
	}
	return FOLLOW_SAME;
}

void follow_ask(struct follow_state *f, const struct probe_target *t,
		const struct probe_cell *cells, size_t cell_count,
		const struct probe_round_cell *rounds, uint32_t timeout_ms)
{
	char host[DIAG_MSG_MAX];
	uint16_t port;

	if (!t->ready || !t->from_rendezvous)
		return;
	if (!round_all_lost(cells, cell_count, rounds)) {
		/* Replies again: a new outage is said anew. */
		if (round_answered(cells, cell_count, rounds))
			f->unanswered_said = f->stuck_said = false;
		return;
	}
	probe_target_rendezvous(t, host, sizeof(host), &port);
	follow_ask_start(f, host, port, timeout_ms,
			 t->dest->kind == DEST_HOST,
			 t->dest->has_gid && t->dest->kind != DEST_HOST
				 ? &t->dest->gid
				 : NULL);
}
