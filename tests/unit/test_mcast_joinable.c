/* Unit tests of the joinability rule (opensm's validate_port_caps as a
 * function of plain inputs), the rate opensm computes from width and
 * speed, the words of the audit, and the GetTable answers of groups. */
#include <string.h>

#include "base/mgid.h"
#include "sa/mcast_group.h"
#include "sa/mcast_joinable.h"
#include "tap.h"

static void test_rate_codes(void)
{
	struct portinfo_record p = { 0 };

	p.width_active = 2;	/* 4x */
	p.speed_active = 1;	/* SDR */
	is_int(portinfo_rate_code(&p), 3, "4x SDR: 10 Gb/s, code 3");
	p.width_active = 1;
	is_int(portinfo_rate_code(&p), 2, "1x SDR: 2.5 Gb/s, code 2");
	p.width_active = 2;
	p.speed_active = 4;
	is_int(portinfo_rate_code(&p), 7, "4x QDR: 40 Gb/s, code 7");
	p.speed_ext_active = 2;
	is_int(portinfo_rate_code(&p), 16, "4x EDR: 100 Gb/s, code 16");
	p.width_active = 8;
	p.speed_ext_active = 1;
	is_int(portinfo_rate_code(&p), 14, "12x FDR: 168 Gb/s, code 14");
	p.width_active = 3;
	is_int(portinfo_rate_code(&p), 0, "no such width: 0");
}

static void group_of(struct mcmember_record *g, uint16_t pkey, uint8_t mtu,
		     uint8_t rate)
{
	memset(g, 0, sizeof(*g));
	ipoib_mgid(IPOIB_GROUP_IPV4_BROADCAST, pkey, MGID_SCOPE_LINK_LOCAL,
		   &g->mgid);
	g->mtu = mtu;
	g->rate = rate;
}

static void test_judge_and_words(void)
{
	struct mcast_port_caps port = { .mtu_cap = 4, .rate = 3 };
	struct mcast_joinability j;
	struct mcmember_record g;
	char words[256];

	group_of(&g, 0x8001, 5, 3);
	mcast_joinable_judge(&g, &port, &j);
	ok(!j.joinable && j.mtu_short && !j.rate_short, "MTU 4096 > 2048");
	mcast_joinable_describe(&g, &port, &j, words, sizeof(words));
	is_str(words, "this port (MTU 2048) cannot join "
		      "ff12:401b:8001::ffff:ffff (MTU 4096): IPoIB on "
		      "partition 0x8001 will not come up here", "MTU words");
	group_of(&g, 0xffff, 4, 3);
	port.rate = 2;
	mcast_joinable_judge(&g, &port, &j);
	ok(!j.joinable && !j.mtu_short && j.rate_short, "2.5 < 10 Gb/s");
	mcast_joinable_describe(&g, &port, &j, words, sizeof(words));
	is_str(words, "this port (rate 2.5 Gb/s) cannot join "
		      "ff12:401b:ffff::ffff:ffff (rate 10 Gb/s): IPoIB on "
		      "partition 0xffff will not come up here", "rate words");
	port.rate = 7;
	mcast_joinable_judge(&g, &port, &j);
	ok(j.joinable, "equal MTU, faster port: joinable");
	mcast_joinable_describe(&g, &port, &j, words, sizeof(words));
	is_str(words, "this port (MTU 2048, rate 40 Gb/s) can join "
		      "ff12:401b:ffff::ffff:ffff (MTU 2048, rate 10 Gb/s)",
	       "joinable words, no IPoIB verdict");
	/* opensm compares codes: a 5 Gb/s port (code 5) passes a 10 Gb/s
	 * group (code 3). The SA's verdict is what decides the join. */
	port.rate = 5;
	mcast_joinable_judge(&g, &port, &j);
	ok(j.joinable, "codes compared as opensm compares them");
	/* Not an IPoIB group: no partition verdict. */
	memset(&g.mgid, 0, sizeof(g.mgid));
	g.mgid.raw[0] = 0xff;
	g.mgid.raw[1] = 0x15;
	g.mgid.raw[15] = 9;
	g.mtu = 5;
	mcast_joinable_judge(&g, &port, &j);
	mcast_joinable_describe(&g, &port, &j, words, sizeof(words));
	is_str(words, "this port (MTU 2048) cannot join ff15::9 (MTU 4096)",
	       "another group: no IPoIB words");
}

/* A GetTableResp as opensm sends it: records padded to 56 bytes
 * (attribute offset 7 words). */
static void test_table(void)
{
	uint8_t msg[SA_HEADER_BYTES + 2 * 56] = { 0 };
	struct mcast_members m;
	char err[256];

	msg[0] = 1;
	msg[1] = 0x03;
	msg[2] = 2;
	msg[3] = SA_METHOD_GET_TABLE_RESP;
	msg[16] = 0x00;
	msg[17] = 0x38;
	msg[44] = 0;
	msg[45] = 7;
	msg[SA_HEADER_BYTES + 0] = 0xff;
	msg[SA_HEADER_BYTES + 36] = 0xc0;
	msg[SA_HEADER_BYTES + 56 + 0] = 0xff;
	msg[SA_HEADER_BYTES + 56 + 36] = 0xc0;
	msg[SA_HEADER_BYTES + 56 + 37] = 0x01;
	ok(mcast_members_from_table(msg, sizeof(msg), &m, err,
				    sizeof(err)) == 0, "decoded: %s", err);
	is_int(m.count, 2, "two records at a 56-byte stride");
	is_int(m.count == 2 ? m.records[1].mlid : 0, 0xc001,
	       "the second record's MLID");
	mcast_members_free(&m);
	ok(mcast_members_from_table(msg, SA_HEADER_BYTES, &m, err,
				    sizeof(err)) == 0 && m.count == 0,
	   "an empty table: no records");
}

int main(void)
{
	test_rate_codes();
	test_judge_and_words();
	test_table();
	return tap_done();
}
