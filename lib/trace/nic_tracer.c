/* trace --nic: see nic_tracer.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "base/monotonic.h"
#include "trace/icmp_raw.h"
#include "trace/nic_tracer.h"
#include "trace/roce_sock.h"
#include "wire/probe_wire.h"
#include "wire/roce_packet.h"

bool nic_trace_possible(enum hop_limit_rule rule, const char *why_rule,
			char *why, size_t len)
{
	if (len)
		why[0] = '\0';
	if (rule == HOP_LIMIT_RULE_AH)
		return true;
	snprintf(why, len, "--nic needs a provider that sends the AH's hop "
		 "limit: %s; trace without --nic crafts its datagrams in a "
		 "socket instead", why_rule);
	return false;
}

bool nic_quote_is_ours(const struct icmp_quote *q,
		       const struct sockaddr_storage *dst, int32_t udp_sport,
		       uint32_t dest_qpn)
{
	const void *addr = dst->ss_family == AF_INET
		? (const void *)&((const struct sockaddr_in *)dst)->sin_addr
		: (const void *)&((const struct sockaddr_in6 *)dst)->sin6_addr;

	if (q->ipv6 != (dst->ss_family == AF_INET6) || !q->has_udp ||
	    memcmp(q->dst, addr, q->ipv6 ? 16 : 4) != 0 ||
	    q->dport != ROCE_V2_UDP_PORT ||
	    (udp_sport >= 0 && q->sport != (uint16_t)udp_sport))
		return false;
	return !q->has_bth || (q->opcode == ROCE_OPCODE_UD_SEND_ONLY &&
			       q->dest_qpn == dest_qpn);
}

bool nic_quote_answer(const struct icmp_quote *q,
		      const struct sockaddr_storage *from,
		      struct roce_answer *a)
{
	memset(a, 0, sizeof(*a));
	a->seen_tclass = a->seen_hop_limit = -1;
	a->icmp_type = q->type;
	a->icmp_code = q->code;
	if (!q->ipv6) {
		a->reply_ttl = q->reply_ttl;
		inet_ntop(AF_INET, q->from, a->from, sizeof(a->from));
		if (q->type == 11)
			a->kind = ROCE_ANSWER_TIME_EXCEEDED;
		else if (q->type == 3 && q->code == 3)
			a->kind = ROCE_ANSWER_PORT_UNREACHABLE;
		else if (q->type == 3 && q->code == 4)
			a->kind = ROCE_ANSWER_TOO_BIG;
		else if (q->type == 3)
			a->kind = ROCE_ANSWER_UNREACHABLE;
		else
			return false;
		return true;
	}
	/* The ICMPv6 hop limit on arrival needs IPV6_RECVHOPLIMIT: not
	 * read here. */
	a->reply_ttl = -1;
	if (from->ss_family == AF_INET6)
		inet_ntop(AF_INET6,
			  &((const struct sockaddr_in6 *)from)->sin6_addr,
			  a->from, sizeof(a->from));
	else
		snprintf(a->from, sizeof(a->from), "?");
	if (q->type == 3)
		a->kind = ROCE_ANSWER_TIME_EXCEEDED;
	else if (q->type == 1 && q->code == 4)
		a->kind = ROCE_ANSWER_PORT_UNREACHABLE;
	else if (q->type == 2)
		a->kind = ROCE_ANSWER_TOO_BIG;
	else if (q->type == 1)
		a->kind = ROCE_ANSWER_UNREACHABLE;
	else
		return false;
	return true;
}

/* One flow's state: its AHs (one per hop limit, made on first use), the
 * raw socket, where it goes. */
struct nic_flow {
	struct roce_tracer *tr;
	struct roce_flow *f;
	const struct ibv_ah_attr *base;
	struct ibv_ah *ah[ROCE_TRACE_MAX_HOPS + 1];
	int raw_fd;
	struct sockaddr_storage dst;
	int32_t wire_sport;
};

static int send_query(struct nic_flow *n, const struct roce_step *step)
{
	struct roce_flow *f = n->f;
	uint8_t payload[PROBE_REQUEST_MIN_SIZE];
	struct probe_header h = {
		.kind = PROBE_REQUEST,
		.probe_id = n->tr->probe_id,
		.sequence = step->tag,
		.asked = f->asked,
	};
	int rc;

	if (!n->ah[step->hop_limit]) {
		struct ibv_ah_attr attr = *n->base;

		attr.grh.hop_limit = (uint8_t)step->hop_limit;
		n->ah[step->hop_limit] = ibv_create_ah(n->tr->ep->pd, &attr);
		if (!n->ah[step->hop_limit]) {
			snprintf(f->error, sizeof(f->error), "cannot create "
				 "the AH of hop limit %u: %s", step->hop_limit,
				 strerror(errno ? errno : EINVAL));
			return -1;
		}
	}
	h.asked.hop_limit = (uint8_t)step->hop_limit;
	f->sent_ns = h.send_time_ns = monotonic_ns();
	probe_encode_request(&h, payload, sizeof(payload));
	rc = ud_send(n->tr->ep, n->ah[step->hop_limit], f->dest_qpn, f->qkey,
		     payload, sizeof(payload));
	if (rc == -EAGAIN) {
		/* Every send slot in flight: their completions free them. */
		roce_tracer_take_replies(n->tr, f);
		rc = ud_send(n->tr->ep, n->ah[step->hop_limit], f->dest_qpn,
			     f->qkey, payload, sizeof(payload));
	}
	if (rc) {
		snprintf(f->error, sizeof(f->error), "cannot send: %s",
			 strerror(-rc));
		return -1;
	}
	return 0;
}

/* The routers' answers on the raw socket: any of ours is the answer of
 * the query under way (one at a time; a late one of a silent query is
 * taken for the next, as a traceroute without tags would). */
static void take_quotes(struct nic_flow *n)
{
	struct sockaddr_storage from;
	struct icmp_quote q;
	struct roce_answer a;
	bool decoded;

	while (icmp_raw_read_from(n->raw_fd, n->dst.ss_family, &q, &decoded,
				  &from) > 0) {
		if (!decoded || !n->f->trace.waiting ||
		    !nic_quote_is_ours(&q, &n->dst, n->wire_sport,
				       n->f->dest_qpn) ||
		    !nic_quote_answer(&q, &from, &a))
			continue;
		a.rtt_ns = monotonic_ns() - n->f->sent_ns;
		if (a.kind == ROCE_ANSWER_TIME_EXCEEDED)
			n->f->quoted[(n->f->trace.tag >> 8) - 1]
				    [n->f->trace.tag & 0xff] =
				(struct tclass_seen){ .known = true,
						      .tclass = q.tclass };
		roce_trace_answer(&n->f->trace, n->f->trace.tag, &a);
	}
}

static void wait_answer(struct nic_flow *n, const struct roce_step *step)
{
	struct pollfd pfd[2] = {
		{ .fd = ud_event_fd(n->tr->ep), .events = POLLIN },
		{ .fd = n->raw_fd, .events = POLLIN },
	};
	uint64_t now;
	int ms;

	take_quotes(n);
	roce_tracer_take_replies(n->tr, n->f);
	if (ud_arm(n->tr->ep) == 0)
		roce_tracer_take_replies(n->tr, n->f);
	if (!n->f->trace.waiting)
		return;
	now = monotonic_ns();
	ms = step->until_ns > now
		     ? (int)((step->until_ns - now + 999999) / 1000000)
		     : 0;
	if (poll(pfd, 2, ms) > 0) {
		if (pfd[0].revents & POLLIN)
			ud_consume_event(n->tr->ep);
		take_quotes(n);
		roce_tracer_take_replies(n->tr, n->f);
	}
}

static void release(struct nic_flow *n)
{
	/* An AH is destroyed only once no send that uses it is pending. */
	ud_drain_sends(n->tr->ep, 1000, NULL, NULL);
	for (size_t h = 0; h <= ROCE_TRACE_MAX_HOPS; h++)
		if (n->ah[h])
			ibv_destroy_ah(n->ah[h]);
}

int nic_tracer_trace_flow(struct roce_tracer *tr, struct roce_flow *f,
			  const struct ibv_ah_attr *base, int32_t wire_sport)
{
	struct roce_trace_settings settings = {
		.first_hop = 1, .max_hops = tr->max_hops,
		.queries = tr->queries,
		.wait_ns = (uint64_t)tr->wait_ms * 1000000u,
		.silent_after = tr->silent_after,
	};
	struct nic_flow n = { .tr = tr, .f = f, .base = base,
			      .wire_sport = wire_sport };
	struct roce_step step;
	int i, rc = 0;

	memset(&f->fidelity, 0, sizeof(f->fidelity));
	f->fidelity.method = TRACE_METHOD_NIC;
	f->fidelity.priority = -1;
	roce_gid_sockaddr(&f->dgid, &n.dst);
	i = n.dst.ss_family == AF_INET6;
	if (!tr->raw_tried[i]) {
		tr->raw_tried[i] = true;
		tr->raw_fd[i] = icmp_raw_open(n.dst.ss_family);
	}
	n.raw_fd = tr->raw_fd[i];
	if (n.raw_fd < 0) {
		snprintf(f->error, sizeof(f->error), "--nic reads the routers' "
			 "answers from a raw ICMP socket, which needs "
			 "CAP_NET_RAW");
		return -1;
	}
	f->per_hop = true;
	/* Answers left from an earlier flow are not this one's. */
	while (icmp_raw_read(n.raw_fd, n.dst.ss_family,
			     &(struct icmp_quote){ 0 }, &(bool){ false }) > 0)
		;
	roce_trace_init(&f->trace, &settings);
	while ((step = roce_trace_next(&f->trace, monotonic_ns())).kind !=
	       ROCE_STEP_DONE) {
		if (step.kind != ROCE_STEP_SEND) {
			wait_answer(&n, &step);
			continue;
		}
		if (send_query(&n, &step)) {
			rc = -1;
			break;
		}
	}
	release(&n);
	return rc;
}
