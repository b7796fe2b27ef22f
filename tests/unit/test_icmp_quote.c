/* ICMP errors as raw sockets receive them (lib/wire/icmp_quote.c): an IPv4
 * time exceeded with its outer header, as a Linux router sends it (the
 * quoted header as it arrived: TTL 1, the DSCP before any rewrite); the
 * same quote cut after the UDP header (an RFC 792 router) and after the
 * IP header; IPv4 options on both headers; an ICMPv6 time exceeded and
 * packet too big; messages that quote nothing of ours. */
#include <string.h>

#include "wire/icmp_quote.h"
#include "tap.h"

/* 198.18.12.2 tells 198.18.1.1 that its datagram to 198.18.4.4 (TOS 0x28,
 * UDP 49153 -> 4791, UD SEND_ONLY to QPN 0x11, PSN 0xcf1710) ran out. */
static const uint8_t te_v4[] = {
	/* outer IPv4: TTL 63, ICMP, 198.18.12.2 -> 198.18.1.1 */
	0x45, 0xc0, 0x00, 0x4c, 0x00, 0x00, 0x00, 0x00,
	0x3f, 0x01, 0x00, 0x00, 0xc6, 0x12, 0x0c, 0x02,
	0xc6, 0x12, 0x01, 0x01,
	/* ICMP 11/0 */
	0x0b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* quoted IPv4: TOS 0x28, DF, TTL 1, UDP */
	0x45, 0x28, 0x00, 0xbc, 0x00, 0x00, 0x40, 0x00,
	0x01, 0x11, 0x00, 0x00, 0xc6, 0x12, 0x01, 0x01,
	0xc6, 0x12, 0x04, 0x04,
	/* UDP 49153 -> 4791 */
	0xc0, 0x01, 0x12, 0xb7, 0x00, 0xa8, 0x00, 0x00,
	/* BTH: SEND_ONLY UD, P_Key 0xffff, QPN 0x11, PSN 0xcf1710 */
	0x64, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x11,
	0x00, 0xcf, 0x17, 0x10,
};

static void test_ipv4(void)
{
	struct icmp_quote q;
	static const uint8_t from[4] = { 198, 18, 12, 2 };
	static const uint8_t dst[4] = { 198, 18, 4, 4 };
	uint8_t opts[sizeof(te_v4) + 8];

	is_int(icmp_quote_decode_ipv4(te_v4, sizeof(te_v4), &q), 0,
	       "IPv4 time exceeded decodes");
	ok(!q.ipv6 && q.type == 11 && q.code == 0, "type 11 code 0");
	is_mem(q.from, from, 4, "the router is the outer source");
	is_int(q.reply_ttl, 63, "the ICMP message arrived with TTL 63");
	is_int(q.tclass, 0x28, "the router saw TOS 0x28");
	is_int(q.hop_limit, 1, "and TTL 1");
	is_mem(q.dst, dst, 4, "our datagram was going to 198.18.4.4");
	ok(q.has_udp && q.sport == 49153 && q.dport == 4791, "UDP ports");
	ok(q.has_bth && q.opcode == 0x64 && q.dest_qpn == 0x11 &&
		   q.psn == 0xcf1710, "the BTH: opcode, QPN, PSN");

	/* An RFC 792 router: 8 bytes past the quoted IP header. */
	is_int(icmp_quote_decode_ipv4(te_v4, sizeof(te_v4) - 12, &q), 0,
	       "a quote up to the UDP header decodes");
	ok(q.has_udp && !q.has_bth && q.tclass == 0x28, "UDP, no BTH");
	is_int(icmp_quote_decode_ipv4(te_v4, 48, &q), 0,
	       "a quote of the IP header alone decodes");
	ok(!q.has_udp && !q.has_bth && q.tclass == 0x28, "no UDP, no BTH");
	is_int(icmp_quote_decode_ipv4(te_v4, 47, &q), -1,
	       "a quoted IP header cut short is refused");

	/* Options on the outer header (IHL 6) and the quoted one (IHL 6):
	 * the offsets follow the IHL, not 20. */
	memcpy(opts, te_v4, 20);
	opts[0] = 0x46;
	memset(opts + 20, 0x01, 4);	/* NOP options */
	memcpy(opts + 24, te_v4 + 20, 8);
	memcpy(opts + 32, te_v4 + 28, 20);
	opts[32] = 0x46;
	memset(opts + 52, 0x01, 4);
	memcpy(opts + 56, te_v4 + 48, sizeof(te_v4) - 48);
	is_int(icmp_quote_decode_ipv4(opts, sizeof(opts), &q), 0,
	       "headers with options decode");
	ok(q.tclass == 0x28 && q.sport == 49153 && q.psn == 0xcf1710,
	   "past the options: TOS, port and PSN");
}

static void test_ipv4_not_ours(void)
{
	uint8_t b[sizeof(te_v4)];
	struct icmp_quote q;

	memcpy(b, te_v4, sizeof(b));
	b[20] = 0;	/* echo reply: no quote */
	is_int(icmp_quote_decode_ipv4(b, sizeof(b), &q), -1, "echo reply");
	memcpy(b, te_v4, sizeof(b));
	b[20] = 3;	/* destination unreachable quotes too */
	b[21] = 3;
	is_int(icmp_quote_decode_ipv4(b, sizeof(b), &q), 0,
	       "port unreachable decodes");
	memcpy(b, te_v4, sizeof(b));
	b[37] = 6;	/* the quoted datagram is TCP */
	is_int(icmp_quote_decode_ipv4(b, sizeof(b), &q), -1, "a TCP quote");
	memcpy(b, te_v4, sizeof(b));
	b[9] = 17;	/* the outer packet is no ICMP */
	is_int(icmp_quote_decode_ipv4(b, sizeof(b), &q), -1, "not ICMP");
	memcpy(b, te_v4, sizeof(b));
	b[0] = 0x44;	/* IHL 4: less than a header */
	is_int(icmp_quote_decode_ipv4(b, sizeof(b), &q), -1, "IHL 4");
	memcpy(b, te_v4, sizeof(b));
	b[28] = 0x65;	/* the quote claims IPv6 */
	is_int(icmp_quote_decode_ipv4(b, sizeof(b), &q), -1,
	       "a quote of another version");
	is_int(icmp_quote_decode_ipv4(te_v4, 27, &q), -1, "ICMP cut short");
	is_int(icmp_quote_decode_ipv4(te_v4, 0, &q), -1, "nothing");
}

/* ICMPv6 time exceeded from a router: the quoted IPv6 header (traffic
 * class 0x30, flow label 0x00abc, hop limit 1), 2001:db8:1::1 ->
 * 2001:db8:4::4, UDP 49154 -> 4791, the BTH. */
static const uint8_t te_v6[] = {
	0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x63, 0x00, 0x0a, 0xbc, 0x00, 0xa8, 0x11, 0x01,
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x04, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04,
	0xc0, 0x02, 0x12, 0xb7, 0x00, 0xa8, 0x00, 0x00,
	0x64, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x22,
	0x00, 0x01, 0x02, 0x03,
};

static void test_ipv6(void)
{
	struct icmp_quote q;
	uint8_t b[sizeof(te_v6)];

	is_int(icmp_quote_decode_ipv6(te_v6, sizeof(te_v6), &q), 0,
	       "ICMPv6 time exceeded decodes");
	ok(q.ipv6 && q.type == 3 && q.code == 0, "type 3 code 0");
	is_int(q.tclass, 0x30, "the router saw traffic class 0x30");
	is_int(q.hop_limit, 1, "and hop limit 1");
	ok(q.dst[0] == 0x20 && q.dst[5] == 0x04 && q.dst[15] == 0x04,
	   "to 2001:db8:4::4");
	ok(q.has_udp && q.sport == 49154 && q.dport == 4791, "UDP ports");
	ok(q.has_bth && q.dest_qpn == 0x22 && q.psn == 0x010203, "the BTH");

	memcpy(b, te_v6, sizeof(b));
	b[0] = 2;	/* packet too big */
	is_int(icmp_quote_decode_ipv6(b, sizeof(b), &q), 0, "too big decodes");
	b[0] = 128;	/* echo request */
	is_int(icmp_quote_decode_ipv6(b, sizeof(b), &q), -1, "echo request");
	memcpy(b, te_v6, sizeof(b));
	b[14] = 0;	/* hop-by-hop options first: not walked */
	is_int(icmp_quote_decode_ipv6(b, sizeof(b), &q), -1,
	       "an extension header is not ours");
	memcpy(b, te_v6, sizeof(b));
	b[8] = 0x43;	/* the quote claims IPv4 */
	is_int(icmp_quote_decode_ipv6(b, sizeof(b), &q), -1, "version 4");
	is_int(icmp_quote_decode_ipv6(te_v6, 47, &q), -1,
	       "a quoted header cut short");
	is_int(icmp_quote_decode_ipv6(te_v6, 56, &q), 0,
	       "a quote up to the UDP header decodes");
	ok(q.has_udp && !q.has_bth, "UDP, no BTH");
}

int main(void)
{
	test_ipv4();
	test_ipv4_not_ours();
	test_ipv6();
	return tap_done();
}
