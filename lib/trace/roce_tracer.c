/* The RoCE v2 trace engine: see roce_tracer.h. The datagrams are probe
 * requests as serve reads them, in UD SEND_ONLYs to the responder's QP,
 * sealed with the ICRC of the IP header the kernel will write. */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/gid.h"
#include "base/monotonic.h"
#include "trace/icmp_raw.h"
#include "trace/roce_sock.h"
#include "trace/roce_tracer.h"

void roce_tracer_init(struct roce_tracer *tr, struct ud_endpoint *ep,
		      uint32_t probe_id, unsigned max_hops, unsigned queries,
		      uint32_t wait_ms)
{
	memset(tr, 0, sizeof(*tr));
	tr->ep = ep;
	tr->probe_id = probe_id;
	tr->nonce = (uint8_t)(probe_id >> 8);
	tr->max_hops = max_hops;
	tr->queries = queries;
	tr->wait_ms = wait_ms;
	tr->max_in_flight = ROCE_SWEEP_DEFAULT_IN_FLIGHT;
	tr->rate = ROCE_SWEEP_DEFAULT_RATE;
	tr->raw_fd[0] = tr->raw_fd[1] = -1;
}

void roce_tracer_close(struct roce_tracer *tr)
{
	for (int i = 0; i < 2; i++)
		if (tr->raw_fd[i] >= 0) {
			close(tr->raw_fd[i]);
			tr->raw_fd[i] = -1;
		}
}

void roce_gid_sockaddr(const union ibv_gid *gid, struct sockaddr_storage *sa)
{
	memset(sa, 0, sizeof(*sa));
	if (gid_is_ipv4_mapped(gid)) {
		struct sockaddr_in *in = (struct sockaddr_in *)sa;

		in->sin_family = AF_INET;
		memcpy(&in->sin_addr, gid->raw + 12, 4);
		return;
	}
	((struct sockaddr_in6 *)sa)->sin6_family = AF_INET6;
	memcpy(&((struct sockaddr_in6 *)sa)->sin6_addr, gid->raw, 16);
}

void roce_ip_fields_of(const struct sockaddr_storage *src,
		       const struct sockaddr_storage *dst,
		       struct roce_ip_fields *ip)
{
	memset(ip, 0, sizeof(*ip));
	ip->ipv6 = src->ss_family == AF_INET6;
	if (!ip->ipv6) {
		memcpy(ip->src, &((const struct sockaddr_in *)src)->sin_addr, 4);
		memcpy(ip->dst, &((const struct sockaddr_in *)dst)->sin_addr, 4);
	} else {
		memcpy(ip->src, &((const struct sockaddr_in6 *)src)->sin6_addr,
		       16);
		memcpy(ip->dst, &((const struct sockaddr_in6 *)dst)->sin6_addr,
		       16);
	}
}

bool roce_error_answer(const struct icmp_err *e, struct roce_answer *a)
{
	memset(a, 0, sizeof(*a));
	a->reply_ttl = e->reply_ttl;
	a->seen_tclass = a->seen_hop_limit = -1;
	a->icmp_type = e->type;
	a->icmp_code = e->code;
	a->mtu = e->mtu;
	if (!e->has_offender)
		snprintf(a->from, sizeof(a->from), "?");
	else if (e->offender.ss_family == AF_INET)
		inet_ntop(AF_INET,
			  &((const struct sockaddr_in *)&e->offender)->sin_addr,
			  a->from, sizeof(a->from));
	else
		inet_ntop(AF_INET6,
			  &((const struct sockaddr_in6 *)&e->offender)
				   ->sin6_addr,
			  a->from, sizeof(a->from));
	switch (e->kind) {
	case ICMP_ERR_TIME_EXCEEDED:
		a->kind = ROCE_ANSWER_TIME_EXCEEDED;
		return true;
	case ICMP_ERR_PORT_UNREACHABLE:
		a->kind = ROCE_ANSWER_PORT_UNREACHABLE;
		return true;
	case ICMP_ERR_TOO_BIG:
		a->kind = ROCE_ANSWER_TOO_BIG;
		return true;
	case ICMP_ERR_UNREACHABLE:
		a->kind = ROCE_ANSWER_UNREACHABLE;
		return true;
	case ICMP_ERR_LOCAL_EMSGSIZE:
	case ICMP_ERR_OTHER:
		break;
	}
	return false;
}

bool roce_quote_is_ours(const struct icmp_quote *q,
			const struct sockaddr_storage *dst, uint16_t udp_sport,
			uint32_t dest_qpn, uint8_t nonce)
{
	const void *addr = dst->ss_family == AF_INET
		? (const void *)&((const struct sockaddr_in *)dst)->sin_addr
		: (const void *)&((const struct sockaddr_in6 *)dst)->sin6_addr;
	uint8_t quoted_nonce, hop, query;

	if (q->ipv6 != (dst->ss_family == AF_INET6) || !q->has_udp ||
	    memcmp(q->dst, addr, q->ipv6 ? 16 : 4) != 0 ||
	    q->dport != ROCE_V2_UDP_PORT || q->sport != udp_sport)
		return false;
	if (!q->has_bth)
		return true;
	roce_probe_psn_split(q->psn, &quoted_nonce, &hop, &query);
	return q->opcode == ROCE_OPCODE_UD_SEND_ONLY &&
	       q->dest_qpn == dest_qpn && quoted_nonce == nonce;
}

/* The raw ICMP socket of a family, opened on first use. */
static int raw_socket(struct roce_tracer *tr, int family)
{
	int i = family == AF_INET6;

	if (!tr->raw_tried[i]) {
		tr->raw_tried[i] = true;
		tr->raw_fd[i] = icmp_raw_open(family);
		if (tr->raw_fd[i] < 0)
			diag_verbose(1, "no raw ICMP socket (%s): the traffic "
				     "class is known at the responder only, "
				     "not per hop (that needs CAP_NET_RAW)",
				     strerror(errno));
	}
	return tr->raw_fd[i];
}

enum roce_error_place roce_error_place(const struct icmp_err *e,
				       const struct sockaddr_storage *target,
				       uint32_t dest_qpn, uint8_t nonce,
				       const uint32_t *tags, size_t n,
				       uint32_t *tag, bool *named)
{
	uint32_t psns[ROCE_TRACE_MAX_HOPS * ROCE_TRACE_MAX_QUERIES] = { 0 };
	int i;

	if (n > sizeof(psns) / sizeof(psns[0]))
		n = sizeof(psns) / sizeof(psns[0]);
	for (size_t k = 0; k < n; k++)
		psns[k] = roce_probe_psn(nonce, (uint8_t)(tags[k] >> 8),
					 (uint8_t)(tags[k] & 0xff));
	i = icmp_errqueue_match(e, target, dest_qpn, psns, n);
	if (i >= 0) {
		*tag = tags[i];
		*named = e->has_bth;
		return ROCE_ERROR_PLACED;
	}
	/* Not placed: ours all the same when the quote says nothing
	 * against it (icmp_errqueue_match's checks) and names no query. */
	if (e->has_bth || n < 2 || !e->has_dest ||
	    !icmp_sockaddr_equal(&e->dest, target, true) ||
	    (e->quote_len >= 1 &&
	     e->quote_opcode != ROCE_OPCODE_UD_SEND_ONLY) ||
	    (e->quote_len >= 8 && e->quote_dest_qpn != dest_qpn))
		return ROCE_ERROR_NOT_OURS;
	return ROCE_ERROR_UNPLACED;
}

uint32_t roce_query_sequence(size_t flow, uint32_t tag)
{
	return (uint32_t)(flow & 0xffff) << 16 | (tag & 0xffff);
}

/* When the query of tag went (its latest send). */
static uint64_t query_sent_ns(const struct roce_trace *t, uint32_t tag)
{
	unsigned hop = tag >> 8, q = tag & 0xff;

	if (hop < t->settings.first_hop ||
	    hop - t->settings.first_hop >= t->hop_count ||
	    q >= ROCE_TRACE_MAX_QUERIES)
		return 0;
	return t->hops[hop - t->settings.first_hop].sent_ns[q];
}

/* One run: the tracer, its flows and their schedule. */
struct run {
	struct roce_tracer *tr;
	struct roce_flow *flows;
	struct roce_sweep sweep;
	struct pollfd *pfd;	/* running flows' sockets, the QP, raw */
};

/* Reads a raw socket: each quote of ours is the traffic class its router
 * saw, filed under its flow (the destination and source port: one
 * running flow has them) and the query its PSN names (the only one in
 * flight when the router quoted no BTH). Other quotes are dropped. */
static void take_quotes(struct run *r, int raw_fd, int family, size_t also)
{
	struct icmp_quote q;
	bool decoded;

	if (raw_fd < 0)
		return;
	while (icmp_raw_read(raw_fd, family, &q, &decoded) > 0) {
		struct roce_flow *f = NULL;
		uint8_t nonce, hop, query;
		uint32_t tag;

		for (size_t i = 0; decoded && i <= r->sweep.running_count;
		     i++) {
			size_t k = i < r->sweep.running_count
					   ? r->sweep.running[i]
					   : also;
			struct roce_flow *g;

			if (k >= r->sweep.count)
				continue;
			g = &r->flows[k];

			if (g->sock.dest.ss_family == family &&
			    roce_quote_is_ours(&q, &g->sock.dest, g->udp_sport,
					       g->dest_qpn, r->tr->nonce)) {
				f = g;
				break;
			}
		}
		if (!f)
			continue;
		if (q.has_bth)
			roce_probe_psn_split(q.psn, &nonce, &hop, &query);
		else if (roce_trace_only_in_flight(&f->trace, &tag)) {
			hop = (uint8_t)(tag >> 8);
			query = (uint8_t)(tag & 0xff);
		} else
			continue;
		if (hop < 1 || hop > ROCE_TRACE_MAX_HOPS ||
		    query >= ROCE_TRACE_MAX_QUERIES)
			continue;
		f->quoted[hop - 1][query] =
			(struct tclass_seen){ .known = true,
					      .tclass = q.tclass };
	}
}

/* Both raw sockets' quotes: for the running flows, and for flow also
 * (one that just ended: its last router's quote may trail the error
 * queue's copy), unless SIZE_MAX. */
static void take_all_quotes(struct run *r, size_t also)
{
	take_quotes(r, r->tr->raw_fd[0], AF_INET, also);
	take_quotes(r, r->tr->raw_fd[1], AF_INET6, also);
}

/* Sends query step of flow k: a probe request as serve reads it, in a UD
 * SEND_ONLY to the responder's QP, sealed with the ICRC of the IP header
 * the kernel will write. */
static int send_query(const struct roce_tracer *tr, struct roce_flow *f,
		      size_t k, const struct roce_step *step, char *err,
		      size_t errlen)
{
	struct roce_trace *t = &f->trace;
	unsigned i = step->hop_limit - t->settings.first_hop;
	uint8_t payload[PROBE_REQUEST_MIN_SIZE], dgram[ROCE_UD_DATAGRAM_MAX];
	uint8_t iph[ROCE_IPV6_HEADER_BYTES], udph[ROCE_UDP_HEADER_BYTES];
	struct roce_ud_fields uf = {
		.dest_qpn = f->dest_qpn,
		.qkey = f->qkey,
		.src_qpn = tr->ep->qp->qp_num,
		.psn = roce_probe_psn(tr->nonce, (uint8_t)step->hop_limit,
				      (uint8_t)step->query),
		.pkey = 0xffff,
	};
	struct probe_header h = {
		.kind = PROBE_REQUEST,
		.probe_id = tr->probe_id,
		.sequence = roce_query_sequence(k, step->tag),
		.asked = f->asked,
	};
	struct roce_ip_fields ip;
	enum roce_ud_refusal why;
	size_t dlen, iplen;

	h.asked.hop_limit = (uint8_t)step->hop_limit;
	h.send_time_ns = monotonic_ns();
	/* The round trip runs from here, not from when it was scheduled
	 * (the error queue read in between). */
	if (i < t->hop_count && step->query < ROCE_TRACE_MAX_QUERIES)
		t->hops[i].sent_ns[step->query] = h.send_time_ns;
	probe_encode_request(&h, payload, sizeof(payload));
	why = roce_ud_encode(&uf, payload, sizeof(payload), dgram,
			     sizeof(dgram), &dlen);
	if (why != ROCE_UD_OK) {
		snprintf(err, errlen, "%s", roce_ud_refusal_text(why));
		return -1;
	}
	roce_ip_fields_of(&f->sock.source, &f->sock.dest, &ip);
	ip.traffic_class = f->asked.traffic_class;
	ip.hop_limit = (uint8_t)step->hop_limit;
	ip.flow_label = f->flow_label;
	roce_ipv4_ident_predict(IP_PMTUDISC_PROBE, false, &ip.ipv4_id,
				&ip.ipv4_df);
	iplen = roce_ip_header_predict(&ip, dlen, iph,
				       sizeof(iph));
	roce_udp_header_build(f->udp_sport, dlen, udph);
	roce_icrc_seal(iph, iplen, udph, dgram, dlen);
	if (roce_sock_send(f->fd, &f->sock.dest, step->hop_limit, dgram,
			   dlen)) {
		snprintf(err, errlen, "cannot send: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* A reply of serve to one of our queries, as the destination's answer:
 * its line gets the reply's observed traffic class and hop limit and the
 * address it was sent to. */
static struct roce_answer reply_answer(const struct probe_reply *rep,
				       uint64_t sent_ns)
{
	struct roce_answer a = {
		.kind = ROCE_ANSWER_REPLY,
		.reply_ttl = -1,
		.seen_tclass = rep->observed.traffic_class,
		.seen_hop_limit = rep->observed.hop_limit,
	};

	a.rtt_ns = monotonic_ns() - sent_ns;
	gid_format_address(&rep->observed.dgid, a.from, sizeof(a.from));
	return a;
}

/* Calls take for every reply of this run on our QP (reposting every
 * receive); returns the sum of what take returned. */
static unsigned each_reply(const struct roce_tracer *tr,
			   unsigned (*take)(void *ctx,
					    const struct probe_reply *rep),
			   void *ctx)
{
	struct ibv_wc wcs[16];
	unsigned taken = 0;
	int n;

	while ((n = ud_poll(tr->ep, wcs, 16, 0)) > 0)
		for (int i = 0; i < n; i++) {
			const struct ibv_wc *wc = &wcs[i];
			struct probe_reply rep;
			const uint8_t *buf;

			if (!ud_wc_is_recv(wc))
				continue;
			buf = ud_recv_buffer(tr->ep, wc);
			if (wc->status == IBV_WC_SUCCESS &&
			    wc->byte_len >= UD_GRH_BYTES &&
			    probe_decode_reply(buf + UD_GRH_BYTES,
					       wc->byte_len - UD_GRH_BYTES,
					       &rep) == PROBE_OK &&
			    rep.header.probe_id == tr->probe_id)
				taken += take(ctx, &rep);
			ud_repost_recv(tr->ep, wc);
		}
	return taken;
}

/* serve's answer to a query of the sweep: the sequence names the flow
 * and the query. */
static unsigned take_sweep_reply(void *ctx, const struct probe_reply *rep)
{
	struct run *r = ctx;
	uint32_t tag = rep->header.sequence & 0xffff;

	for (size_t j = 0; j < r->sweep.running_count; j++) {
		size_t k = r->sweep.running[j];
		struct roce_flow *f = &r->flows[k];
		struct roce_answer a;

		if (roce_query_sequence(k, tag) != rep->header.sequence)
			continue;
		a = reply_answer(rep, query_sent_ns(&f->trace, tag));
		if (roce_trace_answer(&f->trace, tag, &a)) {
			roce_trace_answers_tagged(&f->trace);
			return 1;
		}
		return 0;
	}
	return 0;
}

/* Every reply on our QP, each the destination's line of its flow.
 * Returns how many were taken. */
static unsigned take_replies(struct run *r)
{
	return each_reply(r->tr, take_sweep_reply, r);
}

/* Reads flow f's error queue into its trace: each error placed with the
 * query it answers (roce_error_place). Returns how many were taken. */
static unsigned take_errors(const struct roce_tracer *tr, struct roce_flow *f)
{
	struct sockaddr_storage target = f->sock.dest;
	uint32_t tags[ROCE_TRACE_MAX_HOPS * ROCE_TRACE_MAX_QUERIES];
	struct roce_sock_error raw;
	struct icmp_err e;
	struct roce_answer a;
	unsigned taken = 0;

	if (target.ss_family == AF_INET)
		((struct sockaddr_in *)&target)->sin_port =
			htons(ROCE_V2_UDP_PORT);
	else
		((struct sockaddr_in6 *)&target)->sin6_port =
			htons(ROCE_V2_UDP_PORT);
	while (f->fd >= 0 && roce_sock_read_error(f->fd, &raw) > 0) {
		size_t n = roce_trace_in_flight_tags(
			&f->trace, tags, sizeof(tags) / sizeof(tags[0]));
		uint32_t tag = 0;
		bool named = false;

		if (icmp_errqueue_decode(raw.control, raw.control_len,
					 &raw.name, raw.name_len, raw.quote,
					 raw.quote_len, &e) ||
		    !roce_error_answer(&e, &a))
			continue;
		switch (roce_error_place(&e, &target, f->dest_qpn, tr->nonce,
					 tags, n, &tag, &named)) {
		case ROCE_ERROR_PLACED:
			a.rtt_ns = monotonic_ns() -
				   query_sent_ns(&f->trace, tag);
			if (roce_trace_answer(&f->trace, tag, &a))
				taken++;
			if (named)
				roce_trace_answers_tagged(&f->trace);
			break;
		case ROCE_ERROR_UNPLACED:
			roce_trace_answer_unplaced(&f->trace);
			taken++;
			break;
		case ROCE_ERROR_NOT_OURS:
			break;
		}
	}
	return taken;
}

/* The flow's UDP socket: from the source GID's address and netdev to the
 * destination's address, carrying the flow label of the provider's own
 * packets where it can (f->fidelity says); -1 with f->error. */
static int open_flow_socket(struct roce_flow *f, enum provider provider,
			    struct roce_sock_params *sp)
{
	int fd;

	*sp = (struct roce_sock_params){
		.udp_sport = f->udp_sport,
		.traffic_class = f->asked.traffic_class,
	};
	if (!f->sgid || !f->sgid->netdev[0]) {
		snprintf(f->error, sizeof(f->error), "the source GID (index "
			 "%u) has no netdev to send from", f->sgid_index);
		return -1;
	}
	roce_gid_sockaddr(&f->sgid->gid, &sp->source);
	roce_gid_sockaddr(&f->dgid, &sp->dest);
	if (sp->source.ss_family != sp->dest.ss_family) {
		snprintf(f->error, sizeof(f->error), "the source GID and the "
			 "destination GID are of different IP versions");
		return -1;
	}
	sp->ifname = f->sgid->netdev;
	sp->ifindex = if_nametoindex(f->sgid->netdev);
	fd = roce_sock_open(sp, f->error, sizeof(f->error));
	if (fd >= 0)
		trace_fidelity_socket(fd, &sp->dest,
				      &(struct trace_fidelity_input){
					      .provider = provider,
					      .ah_flow_label = f->flow_label,
					      .port_given = f->port_given,
					      .netdev = f->sgid->netdev,
					      .traffic_class =
						      f->asked.traffic_class,
				      },
				      &f->fidelity);
	return fd;
}

/* Everything that arrived: quotes first (an answer without BTH belongs
 * to the one query in flight, which its error would end), then errors
 * and replies. Returns the answers taken. */
static unsigned take_answers(struct run *r)
{
	unsigned taken = 0;

	take_all_quotes(r, SIZE_MAX);
	for (size_t i = 0; i < r->sweep.running_count; i++)
		taken += take_errors(r->tr, &r->flows[r->sweep.running[i]]);
	taken += take_replies(r);
	return taken;
}

/* Waits for answers until until_ns at most, taking whatever arrives. */
static void wait_answers(struct run *r, uint64_t until_ns)
{
	const struct roce_tracer *tr = r->tr;
	nfds_t nfds = 0;
	uint64_t now;
	int ms;

	if (take_answers(r))
		return;
	if (ud_arm(tr->ep) == 0 && take_replies(r))
		return;
	for (size_t i = 0; i < r->sweep.running_count; i++)
		r->pfd[nfds++] = (struct pollfd){
			.fd = r->flows[r->sweep.running[i]].fd, .events = 0 };
	r->pfd[nfds++] = (struct pollfd){ .fd = ud_event_fd(tr->ep),
					  .events = POLLIN };
	r->pfd[nfds++] = (struct pollfd){ .fd = tr->raw_fd[0],
					  .events = POLLIN };
	r->pfd[nfds++] = (struct pollfd){ .fd = tr->raw_fd[1],
					  .events = POLLIN };
	now = monotonic_ns();
	ms = until_ns <= now ? 0
	     : until_ns - now >= 1000000000ull
		     ? 1000
		     : (int)((until_ns - now + 999999) / 1000000);
	if (poll(r->pfd, nfds, ms) > 0) {
		if (r->pfd[nfds - 3].revents & POLLIN)
			ud_consume_event(tr->ep);
		take_answers(r);
	}
}

/* Flow k starts: its socket and the raw socket of its family. */
static int start_flow(struct run *r, size_t k)
{
	struct roce_flow *f = &r->flows[k];
	int raw_fd;

	f->fd = open_flow_socket(f, r->tr->provider, &f->sock);
	if (f->fd < 0)
		return -1;
	f->started_ns = monotonic_ns();
	raw_fd = raw_socket(r->tr, f->sock.dest.ss_family);
	f->per_hop = raw_fd >= 0;
	return 0;
}

static void end_flow(struct run *r, size_t k)
{
	struct roce_flow *f = &r->flows[k];

	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

/* Sends step of flow k: a pending ICMP error fails the next send once
 * (sock_error), so the error queue is read first, and a send that lost
 * that race is tried once more. -1 with f->error. */
static int send_step(struct run *r, size_t k, const struct roce_step *step)
{
	struct roce_flow *f = &r->flows[k];

	take_errors(r->tr, f);
	if (send_query(r->tr, f, k, step, f->error, sizeof(f->error)) == 0)
		return 0;
	take_errors(r->tr, f);
	f->error[0] = '\0';
	return send_query(r->tr, f, k, step, f->error, sizeof(f->error));
}

/* Tells the caller; *hold: it waits for quiet. -1: stop. */
static int tell(struct run *r, roce_tracer_progress_fn progress, void *ctx,
		bool *hold)
{
	bool quiet = roce_sweep_in_flight(&r->sweep) == 0;
	int rc = progress(ctx, quiet);

	*hold = rc == 1 && !quiet;
	return rc < 0 ? -1 : 0;
}

int roce_tracer_run(struct roce_tracer *tr, struct roce_flow *flows, size_t n,
		    roce_tracer_progress_fn progress, void *ctx)
{
	struct roce_trace_settings settings = {
		.first_hop = 1, .max_hops = tr->max_hops,
		.queries = tr->queries,
		.wait_ns = (uint64_t)tr->wait_ms * 1000000u,
		.silent_after = tr->silent_after,
		.depth = tr->max_in_flight,
	};
	struct run r = { .tr = tr, .flows = flows };
	bool hold = false;
	int rc = -1;

	if (roce_sweep_init(&r.sweep, &(struct roce_sweep_settings){
					       .max_in_flight = tr->max_in_flight,
					       .rate = tr->rate },
			    n))
		return -1;
	for (size_t k = 0; k < n; k++) {
		struct roce_flow *f = &flows[k];

		f->fd = -1;
		roce_trace_init(&f->trace, &settings);
		r.sweep.flows[k].trace = &f->trace;
		r.sweep.flows[k].key = (uint64_t)f->sgid_index << 16 |
				       f->udp_sport;
		if (f->error[0])
			roce_sweep_drop(&r.sweep, k);
	}
	r.pfd = calloc(tr->max_in_flight + 3, sizeof(*r.pfd));
	if (!r.pfd || tell(&r, progress, ctx, &hold))
		goto out;
	for (;;) {
		struct roce_sweep_step st;

		if (hold && roce_sweep_in_flight(&r.sweep) == 0 &&
		    tell(&r, progress, ctx, &hold))
			goto out;
		r.sweep.hold = hold;
		st = roce_sweep_next(&r.sweep, monotonic_ns());
		if (st.kind == ROCE_SWEEP_DONE)
			break;
		switch (st.kind) {
		case ROCE_SWEEP_START:
			if (start_flow(&r, st.flow) == 0)
				break;
			roce_sweep_drop(&r.sweep, st.flow);
			if (tell(&r, progress, ctx, &hold))
				goto out;
			break;
		case ROCE_SWEEP_SEND:
			if (send_step(&r, st.flow, &st.step) == 0)
				break;
			/* The flow ends with the error (not traced on). */
			end_flow(&r, st.flow);
			roce_sweep_drop(&r.sweep, st.flow);
			if (tell(&r, progress, ctx, &hold))
				goto out;
			break;
		case ROCE_SWEEP_FLOW_DONE:
			/* The last router's quote may trail its error queue
			 * copy. */
			take_all_quotes(&r, st.flow);
			end_flow(&r, st.flow);
			if (tell(&r, progress, ctx, &hold))
				goto out;
			break;
		case ROCE_SWEEP_WAIT:
			wait_answers(&r, st.until_ns);
			break;
		case ROCE_SWEEP_DONE:
			break;
		}
	}
	rc = progress(ctx, true) < 0 ? -1 : 0;
out:
	for (size_t k = 0; k < n; k++)
		if (flows[k].fd >= 0)
			end_flow(&r, k);
	free(r.pfd);
	roce_sweep_free(&r.sweep);
	return rc;
}

/* The responder answered: silent hops between the last router and the
 * responder's line were queries that reached the responder but whose
 * answer came late or got lost (the hop limit its datagram arrived with
 * tells how many routers it crossed). */
void roce_flow_path(struct roce_flow *f, unsigned queries)
{
	const struct roce_trace *t = &f->trace;
	const struct roce_trace_hop *last;
	const struct roce_answer *final;
	unsigned routers;

	f->path_len = 0;
	if (f->error[0] || !t->hop_count)
		return;
	for (unsigned i = 0; i < t->hop_count; i++) {
		const struct roce_trace_hop *h = &t->hops[i];

		f->path[i] = NULL;
		for (unsigned q = 0; q < h->sent && !f->path[i]; q++)
			if (h->answered[q])
				f->path[i] = h->answers[q].from;
	}
	f->path_len = t->hop_count;
	last = &t->hops[t->hop_count - 1];
	final = roce_trace_hop_final(last, queries);
	if (t->end != ROCE_TRACE_REACHED || !final ||
	    final->kind != ROCE_ANSWER_REPLY || final->seen_hop_limit < 1 ||
	    (unsigned)final->seen_hop_limit > last->hop_limit)
		return;
	routers = last->hop_limit - (unsigned)final->seen_hop_limit;
	if (routers + 1 >= f->path_len)
		return;
	for (size_t i = routers; i + 1 < f->path_len; i++)
		if (f->path[i])
			return;	/* something answered there: keep all */
	f->path[routers] = final->from;
	f->path_len = routers + 1;
}

long roce_flows_number_paths(struct roce_flow *flows, size_t n,
			     struct trace_path_flow *pf, unsigned *index)
{
	size_t paths;

	for (size_t i = 0; i < n; i++)
		pf[i] = (struct trace_path_flow){ .hops = flows[i].path,
						  .hop_count = flows[i].path_len };
	if (trace_paths_group(pf, n, index, &paths))
		return -1;
	for (size_t i = 0; i < n; i++)
		flows[i].path_index = index[i];
	return (long)paths;
}

const struct value_list *roce_flow_keys(const struct value_list *udp_sports,
					const struct value_list *flow_labels,
					bool *by_port)
{
	*by_port = udp_sports && udp_sports->count;
	return *by_port ? udp_sports : flow_labels;
}

/* A reply for flow f's one query in flight (trace --nic): its sequence is
 * the query's tag. */
static unsigned take_flow_reply(void *ctx, const struct probe_reply *rep)
{
	struct roce_flow *f = ctx;
	struct roce_answer a = reply_answer(rep, f->sent_ns);

	roce_trace_answer(&f->trace, rep->header.sequence, &a);
	return 1;
}

void roce_tracer_take_replies(const struct roce_tracer *tr, struct roce_flow *f)
{
	each_reply(tr, take_flow_reply, f);
}
