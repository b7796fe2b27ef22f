/* The RoCE v2 trace engine: see roce_tracer.h. The datagrams are probe
 * requests as serve reads them, in UD SEND_ONLYs to the responder's QP,
 * sealed with the ICRC of the IP header the kernel will write. */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
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

/* Reads the raw socket: each quote of ours is the traffic class its
 * router saw, filed under the query its PSN names (the query under way
 * when the router quoted no BTH). Quotes of other flows and tools are
 * dropped: each flow is traced alone, so none is lost that matters. */
static void take_quotes(const struct roce_tracer *tr, struct roce_flow *f,
			int raw_fd, const struct sockaddr_storage *dst)
{
	struct icmp_quote q;
	bool decoded;

	if (raw_fd < 0)
		return;
	while (icmp_raw_read(raw_fd, dst->ss_family, &q, &decoded) > 0) {
		uint8_t nonce, hop, query;

		if (!decoded || !roce_quote_is_ours(&q, dst, f->udp_sport,
						    f->dest_qpn, tr->nonce))
			continue;
		if (q.has_bth)
			roce_probe_psn_split(q.psn, &nonce, &hop, &query);
		else if (f->trace.waiting)
			roce_probe_psn_split(f->trace.tag, &nonce, &hop,
					     &query);
		else
			continue;
		if (hop < 1 || hop > ROCE_TRACE_MAX_HOPS ||
		    query >= ROCE_TRACE_MAX_QUERIES)
			continue;
		f->quoted[hop - 1][query] =
			(struct tclass_seen){ .known = true,
					      .tclass = q.tclass };
	}
}

/* Sends query step of flow f on fd: a probe request as serve reads it,
 * in a UD SEND_ONLY to the responder's QP, sealed with the ICRC of the
 * IP header the kernel will write. */
static int send_query(const struct roce_tracer *tr, struct roce_flow *f,
		      int fd, const struct sockaddr_storage *src,
		      const struct sockaddr_storage *dst,
		      const struct roce_step *step, char *err, size_t errlen)
{
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
		.sequence = step->tag,
		.asked = f->asked,
	};
	struct roce_ip_fields ip;
	enum roce_ud_refusal why;
	size_t dlen, iplen;

	h.asked.hop_limit = (uint8_t)step->hop_limit;
	f->sent_ns = h.send_time_ns = monotonic_ns();
	probe_encode_request(&h, payload, sizeof(payload));
	why = roce_ud_encode(&uf, payload, sizeof(payload), dgram,
			     sizeof(dgram), &dlen);
	if (why != ROCE_UD_OK) {
		snprintf(err, errlen, "%s", roce_ud_refusal_text(why));
		return -1;
	}
	roce_ip_fields_of(src, dst, &ip);
	ip.traffic_class = f->asked.traffic_class;
	ip.hop_limit = (uint8_t)step->hop_limit;
	ip.flow_label = f->flow_label;
	roce_ipv4_ident_predict(IP_PMTUDISC_PROBE, false, &ip.ipv4_id,
				&ip.ipv4_df);
	iplen = roce_ip_header_predict(&ip, dlen, iph,
				       sizeof(iph));
	roce_udp_header_build(f->udp_sport, dlen, udph);
	roce_icrc_seal(iph, iplen, udph, dgram, dlen);
	if (roce_sock_send(fd, dst, step->hop_limit, dgram, dlen)) {
		snprintf(err, errlen, "cannot send: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Every reply on our QP: serve's answer to a query of this flow is the
 * destination's line. */
static void take_replies(const struct roce_tracer *tr, struct roce_flow *f)
{
	struct ibv_wc wcs[16];
	int n;

	while ((n = ud_poll(tr->ep, wcs, 16, 0)) > 0)
		for (int i = 0; i < n; i++) {
			const struct ibv_wc *wc = &wcs[i];
			struct probe_reply r;
			struct roce_answer a;
			const uint8_t *buf;

			if (!ud_wc_is_recv(wc))
				continue;
			buf = ud_recv_buffer(tr->ep, wc);
			if (wc->status == IBV_WC_SUCCESS &&
			    wc->byte_len >= UD_GRH_BYTES &&
			    probe_decode_reply(buf + UD_GRH_BYTES,
					       wc->byte_len - UD_GRH_BYTES,
					       &r) == PROBE_OK &&
			    r.header.probe_id == tr->probe_id) {
				memset(&a, 0, sizeof(a));
				a.kind = ROCE_ANSWER_REPLY;
				a.rtt_ns = monotonic_ns() - f->sent_ns;
				gid_format_address(&r.observed.dgid, a.from,
						   sizeof(a.from));
				a.reply_ttl = -1;
				a.seen_tclass = r.observed.traffic_class;
				a.seen_hop_limit = r.observed.hop_limit;
				roce_trace_answer(&f->trace, r.header.sequence,
						  &a);
			}
			ud_repost_recv(tr->ep, wc);
		}
}

/* Reads the socket's error queue into the trace: errors about the query
 * under way (matched by the quoted PSN when the router quoted the BTH). */
static void take_errors(const struct roce_tracer *tr, struct roce_flow *f,
			int fd, const struct sockaddr_storage *dst)
{
	struct sockaddr_storage target = *dst;
	struct roce_sock_error raw;
	struct icmp_err e;
	struct roce_answer a;
	uint32_t psn = roce_probe_psn(tr->nonce, (uint8_t)(f->trace.tag >> 8),
				      (uint8_t)(f->trace.tag & 0xff));

	if (target.ss_family == AF_INET)
		((struct sockaddr_in *)&target)->sin_port =
			htons(ROCE_V2_UDP_PORT);
	else
		((struct sockaddr_in6 *)&target)->sin6_port =
			htons(ROCE_V2_UDP_PORT);
	while (roce_sock_read_error(fd, &raw) > 0) {
		if (icmp_errqueue_decode(raw.control, raw.control_len,
					 &raw.name, raw.name_len, raw.quote,
					 raw.quote_len, &e) ||
		    !f->trace.waiting ||
		    icmp_errqueue_match(&e, &target, f->dest_qpn, &psn, 1) != 0 ||
		    !roce_error_answer(&e, &a))
			continue;
		a.rtt_ns = monotonic_ns() - f->sent_ns;
		roce_trace_answer(&f->trace, f->trace.tag, &a);
	}
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

/* Waits for the answer to the query under way, until step->until_ns at
 * most, taking whatever arrives meanwhile. */
static void wait_answer(const struct roce_tracer *tr, struct roce_flow *f,
			int fd, int raw_fd, const struct sockaddr_storage *dst,
			const struct roce_step *step)
{
	struct pollfd pfd[3] = {
		{ .fd = fd, .events = 0 },
		{ .fd = ud_event_fd(tr->ep), .events = POLLIN },
		{ .fd = raw_fd, .events = POLLIN },
	};
	uint64_t now;
	int ms;

	take_quotes(tr, f, raw_fd, dst);
	take_errors(tr, f, fd, dst);
	take_replies(tr, f);
	if (ud_arm(tr->ep) == 0)
		take_replies(tr, f);
	if (!f->trace.waiting)
		return;	/* answered meanwhile */
	now = monotonic_ns();
	ms = step->until_ns > now
		     ? (int)((step->until_ns - now + 999999) / 1000000)
		     : 0;
	if (poll(pfd, 3, ms) > 0) {
		if (pfd[1].revents & POLLIN)
			ud_consume_event(tr->ep);
		take_quotes(tr, f, raw_fd, dst);
		take_errors(tr, f, fd, dst);
		take_replies(tr, f);
	}
}

int roce_tracer_trace_flow(struct roce_tracer *tr, struct roce_flow *f)
{
	struct roce_trace_settings settings = {
		.first_hop = 1, .max_hops = tr->max_hops,
		.queries = tr->queries,
		.wait_ns = (uint64_t)tr->wait_ms * 1000000u,
		.silent_after = tr->silent_after,
	};
	struct roce_sock_params sp;
	struct roce_step step;
	int fd, raw_fd;

	fd = open_flow_socket(f, tr->provider, &sp);
	if (fd < 0)
		return -1;
	raw_fd = raw_socket(tr, sp.dest.ss_family);
	f->per_hop = raw_fd >= 0;
	/* Quotes left from an earlier flow (late answers) are not this
	 * flow's, even with the same source port. */
	while (raw_fd >= 0 && icmp_raw_read(raw_fd, sp.dest.ss_family,
					    &(struct icmp_quote){ 0 },
					    &(bool){ false }) > 0)
		;
	roce_trace_init(&f->trace, &settings);
	while ((step = roce_trace_next(&f->trace, monotonic_ns())).kind !=
	       ROCE_STEP_DONE) {
		if (step.kind != ROCE_STEP_SEND) {
			wait_answer(tr, f, fd, raw_fd, &sp.dest, &step);
			continue;
		}
		/* A pending ICMP error fails the next send once. */
		take_errors(tr, f, fd, &sp.dest);
		if (send_query(tr, f, fd, &sp.source, &sp.dest, &step,
			       f->error, sizeof(f->error))) {
			close(fd);
			return -1;
		}
	}
	/* The last router's quote may trail its error queue copy. */
	take_quotes(tr, f, raw_fd, &sp.dest);
	close(fd);
	return 0;
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

void roce_tracer_take_replies(const struct roce_tracer *tr, struct roce_flow *f)
{
	take_replies(tr, f);
}
