/* The RoCE v2 UD datagram (lib/wire/roce_packet.c) against byte vectors: a
 * ConnectX-4 Lx CNP capture and scapy's UC example (scapy
 * test/contrib/roce.uts), two UD SEND_ONLY datagrams in the VM fabric's
 * addressing (computed with an independent zlib CRC), the ICRC seed, what
 * the ICRC covers and what it masks, the encoder's layout and refusals,
 * the IPv4 ID/DF rule, and the flow label's UDP source port (against
 * libibverbs' own inline function). */
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "wire/roce_packet.h"
#include "tap.h"

static size_t unhex(const char *hex, uint8_t *out, size_t cap)
{
	size_t n = 0;
	unsigned v;

	while (*hex && n < cap) {
		if (*hex == ' ' || *hex == '\n') {
			hex++;
			continue;
		}
		if (sscanf(hex, "%2x", &v) != 1)
			break;
		out[n++] = (uint8_t)v;
		hex += 2;
	}
	return n;
}

/* V1: "RoCE CNP captured on ConnectX-4 Lx" (opcode 0x81, BECN set in BTH
 * byte 4, IPv4 ID 0x718c, TOS 0xc2), from the IP header on. */
static const char v1_packet[] =
	"45c2 003c 718c 4000 4011 9161 0a00 1101 0a00"
	"1201 0000 12b7 0028 0000 8100 ffff 4000"
	"0118 0000 0000 0000 0000 0000 0000 0000"
	"0000 0000 0000 82fd 002a";

/* V2: scapy's UC SEND_ONLY with MigReq and PadCnt 2 (psn 13571856 =
 * 0xcf1710), ICRC 78 f3 53 f3 on the wire. */
static const char v2_packet[] =
	"4501 0040 0478 4000 4011 b4d5 c0a8 0007 c0a8 0007"
	"c000 12b7 002c aca2"
	"2460 ffff 0000 00d3 00cf 1710"
	"4630 818b e289 35d9 0e9a 9550 5401 be88 5e50 0000"
	"78f3 53f3";

static const uint8_t v3_payload[16] = { 0, 1, 2, 3, 4, 5, 6, 7,
					8, 9, 10, 11, 12, 13, 14, 15 };

static const struct roce_ud_fields v3_fields = {
	.dest_qpn = 0x11, .qkey = 0x1ab4e0be, .src_qpn = 0x12, .psn = 1,
	.pkey = 0xffff,
};

/* 198.18.1.1 -> 198.18.4.4 (A to D in tests/vm/fabric.conf). */
static struct roce_ip_fields v3_ip(void)
{
	struct roce_ip_fields ip = { .traffic_class = 0xb8, .hop_limit = 64,
				     .ipv4_df = true };
	static const uint8_t src[4] = { 198, 18, 1, 1 }, dst[4] = { 198, 18, 4, 4 };

	memcpy(ip.src, src, 4);
	memcpy(ip.dst, dst, 4);
	return ip;
}

/* 2001:db8:1::1 -> 2001:db8:4::4, flow label 0x12345. */
static struct roce_ip_fields v4_ip(void)
{
	struct roce_ip_fields ip = { .ipv6 = true, .traffic_class = 0xb8,
				     .hop_limit = 64, .flow_label = 0x12345 };

	unhex("20010db8000100000000000000000001", ip.src, 16);
	unhex("20010db8000400000000000000000004", ip.dst, 16);
	return ip;
}

/* Encodes v3's datagram under ip, seals it, returns the ICRC value. */
static uint32_t seal_v3(const struct roce_ip_fields *ip,
			const struct roce_ud_fields *f, uint8_t *hdr,
			size_t *hdr_len, uint8_t udp[8], uint8_t *dgram,
			size_t *len)
{
	if (roce_ud_encode(f, v3_payload, sizeof(v3_payload), dgram, 64, len) !=
	    ROCE_UD_OK)
		return 0;
	*hdr_len = roce_ip_header_predict(ip, *len, hdr, 40);
	roce_udp_header_build(roce_flow_label_to_udp_sport(0x12345), *len, udp);
	roce_icrc_seal(hdr, *hdr_len, udp, dgram, *len);
	return roce_icrc_load(dgram + *len - 4);
}

static void test_seed_and_crc(void)
{
	static const uint8_t check[] = "123456789";

	/* The standard CRC-32 check value: crc32_le is the zlib CRC
	 * without its two inversions. */
	is_int(~roce_crc32_le(0xffffffffu, check, 9), 0xcbf43926u,
	       "crc32_le with the inversions is CRC-32 (check 0xcbf43926)");
	is_int(roce_icrc_seed(), 0xdebb20e3u,
	       "the ICRC seed is crc32_le over 8 bytes 0xff (rxe's 0xdebb20e3)");
}

static void test_captures(void)
{
	uint8_t pkt[128];
	size_t n;
	uint32_t want;

	n = unhex(v1_packet, pkt, sizeof(pkt));
	is_int(n, 60, "V1 is 60 bytes of IP packet");
	is_int(roce_packet_icrc_check(pkt, n, &want), 1,
	       "V1 (ConnectX-4 Lx CNP): the ICRC on the wire checks");
	is_int(want, 0x2a00fd82u, "V1: value 0x2a00fd82 (82 fd 00 2a, LSB first)");
	/* Ethernet may pad a short frame: bytes past the UDP length. */
	pkt[n] = pkt[n + 1] = 0;
	is_int(roce_packet_icrc_check(pkt, n + 2, &want), 1,
	       "V1 with trailing padding: the UDP length bounds the ICRC");
	pkt[14 + 8 + 4] = 0x00;	/* clear BECN: byte 4 is masked */
	is_int(roce_packet_icrc_check(pkt, n, &want), 1,
	       "V1 with BECN cleared: BTH byte 4 is masked");
	pkt[14 + 8 + 7] ^= 1;	/* dest QPN */
	is_int(roce_packet_icrc_check(pkt, n, &want), 0,
	       "V1 with another dest QPN: the ICRC fails");

	n = unhex(v2_packet, pkt, sizeof(pkt));
	is_int(n, 64, "V2 is 64 bytes");
	is_int(roce_packet_icrc_check(pkt, n, &want), 1,
	       "V2 (scapy, UC SEND_ONLY, pad 2): the ICRC checks");
	is_int(want, 0xf353f378u, "V2: value 0xf353f378 (78 f3 53 f3)");
	pkt[n - 5] = 1;		/* a pad byte */
	is_int(roce_packet_icrc_check(pkt, n, &want), 0,
	       "V2: the pad bytes are covered");

	is_int(roce_packet_icrc_check(pkt, 10, &want), -1,
	       "a 10-byte packet is no RoCE packet");
	pkt[0] = 0x46;
	is_int(roce_packet_icrc_check(pkt, n, &want), -1,
	       "IPv4 with options: refused (rxe reads a 20-byte header)");
	pkt[0] = 0x45;
	pkt[9] = 6;
	is_int(roce_packet_icrc_check(pkt, n, &want), -1, "TCP: refused");
}

static void test_encode(void)
{
	uint8_t out[200], want[20];
	uint8_t payload[136] = { 0 };
	size_t len = 0;
	struct roce_ud_fields f = v3_fields, back;
	size_t off, plen;

	is_int(roce_ud_encode(&f, v3_payload, 16, out, sizeof(out), &len),
	       ROCE_UD_OK, "UD SEND_ONLY encodes");
	is_int(len, 20 + 16 + 4, "header, payload and ICRC slot: 40 bytes");
	unhex("6400ffff 00000011 00000001 1ab4e0be 00000012", want, 20);
	is_mem(out, want, 20, "BTH + DETH bytes (QPN 0x11, PSN 1, Q_Key, SQP 0x12)");
	is_mem(out + 20, v3_payload, 16, "the payload follows the DETH");
	ok(out[36] == 0 && out[37] == 0 && out[38] == 0 && out[39] == 0,
	   "the ICRC slot is zero until sealed");

	for (size_t n = 133; n <= 136; n++) {
		memset(out, 0xaa, sizeof(out));
		roce_ud_encode(&f, payload, n, out, sizeof(out), &len);
		is_int((out[1] >> 4) & 3, (136 - n) % 4, "PadCnt for %zu bytes", n);
		is_int(len, 20 + 136 + 4, "%zu bytes pad to 136", n);
		ok(n == 136 || out[20 + n] == 0, "pad bytes of %zu are zero", n);
	}
	is_int(roce_ud_decode(out, len, &back, &off, &plen), ROCE_UD_OK,
	       "the encoded datagram decodes");
	ok(back.dest_qpn == f.dest_qpn && back.qkey == f.qkey &&
		   back.src_qpn == f.src_qpn && back.psn == f.psn &&
		   back.pkey == f.pkey && off == 20 && plen == 136,
	   "decode gives back the fields and the payload's place");

	f.solicited = true;
	f.psn = roce_probe_psn(0xa5, 3, 2);
	roce_ud_encode(&f, payload, 133, out, sizeof(out), &len);
	is_int(out[1], 0x80 | 0x30, "SE and PadCnt 3 in byte 1, TVer 0");
	is_int(out[9] << 16 | out[10] << 8 | out[11], 0xa50302,
	       "PSN = nonce:8 | hop:8 | attempt:8");
	{
		uint8_t nonce, hop, attempt;

		roce_probe_psn_split(0xa50302, &nonce, &hop, &attempt);
		ok(nonce == 0xa5 && hop == 3 && attempt == 2,
		   "the PSN splits back into nonce, hop and attempt");
	}
	is_int(roce_ud_decode(out, len, &back, &off, &plen), ROCE_UD_OK,
	       "decodes with pad 3");
	is_int(plen, 133, "payload length without the pad");

	is_int(roce_ud_encode(&f, payload, 136, out, 100, &len),
	       ROCE_UD_BUFFER_SMALL, "a buffer too small is refused");
}

static void test_refusals(void)
{
	struct roce_ud_fields f;
	uint8_t out[64], keep[64];
	size_t len = 7;

	memset(out, 0x5a, sizeof(out));
	memcpy(keep, out, sizeof(out));
#define REFUSED(field, value, why, name)                                       \
	do {                                                                   \
		f = v3_fields;                                                 \
		f.field = (value);                                             \
		is_int(roce_ud_encode(&f, v3_payload, 16, out, sizeof(out),    \
				      &len),                                   \
		       why, name);                                             \
	} while (0)
	REFUSED(dest_qpn, 0, ROCE_UD_DEST_QPN_RESERVED, "dest QPN 0 (SMI)");
	REFUSED(dest_qpn, 1, ROCE_UD_DEST_QPN_RESERVED, "dest QPN 1 (GSI)");
	REFUSED(dest_qpn, 0xffffff, ROCE_UD_DEST_QPN_RANGE,
		"dest QPN 0xffffff (multicast)");
	REFUSED(dest_qpn, 0x1000011, ROCE_UD_DEST_QPN_RANGE, "dest QPN > 24 bits");
	REFUSED(qkey, 0x80010000u, ROCE_UD_QKEY_CONTROLLED,
		"Q_Key 0x80010000 (GSI_QKEY)");
	REFUSED(qkey, 0x80000000u, ROCE_UD_QKEY_CONTROLLED, "Q_Key bit 31 alone");
	REFUSED(src_qpn, 1, ROCE_UD_SRC_QPN_INVALID, "source QPN 1");
	REFUSED(src_qpn, 0x1000000, ROCE_UD_SRC_QPN_INVALID,
		"source QPN > 24 bits");
	REFUSED(psn, 0x1000000, ROCE_UD_PSN_RANGE, "PSN > 24 bits");
	REFUSED(pkey, 0x8000, ROCE_UD_PKEY_INVALID, "P_Key 0x8000");
	is_mem(out, keep, sizeof(out), "a refusal writes nothing");
	is_int(len, 7, "nor the length");
	f = v3_fields;
	f.qkey = 0x7fffffff;
	is_int(roce_ud_check(&f, 16), ROCE_UD_OK, "Q_Key 0x7fffffff is fine");
	f.dest_qpn = 2;
	f.pkey = 0x7fff;
	is_int(roce_ud_check(&f, 16), ROCE_UD_OK,
	       "QPN 2 and P_Key 0x7fff are fine");
	is_int(roce_ud_check(&f, 4097), ROCE_UD_PAYLOAD_SIZE,
	       "a payload over 4096 bytes is refused");
	ok(strstr(roce_ud_refusal_text(ROCE_UD_QKEY_CONTROLLED), "0x80010000") !=
		   NULL, "the refusal names the GSI Q_Key");

	roce_ud_encode(&v3_fields, v3_payload, 16, out, sizeof(out), &len);
	out[1] |= 1;
	is_int(roce_ud_decode(out, len, &f, &len, &len), ROCE_UD_TVER,
	       "decode: TVer 1 is refused (rxe hdr_check drops it)");
	out[1] &= 0xf0;
	out[0] = 0x65;
	is_int(roce_ud_decode(out, 40, &f, &len, &len), ROCE_UD_NOT_UD_SEND_ONLY,
	       "decode: SEND_ONLY_WITH_IMMEDIATE is not ours");
	is_int(roce_ud_decode(out, 23, &f, &len, &len), ROCE_UD_TRUNCATED,
	       "decode: 23 bytes are too short");
}

static void test_v3_v4(void)
{
	uint8_t hdr[40], want[40], udp[8], dgram[64];
	size_t hdr_len = 0, len = 0;
	struct roce_ip_fields ip = v3_ip();
	struct roce_ud_fields f = v3_fields;
	uint32_t base, icrc;

	icrc = seal_v3(&ip, &f, hdr, &hdr_len, udp, dgram, &len);
	is_int(hdr_len, 20, "IPv4 header: 20 bytes");
	unhex("45b80044000040004011a8c7c6120101c6120404", want, 20);
	is_mem(hdr, want, 20, "V3 IPv4 header: len 68, ID 0, DF, TTL 64, "
			      "checksum 0xa8c7");
	unhex("e34112b700300000", want, 8);
	is_mem(udp, want, 8, "V3 UDP header: sport 0xe341, 4791, len 48");
	is_int(icrc, 0x51a34eda, "V3 ICRC 0x51a34eda");
	ok(dgram[36] == 0xda && dgram[37] == 0x4e && dgram[38] == 0xa3 &&
		   dgram[39] == 0x51, "V3 ICRC on the wire: da 4e a3 51");
	base = icrc;

	ip.traffic_class = 0x02;
	ip.hop_limit = 1;
	is_int(seal_v3(&ip, &f, hdr, &hdr_len, udp, dgram, &len), base,
	       "V3 with TOS 0x02 and TTL 1: the same ICRC (masked)");
	udp[6] = 0x12;
	udp[7] = 0x34;
	is_int(roce_icrc(hdr, hdr_len, udp, dgram, len - 4), base,
	       "V3 with a UDP checksum: the same ICRC (masked)");
	dgram[4] = 0xc0;
	is_int(roce_icrc(hdr, hdr_len, udp, dgram, len - 4), base,
	       "V3 with FECN and BECN: the same ICRC (masked)");

	ip = v3_ip();
	ip.ipv4_id = 1;
	ok(seal_v3(&ip, &f, hdr, &hdr_len, udp, dgram, &len) != base,
	   "V3 with ID 1: another ICRC (the ID is covered)");
	ip = v3_ip();
	ip.ipv4_df = false;
	ok(seal_v3(&ip, &f, hdr, &hdr_len, udp, dgram, &len) != base,
	   "V3 without DF: another ICRC");
	ip = v3_ip();
	f.psn = 2;
	ok(seal_v3(&ip, &f, hdr, &hdr_len, udp, dgram, &len) != base,
	   "V3 with PSN 2: another ICRC");
	f = v3_fields;
	f.qkey++;
	ok(seal_v3(&ip, &f, hdr, &hdr_len, udp, dgram, &len) != base,
	   "V3 with another Q_Key: another ICRC");
	f = v3_fields;
	seal_v3(&ip, &f, hdr, &hdr_len, udp, dgram, &len);
	dgram[25] ^= 0x10;
	ok(roce_icrc(hdr, hdr_len, udp, dgram, len - 4) != base,
	   "V3 with a payload bit flipped: another ICRC");

	ip = v4_ip();
	icrc = seal_v3(&ip, &f, hdr, &hdr_len, udp, dgram, &len);
	is_int(hdr_len, 40, "IPv6 header: 40 bytes");
	unhex("6b8123450030114020010db800010000000000000000000120010db8"
	      "000400000000000000000004", want, 40);
	is_mem(hdr, want, 40, "V4 IPv6 header: TC 0xb8, flow label 0x12345, "
			      "payload length 48, hop limit 64");
	is_int(icrc, 0x66054345, "V4 ICRC 0x66054345");
	ok(dgram[36] == 0x45 && dgram[37] == 0x43 && dgram[38] == 0x05 &&
		   dgram[39] == 0x66, "V4 ICRC on the wire: 45 43 05 66");
	base = icrc;
	ip.traffic_class = 0;
	ip.flow_label = 0;
	ip.hop_limit = 1;
	is_int(seal_v3(&ip, &f, hdr, &hdr_len, udp, dgram, &len), base,
	       "V4 with TC 0, flow label 0, hop limit 1: the same ICRC");
	ip = v4_ip();
	ip.dst[15] = 5;
	ok(seal_v3(&ip, &f, hdr, &hdr_len, udp, dgram, &len) != base,
	   "V4 to another address: another ICRC");

	/* The whole packet, as a capture would show it, checks. */
	{
		uint8_t pkt[128];
		uint32_t v;

		ip = v4_ip();
		seal_v3(&ip, &f, hdr, &hdr_len, udp, dgram, &len);
		memcpy(pkt, hdr, 40);
		memcpy(pkt + 40, udp, 8);
		memcpy(pkt + 48, dgram, len);
		is_int(roce_packet_icrc_check(pkt, 48 + len, &v), 1,
		       "V4 as a captured packet checks");
	}
	is_int(roce_icrc(hdr, 24, udp, dgram, len - 4), 0,
	       "an IP header of 24 bytes is not taken");
}

static void test_ident_rule(void)
{
	uint16_t id = 7;
	bool df = false;

	ok(roce_ipv4_ident_predict(IP_PMTUDISC_PROBE, false, &id, &df) &&
		   id == 0 && df, "PROBE, unconnected: ID 0 with DF");
	id = 7;
	df = false;
	ok(roce_ipv4_ident_predict(IP_PMTUDISC_DO, false, &id, &df) && id == 0 &&
		   df, "DO, unconnected: ID 0 with DF");
	ok(!roce_ipv4_ident_predict(IP_PMTUDISC_PROBE, true, &id, &df),
	   "PROBE, connected: the socket's own counter, unpredictable");
	ok(!roce_ipv4_ident_predict(IP_PMTUDISC_DO, true, &id, &df),
	   "DO, connected: unpredictable");
	ok(!roce_ipv4_ident_predict(IP_PMTUDISC_WANT, false, &id, &df),
	   "WANT (the default): ignore_df, hashed ID");
	ok(!roce_ipv4_ident_predict(IP_PMTUDISC_DONT, false, &id, &df),
	   "DONT: no DF, hashed ID");
	ok(!roce_ipv4_ident_predict(IP_PMTUDISC_OMIT, false, &id, &df),
	   "OMIT: ignore_df, hashed ID");
	ok(!roce_ipv4_ident_predict(IP_PMTUDISC_INTERFACE, false, &id, &df),
	   "INTERFACE: no DF, hashed ID");
}

static void test_sport(void)
{
	static const struct {
		uint32_t fl;
		uint16_t port;
	} cases[] = {
		{ 0, 0xc000 },	     { 1, 0xc001 },	  { 0x4000, 0xc001 },
		{ 0x3fff, 0xffff },  { 0x12345, 0xe341 }, { 0xfffff, 0xffc0 },
		{ 0x112345, 0xe341 }, /* bit 20 is no part of a flow label */
	};
	bool same = true;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		is_int(roce_flow_label_to_udp_sport(cases[i].fl), cases[i].port,
		       "flow label 0x%05x -> UDP source port 0x%04x",
		       (unsigned)cases[i].fl, cases[i].port);
	for (uint32_t fl = 0; fl <= ROCE_FLOW_LABEL_MASK; fl++)
		if (roce_flow_label_to_udp_sport(fl) !=
		    ibv_flow_label_to_udp_sport(fl))
			same = false;
	ok(same, "every 20-bit flow label maps as libibverbs' "
		 "ibv_flow_label_to_udp_sport does");
}

int main(void)
{
	test_seed_and_crc();
	test_captures();
	test_encode();
	test_refusals();
	test_v3_v4();
	test_ident_rule();
	test_sport();
	return tap_done();
}
