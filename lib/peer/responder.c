/* serve's answer loop: probes in, replies out over reply AHs made by the
 * workers, the rendezvous served on the side; see responder.h. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/gid.h"
#include "base/monotonic.h"
#include "peer/responder.h"
#include "peer/reverse_mcast_ah.h"
#include "verbs/wc_failure.h"
#include "wire/grh.h"

static void reap_retired(struct responder *r);

/* Fills what the responder observed from the decoded GRH and the wc. */
static void observe(const struct responder *r, const struct ibv_wc *wc,
		    const struct grh_fields *grh, struct probe_observed *o)
{
	memset(o, 0, sizeof(*o));
	o->slid = wc->slid;
	/* On RoCE wc.sl is no SL (provider_wc_sl_is_sl): say unknown. */
	o->sl_valid = provider_wc_sl_is_sl(r->port->link_layer);
	o->sl = o->sl_valid ? wc->sl : 0;
	o->dlid_path_bits = wc->dlid_path_bits;
	o->pkey_index = wc->pkey_index;
	o->src_qp = wc->src_qp;
	o->wc_flags = wc->wc_flags;
	if (!grh->present)
		return;
	o->grh_present = true;
	o->grh_ipv4 = grh->form == GRH_FORM_IPV4;
	o->ip_version = grh->ip_version;
	o->traffic_class = grh->traffic_class;
	o->hop_limit = grh->hop_limit;
	o->flow_label = grh->flow_label;
	o->sgid = grh->sgid;
	o->dgid = grh->dgid;
}

/* Keeps what the stamps message needs until the reply's send completes.
 * Returns the send's tag, place i + 1 (0: no place free, none due). */
static uint64_t stamps_reserve(struct responder *r,
			       const struct reverse_entry *e,
			       const struct reverse_parked *p)
{
	for (size_t i = 0; i < RESPONDER_SEND_DEPTH; i++) {
		struct stamps_due *d = &r->stamps[i];

		if (d->used)
			continue;
		*d = (struct stamps_due){
			.used = true,
			.header = p->reply.header,
			.request_hw_stamp = p->request_hw_stamp,
			.remote_qpn = p->remote_qpn,
			.entry = reverse_cache_index(&r->reverse, e),
			.generation = e->generation,
		};
		return (uint64_t)i + 1;
	}
	return 0;
}

/* The set a reply belongs to, for its counts. */
static void set_key_of(const struct responder *r,
		       const struct reverse_parked *p,
		       struct request_set_key *key)
{
	request_set_key_of(&p->reply, r->port->link_layer == LINK_LAYER_IB,
			   key);
}

static enum request_unanswered unanswered_for(enum responder_drop drop)
{
	switch (drop) {
	case DROP_RATE_LIMIT: return UNANSWERED_RATE_LIMIT;
	case DROP_SEND_FAILED: return UNANSWERED_SEND_FAILED;
	default: return UNANSWERED_RESOLVING;
	}
}

static const char *drop_words(enum responder_drop drop)
{
	switch (drop) {
	case DROP_REVERSE_BUSY:
		return "no room to wait for its reply AH (parked replies or "
		       "AH workers full)";
	case DROP_REVERSE_AH:
		return "no reply AH to its sender (creation failed; tried "
		       "again after a back-off)";
	case DROP_RATE_LIMIT: return "over --max-rate";
	case DROP_SEND_FAILED: return "the reply's post failed";
	default: return responder_drop_names[drop];
	}
}

/* A valid request that gets no reply: counted by reason for serve's
 * summary and for its set (the count answer tells the prober why), and
 * named by serve -v (-vv for the rate limit, which drops by the
 * thousand). was_parked: it leaves the park. */
static void drop_reply(struct responder *r, const struct reverse_parked *p,
		       enum responder_drop drop, bool was_parked)
{
	struct request_set_key key;

	r->dropped[drop]++;
	set_key_of(r, p, &key);
	if (was_parked)
		request_counts_note_parked(&r->counts, &key, false);
	request_counts_note_unanswered(&r->counts, &key, unanswered_for(drop));
	diag_verbose(drop == DROP_RATE_LIMIT ? 2 : 1,
		     "dropped the reply to seq %u from qp 0x%x: %s",
		     p->reply.header.sequence, p->remote_qpn,
		     drop_words(drop));
}

/* Parks a reply until its AH is made; false when the park is full. */
static bool park_reply(struct responder *r, struct reverse_entry *e,
		       const struct reverse_parked *p)
{
	struct request_set_key key;

	if (!reverse_entry_park(e, p))
		return false;
	set_key_of(r, p, &key);
	request_counts_note_parked(&r->counts, &key, true);
	diag_verbose(1, "parked the reply to seq %u from qp 0x%x: its reply "
		     "AH is being made (%u parked)", p->reply.header.sequence,
		     p->remote_qpn, e->parked_count);
	return true;
}

/* Drops every reply parked on e. */
static void drop_parked(struct responder *r, struct reverse_entry *e,
			enum responder_drop drop)
{
	for (unsigned k = 0; k < e->parked_count; k++)
		drop_reply(r, &e->parked[k], drop, true);
	e->parked_count = 0;
}

/* The dwell is the request's receive completion taken to this post, on
 * our CLOCK_MONOTONIC; a reply that was parked spent it waiting for its
 * AH. A stamps message follows where both completions carry the
 * device's time and the request can cover it (probe_stamps_allowed). */
static void send_reply(struct responder *r, struct reverse_entry *e,
		       const struct reverse_parked *p, bool was_parked)
{
	uint8_t out[PROBE_REPLY_SIZE];
	struct request_set_key key;
	struct probe_reply reply = p->reply;
	size_t size = probe_reply_size_for(&reply.header);
	uint64_t tag = 0, now;

	reply.reverse_ah = e->attr;
	reply.reverse_created = true;
	reply.reverse_errno = 0;
	reply.hop_limit_sent_known = e->hop_limit_sent_known;
	reply.hop_limit_sent = e->hop_limit_sent;
	reply.responder_wait = r->config.busy_poll ? STAMP_SW_BUSY
						   : STAMP_SW_EVENT;
	reply.stamps_follow = r->ep.clock.hw && p->request_hw_valid &&
			      probe_stamps_allowed(&reply.header);
	if (reply.stamps_follow) {
		tag = stamps_reserve(r, e, p);
		reply.stamps_follow = tag != 0;
	}
	if (was_parked) {
		set_key_of(r, p, &key);
		request_counts_note_parked(&r->counts, &key, false);
	}
	now = monotonic_ns();
	reply.dwell_known = true;
	reply.dwell_ns = now > reply.responder_time_ns
				 ? now - reply.responder_time_ns : 0;
	reply.reply_ah_wait_ns = was_parked ? reply.dwell_ns : 0;
	probe_encode_reply(&reply, out, size);
	if (ud_send_tagged(&r->ep, e->ah, p->remote_qpn, r->config.qkey, out,
			   size, tag)) {
		if (tag)
			r->stamps[tag - 1].used = false;
		drop_reply(r, p, DROP_SEND_FAILED, false);
		return;
	}
	e->last_send = r->ep.sends_posted;
	r->answered++;
	set_key_of(r, p, &key);
	request_counts_note_answer(&r->counts, &key, was_parked);
	diag_verbose(2, "answered seq %u from qp 0x%x after %llu us%s",
		     reply.header.sequence, p->remote_qpn,
		     (unsigned long long)(reply.dwell_ns / 1000),
		     was_parked ? " (parked for its reply AH)" : "");
}

/* The reply's send completed: its device stamp less the request's is
 * our hardware dwell, sent on the same AH while the entry still holds
 * it (a dropped or reused entry's AH may be gone: nothing is sent). */
static void send_stamps(struct responder *r, const struct ud_completion *c)
{
	struct stamps_due *d;
	struct reverse_entry *e;
	struct probe_stamps m = { 0 };
	uint8_t out[PROBE_STAMPS_SIZE];

	if (!c->tag || c->tag > RESPONDER_SEND_DEPTH)
		return;
	d = &r->stamps[c->tag - 1];
	if (!d->used)
		return;
	d->used = false;
	e = reverse_cache_ready(&r->reverse, d->entry, d->generation);
	if (!e || c->wc.status != IBV_WC_SUCCESS)
		return;
	m.header = d->header;
	m.hw_dwell_known = c->hw_valid;
	m.hw_dwell_ns = c->hw_valid ? ud_stamp_delta_ns(&r->ep,
							d->request_hw_stamp,
							c->hw_stamp)
				    : 0;
	probe_encode_stamps(&m, out);
	if (ud_send(&r->ep, e->ah, d->remote_qpn, r->config.qkey, out,
		    sizeof(out)) == 0) {
		e->last_send = r->ep.sends_posted;
		r->stamps_sent++;
	}
}

/* Which of our GIDs the probe reached: the reply leaves from it, so its
 * netdev binds the route lookup (rxe asks with that oif) and its type
 * decides the RoCE v1 exception of provider_hop_limit_rule. */
static void reached_gid(const struct responder *r,
			const struct probe_observed *o, struct ah_job *job)
{
	const struct gid_info *g;
	long at;

	job->sgid_roce_v1 = false;
	job->netdev[0] = '\0';
	/* Of a link-local GID on several VLAN netdevs, the one of the
	 * request's VLAN (responder_vlan_reply_gid); the received IPv6
	 * header's next header (byte 6) tells RoCE v2 from v1. */
	at = responder_vlan_reply_gid(&r->vlan, o, job->grh[6],
				      &job->sgid_by_vlan);
	if (at < 0 || (size_t)at >= r->port->gid_count)
		return;
	g = &r->port->gids[at];
	job->sgid_roce_v1 = g->kind == GID_KIND_ROCE_V1;
	snprintf(job->netdev, sizeof(job->netdev), "%s", g->netdev);
	job->sgid_index = (uint8_t)g->index;
}

/* A probe that came through a group: its reply AH is built here
 * (reverse_mcast_ah_build), as ibv_init_ah_from_wc refuses a multicast
 * DGID, from the GID it chose. False for a unicast probe. */
static bool group_reply(const struct responder *r, const struct ibv_wc *wc,
			const uint8_t *grh_area, struct ah_job *job)
{
	struct grh_local_gids local = { r->local_gids, r->local_gid_count };
	const struct gid_info *chosen = NULL;
	struct grh_fields grh;
	char err[DIAG_MSG_MAX];

	if (grh_decode_local(grh_area, wc->wc_flags & IBV_WC_GRH, &local, &grh,
			     err, sizeof(err)))
		return false;
	switch (reverse_mcast_ah_build(&grh, wc, r->port->gids,
				       r->port->gid_count,
				       r->port->link_layer, r->port->port_num,
				       &job->attr, &chosen)) {
	case REVERSE_MCAST_UNICAST:
		return false;
	case REVERSE_MCAST_NO_SGID:
		job->from_group = job->no_sgid = true;
		return true;
	case REVERSE_MCAST_BUILT:
		break;
	}
	job->from_group = true;
	job->sgid_roce_v1 = chosen->kind == GID_KIND_ROCE_V1;
	snprintf(job->netdev, sizeof(job->netdev), "%s", chosen->netdev);
	return true;
}

/* A worker's job for entry e, from the request that arrived. */
static void fill_job(const struct responder *r, const struct reverse_entry *e,
		     const struct ibv_wc *wc, const uint8_t *grh_area,
		     const struct reverse_parked *p, struct ah_job *job)
{
	memset(job, 0, sizeof(*job));
	job->slot = reverse_cache_index(&r->reverse, e);
	job->generation = e->generation;
	job->epoch = r->epoch;
	job->wc = *wc;
	memcpy(job->grh, grh_area, GRH_BYTES);
	job->asked_sl = p->reply.header.asked.sl;
	job->provider = r->provider;
	if (group_reply(r, wc, grh_area, job))
		return;
	reached_gid(r, &p->reply.observed, job);
}

/* Hands a PENDING entry's AH to a worker; the reply waits parked. */
static void submit_reverse(struct responder *r, struct reverse_entry *e,
			   const struct ibv_wc *wc, const uint8_t *grh_area,
			   const struct reverse_parked *p)
{
	struct ah_job job;

	fill_job(r, e, wc, grh_area, p, &job);
	if (ah_workers_submit(&r->workers, &job)) {
		reverse_entry_forget(e);
		drop_reply(r, p, DROP_REVERSE_BUSY, false);
		return;
	}
	park_reply(r, e, p);
}

/* A READY entry past its age bound, or whose next hop moved: a worker
 * makes its successor from this request while replies go on over the
 * old AH (a busy worker queue tries again on the next request). */
static void refresh_if_due(struct responder *r, struct reverse_entry *e,
			   const struct ibv_wc *wc, const uint8_t *grh_area,
			   const struct reverse_parked *p, uint64_t now)
{
	struct ah_job job;

	if (!reverse_entry_refresh_due(e, now, r->config.ah_max_age_s *
						       1000000000ull))
		return;
	fill_job(r, e, wc, grh_area, p, &job);
	job.refresh = true;
	if (ah_workers_submit(&r->workers, &job) == 0)
		e->refreshing = true;
}

/* A new sender: a slot for its reply AH. */
static void start_reverse(struct responder *r, const struct reverse_key *key,
			  const struct ibv_wc *wc, const uint8_t *grh_area,
			  const struct reverse_parked *p)
{
	struct ibv_ah *evicted;
	struct reverse_entry *e;

	e = reverse_cache_claim(&r->reverse, key, r->ep.sends_completed,
				&evicted);
	if (evicted)
		ibv_destroy_ah(evicted);
	if (!e) {
		drop_reply(r, p, DROP_REVERSE_BUSY, false);
		return;
	}
	submit_reverse(r, e, wc, grh_area, p);
}

/* The request's receive completion, stamped as it was taken, is where
 * its dwell starts. */
static void answer(struct responder *r, const struct ud_completion *c,
		   uint8_t *buf)
{
	const struct ibv_wc *wc = &c->wc;
	const uint8_t *payload = buf + UD_GRH_BYTES;
	struct reverse_parked p = {
		.remote_qpn = wc->src_qp,
		.request_hw_valid = c->hw_valid,
		.request_hw_stamp = c->hw_stamp,
	};
	struct probe_reply *reply = &p.reply;
	enum probe_decode_error derr;
	struct grh_local_gids local = { r->local_gids, r->local_gid_count };
	struct grh_fields grh;
	struct reverse_key key;
	struct request_set_key set_key;
	struct reverse_entry *e;
	char err[DIAG_MSG_MAX];

	if (wc->byte_len < UD_GRH_BYTES) {
		r->dropped[DROP_TRUNCATED]++;
		return;
	}
	derr = probe_decode_header(payload, wc->byte_len - UD_GRH_BYTES,
				   &reply->header);
	if (derr != PROBE_OK) {
		r->dropped[responder_drop_for(derr)]++;
		return;
	}
	if (reply->header.kind != PROBE_REQUEST) {
		r->dropped[DROP_NOT_REQUEST]++;
		return;
	}
	/* A GRH we cannot read gives no key that tells its sender from
	 * others: sharing a reply AH would answer the wrong host. */
	if (grh_decode_local(buf, wc->wc_flags & IBV_WC_GRH, &local, &grh, err,
			     sizeof(err))) {
		diag_verbose(1, "undecodable GRH from qp 0x%x: %s", wc->src_qp,
			     err);
		r->dropped[DROP_BAD_GRH]++;
		return;
	}
	observe(r, wc, &grh, &reply->observed);
	responder_vlan_observe(&r->vlan, c, &reply->observed);
	reply->responder_time_ns = c->polled_ns;
	/* Counted before the rate limit: a request that arrived was not
	 * lost on the way there, answered or not. */
	set_key_of(r, &p, &set_key);
	reply->responder_received =
		request_counts_note(&r->counts, &set_key,
				    reply->responder_time_ns)->received;
	if (!reply_rate_take(&r->rate, r->config.max_rate, monotonic_ns())) {
		drop_reply(r, &p, DROP_RATE_LIMIT, false);
		return;
	}
	/* The reply AH is looked up by what arrived, before any verbs call:
	 * ibv_init_ah_from_wc scans the GID table, and ibv_create_ah may
	 * wait for a neighbour; neither belongs in every round trip. */
	reverse_key_build(wc, &grh, r->port->link_layer,
			  reply->header.asked.sl, &key);
	key.vlan_id = responder_vlan_key(&reply->observed);
	e = reverse_cache_find(&r->reverse, &key);
	switch (reply_route_for(e, reply->responder_time_ns)) {
	case REPLY_START:
		start_reverse(r, &key, wc, buf, &p);
		break;
	case REPLY_SEND:
		refresh_if_due(r, e, wc, buf, &p, reply->responder_time_ns);
		send_reply(r, e, &p, false);
		break;
	case REPLY_PARK:
		if (!park_reply(r, e, &p))
			drop_reply(r, &p, DROP_REVERSE_BUSY, false);
		break;
	case REPLY_RETRY:
		reverse_entry_retry(e);
		submit_reverse(r, e, wc, buf, &p);
		break;
	case REPLY_BACK_OFF:
		drop_reply(r, &p, DROP_REVERSE_AH, false);
		break;
	}
}

static void say_reverse_failure(const struct ah_job *job, unsigned failures)
{
	char gid[GID_TEXT_MAX];

	if (job->attr.is_global)
		gid_format(&job->attr.grh.dgid, gid, sizeof(gid));
	else
		snprintf(gid, sizeof(gid), "lid %u", job->wc.slid);
	diag_verbose(1, "no reverse AH to %s (qp 0x%x): %s%s; tried again "
		     "in %llu ms", gid, job->wc.src_qp,
		     job->init_failed ? "ibv_init_ah_from_wc: " : "",
		     job->no_sgid ? "a probe through a group, and this port "
				    "has no GID of the sender's type and "
				    "family to answer from"
		     : job->error ? strerror(job->error)
				  : "the driver gave no reason",
		     (unsigned long long)(reverse_backoff_ns(failures) /
					  1000000));
}

/* The once-more of reverse_retry_at_once_wanted: false when not wanted
 * or the workers are too busy to take it. */
static bool retry_at_once(struct responder *r, struct reverse_entry *e,
			  struct ah_job *job)
{
	if (!reverse_retry_at_once_wanted(e))
		return false;
	reverse_entry_retry(e);
	job->generation = e->generation;
	job->ah = NULL;
	job->error = 0;
	job->init_failed = false;
	if (ah_workers_submit(&r->workers, job) == 0)
		return true;
	reverse_entry_failed(e, EAGAIN, false, monotonic_ns());
	return false;
}

/* Where the new AH's MAC came from, for the neighbour watch. */
static void note_made(struct reverse_entry *e, const struct ah_job *job,
		      uint64_t now)
{
	e->made_ns = now;
	e->moved = false;
	e->refreshing = false;
	e->hop_limit_sent_known = job->hop_limit_sent_known;
	e->hop_limit_sent = job->hop_limit_sent;
	if (!job->next_hop_known || !e->next_hop_known ||
	    memcmp(e->next_hop, job->next_hop, sizeof(e->next_hop)) != 0)
		e->next_hop_mac_len = 0;	/* another neighbour */
	e->next_hop_known = job->next_hop_known;
	memcpy(e->next_hop, job->next_hop, sizeof(e->next_hop));
}

/* A successor AH: the old one retires (destroyed once its sends
 * completed), or, with no room to retire it, the new one goes. */
static void take_refresh_result(struct responder *r, struct ah_job *job)
{
	struct reverse_entry *e =
		reverse_cache_ready(&r->reverse, job->slot, job->generation);

	switch (ah_refresh_fate_of(e, job->epoch, r->epoch, job->ah != NULL)) {
	case AH_REFRESH_STALE:
		if (job->ah)
			ibv_destroy_ah(job->ah);
		return;
	case AH_REFRESH_KEEP_OLD:
		diag_verbose(1, "reply AH to qp 0x%x not made again (%s): the "
			     "old one goes on", job->wc.src_qp,
			     job->error ? strerror(job->error) : "no reason");
		e->refreshing = false;
		e->moved = false;
		e->made_ns = monotonic_ns();
		return;
	case AH_REFRESH_SWAP:
		reap_retired(r);
		if (r->retired_count == RESPONDER_AH_CACHE) {
			ibv_destroy_ah(job->ah);
			e->refreshing = false;
			return;
		}
		r->retired[r->retired_count++] = (struct reverse_retired){
			.ah = e->ah, .last_send = e->last_send,
		};
		e->ah = job->ah;
		e->attr = job->attr;
		note_made(e, job, monotonic_ns());
		r->ahs_refreshed++;
		diag_verbose(1, "reply AH to qp 0x%x made again (its age or "
			     "its next hop's change)", job->wc.src_qp);
		return;
	}
}

static void take_reverse_result(struct responder *r, struct ah_job *job)
{
	struct reverse_entry *e =
		reverse_cache_pending(&r->reverse, job->slot, job->generation);
	uint64_t now = monotonic_ns();

	if (job->refresh) {
		take_refresh_result(r, job);
		return;
	}
	switch (ah_result_fate_of(e, job->epoch, r->epoch, job->ah != NULL)) {
	case AH_RESULT_STALE:
		if (job->ah)
			ibv_destroy_ah(job->ah);
		if (e) {
			drop_parked(r, e, DROP_REVERSE_AH);
			reverse_entry_forget(e);
		}
		return;
	case AH_RESULT_FAILED:
		r->reverse.failed++;
		reverse_entry_failed(e, job->error, job->init_failed, now);
		say_reverse_failure(job, e->failures);
		if (retry_at_once(r, e, job))
			return;
		drop_parked(r, e, DROP_REVERSE_AH);
		return;
	case AH_RESULT_READY:
		r->reverse.created++;
		reverse_entry_ready(e, job->ah, &job->attr);
		note_made(e, job, now);
		if (e->parked_count)
			diag_verbose(1, "reply AH to qp 0x%x made: sending the "
				     "%u replies parked for it",
				     job->wc.src_qp, e->parked_count);
		for (unsigned k = 0; k < e->parked_count; k++)
			send_reply(r, e, &e->parked[k], true);
		e->parked_count = 0;
		return;
	}
}

/* Results of the AH workers: send what was parked, or remember the
 * failure for its back-off. */
static void take_reverse_results(struct responder *r)
{
	struct ah_job jobs[16];
	size_t n;

	while ((n = ah_workers_take(&r->workers, jobs, 16)) > 0)
		for (size_t i = 0; i < n; i++)
			take_reverse_result(r, &jobs[i]);
}

/* A failed completion: counted while the QP works, the end of serve when
 * it does not (wc_failure_judge). */
static void completion_failed(struct responder *r, const struct ibv_wc *wc)
{
	enum ibv_qp_state state = IBV_QPS_ERR;
	bool known = ud_qp_state(&r->ep, &state);
	bool recv = ud_wc_is_recv(wc);

	if (wc_failure_judge(wc->status, recv, known, state) ==
	    WC_FAILURE_FATAL) {
		if (!r->fatal[0])
			wc_failure_describe(wc->status, recv, known, state,
					    r->dev->name, r->fatal,
					    sizeof(r->fatal));
		return;
	}
	if (recv)
		r->dropped[DROP_RECV_ERROR]++;
	else
		r->send_errors++;
}

static bool count_reached(const struct responder *r)
{
	return r->config.count && r->answered >= r->config.count;
}

static void handle_completions(struct responder *r)
{
	struct ud_completion comps[RESPONDER_POLL_BATCH];
	int n;

	while (!r->fatal[0] &&
	       (n = ud_poll_stamped(&r->ep, comps, RESPONDER_POLL_BATCH, 0)) >
		       0) {
		responder_note_receives_taken(r, comps, n);
		for (int i = 0; i < n; i++) {
			const struct ibv_wc *wc = &comps[i].wc;
			bool recv = ud_wc_is_recv(wc);

			if (!recv)
				send_stamps(r, &comps[i]);
			if (wc->status != IBV_WC_SUCCESS) {
				completion_failed(r, wc);
				if (r->fatal[0])
					return;
			} else if (recv) {
				answer(r, &comps[i], ud_recv_buffer(&r->ep, wc));
			}
			if (recv && ud_repost_recv(&r->ep, wc))
				r->repost_failed++;
			else if (recv)
				rq_drop_note_posted(&r->rq_drops);
		}
		if (count_reached(r))
			return;
	}
}

void responder_fill_info(struct responder *r)
{
	struct responder_info *info = &r->info;

	memset(info, 0, sizeof(*info));
	info->version = 1;
	snprintf(info->device, sizeof(info->device), "%s", r->dev->name);
	info->port_num = r->port->port_num;
	info->lid = r->port->lid;
	info->qpn = r->ep.qp->qp_num;
	info->qkey = r->config.qkey;
	snprintf(info->link_layer, sizeof(info->link_layer), "%s",
		 link_layer_name(r->port->link_layer));
	info->active_mtu = r->port->active_mtu;
	for (size_t i = 0;
	     i < r->port->gid_count && info->gid_count < RENDEZVOUS_MAX_GIDS;
	     i++) {
		info->gids[info->gid_count].index = r->port->gids[i].index;
		info->gids[info->gid_count].gid = r->port->gids[i].gid;
		snprintf(info->gids[info->gid_count].type,
			 sizeof(info->gids[0].type), "%s",
			 gid_kind_name(r->port->gids[i].kind));
		info->gid_count++;
	}
}

int responder_load_local_gids(struct responder *r)
{
	union ibv_gid *gids = calloc(r->port->gid_count + 1, sizeof(*gids));

	if (!gids)
		return -1;
	for (size_t i = 0; i < r->port->gid_count; i++)
		gids[i] = r->port->gids[i].gid;
	free(r->local_gids);
	r->local_gids = gids;
	r->local_gid_count = r->port->gid_count;
	return responder_vlan_load(&r->vlan, r->port, &r->ep, r->provider);
}

static void reap_retired(struct responder *r)
{
	size_t kept = 0;

	for (size_t i = 0; i < r->retired_count; i++) {
		if (reverse_retired_done(&r->retired[i], r->ep.sends_completed))
			ibv_destroy_ah(r->retired[i].ah);
		else
			r->retired[kept++] = r->retired[i];
	}
	r->retired_count = kept;
}

/* Reply AHs made before a port or GID change may point the wrong way:
 * take them out of the cache (those being made are discarded when they
 * come back, by the epoch), and destroy each once its sends completed. */
void responder_drop_reverse_ahs(struct responder *r)
{
	size_t n;

	do {
		if (r->retired_count == RESPONDER_AH_CACHE) {
			/* Rare: a second change while the first one's AHs
			 * still have sends out. Wait for them here. */
			ud_drain_sends(&r->ep, 1000, NULL, NULL);
			reap_retired(r);
			if (r->retired_count == RESPONDER_AH_CACHE)
				break;
		}
		n = reverse_cache_drop_ready(
			&r->reverse, r->retired + r->retired_count,
			RESPONDER_AH_CACHE - r->retired_count);
		r->retired_count += n;
	} while (n > 0);
	r->epoch++;
}

/* How long busy polling spins on the CQ alone before the loop's other
 * duties (AH results, the rendezvous, events, signals) get a look. */
#define BUSY_SLICE_NS 1000000u

static void spin_on_cq(struct responder *r)
{
	uint64_t until = monotonic_ns() + BUSY_SLICE_NS;

	do {
		handle_completions(r);
	} while (!r->fatal[0] && !count_reached(r) && monotonic_ns() < until);
}

int responder_run(struct responder *r, const volatile sig_atomic_t *stop_signal,
		  const char **why)
{
	uint64_t end_ns = r->config.duration_s
				  ? monotonic_ns() +
					    r->config.duration_s * 1000000000ull
				  : 0;

	reply_rate_start(&r->rate, monotonic_ns());
	for (;;) {
		/* The neighbour watch is read when poll says it has news
		 * (a negative fd, no watch, is left alone by poll). */
		struct pollfd fds[4 + 1 + RENDEZVOUS_PENDING_MAX] = {
			{ .fd = ud_event_fd(&r->ep), .events = POLLIN },
			{ .fd = ah_workers_fd(&r->workers), .events = POLLIN },
			{ .fd = r->ep.context->async_fd, .events = POLLIN },
			{ .fd = r->neigh_fd, .events = POLLIN },
		};
		size_t nfds = 4;
		uint64_t now = monotonic_ns();
		int timeout, n, held;

		*why = responder_stop_reason(r->fatal[0], *stop_signal,
					     r->config.count, r->answered,
					     end_ns, now);
		if (*why)
			return r->fatal[0] ? -1 : 0;
		timeout = responder_wait_ms(end_ns, now);
		if (r->config.busy_poll) {
			/* The CQ is never slept on: other fds are looked
			 * at between spins, without waiting. */
			fds[0].fd = -1;
			timeout = 0;
			spin_on_cq(r);
		} else if (ud_arm(&r->ep)) {
			snprintf(r->fatal, sizeof(r->fatal), "cannot arm the "
				 "completion queue of %s", r->dev->name);
			continue;
		}
		handle_completions(r);
		take_reverse_results(r);
		reap_retired(r);
		now = monotonic_ns();
		if (rq_drop_sample_due(&r->rq_drops, now))
			responder_sample_rq_drops(r, now);
		if (r->fatal[0] || count_reached(r))
			continue;
		nfds += rendezvous_server_pollfds(&r->rendezvous, fds + 4,
						  1 + RENDEZVOUS_PENDING_MAX);
		held = rendezvous_server_timeout_ms(&r->rendezvous,
						    monotonic_ns());
		if (held >= 0 && held < timeout)
			timeout = held;
		n = poll(fds, nfds, timeout);
		if (n < 0 && errno != EINTR) {
			snprintf(r->fatal, sizeof(r->fatal), "waiting for "
				 "completions failed: %s", strerror(errno));
			continue;
		}
		/* Held rendezvous connections have deadlines: served on
		 * every wake-up, a timeout included. */
		rendezvous_server_service(&r->rendezvous, &r->info,
					  monotonic_ns());
		if (n <= 0)
			continue;
		if (fds[0].revents & POLLIN)
			ud_consume_event(&r->ep);
		if (fds[2].revents & POLLIN)
			responder_handle_async_event(r);
		if (fds[3].revents & POLLIN)
			responder_watch_neighbours(r);
	}
}

int responder_open(struct responder *r, char *err, size_t len)
{
	struct ud_config config = {
		.device = r->dev->name,
		.port_num = r->port->port_num,
		.pkey_index = r->pkey_index,
		.qkey = r->config.qkey,
		.recv_depth = r->rq_depth,
		.send_depth = RESPONDER_SEND_DEPTH,
		.max_payload = PROBE_MAX_SIZE,
		.busy_poll = r->config.busy_poll,
		.hw_stamps = true,
		/* VLANs exist on Ethernet only. */
		.want_cvlan = r->port->link_layer == LINK_LAYER_ETHERNET,
		/* Without device stamps a reply's completion is only a slot
		 * back (an event-driven serve would be woken for each). */
		.signal_every = RESPONDER_SEND_DEPTH / 4,
	};
	struct ibv_device_attr attr;
	struct provider_facts facts;
	char driver[64];
	uint32_t seed;
	int flags;

	r->neigh_fd = -1;
	if (!r->config.ah_max_age_s)
		r->config.ah_max_age_s = RESPONDER_AH_MAX_AGE_S;
	if (responder_pick_rq_depth(r, err, len))
		return -1;
	config.recv_depth = r->rq_depth;
	if (ud_endpoint_open(&r->ep, &config, err, len))
		return -1;
	rq_drop_history_init(&r->rq_drops,
			     responder_rq_drop_counter(r), r->rq_depth);
	responder_sample_rq_drops(r, monotonic_ns());
	/* Whose hop limit our replies leave with depends on the provider
	 * (provider_hop_limit_rule), as the prober's does. */
	if (ibv_query_device(r->ep.context, &attr))
		attr.vendor_id = 0;
	provider_facts_read(r->dev->name, attr.vendor_id, driver,
			    sizeof(driver), &facts);
	r->provider = provider_identify(&facts);
	if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = (uint32_t)monotonic_ns();
	if (reverse_cache_init(&r->reverse, RESPONDER_AH_CACHE) ||
	    request_counts_init(&r->counts, REQUEST_COUNTS_MAX, seed) ||
	    responder_load_local_gids(r)) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	if (ah_workers_start(&r->workers, r->ep.context, r->ep.pd,
			     r->port->port_num, r->port->link_layer, err, len))
		return -1;
	responder_open_neighbour_watch(r);
	flags = fcntl(r->ep.context->async_fd, F_GETFL);
	if (flags < 0 ||
	    fcntl(r->ep.context->async_fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		snprintf(err, len, "cannot watch %s's events: %s",
			 r->dev->name, strerror(errno));
		return -1;
	}
	return 0;
}

/* The rendezvous' count question (responder_count_answer), with the
 * receive drops since the run began, read afresh. */
static void answer_count(void *ctx, const struct rendezvous_count_question *q,
			 struct rendezvous_count_answer *a)
{
	struct responder *r = ctx;
	uint64_t now = monotonic_ns(), age = q->age_ms * 1000000ull;

	responder_count_answer(&r->counts, r->port->link_layer == LINK_LAYER_IB,
			       q, now, a);
	responder_sample_rq_drops(r, now);
	if (a->state == RENDEZVOUS_COUNT_KNOWN)
		rq_drop_history_since(&r->rq_drops, now > age ? now - age : 0,
				      &a->rq_drops);
	diag_verbose(2, "count question for run 0x%08x qp 0x%x: %s %u/%u",
		     q->probe_id, q->qpn,
		     a->state == RENDEZVOUS_COUNT_KNOWN ? "received/answered"
							: "forgotten",
		     a->received, a->answered);
}

void responder_start_rendezvous(struct responder *r, int listen_fd)
{
	rendezvous_server_init(&r->rendezvous, listen_fd, answer_count, r);
	responder_fill_info(r);
}

void responder_stop_rendezvous(struct responder *r)
{
	rendezvous_server_close(&r->rendezvous, &r->info);
}

/* Workers first (one may still be creating an AH), then the AHs: after
 * the sends that use them, or after the QP when those never finish. */
void responder_close(struct responder *r)
{
	struct reverse_retired left[32];
	size_t n;

	ah_workers_stop(&r->workers);
	if (r->neigh_fd >= 0)
		close(r->neigh_fd);
	r->neigh_fd = -1;
	if (r->ep.qp && ud_drain_sends(&r->ep, 1000, NULL, NULL))
		ud_endpoint_destroy_qp(&r->ep);
	for (size_t i = 0; i < r->retired_count; i++)
		ibv_destroy_ah(r->retired[i].ah);
	r->retired_count = 0;
	while (r->reverse.entries &&
	       (n = reverse_cache_drop_ready(&r->reverse, left, 32)) > 0)
		for (size_t i = 0; i < n; i++)
			ibv_destroy_ah(left[i].ah);
	reverse_cache_free(&r->reverse);
	ud_endpoint_close(&r->ep);
	free(r->local_gids);
	r->local_gids = NULL;
	responder_vlan_free(&r->vlan);
	request_counts_free(&r->counts);
}
