/* Unit tests of the GRH codec: golden bytes written out by hand from the
 * IPv6 and IPv4 header layouts, both forms, the zero-checksum drivers, the
 * sentinel, and garbage refused with a reason. */
#include <string.h>

#include "wire/grh.h"
#include "tap.h"

/* IPv6-format GRH: version 6, traffic class 0x28, flow label 0x12345,
 * payload length 136, next header 0x1b (IBA), hop limit 64,
 * SGID fe80::1, DGID fe80::2. */
static const uint8_t golden_v6[GRH_BYTES] = {
	0x62, 0x81, 0x23, 0x45, 0x00, 0x88, 0x1b, 0x40,
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01,
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02,
};

/* RoCE v2 over IPv4 as rxe delivers it: 20 zero bytes, then an IPv4
 * header: TOS 0x28, total length 188, DF, TTL 64, UDP, checksum 0x2607,
 * 10.0.0.1 -> 10.0.0.2. */
static const uint8_t golden_v4[GRH_BYTES] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0x45, 0x28, 0x00, 0xbc, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
	0x26, 0x07, 0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00, 0x00, 0x02,
};

static void test_ipv6_golden(void)
{
	struct grh_fields f, back;
	uint8_t area[GRH_BYTES];
	char err[256];

	is_int(grh_decode(golden_v6, true, GRH_HINT_AUTO, &f, err, sizeof(err)),
	       0, "IPv6 golden decodes");
	ok(f.present && f.form == GRH_FORM_IPV6, "present, IPv6 form");
	is_int(f.ip_version, 6, "version");
	is_int(f.traffic_class, 0x28, "traffic class");
	is_int(f.flow_label, 0x12345, "flow label");
	is_int(f.payload_length, 136, "payload length");
	is_int(f.next_header, 0x1b, "next header");
	is_int(f.hop_limit, 64, "hop limit");
	is_int(f.sgid.raw[0], 0xfe, "sgid prefix");
	is_int(f.sgid.raw[15], 1, "sgid");
	is_int(f.dgid.raw[15], 2, "dgid");
	grh_encode(&f, area);
	is_mem(area, golden_v6, GRH_BYTES, "re-encodes to the golden bytes");
	is_int(grh_decode(area, true, GRH_HINT_IPV6, &back, err, sizeof(err)),
	       0, "hinted IPv6 decodes");
	is_int(back.flow_label, 0x12345, "hint gives the same");
	is_int(grh_dscp(0x28), 10, "DSCP of 0x28 is 10");
	is_int(grh_ecn(0x2b), 3, "ECN of 0x2b is 3");
}

static void test_ipv4_golden(void)
{
	struct grh_fields f;
	uint8_t area[GRH_BYTES];
	char err[256];

	is_int(grh_decode(golden_v4, true, GRH_HINT_AUTO, &f, err, sizeof(err)),
	       0, "IPv4 golden decodes (auto)");
	ok(f.present && f.form == GRH_FORM_IPV4, "IPv4 form detected");
	is_int(f.traffic_class, 0x28, "TOS is the traffic class");
	is_int(f.hop_limit, 64, "TTL is the hop limit");
	is_int(f.flow_label, 0, "no flow label in IPv4");
	is_int(f.payload_length, 168, "payload length = total - 20");
	is_int(f.next_header, 17, "UDP");
	ok(!f.ipv4_checksum_zero, "checksum was valid, not zero");
	is_int(f.sgid.raw[10], 0xff, "sgid is IPv4-mapped");
	is_int(f.sgid.raw[15], 1, "sgid 10.0.0.1");
	is_int(f.dgid.raw[12], 10, "dgid 10.0.0.2");
	is_int(grh_ipv4_checksum(golden_v4 + 20, 20), 0,
	       "a valid header sums to 0");

	/* irdma-like: the same header with a zero checksum. */
	memcpy(area, golden_v4, GRH_BYTES);
	area[30] = area[31] = 0;
	is_int(grh_decode(area, true, GRH_HINT_AUTO, &f, err, sizeof(err)), 0,
	       "zero checksum accepted");
	ok(f.form == GRH_FORM_IPV4 && f.ipv4_checksum_zero,
	   "and reported as zero");

	/* A driver that leaves bytes 0..19 untouched: sentinel still there. */
	memcpy(area, golden_v4, GRH_BYTES);
	memset(area, 0xab, 20);
	area[0] = GRH_SENTINEL;
	is_int(grh_decode(area, true, GRH_HINT_AUTO, &f, err, sizeof(err)), 0,
	       "stale bytes before the header ignored");
	ok(f.form == GRH_FORM_IPV4, "still IPv4");

	/* Encoding without DF gives the header with checksum 0x6607. */
	f.payload_length = 168;
	f.ipv4_checksum_zero = false;
	grh_encode(&f, area);
	is_int(area[30] << 8 | area[31], 0x6607, "encoder computes checksum");
	f.ipv4_checksum_zero = true;
	grh_encode(&f, area);
	is_int(area[30] << 8 | area[31], 0, "and can leave it zero");
	ok(area[0] == 0 && area[19] == 0, "bytes 0..19 zero");
}

static void test_refusals(void)
{
	struct grh_fields f;
	uint8_t area[GRH_BYTES];
	char err[256];

	memset(&f, 0x5a, sizeof(f));
	is_int(grh_decode(golden_v6, false, GRH_HINT_AUTO, &f, err, sizeof(err)),
	       0, "no IBV_WC_GRH: not an error");
	ok(!f.present && f.hop_limit == 0, "but nothing present");

	memcpy(area, golden_v4, GRH_BYTES);
	area[31] ^= 0x01;
	err[0] = '\0';
	is_int(grh_decode(area, true, GRH_HINT_IPV4, &f, err, sizeof(err)), -1,
	       "wrong non-zero checksum refused with the IPv4 hint");
	ok(strstr(err, "checksum") != NULL, "message names the checksum: %s",
	   err);

	memset(area, 0, sizeof(area));
	grh_prefill_sentinel(area);
	is_int(area[0], GRH_SENTINEL, "sentinel at byte 0");
	is_int(area[20], GRH_SENTINEL, "sentinel at byte 20");
	is_int(grh_decode(area, true, GRH_HINT_AUTO, &f, err, sizeof(err)), -1,
	       "an untouched buffer is refused");
	ok(strstr(err, "version") != NULL, "message names the version: %s",
	   err);

	memcpy(area, golden_v6, GRH_BYTES);
	is_int(grh_decode(area, true, GRH_HINT_IPV4, &f, err, sizeof(err)), -1,
	       "an IPv6 header under the IPv4 hint is refused");
	memcpy(area, golden_v4, GRH_BYTES);
	is_int(grh_decode(area, true, GRH_HINT_IPV6, &f, err, sizeof(err)), -1,
	       "an IPv4 header under the IPv6 hint is refused");
}

static void test_round_trips(void)
{
	struct grh_fields f = { 0 }, back;
	uint8_t area[GRH_BYTES];
	char err[256];
	unsigned bad = 0;

	/* Every traffic class and a spread of flow labels and hop limits. */
	for (unsigned tc = 0; tc < 256; tc++) {
		f.form = GRH_FORM_IPV6;
		f.ip_version = 6;
		f.traffic_class = (uint8_t)tc;
		f.flow_label = (tc * 4099u) & 0xfffff;
		f.hop_limit = (uint8_t)(255 - tc);
		f.sgid.raw[15] = (uint8_t)tc;
		grh_encode(&f, area);
		if (grh_decode(area, true, GRH_HINT_AUTO, &back, err,
			       sizeof(err)) ||
		    back.traffic_class != f.traffic_class ||
		    back.flow_label != f.flow_label ||
		    back.hop_limit != f.hop_limit ||
		    memcmp(back.sgid.raw, f.sgid.raw, 16))
			bad++;
		f.form = GRH_FORM_IPV4;
		f.next_header = 17;
		f.sgid.raw[10] = f.sgid.raw[11] = 0xff;
		grh_encode(&f, area);
		if (grh_decode(area, true, GRH_HINT_AUTO, &back, err,
			       sizeof(err)) ||
		    back.form != GRH_FORM_IPV4 ||
		    back.traffic_class != f.traffic_class ||
		    back.hop_limit != f.hop_limit)
			bad++;
		memset(f.sgid.raw, 0, 16);
	}
	is_int(bad, 0, "512 round trips over both forms");
}

static void gid_from(uint8_t first, uint8_t last, union ibv_gid *g)
{
	memset(g, 0, sizeof(*g));
	g->raw[0] = first;
	g->raw[1] = first ? 0x80 : 0;
	g->raw[15] = last;
}

/* The sentinel clears bytes 1..3: libibverbs reads the reply's flow label
 * there (set_ah_attr_generic_fields) even for IPv4, and mlx5 turns it into
 * the UDP source port. */
static void test_sentinel_clears_flow_label(void)
{
	uint8_t area[GRH_BYTES];

	memset(area, 0xa5, sizeof(area));
	grh_prefill_sentinel(area);
	is_int(area[0], GRH_SENTINEL, "byte 0 holds the sentinel");
	ok(area[1] == 0 && area[2] == 0 && area[3] == 0,
	   "bytes 1..3 cleared: a flow label read there is 0");
	is_int(area[20], GRH_SENTINEL, "byte 20 holds the sentinel");
}

/* The local GID table decides where the bytes cannot. */
static void test_form_by_local_gids(void)
{
	union ibv_gid table[4];	/* rxe's layout: fe80::, ::ffff:10.0.0.2 */
	struct grh_local_gids local = { table, 2 };
	struct grh_local_gids ib = { table + 2, 2 };
	uint8_t area[GRH_BYTES];
	struct grh_fields f;
	char err[256];

	gid_from(0xfe, 2, &table[0]);
	memset(&table[1], 0, sizeof(table[1]));
	table[1].raw[10] = table[1].raw[11] = 0xff;
	table[1].raw[12] = 10;
	table[1].raw[15] = 2;
	gid_from(0xfe, 0x22, &table[2]);	/* an IB port: no mapped GID */
	gid_from(0xfe, 0x23, &table[3]);

	/* irdma-like IPv4 with a zero checksum behind stale bytes whose
	 * first nibble is 6: the byte rule alone says IPv6. */
	memcpy(area, golden_v4, GRH_BYTES);
	memset(area, 0x61, 20);
	area[30] = area[31] = 0;
	is_int(grh_form_decide(area, NULL), GRH_FORM_IPV6,
	       "byte rule (kernel, libibverbs): zero checksum under 6 is IPv6");
	is_int(grh_form_decide(area, &local), GRH_FORM_IPV4,
	       "local GID ::ffff:10.0.0.2 is the daddr: IPv4");
	is_int(grh_decode_local(area, true, &local, &f, err, sizeof(err)), 0,
	       "decodes as IPv4");
	ok(f.form == GRH_FORM_IPV4 && f.hop_limit == 64 &&
	   f.traffic_class == 0x28, "TTL and TOS from the IPv4 header");

	/* The same bytes with a valid checksum: both rules agree. */
	memcpy(area, golden_v4, GRH_BYTES);
	memset(area, 0x61, 20);
	is_int(grh_form_decide(area, NULL), GRH_FORM_IPV4,
	       "byte rule: a valid IPv4 header at 20 wins over the 6");

	/* An IPv6 GRH to our fe80::2. */
	memcpy(area, golden_v6, GRH_BYTES);
	is_int(grh_form_decide(area, &local), GRH_FORM_IPV6,
	       "DGID fe80::2 is local: IPv6");
	/* An IPv6 GRH whose DGID is not ours, bytes that no IPv4 daddr
	 * matches either: the byte rule decides. */
	area[39] = 9;
	is_int(grh_form_decide(area, &local), GRH_FORM_IPV6,
	       "neither form local: the byte rule (IPv6)");

	/* An IB port has no IPv4-mapped GID: only the IPv6 form exists,
	 * even when byte 20 happens to look like an IPv4 header. */
	memcpy(area, golden_v4, GRH_BYTES);
	is_int(grh_form_decide(area, &ib), GRH_FORM_IPV6,
	       "no IPv4-mapped local GID: IPv6 form");
	is_int(grh_decode_local(area, true, &ib, &f, err, sizeof(err)), -1,
	       "and such bytes are refused, not taken for IPv4");
	is_int(grh_decode_local(area, false, &ib, &f, err, sizeof(err)), 0,
	       "without IBV_WC_GRH nothing is read");
	ok(!f.present, "nothing present");
}

int main(void)
{
	test_sentinel_clears_flow_label();
	test_form_by_local_gids();
	test_ipv6_golden();
	test_ipv4_golden();
	test_refusals();
	test_round_trips();
	return tap_done();
}
