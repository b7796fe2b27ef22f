/* The decisions of the RoCE v2 trace engine (lib/trace/roce_tracer.c)
 * with plain inputs, no sockets: GIDs as socket addresses and IP fields;
 * error queue messages (ICMP and ICMPv6 time exceeded, unreachable, too
 * big, local errors) as a hop's answers; routers' quotes of datagrams
 * built by lib/wire/roce_packet.h, of our flow and of others; a flow's
 * router path where the responder's answers came late; the numbering of
 * a destination's paths; what a flow stands for; which query of several
 * in flight an error answers, and the sequence that names flow and query
 * in serve's reply. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "wire/icmp_quote.h"
#include "wire/roce_packet.h"
#include "trace/roce_tracer.h"
#include "trace/roce_trace_print.h"
#include "tap.h"

#define MS 1000000ull
#define NONCE 0x5a
#define QPN 0x11
#define SPORT 49153

static struct sockaddr_storage v4(const char *text)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;

	in->sin_family = AF_INET;
	inet_pton(AF_INET, text, &in->sin_addr);
	return ss;
}

static struct sockaddr_storage v6(const char *text)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

	in6->sin6_family = AF_INET6;
	inet_pton(AF_INET6, text, &in6->sin6_addr);
	return ss;
}

static void test_addresses(void)
{
	union ibv_gid mapped = { 0 }, gid6;
	struct sockaddr_storage sa, src = v4("198.18.1.1"),
				    dst = v4("198.18.4.4");
	struct roce_ip_fields ip;
	static const uint8_t a4[4] = { 198, 18, 4, 4 };

	mapped.raw[10] = mapped.raw[11] = 0xff;
	memcpy(mapped.raw + 12, a4, 4);
	roce_gid_sockaddr(&mapped, &sa);
	ok(sa.ss_family == AF_INET &&
		   memcmp(&((struct sockaddr_in *)&sa)->sin_addr, a4, 4) == 0,
	   "an IPv4-mapped GID is an IPv4 address");
	is_int(((struct sockaddr_in *)&sa)->sin_port, 0, "with no port");
	inet_pton(AF_INET6, "2001:db8:4::4", gid6.raw);
	roce_gid_sockaddr(&gid6, &sa);
	ok(sa.ss_family == AF_INET6 &&
		   memcmp(&((struct sockaddr_in6 *)&sa)->sin6_addr, gid6.raw,
			  16) == 0,
	   "another GID is its IPv6 address");

	memset(&ip, 0xee, sizeof(ip));
	roce_ip_fields_of(&src, &dst, &ip);
	ok(!ip.ipv6 && ip.src[0] == 198 && ip.src[3] == 1 &&
		   memcmp(ip.dst, a4, 4) == 0,
	   "IPv4 fields: source and destination addresses");
	ok(ip.traffic_class == 0 && ip.hop_limit == 0 && ip.flow_label == 0,
	   "the rest is zero, for the caller to set");
	src = v6("2001:db8:1::1");
	dst = v6("2001:db8:4::4");
	roce_ip_fields_of(&src, &dst, &ip);
	ok(ip.ipv6 && ip.src[15] == 1 && memcmp(ip.dst, gid6.raw, 16) == 0,
	   "IPv6 fields: 16-byte addresses");
}

static struct icmp_err err_from(enum icmp_err_kind kind,
				const struct sockaddr_storage *offender,
				uint8_t type, uint8_t code)
{
	struct icmp_err e = { .kind = kind, .type = type, .code = code,
			      .reply_ttl = 62 };

	if (offender) {
		e.has_offender = true;
		e.offender = *offender;
	}
	return e;
}

static void test_error_answer(void)
{
	struct sockaddr_storage r4 = v4("198.18.12.2"),
				r6 = v6("2001:db8:12::2"),
				d6 = v6("2001:db8:4::4");
	struct icmp_err e;
	struct roce_answer a;

	e = err_from(ICMP_ERR_TIME_EXCEEDED, &r4, 11, 0);
	ok(roce_error_answer(&e, &a), "IPv4 time exceeded is an answer");
	is_int(a.kind, ROCE_ANSWER_TIME_EXCEEDED, "of a router");
	is_str(a.from, "198.18.12.2", "from the ICMP message's source");
	is_int(a.reply_ttl, 62, "with the hop limit it arrived with");
	ok(a.seen_tclass == -1 && a.seen_hop_limit == -1,
	   "a router's answer says nothing of what the responder saw");

	e = err_from(ICMP_ERR_TIME_EXCEEDED, &r6, 3, 0);
	ok(roce_error_answer(&e, &a) && a.kind == ROCE_ANSWER_TIME_EXCEEDED,
	   "ICMPv6 time exceeded is a router's answer");
	is_str(a.from, "2001:db8:12::2", "named by its IPv6 address");

	e = err_from(ICMP_ERR_PORT_UNREACHABLE, &d6, 1, 4);
	ok(roce_error_answer(&e, &a) && a.kind == ROCE_ANSWER_PORT_UNREACHABLE,
	   "ICMPv6 port unreachable: no RoCE listener");
	is_str(a.from, "2001:db8:4::4", "from the destination");

	e = err_from(ICMP_ERR_UNREACHABLE, &r4, 3, 13);
	ok(roce_error_answer(&e, &a) && a.kind == ROCE_ANSWER_UNREACHABLE,
	   "IPv4 administratively prohibited: unreachable");
	ok(a.icmp_type == 3 && a.icmp_code == 13, "type and code kept");

	e = err_from(ICMP_ERR_TOO_BIG, &r6, 2, 0);
	e.mtu = 1280;
	ok(roce_error_answer(&e, &a) && a.kind == ROCE_ANSWER_TOO_BIG &&
		   a.mtu == 1280,
	   "packet too big, with the MTU the router said");

	e = err_from(ICMP_ERR_TIME_EXCEEDED, NULL, 11, 0);
	ok(roce_error_answer(&e, &a), "an error with no offender still counts");
	is_str(a.from, "?", "from someone unknown");

	e = err_from(ICMP_ERR_LOCAL_EMSGSIZE, NULL, 0, 0);
	ok(!roce_error_answer(&e, &a), "a local EMSGSIZE is no hop's answer");
	e = err_from(ICMP_ERR_OTHER, &r4, 12, 0);
	ok(!roce_error_answer(&e, &a), "a parameter problem is no answer");
}

/* Our datagram as it left: a probe request in a UD SEND_ONLY to QPN,
 * PSN of (nonce, hop 2, query 1), from port sport; the IP header is
 * written to iph (its length in *iplen), the UDP header to udph, the
 * BTH on to dgram. Returns the datagram's length. */
static size_t datagram(bool ipv6, uint16_t sport, uint8_t nonce,
		       uint8_t *iph, size_t *iplen, uint8_t *udph,
		       uint8_t *dgram, size_t cap)
{
	uint8_t payload[PROBE_REQUEST_MIN_SIZE] = { 0 };
	struct roce_ud_fields uf = {
		.dest_qpn = QPN, .qkey = UD_DEFAULT_QKEY, .src_qpn = 0x12,
		.psn = roce_probe_psn(nonce, 2, 1), .pkey = 0xffff,
	};
	struct sockaddr_storage src = ipv6 ? v6("2001:db8:1::1")
					   : v4("198.18.1.1");
	struct sockaddr_storage dst = ipv6 ? v6("2001:db8:4::4")
					   : v4("198.18.4.4");
	struct roce_ip_fields ip;
	size_t dlen = 0;

	roce_ud_encode(&uf, payload, sizeof(payload), dgram, cap, &dlen);
	roce_ip_fields_of(&src, &dst, &ip);
	ip.traffic_class = 0x28;
	ip.hop_limit = 1;
	ip.ipv4_df = true;
	*iplen = roce_ip_header_predict(&ip, dlen, iph, ROCE_IPV6_HEADER_BYTES);
	roce_udp_header_build(sport, dlen, udph);
	roce_icrc_seal(iph, *iplen, udph, dgram, dlen);
	return dlen;
}

/* The raw socket's view of a router's time exceeded about that datagram,
 * quoting quote_len bytes of it past the UDP header, decoded. */
static int router_quote(bool ipv6, uint16_t sport, uint8_t nonce,
			size_t quote_len, struct icmp_quote *q)
{
	static const uint8_t outer_v4[20] = {
		0x45, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x3f, 0x01, 0x00, 0x00, 198, 18, 12, 2, 198, 18, 1, 1,
	};
	uint8_t iph[ROCE_IPV6_HEADER_BYTES], udph[ROCE_UDP_HEADER_BYTES];
	uint8_t dgram[ROCE_UD_DATAGRAM_MAX], msg[ROCE_UD_DATAGRAM_MAX + 128];
	size_t iplen, dlen, n = 0;

	dlen = datagram(ipv6, sport, nonce, iph, &iplen, udph, dgram,
			sizeof(dgram));
	if (quote_len > dlen)
		quote_len = dlen;
	if (!ipv6) {
		memcpy(msg, outer_v4, sizeof(outer_v4));
		n = sizeof(outer_v4);
	}
	memset(msg + n, 0, 8);
	msg[n] = ipv6 ? 3 : 11;	/* time exceeded */
	n += 8;
	memcpy(msg + n, iph, iplen);
	n += iplen;
	memcpy(msg + n, udph, sizeof(udph));
	n += sizeof(udph);
	memcpy(msg + n, dgram, quote_len);
	n += quote_len;
	return ipv6 ? icmp_quote_decode_ipv6(msg, n, q)
		    : icmp_quote_decode_ipv4(msg, n, q);
}

static void test_quote_is_ours(void)
{
	struct sockaddr_storage d4 = v4("198.18.4.4"), other = v4("198.18.4.5"),
				d6 = v6("2001:db8:4::4");
	struct icmp_quote q;

	is_int(router_quote(false, SPORT, NONCE, 64, &q), 0,
	       "an IPv4 router's quote of our datagram decodes");
	ok(q.has_bth && q.tclass == 0x28, "with the BTH and the TOS sent");
	ok(roce_quote_is_ours(&q, &d4, SPORT, QPN, NONCE),
	   "our flow: destination, ports, opcode, QPN and nonce match");
	ok(!roce_quote_is_ours(&q, &d4, SPORT + 1, QPN, NONCE),
	   "another flow's source port: not ours");
	ok(!roce_quote_is_ours(&q, &d4, SPORT, QPN, NONCE + 1),
	   "another run's nonce: not ours");
	ok(!roce_quote_is_ours(&q, &d4, SPORT, QPN + 1, NONCE),
	   "another responder's QP: not ours");
	ok(!roce_quote_is_ours(&q, &other, SPORT, QPN, NONCE),
	   "another destination: not ours");
	ok(!roce_quote_is_ours(&q, &d6, SPORT, QPN, NONCE),
	   "an IPv4 quote for an IPv6 destination: not ours");

	q.dport = 4792;
	ok(!roce_quote_is_ours(&q, &d4, SPORT, QPN, NONCE),
	   "a datagram to another UDP port: not ours");
	is_int(router_quote(false, SPORT, NONCE, 64, &q), 0, "again");
	q.opcode = 0x04;	/* RC SEND_ONLY: rxe's own traffic */
	ok(!roce_quote_is_ours(&q, &d4, SPORT, QPN, NONCE),
	   "an RC send from the same port: not ours");

	/* An RFC 792 router: 8 bytes past the IP header, the UDP header. */
	is_int(router_quote(false, SPORT, NONCE + 1, 0, &q), 0,
	       "a quote without the BTH decodes");
	ok(q.has_udp && !q.has_bth, "UDP quoted, the BTH not");
	ok(roce_quote_is_ours(&q, &d4, SPORT, QPN, NONCE),
	   "without the BTH, destination and ports decide (nonce unseen)");
	ok(!roce_quote_is_ours(&q, &d4, SPORT + 1, QPN, NONCE),
	   "but another port is still not ours");

	is_int(router_quote(true, SPORT, NONCE, 64, &q), 0,
	       "an IPv6 router's quote decodes");
	ok(roce_quote_is_ours(&q, &d6, SPORT, QPN, NONCE),
	   "IPv6: our flow");
	ok(!roce_quote_is_ours(&q, &d4, SPORT, QPN, NONCE),
	   "an IPv6 quote for an IPv4 destination: not ours");
	ok(!roce_quote_is_ours(&q, &d6, SPORT, QPN, NONCE - 1),
	   "IPv6: another run's nonce, not ours");
}

static struct roce_answer answer(enum roce_answer_kind kind, const char *from,
				 int seen_hop_limit)
{
	struct roce_answer a = { .kind = kind, .reply_ttl = -1,
				 .seen_tclass = -1,
				 .seen_hop_limit = seen_hop_limit };

	snprintf(a.from, sizeof(a.from), "%s", from);
	return a;
}

/* Hop limits 1 and 2 answer from routers r1 and r2, silent hop limits
 * answer nothing, from hop limit reply_at on the responder's reply
 * arrives with the hop limit left after two routers. */
struct fabric {
	const char *r1, *r2;
	unsigned silent_from, silent_to, reply_at;
	unsigned max_hops;
};

static void trace(struct roce_flow *f, const struct fabric *fab)
{
	struct roce_trace_settings settings = {
		.first_hop = 1, .max_hops = fab->max_hops, .queries = 3,
		.wait_ns = 1000 * MS,
	};
	struct roce_step step;
	uint64_t now = 0;

	memset(f, 0, sizeof(*f));
	roce_trace_init(&f->trace, &settings);
	while ((step = roce_trace_next(&f->trace, now)).kind !=
	       ROCE_STEP_DONE) {
		unsigned hl = step.hop_limit;
		struct roce_answer a;

		if (step.kind == ROCE_STEP_WAIT) {
			now = step.until_ns;
			continue;
		}
		if (hl >= fab->silent_from && hl <= fab->silent_to)
			continue;
		if (hl == 1)
			a = answer(ROCE_ANSWER_TIME_EXCEEDED, fab->r1, -1);
		else if (hl == 2)
			a = answer(ROCE_ANSWER_TIME_EXCEEDED, fab->r2, -1);
		else if (fab->reply_at && hl >= fab->reply_at)
			a = answer(ROCE_ANSWER_REPLY, "198.18.4.4",
				   (int)hl - 2);
		else
			continue;
		now += MS;
		roce_trace_answer(&f->trace, step.tag, &a);
	}
}

static struct roce_flow flows[4];

static void test_flow_path(void)
{
	struct roce_flow *f = &flows[0];

	trace(f, &(struct fabric){ "198.18.1.254", "198.18.12.2", 0, 0, 3,
				   16 });
	roce_flow_path(f, 3);
	is_int(f->path_len, 3, "two routers and the responder: three hops");
	ok(f->path[0] && f->path[1] && f->path[2] &&
		   strcmp(f->path[0], "198.18.1.254") == 0 &&
		   strcmp(f->path[2], "198.18.4.4") == 0,
	   "each hop's first answer");

	/* The responder's answers to hop limits 3 and 4 were lost; the
	 * reply to 5 arrived with hop limit 3 left: two routers crossed. */
	trace(f, &(struct fabric){ "198.18.1.254", "198.18.12.2", 3, 4, 5,
				   16 });
	is_int(f->trace.hop_count, 5, "traced to hop limit 5");
	roce_flow_path(f, 3);
	is_int(f->path_len, 3,
	       "silent hops before the responder's line were its own: cut");
	ok(f->path[2] && strcmp(f->path[2], "198.18.4.4") == 0,
	   "the path ends at the responder right after the last router");

	/* A router silent in the middle, then the responder: its hop is
	 * a router's (the hop limit left says two were crossed). */
	trace(f, &(struct fabric){ "198.18.1.254", "198.18.12.2", 2, 2, 3,
				   16 });
	roce_flow_path(f, 3);
	ok(f->path_len == 3 && !f->path[1],
	   "a silent router stays a hop of the path, unnamed");

	trace(f, &(struct fabric){ "198.18.1.254", "198.18.12.2", 3, 64, 0,
				   6 });
	is_int(f->trace.end, ROCE_TRACE_MAX_HOPS_END, "never reached");
	roce_flow_path(f, 3);
	ok(f->path_len == 6 && !f->path[5],
	   "a flow that never reached keeps every hop tried");

	snprintf(f->error, sizeof(f->error), "no responder");
	roce_flow_path(f, 3);
	is_int(f->path_len, 0, "a flow that could not be traced has no path");
}

static void test_number_paths(void)
{
	struct trace_path_flow pf[4];
	unsigned index[4];

	trace(&flows[0], &(struct fabric){ "198.18.1.254", "198.18.12.2", 0,
					   0, 3, 16 });
	trace(&flows[1], &(struct fabric){ "198.18.1.254", "198.18.13.2", 0,
					   0, 3, 16 });
	trace(&flows[2], &(struct fabric){ "198.18.1.254", "198.18.12.2", 0,
					   0, 3, 16 });
	trace(&flows[3], &(struct fabric){ "198.18.1.254", "198.18.12.2", 0,
					   0, 3, 16 });
	snprintf(flows[3].error, sizeof(flows[3].error), "no responder");
	for (size_t i = 0; i < 4; i++)
		roce_flow_path(&flows[i], 3);
	is_int(roce_flows_number_paths(flows, 4, pf, index), 2,
	       "two distinct paths over the traced flows");
	ok(flows[0].path_index == 1 && flows[1].path_index == 2 &&
		   flows[2].path_index == 1,
	   "numbered in order of first appearance");
	is_int(flows[3].path_index, 0, "the untraced flow is on no path");
}

static void test_flow_keys(void)
{
	uint32_t ports[] = { 49153, 49154 }, labels[] = { 1, 2, 3 };
	struct value_list sports = { 2, ports }, fls = { 3, labels },
			  none = { 0, NULL };
	bool by_port = false;

	ok(roce_flow_keys(&sports, &fls, &by_port) == &sports && by_port,
	   "--udp-sport given: each flow is a source port");
	by_port = true;
	ok(roce_flow_keys(&none, &fls, &by_port) == &fls && !by_port,
	   "no ports: each flow is a flow label");
	ok(roce_flow_keys(NULL, NULL, &by_port) == NULL && !by_port,
	   "neither: flow label 0 alone");
}

/* Flow label 0 on mlx5 and hns: a random UDP source port per AH
 * (mlx5_ah_set_udp_sport, hns get_ah_udp_sport), so the trace of label 0
 * does not follow the probes; rxe (its QP's port) and a nonzero label
 * have nothing to say. */
static void test_label_zero_note(void)
{
	char note[200];

	ok(!roce_trace_label_followed(PROVIDER_MLX5, false, 0, note,
				      sizeof(note)), "mlx5, label 0: not followed");
	is_str(note, "flow label 0: mlx5 sends the probes from a random UDP "
	       "source port, so this trace (port 49152) does not show the "
	       "probes' path; give a nonzero --flow-label to both",
	       "mlx5, label 0: the words");
	ok(!roce_trace_label_followed(PROVIDER_HNS, false, 0, note,
				      sizeof(note)), "hns, label 0: not followed");
	ok(roce_trace_label_followed(PROVIDER_MLX5, false, 7, note,
				     sizeof(note)) && !note[0],
	   "mlx5, label 7: followed, nothing said");
	ok(roce_trace_label_followed(PROVIDER_MLX5, true, 0, note,
				     sizeof(note)), "--udp-sport: followed");
	ok(roce_trace_label_followed(PROVIDER_RXE, false, 0, note,
				     sizeof(note)), "rxe, label 0: its QP's port");
	ok(roce_trace_label_followed(PROVIDER_UNKNOWN, false, 0, note,
				     sizeof(note)), "unknown: nothing claimed");
}

/* An error about a datagram to target: as much of the BTH quoted as
 * quote_len says (opcode, dest QPN, PSN of hop, query). */
static struct icmp_err err_quoting(const struct sockaddr_storage *target,
				   size_t quote_len, uint8_t hop, uint8_t query)
{
	struct sockaddr_storage r4 = v4("198.18.12.2");
	struct icmp_err e = err_from(ICMP_ERR_TIME_EXCEEDED, &r4, 11, 0);

	e.has_dest = true;
	e.dest = *target;
	e.quote_len = quote_len;
	e.quote_opcode = ROCE_OPCODE_UD_SEND_ONLY;
	e.quote_dest_qpn = QPN;
	e.has_bth = quote_len >= 12;
	e.quote_psn = roce_probe_psn(NONCE, hop, query);
	return e;
}

static void test_error_place(void)
{
	struct sockaddr_storage target = v4("198.18.4.4");
	const uint32_t tags[3] = { 0x201, 0x300, 0x302 };
	struct icmp_err e;
	uint32_t tag = 0;
	bool named = false;

	((struct sockaddr_in *)&target)->sin_port = htons(4791);
	e = err_quoting(&target, 12, 3, 0);
	ok(roce_error_place(&e, &target, QPN, NONCE, tags, 3, &tag, &named) ==
		   ROCE_ERROR_PLACED && tag == 0x300 && named,
	   "the quoted PSN names hop 3 query 0 of three in flight");
	e = err_quoting(&target, 12, 4, 0);
	is_int(roce_error_place(&e, &target, QPN, NONCE, tags, 3, &tag, &named),
	       ROCE_ERROR_NOT_OURS, "a PSN of no query in flight: late, ignored");
	e.quote_psn = roce_probe_psn(NONCE + 1, 3, 0);
	is_int(roce_error_place(&e, &target, QPN, NONCE, tags, 3, &tag, &named),
	       ROCE_ERROR_NOT_OURS, "another run's nonce: not ours");
	e = err_quoting(&target, 0, 0, 0);
	is_int(roce_error_place(&e, &target, QPN, NONCE, tags, 3, &tag, &named),
	       ROCE_ERROR_UNPLACED,
	       "no BTH quoted, three in flight: ours, but not placed");
	ok(roce_error_place(&e, &target, QPN, NONCE, tags + 1, 1, &tag,
			    &named) == ROCE_ERROR_PLACED && tag == 0x300 &&
		   !named, "no BTH quoted, one in flight: that one, unnamed");
	e = err_quoting(&target, 8, 0, 0);
	e.quote_dest_qpn = QPN + 1;
	is_int(roce_error_place(&e, &target, QPN, NONCE, tags, 3, &tag, &named),
	       ROCE_ERROR_NOT_OURS, "another QP's datagram: not ours");
	e = err_quoting(&target, 0, 0, 0);
	e.dest = v4("198.18.3.3");
	is_int(roce_error_place(&e, &target, QPN, NONCE, tags, 3, &tag, &named),
	       ROCE_ERROR_NOT_OURS, "another destination: not ours");

	is_int(roce_query_sequence(5, 0x302), 0x50302,
	       "flow 5, hop 3, query 2 in one sequence");
	is_int(roce_query_sequence(0x10005, 0x302), 0x50302,
	       "flows 65536 apart share it (never in flight together)");
}

int main(void)
{
	test_error_place();
	test_label_zero_note();
	test_addresses();
	test_error_answer();
	test_quote_is_ours();
	test_flow_path();
	test_number_paths();
	test_flow_keys();
	return tap_done();
}
