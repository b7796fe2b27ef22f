/* ibahprobe trace on RoCE v2: see trace_roce.h. Per destination the
 * rendezvous, the source GID and the responder's QP come from the probe
 * engine's own set-up (probe_session_*), so trace and probe pick the same
 * GID and reach the same responder; then, per flow (flow label, traffic
 * class), a kernel UDP socket sends RoCE v2 UD datagrams with hop limit
 * 1, 2, ... (lib/trace/roce_trace.h schedules them) and the answers come back
 * as ICMP on the socket's error queue or as serve's reply on our UD QP. */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verbs/device.h"
#include "base/diag.h"
#include "base/gid.h"
#include "wire/icmp_errqueue.h"
#include "trace/icmp_raw.h"
#include "base/monotonic.h"
#include "out/output.h"
#include "probe/probe_engine.h"
#include "wire/probe_wire.h"
#include "wire/roce_packet.h"
#include "trace/roce_sock.h"
#include "trace/roce_trace.h"
#include "trace/tclass_locate.h"
#include "base/text_escape.h"
#include "out/text_layout.h"
#include "trace/trace_paths.h"
#include "trace_roce.h"

#define TRACE_SCHEMA "ibahprobe.trace.v1"

/* One flow of one destination. */
struct flow {
	struct probe_cell *cell;
	uint32_t flow_label;
	uint16_t udp_sport;
	bool port_given;	/* --udp-sport: no flow label stands for it */
	struct roce_trace trace;
	char error[DIAG_MSG_MAX * 2];	/* could not be traced: why */
	uint64_t sent_ns;		/* the query under way's send time */
	/* Its router path (flow_path), and the path's number among the
	 * destination's distinct paths (0: not traced). */
	const char *path[ROCE_TRACE_MAX_HOPS];
	size_t path_len;
	unsigned path_index;
	/* The traffic class each query arrived with at the router that
	 * answered it, from the raw ICMP socket (per hop, per query). */
	struct tclass_seen quoted[ROCE_TRACE_MAX_HOPS][ROCE_TRACE_MAX_QUERIES];
	bool per_hop;	/* the raw socket was read: routers' quotes known */
};

/* The GID's address as a socket address; the netdev's name and index. */
static int gid_sockaddr(const union ibv_gid *gid, struct sockaddr_storage *sa)
{
	memset(sa, 0, sizeof(*sa));
	if (gid_is_ipv4_mapped(gid)) {
		struct sockaddr_in *in = (struct sockaddr_in *)sa;

		in->sin_family = AF_INET;
		memcpy(&in->sin_addr, gid->raw + 12, 4);
		return 0;
	}
	((struct sockaddr_in6 *)sa)->sin6_family = AF_INET6;
	memcpy(&((struct sockaddr_in6 *)sa)->sin6_addr, gid->raw, 16);
	return 0;
}

static void ip_fields_of(const struct sockaddr_storage *src,
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

/* An error queue message (lib/wire/icmp_errqueue.h decodes it) as the
 * answer of a hop. false: nothing a trace shows (a local error, a
 * parameter problem). */
static bool error_answer(const struct icmp_err *e, struct roce_answer *a)
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

struct tracer {
	struct probe_session *s;
	uint8_t nonce;
	uint8_t tclass;
	/* Raw ICMP sockets (IPv4, IPv6) for the routers' quotes; -1 when
	 * not open (yet, or refused: raw_errno says why). */
	int raw_fd[2];
	bool raw_tried[2];
};

/* The raw ICMP socket of a family, opened on first use. */
static int raw_socket(struct tracer *tr, int family)
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

/* Whether a quote is of a datagram of flow f (its destination, source
 * port and, as far as quoted, its QP and this run's PSN nonce). */
static bool quote_is_ours(const struct tracer *tr, const struct flow *f,
			  const struct sockaddr_storage *dst,
			  const struct icmp_quote *q)
{
	const void *addr = dst->ss_family == AF_INET
		? (const void *)&((const struct sockaddr_in *)dst)->sin_addr
		: (const void *)&((const struct sockaddr_in6 *)dst)->sin6_addr;

	if (q->ipv6 != (dst->ss_family == AF_INET6) || !q->has_udp ||
	    memcmp(q->dst, addr, q->ipv6 ? 16 : 4) != 0 ||
	    q->dport != ROCE_V2_UDP_PORT || q->sport != f->udp_sport)
		return false;
	uint8_t nonce, hop, query;

	if (!q->has_bth)
		return true;
	roce_probe_psn_split(q->psn, &nonce, &hop, &query);
	return q->opcode == ROCE_OPCODE_UD_SEND_ONLY &&
	       q->dest_qpn == f->cell->target->info.qpn && nonce == tr->nonce;
}

/* Reads the raw socket: each quote of ours is the traffic class its
 * router saw, filed under the query its PSN names (the query under way
 * when the router quoted no BTH). Quotes of other flows and tools are
 * dropped: each flow is traced alone, so none is lost that matters. */
static void take_quotes(struct tracer *tr, struct flow *f, int raw_fd,
			const struct sockaddr_storage *dst)
{
	struct icmp_quote q;
	bool decoded;

	if (raw_fd < 0)
		return;
	while (icmp_raw_read(raw_fd, dst->ss_family, &q, &decoded) > 0) {
		uint8_t nonce, hop, query;

		if (!decoded || !quote_is_ours(tr, f, dst, &q))
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
static int send_query(struct tracer *tr, struct flow *f, int fd,
		      const struct sockaddr_storage *src,
		      const struct sockaddr_storage *dst,
		      const struct roce_step *step, char *err, size_t errlen)
{
	struct probe_cell *c = f->cell;
	uint8_t payload[PROBE_REQUEST_MIN_SIZE], dgram[ROCE_UD_DATAGRAM_MAX];
	uint8_t iph[ROCE_IPV6_HEADER_BYTES], udph[ROCE_UDP_HEADER_BYTES];
	struct roce_ud_fields uf = {
		.dest_qpn = c->target->info.qpn,
		.qkey = c->target->info.qkey,
		.src_qpn = tr->s->ep.qp->qp_num,
		.psn = roce_probe_psn(tr->nonce, (uint8_t)step->hop_limit,
				      (uint8_t)step->query),
		.pkey = 0xffff,
	};
	struct probe_header h = {
		.kind = PROBE_REQUEST,
		.probe_id = tr->s->probe_id,
		.sequence = step->tag,
		.asked = c->asked,
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
	ip_fields_of(src, dst, &ip);
	ip.traffic_class = tr->tclass;
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
static void take_replies(struct tracer *tr, struct flow *f)
{
	struct ibv_wc wcs[16];
	int n;

	while ((n = ud_poll(&tr->s->ep, wcs, 16, 0)) > 0)
		for (int i = 0; i < n; i++) {
			const struct ibv_wc *wc = &wcs[i];
			struct probe_reply r;
			struct roce_answer a;
			const uint8_t *buf;

			if (!ud_wc_is_recv(wc))
				continue;
			buf = ud_recv_buffer(&tr->s->ep, wc);
			if (wc->status == IBV_WC_SUCCESS &&
			    wc->byte_len >= UD_GRH_BYTES &&
			    probe_decode_reply(buf + UD_GRH_BYTES,
					       wc->byte_len - UD_GRH_BYTES,
					       &r) == PROBE_OK &&
			    r.header.probe_id == tr->s->probe_id) {
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
			ud_repost_recv(&tr->s->ep, wc);
		}
}

/* Reads the socket's error queue into the trace: errors about the query
 * under way (matched by the quoted PSN when the router quoted the BTH). */
static void take_errors(struct tracer *tr, struct flow *f, int fd,
			const struct sockaddr_storage *dst)
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
		    icmp_errqueue_match(&e, &target, f->cell->target->info.qpn,
					&psn, 1) != 0 ||
		    !error_answer(&e, &a))
			continue;
		a.rtt_ns = monotonic_ns() - f->sent_ns;
		roce_trace_answer(&f->trace, f->trace.tag, &a);
	}
}

/* Runs one flow's trace to its end. */
static int trace_flow(struct tracer *tr, struct flow *f,
		      const struct trace_roce_options *o, uint32_t wait_ms)
{
	const struct probe_cell *c = f->cell;
	const struct gid_info *sgid =
		ah_facts_gid(&tr->s->facts, c->attr.grh.sgid_index);
	struct roce_sock_params sp = { .udp_sport = f->udp_sport,
				       .traffic_class = tr->tclass };
	struct roce_trace_settings settings = {
		.first_hop = 1, .max_hops = o->max_hops, .queries = o->queries,
		.wait_ns = (uint64_t)wait_ms * 1000000u,
	};
	struct roce_step step;
	int fd, raw_fd;

	if (!sgid || !sgid->netdev[0]) {
		snprintf(f->error, sizeof(f->error), "the source GID (index "
			 "%u) has no netdev to send from",
			 c->attr.grh.sgid_index);
		return -1;
	}
	gid_sockaddr(&sgid->gid, &sp.source);
	gid_sockaddr(&c->attr.grh.dgid, &sp.dest);
	if (sp.source.ss_family != sp.dest.ss_family) {
		snprintf(f->error, sizeof(f->error), "the source GID and the "
			 "destination GID are of different IP versions");
		return -1;
	}
	sp.ifname = sgid->netdev;
	sp.ifindex = if_nametoindex(sgid->netdev);
	fd = roce_sock_open(&sp, f->error, sizeof(f->error));
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
		struct pollfd pfd[3] = {
			{ .fd = fd, .events = 0 },
			{ .fd = ud_event_fd(&tr->s->ep), .events = POLLIN },
			{ .fd = raw_fd, .events = POLLIN },
		};
		uint64_t now;
		int ms;

		if (step.kind == ROCE_STEP_SEND) {
			/* A pending ICMP error fails the next send once. */
			take_errors(tr, f, fd, &sp.dest);
			if (send_query(tr, f, fd, &sp.source, &sp.dest, &step,
				       f->error, sizeof(f->error))) {
				close(fd);
				return -1;
			}
			continue;
		}
		take_quotes(tr, f, raw_fd, &sp.dest);
		take_errors(tr, f, fd, &sp.dest);
		take_replies(tr, f);
		if (ud_arm(&tr->s->ep) == 0)
			take_replies(tr, f);
		if (!f->trace.waiting)
			continue;	/* answered meanwhile */
		now = monotonic_ns();
		ms = step.until_ns > now
			     ? (int)((step.until_ns - now + 999999) / 1000000)
			     : 0;
		if (poll(pfd, 3, ms) > 0) {
			if (pfd[1].revents & POLLIN)
				ud_consume_event(&tr->s->ep);
			take_quotes(tr, f, raw_fd, &sp.dest);
			take_errors(tr, f, fd, &sp.dest);
			take_replies(tr, f);
		}
	}
	/* The last router's quote may trail its error queue copy. */
	take_quotes(tr, f, raw_fd, &sp.dest);
	close(fd);
	return 0;
}

static const char *end_key(enum roce_trace_end end)
{
	switch (end) {
	case ROCE_TRACE_REACHED: return "reached";
	case ROCE_TRACE_REFUSED: return "no_roce_listener";
	case ROCE_TRACE_UNREACHABLE: return "unreachable";
	case ROCE_TRACE_MAX_HOPS_END: return "max_hops";
	case ROCE_TRACE_RUNNING: break;
	}
	return "error";
}

static const char *answer_key(enum roce_answer_kind kind)
{
	switch (kind) {
	case ROCE_ANSWER_TIME_EXCEEDED: return "time_exceeded";
	case ROCE_ANSWER_REPLY: return "responder";
	case ROCE_ANSWER_PORT_UNREACHABLE: return "port_unreachable";
	case ROCE_ANSWER_UNREACHABLE: return "unreachable";
	case ROCE_ANSWER_TOO_BIG: return "too_big";
	}
	return "unknown";
}

/* One hop: "  2  198.18.3.2       0.41 ms  *  0.38 ms". Each address that
 * answered is named once, before its first RTT, as traceroute does. */
static void print_hop(const struct roce_trace_hop *h,
		      const struct tclass_seen *quoted, unsigned queries,
		      uint8_t tclass)
{
	char line[512], prev[46] = "";
	size_t used;
	int other_tclass = -1;	/* a router saw another traffic class */
	const struct roce_answer *final = roce_trace_hop_final(h, queries);

	out_open_object(NULL);
	out_uint("hop_limit", NULL, h->hop_limit);
	used = (size_t)snprintf(line, sizeof(line), "  %2u", h->hop_limit);
	out_open_array("answers");
	for (unsigned q = 0; q < h->sent; q++) {
		const struct roce_answer *a = &h->answers[q];

		if (!h->answered[q]) {
			out_open_object(NULL);
			out_string("kind", NULL, "silent");
			out_null("from", NULL);
			out_null("rtt_us", NULL);
			out_close_object();
			used += (size_t)snprintf(line + used, sizeof(line) - used,
						 "  *");
			continue;
		}
		out_open_object(NULL);
		out_string("from", NULL, a->from);
		out_string("kind", NULL, answer_key(a->kind));
		out_double("rtt_us", NULL, (double)a->rtt_ns / 1000.0);
		if (a->reply_ttl >= 0)
			out_int("reply_ttl", NULL, a->reply_ttl);
		else
			out_null("reply_ttl", NULL);
		if (a->kind == ROCE_ANSWER_UNREACHABLE) {
			out_uint("icmp_type", NULL, a->icmp_type);
			out_uint("icmp_code", NULL, a->icmp_code);
		}
		if (a->kind == ROCE_ANSWER_TOO_BIG)
			out_uint("mtu", NULL, a->mtu);
		if (a->kind == ROCE_ANSWER_REPLY) {
			out_uint("seen_traffic_class", NULL,
				 (unsigned)a->seen_tclass);
			out_uint("seen_hop_limit", NULL,
				 (unsigned)a->seen_hop_limit);
		} else if (quoted[q].known) {
			/* As the answering router received it. */
			out_uint("seen_traffic_class", NULL, quoted[q].tclass);
			if (quoted[q].tclass != tclass)
				other_tclass = quoted[q].tclass;
		} else {
			out_null("seen_traffic_class", NULL);
		}
		out_close_object();
		if (strcmp(prev, a->from) != 0) {
			used += (size_t)snprintf(line + used, sizeof(line) - used,
						 "  %-15s", a->from);
			snprintf(prev, sizeof(prev), "%s", a->from);
		}
		used += (size_t)snprintf(line + used, sizeof(line) - used,
					 "  %.3f ms", (double)a->rtt_ns / 1e6);
		if (used >= sizeof(line))
			used = sizeof(line) - 1;
	}
	out_close_array();
	out_close_object();
	if (other_tclass >= 0)
		used += (size_t)snprintf(line + used, sizeof(line) - used,
					 "  saw tclass 0x%02x", other_tclass);
	if (used >= sizeof(line))
		used = sizeof(line) - 1;
	if (final && final->kind == ROCE_ANSWER_REPLY &&
	    final->seen_tclass != tclass)
		snprintf(line + used, sizeof(line) - used,
			 "  responder: tclass 0x%02x remarked on the way to "
			 "0x%02x, hop limit %d left", tclass,
			 (unsigned)final->seen_tclass, final->seen_hop_limit);
	else if (final && final->kind == ROCE_ANSWER_REPLY)
		snprintf(line + used, sizeof(line) - used,
			 "  responder: tclass kept, hop limit %d left",
			 final->seen_hop_limit);
	else if (final && final->kind == ROCE_ANSWER_PORT_UNREACHABLE)
		snprintf(line + used, sizeof(line) - used,
			 "  no RoCE listener (UDP 4791 closed)");
	else if (final && final->kind == ROCE_ANSWER_TOO_BIG)
		snprintf(line + used, sizeof(line) - used,
			 "  too big (MTU %u)", final->mtu);
	else if (final)
		snprintf(line + used, sizeof(line) - used,
			 "  unreachable (ICMP %u/%u)", final->icmp_type,
			 final->icmp_code);
	out_text("%s\n", line);
}

/* The flow's path as JSON: per hop the address, null where silent. */
static void print_path(const struct flow *f)
{
	out_open_array("path");
	for (size_t h = 0; h < f->path_len; h++)
		if (f->path[h])
			out_element_string(NULL, f->path[h]);
		else
			out_element_null(NULL);
	out_close_array();
	if (f->path_index)
		out_uint("path_index", NULL, f->path_index);
	else
		out_null("path_index", NULL);
}

/* What hop h saw of the traffic class: the responder's GRH, else the
 * first router quote of an answered query; who that was. */
static struct tclass_seen hop_point(const struct roce_trace_hop *h,
				    const struct tclass_seen *quoted,
				    const char **from, bool *responder)
{
	*from = NULL;
	*responder = false;
	for (unsigned q = 0; q < h->sent; q++) {
		const struct roce_answer *a = &h->answers[q];

		if (!h->answered[q])
			continue;
		if (!*from)
			*from = a->from;
		if (a->kind == ROCE_ANSWER_REPLY) {
			*from = a->from;
			*responder = true;
			if (a->seen_tclass >= 0)
				return (struct tclass_seen){
					.known = true,
					.tclass = (uint8_t)a->seen_tclass };
		}
	}
	for (unsigned q = 0; q < h->sent; q++)
		if (h->answered[q] && quoted[q].known)
			return quoted[q];
	return (struct tclass_seen){ .known = false };
}

static const char *ecn_name(unsigned ecn)
{
	static const char *const names[] = { "Not-ECT", "ECT(1)", "ECT(0)",
					      "CE" };

	return names[ecn & 3];
}

/* "hop 2 (198.18.12.2)", "hop 3 (the responder, 198.18.4.4)", "this
 * host" for point -1. */
static void point_name(int point, const char *const *from,
		       const bool *responder, char *buf, size_t len)
{
	if (point < 0)
		snprintf(buf, len, "this host");
	else if (responder[point])
		snprintf(buf, len, "hop %d (the responder, %s)", point + 1,
			 from[point] ? from[point] : "?");
	else
		snprintf(buf, len, "hop %d (%s)", point + 1,
			 from[point] ? from[point] : "*");
}

/* Where the DSCP and the ECN bits changed on the way (lib/trace/tclass_locate.h)
 * from the routers' quotes and the responder's GRH: JSON
 * "traffic_class_changes", a line each in text. */
static void print_tclass_changes(const struct flow *f, uint8_t tclass)
{
	static const struct {
		const char *field, *name;
		uint8_t mask;
		unsigned shift;
	} parts[] = {
		{ "dscp", "DSCP", TCLASS_MASK_DSCP, 2 },
		{ "ecn", "ECN", TCLASS_MASK_ECN, 0 },
	};
	struct tclass_seen points[ROCE_TRACE_MAX_HOPS];
	const char *from[ROCE_TRACE_MAX_HOPS];
	bool responder[ROCE_TRACE_MAX_HOPS];
	unsigned n = f->trace.hop_count;

	for (unsigned i = 0; i < n; i++)
		points[i] = hop_point(&f->trace.hops[i], f->quoted[i], &from[i],
				      &responder[i]);
	out_bool("per_hop_traffic_class", NULL, f->per_hop);
	out_open_array("traffic_class_changes");
	for (size_t k = 0; k < sizeof(parts) / sizeof(parts[0]); k++) {
		struct tclass_change c;
		char after[96], before[96], sent[16], seen[16];

		tclass_locate(tclass, points, n, parts[k].mask, &c);
		if (!c.changed)
			continue;
		point_name(c.after, from, responder, after, sizeof(after));
		point_name(c.before, from, responder, before, sizeof(before));
		out_open_object(NULL);
		out_string("field", NULL, parts[k].field);
		out_uint("sent", NULL, c.sent >> parts[k].shift);
		out_uint("seen", NULL, c.seen >> parts[k].shift);
		out_uint("after_hop", NULL, (unsigned)(c.after + 1));
		if (c.after >= 0 && from[c.after])
			out_string("after", NULL, from[c.after]);
		else
			out_null("after", NULL);
		out_uint("before_hop", NULL, (unsigned)(c.before + 1));
		out_string("before", NULL, from[c.before] ? from[c.before] : "?");
		out_bool("before_is_responder", NULL, responder[c.before]);
		out_close_object();
		if (parts[k].mask == TCLASS_MASK_ECN) {
			snprintf(sent, sizeof(sent), "%s", ecn_name(c.sent));
			snprintf(seen, sizeof(seen), "%s", ecn_name(c.seen));
		} else {
			snprintf(sent, sizeof(sent), "%u", c.sent >> 2);
			snprintf(seen, sizeof(seen), "%u", c.seen >> 2);
		}
		out_text("  %s %s became %s between %s and %s%s\n",
			 parts[k].name, sent, seen, after, before,
			 f->per_hop ? ""
				    : " (per hop: needs CAP_NET_RAW)");
	}
	out_close_array();
}

/* Who traced, as probe's results name their source (source.host,
 * source.sgid), so report --traces joins a flow with the probe results of
 * the same host, source GID and destination; null before a GID was
 * chosen (the destination failed first). */
static void print_source(const struct probe_session *s,
			 const struct probe_cell *c)
{
	const struct gid_info *sgid =
		c->attr.is_global
			? ah_facts_gid(&s->facts, c->attr.grh.sgid_index)
			: NULL;
	char text[64];

	out_string("host", NULL, s->hostname);
	out_string("device", NULL, s->device);
	if (sgid) {
		out_string("sgid", NULL, gid_format(&sgid->gid, text,
						    sizeof(text)));
		out_string("source_address", NULL,
			   gid_format_address(&sgid->gid, text, sizeof(text)));
	} else {
		out_null("sgid", NULL);
		out_null("source_address", NULL);
	}
}

static void print_flow(const struct probe_session *s, const struct flow *f,
		       uint8_t tclass, unsigned queries)
{
	const struct probe_cell *c = f->cell;
	char dgid[64];

	out_open_object(NULL);
	out_string("schema", NULL, TRACE_SCHEMA);
	print_source(s, c);
	out_string("dest", "%s", c->target->dest->text);
	gid_format_address(&c->attr.grh.dgid, dgid, sizeof(dgid));
	out_string("dest_address", " (%s", dgid);
	out_uint("qpn", ", QPN %" PRIu64 ")", c->target->info.qpn);
	if (f->port_given) {
		out_null("flow_label", NULL);
		out_uint("udp_sport", ": UDP source port %" PRIu64,
			 f->udp_sport);
	} else {
		out_uint("flow_label", ": flow label 0x%05" PRIx64,
			 f->flow_label);
		out_uint("udp_sport", " (UDP source port %" PRIu64 ")",
			 f->udp_sport);
	}
	out_uint("traffic_class", ", tclass 0x%02" PRIx64, tclass);
	out_newline();
	if (f->error[0]) {
		out_string("status", NULL, "error");
		out_string("error", "  %s\n", f->error);
		out_open_array("hops");
		out_close_array();
		out_null("per_hop_traffic_class", NULL);
		out_open_array("traffic_class_changes");
		out_close_array();
	} else {
		out_string("status", NULL, end_key(f->trace.end));
		out_null("error", NULL);
		out_open_array("hops");
		for (unsigned i = 0; i < f->trace.hop_count; i++)
			print_hop(&f->trace.hops[i], f->quoted[i], queries,
				  tclass);
		out_close_array();
		print_tclass_changes(f, tclass);
		if (f->trace.end == ROCE_TRACE_MAX_HOPS_END)
			out_text("  not reached within %u hops\n",
				 f->trace.hop_count);
	}
	print_path(f);
	out_close_object();
}

/* The flow's router path: per hop the first address that answered (one
 * flow is one 5-tuple, so one ECMP choice per hop). When the responder
 * answered, the hop limit its datagram arrived with tells how many
 * routers it crossed; silent hops between the last router and the
 * responder's line were queries that reached the responder but whose
 * answer came late or got lost (the responder, not a router), so the
 * path ends at the responder right after the last router. */
static void flow_path(struct flow *f, unsigned queries)
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

/* Numbers the distinct paths of one destination's n flows (pf and index
 * are scratch arrays of n); returns the count, or -1 when out of memory. */
static long number_paths(struct flow *flows, size_t n,
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

static const char *end_words(enum roce_trace_end end)
{
	switch (end) {
	case ROCE_TRACE_REACHED: return "responder";
	case ROCE_TRACE_REFUSED: return "no RoCE listener";
	case ROCE_TRACE_UNREACHABLE: return "unreachable";
	case ROCE_TRACE_MAX_HOPS_END: return "not reached";
	case ROCE_TRACE_RUNNING: break;
	}
	return "error";
}

/* After a destination's flows (text): how many distinct router paths,
 * then per path its routers ("*" where every flow of it was silent), how
 * it ends, and the flow labels that took it, wrapped under 100 columns. */
static void print_paths(const struct flow *flows, size_t n, size_t paths,
			const struct trace_path_flow *pf,
			const unsigned *index, uint32_t *labels)
{
	/* A label list of ROCE_TRACE_MAX_FLOWS scattered labels, wrapped. */
	enum { LIST_MAX = ROCE_TRACE_MAX_FLOWS * 12 + 64 };
	char words[LIST_MAX], text[LIST_MAX + LIST_MAX / 80 * 8];
	size_t traced = 0, untraced = 0;
	const struct flow *failed = NULL;

	for (size_t i = 0; i < n; i++) {
		traced += flows[i].path_index != 0;
		if (!flows[i].path_index) {
			untraced++;
			failed = failed ? failed : &flows[i];
		}
	}
	out_text("%s: %zu distinct path%s over %zu flow%s\n",
		 flows[0].cell->target->dest->text, paths,
		 paths == 1 ? "" : "s", traced, traced == 1 ? "" : "s");
	for (unsigned p = 1; p <= paths; p++) {
		const struct flow *first = NULL;
		size_t used = 0, wused = 0, nl = 0, hops, distinct;
		char list[LIST_MAX - 32];

		for (size_t i = 0; i < n; i++)
			if (flows[i].path_index == p) {
				first = first ? first : &flows[i];
				labels[nl++] = flows[i].port_given
						       ? flows[i].udp_sport
						       : flows[i].flow_label;
			}
		if (!first)
			continue;
		hops = first->path_len;
		if (first->trace.end == ROCE_TRACE_REACHED && hops)
			hops--;	/* the last is the responder itself */
		text_append(words, sizeof(words), &wused, "path %u:", p);
		for (size_t h = 0; h < hops; h++) {
			const char *a = trace_paths_address(pf, n, index, p, h);

			text_append(words, sizeof(words), &wused, " %s",
				    a ? a : "*");
		}
		text_append(words, sizeof(words), &wused, " -> %s",
			    end_words(first->trace.end));
		text_wrap_append(text, sizeof(text), &used, words, 2, 10, 99);
		distinct = trace_paths_format_labels(labels, nl, list,
						     sizeof(list));
		wused = 0;
		text_append(words, sizeof(words), &wused, "%s%s %s (%zu)",
			    first->port_given ? "UDP source port" : "flow label",
			    distinct == 1 ? "" : "s", list, distinct);
		text_wrap_append(text, sizeof(text), &used, words, 4, 6, 99);
		out_text("%s", text);
	}
	if (untraced)
		out_text("  %zu flow%s not traced: %s\n", untraced,
			 untraced == 1 ? "" : "s", failed->error);
}

struct path_scratch {
	struct trace_path_flow *pf;
	unsigned *index;
	uint32_t *labels;
};

/* What each flow of a destination stands for: a UDP source port as
 * given (--udp-sport), else a flow label (its port); NULL: flow label 0
 * alone. */
static const struct value_list *flow_keys(const struct trace_roce_options *o,
					  bool *by_port)
{
	*by_port = o->udp_sports && o->udp_sports->count;
	return *by_port ? o->udp_sports : o->flow_labels;
}

/* Once a destination's n flows are traced: their path numbers, then the
 * flows (each with its hops; in text, with a sweep of several flow
 * labels, only with -v) and, for a sweep, the path summary (text).
 * *printed: something is on the page already (a blank line goes
 * between). Returns -1 when out of memory. */
static int print_destination(const struct probe_session *s,
			     struct flow *flows, size_t n,
			     const struct trace_roce_options *o,
			     struct path_scratch *ps, bool *printed)
{
	bool by_port;
	const struct value_list *keys = flow_keys(o, &by_port);
	bool sweep = keys && keys->count > 1;
	bool show_flows = out_is_json() || !sweep || diag_verbosity >= 1;
	long paths = number_paths(flows, n, ps->pf, ps->index);

	if (paths < 0)
		return -1;
	for (size_t i = 0; i < n && show_flows; i++) {
		if (*printed)
			out_text("\n");
		print_flow(s, &flows[i], flows[i].cell->asked.traffic_class,
			   o->queries);
		*printed = true;
	}
	if (sweep) {
		if (*printed)
			out_text("\n");
		print_paths(flows, n, (size_t)paths, ps->pf, ps->index,
			    ps->labels);
		*printed = true;
	}
	return 0;
}

int trace_roce_run(const struct common_opts *common,
		   const struct dest_list *dests,
		   const struct trace_roce_options *o)
{
	static const uint32_t zero = 0;
	/* Each flow is a flow label (its UDP source port), or with
	 * --udp-sport a source port as given. */
	bool by_port;
	const struct value_list *fls = flow_keys(o, &by_port);
	const struct value_list *tcs = o->traffic_classes;
	size_t nfl = fls && fls->count ? fls->count : 1;
	size_t ntc = tcs && tcs->count ? tcs->count : 1;
	size_t per_dest = nfl * ntc;
	struct device_list devices = { 0 };
	const struct device_info *dev;
	const struct port_info *port;
	struct probe_session s = {
		.settings = {
			.count = 1, .interval_ms = 0,
			.size = PROBE_REQUEST_MIN_SIZE, .window = 1,
			.timeout_ms = common->timeout_ms,
			.gid_index = common->gid_index,
			.skip_local_port = true,
		},
	};
	struct probe_target *targets = NULL;
	struct flow *flows = NULL;
	struct tracer tr = { .s = &s, .raw_fd = { -1, -1 } };
	char err[DIAG_MSG_MAX];
	struct path_scratch scratch = { 0 };
	size_t reached = 0, ready = 0;
	bool printed = false;
	int rc;

	if (device_discover(&devices, common->device, err, sizeof(err))) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out;
	}
	port = device_pick_port(&devices, common->device, common->port, &dev,
				s.device_note, sizeof(s.device_note), err,
				sizeof(err));
	if (!port) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out;
	}
	if (dev->source != DEVICE_FROM_VERBS) {
		rc = cli_fail(EXIT_ENVIRONMENT, "trace on RoCE needs a verbs "
			      "device (its UD QP takes the responder's "
			      "replies); %s is visible through umad only",
			      dev->name);
		goto out;
	}
	probe_session_init(&s, dev, port);
	targets = calloc(dests->count, sizeof(*targets));
	s.cell_count = dests->count * per_dest;
	s.cells = calloc(s.cell_count, sizeof(*s.cells));
	flows = calloc(s.cell_count, sizeof(*flows));
	scratch.pf = calloc(per_dest, sizeof(*scratch.pf));
	scratch.index = calloc(per_dest, sizeof(*scratch.index));
	scratch.labels = calloc(per_dest, sizeof(*scratch.labels));
	if (!targets || !s.cells || !flows || !scratch.pf || !scratch.index ||
	    !scratch.labels) {
		rc = cli_fail(EXIT_ENVIRONMENT, "out of memory");
		goto out;
	}
	for (size_t t = 0; t < dests->count; t++) {
		targets[t].dest = &dests->items[t];
		for (size_t i = 0; i < per_dest; i++) {
			size_t k = t * per_dest + i;
			const uint32_t *fl = fls && fls->count
						     ? &fls->values[i % nfl]
						     : &zero;
			const uint32_t *tc = tcs && tcs->count
						     ? &tcs->values[i / nfl]
						     : &zero;

			s.cells[k].target = &targets[t];
			s.cells[k].asked = (struct probe_params){
				.hop_limit = 64, .traffic_class = (uint8_t)*tc,
				.flow_label = by_port ? 0 : *fl,
			};
			flows[k].cell = &s.cells[k];
			flows[k].port_given = by_port;
			flows[k].flow_label = by_port ? 0 : *fl;
			flows[k].udp_sport =
				by_port ? (uint16_t)*fl
					: roce_flow_label_to_udp_sport(*fl);
		}
	}
	probe_session_resolve_targets(&s);
	for (size_t t = 0; t < dests->count; t++)
		ready += targets[t].ready;
	if (ready && probe_session_open(&s, dev, port, err, sizeof(err))) {
		rc = cli_fail(EXIT_ENVIRONMENT, "%s", err);
		goto out;
	}
	if (ready)
		probe_session_prepare(&s);
	/* The run's answers carry this in their PSN, so another run's late
	 * ICMP is not taken for ours. */
	tr.nonce = (uint8_t)(s.probe_id >> 8);
	out_open_array(NULL);
	for (size_t k = 0; k < s.cell_count; k++) {
		struct flow *f = &flows[k];
		struct probe_cell *c = f->cell;

		tr.tclass = c->asked.traffic_class;
		if (!c->target->ready)
			snprintf(f->error, sizeof(f->error), "%s",
				 c->target->error[0] ? c->target->error
						     : "no responder");
		else if (c->target->local_port)
			snprintf(f->error, sizeof(f->error), "the destination "
				 "is this port itself");
		else if (c->error[0])
			snprintf(f->error, sizeof(f->error), "%s", c->error);
		else if (trace_flow(&tr, f, o, common->timeout_ms) == 0 &&
			 f->trace.end == ROCE_TRACE_REACHED)
			reached++;
		flow_path(f, o->queries);
		if ((k + 1) % per_dest == 0 &&
		    print_destination(&s, &flows[k + 1 - per_dest], per_dest,
				      o, &scratch, &printed)) {
			rc = cli_fail(EXIT_ENVIRONMENT, "out of memory");
			goto out;
		}
	}
	out_close_array();
	out_text("\n%zu flow%s: %zu reached the responder, %zu did not\n",
		 s.cell_count, s.cell_count == 1 ? "" : "s", reached,
		 s.cell_count - reached);
	rc = reached == s.cell_count ? EXIT_FINE : EXIT_PROBLEM;
out:
	for (int i = 0; i < 2; i++)
		if (tr.raw_fd[i] >= 0)
			close(tr.raw_fd[i]);
	if (s.cells)
		probe_session_close(&s);
	free(scratch.pf);
	free(scratch.index);
	free(scratch.labels);
	free(flows);
	free(s.cells);
	free(targets);
	device_list_free(&devices);
	return rc;
}
