/* Probing a multicast group: see mcast_run.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "base/diag.h"
#include "base/monotonic.h"
#include "probe/mcast_run.h"
#include "verbs/ud_endpoint.h"
#include "wire/grh.h"

#define MCAST_RUN_POLL_MS 10

struct run {
	const struct mcast_run_config *c;
	struct ud_endpoint ep;
	struct mcast_tally *t;
	uint32_t probe_id;
};

/* Who sent a reply: its GRH's source GID where it came with one, the
 * completion's source LID and QP. */
static void responder_of(const struct run *r, const uint8_t *grh_area,
			 const struct ibv_wc *wc, struct mcast_responder *who,
			 struct grh_fields *grh)
{
	struct grh_local_gids local = { &r->c->sgid, 1 };
	char err[DIAG_MSG_MAX];

	memset(who, 0, sizeof(*who));
	memset(grh, 0, sizeof(*grh));
	if (grh_decode_local(grh_area, wc->wc_flags & IBV_WC_GRH, &local, grh,
			     err, sizeof(err)) == 0 && grh->present)
		who->gid = grh->sgid;
	who->lid = wc->slid;
	who->qpn = wc->src_qp;
}

static void take_reply(struct run *r, const struct ibv_wc *wc, uint64_t now)
{
	const uint8_t *buf = ud_recv_buffer(&r->ep, wc);
	struct mcast_responder who;
	struct grh_fields grh;
	struct probe_reply reply;
	struct mcast_member *m;
	size_t index;

	if (wc->status != IBV_WC_SUCCESS || wc->byte_len < UD_GRH_BYTES ||
	    probe_decode_reply(buf + UD_GRH_BYTES,
			       wc->byte_len - UD_GRH_BYTES, &reply) !=
		    PROBE_OK ||
	    reply.header.probe_id != r->probe_id)
		return;
	responder_of(r, buf, wc, &who, &grh);
	if (mcast_tally_credit(r->t, &who, reply.header.sequence, now,
			       &index) != PROBE_CREDIT_ANSWERED)
		return;
	m = &r->t->members[index];
	mcast_member_observe(m, &reply.observed, r->c->hop_limit_sent);
	m->reply_grh_seen = grh.present;
	m->reply_hop_limit_seen = grh.hop_limit;
}

/* Takes every completion there is, waiting up to wait_ms for the first. */
static int take_completions(struct run *r, int wait_ms)
{
	struct ibv_wc wcs[32];
	int n = ud_poll(&r->ep, wcs, 32, wait_ms);

	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		if (!ud_wc_is_recv(&wcs[i]))
			continue;
		take_reply(r, &wcs[i], monotonic_ns());
		ud_repost_recv(&r->ep, &wcs[i]);
	}
	return n;
}

static int send_one(struct run *r, struct ibv_ah *ah, char *err,
		    size_t errlen)
{
	uint8_t buf[PROBE_MAX_SIZE];
	const struct mcast_run_config *c = r->c;
	uint64_t now = monotonic_ns();
	struct probe_header h = {
		.kind = PROBE_REQUEST,
		.probe_id = r->probe_id,
		.sequence = mcast_tally_sent(
			r->t, now,
			now + (uint64_t)c->timeout_ms * 1000000u),
		.send_time_ns = now,
		.asked = c->asked,
	};
	int rc;

	probe_encode_request(&h, buf, c->size);
	do {
		rc = ud_send(&r->ep, ah, MCAST_QPN, c->qkey, buf, c->size);
		if (rc == -EAGAIN)
			take_completions(r, MCAST_RUN_POLL_MS);
	} while (rc == -EAGAIN);
	if (rc) {
		snprintf(err, errlen, "cannot send to the group: %s",
			 strerror(-rc));
		return -1;
	}
	return 0;
}

static int run_probes(struct run *r, struct ibv_ah *ah, char *err,
		      size_t errlen)
{
	const struct mcast_run_config *c = r->c;
	uint64_t next = monotonic_ns(), end;

	for (uint32_t i = 0; i < c->count; i++) {
		uint64_t now = monotonic_ns();

		while (now < next) {
			int wait = (int)((next - now) / 1000000u);

			take_completions(r, wait > MCAST_RUN_POLL_MS ?
						    MCAST_RUN_POLL_MS : wait);
			now = monotonic_ns();
		}
		if (send_one(r, ah, err, errlen))
			return -1;
		next = monotonic_ns() + (uint64_t)c->interval_ms * 1000000u;
	}
	/* Every member has until the last probe's deadline. */
	end = monotonic_ns() + (uint64_t)c->timeout_ms * 1000000u;
	while (monotonic_ns() < end)
		take_completions(r, MCAST_RUN_POLL_MS);
	return 0;
}

int mcast_run(const struct mcast_run_config *c, struct mcast_tally *t,
	      char *err, size_t errlen)
{
	struct ud_config ucfg = {
		.device = c->device,
		.port_num = c->port_num,
		.pkey_index = c->pkey_index,
		.qkey = c->qkey,
		.recv_depth = 256,
		.send_depth = 64,
		.max_payload = PROBE_MAX_SIZE,
		.busy_poll = c->busy_poll,
	};
	struct run r = { .c = c, .t = t };
	struct ibv_ah_attr attr = c->attr;
	struct ibv_ah *ah;
	int rc;

	if (getrandom(&r.probe_id, sizeof(r.probe_id), 0) !=
	    sizeof(r.probe_id))
		r.probe_id = (uint32_t)monotonic_ns();
	if (mcast_tally_init(t, c->count, 1)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (ud_endpoint_open(&r.ep, &ucfg, err, errlen))
		return -1;
	ah = ibv_create_ah(r.ep.pd, &attr);
	if (!ah) {
		snprintf(err, errlen, "cannot create the group's AH: %s",
			 strerror(errno ? errno : EINVAL));
		ud_endpoint_close(&r.ep);
		return -1;
	}
	rc = run_probes(&r, ah, err, errlen);
	/* Sends still posted on the AH must complete before it goes. */
	if (ud_drain_sends(&r.ep, 1000, NULL, NULL))
		ud_endpoint_destroy_qp(&r.ep);
	ibv_destroy_ah(ah);
	ud_endpoint_close(&r.ep);
	return rc;
}
