/* Unit tests of the LinkRecord, LFTRecord and PortInfoRecord codecs and
 * their Get requests: records and MADs written out by hand from the IBA
 * layouts (opensm's ib_link_record_t, ib_lft_record_t,
 * ib_portinfo_record_t; libibmad's PortInfo bit offsets). */
#include <string.h>

#include "wire/pathrec.h"
#include "wire/sa_records.h"
#include "tap.h"

static void test_link_record(void)
{
	/* FromLID 0x0102, FromPort 7, ToPort 8, ToLID 0x0304, padding. */
	static const uint8_t rec[8] = { 0x01, 0x02, 7, 8, 0x03, 0x04, 0, 0 };
	struct link_record r;

	linkrec_decode(rec, &r);
	is_int(r.from_lid, 0x0102, "link from LID, big-endian");
	is_int(r.from_port, 7, "link from port");
	is_int(r.to_port, 8, "link to port");
	is_int(r.to_lid, 0x0304, "link to LID, big-endian");
}

static void test_lft_record(void)
{
	uint8_t rec[LFT_RECORD_BYTES] = { 0x00, 0x02, 0x00, 0x01,
					  0xaa, 0xbb, 0xcc, 0xdd };
	struct lft_record r;

	for (int i = 0; i < LFT_BLOCK_LIDS; i++)
		rec[8 + i] = (uint8_t)(i % 9);
	rec[8 + 63] = 255;
	lftrec_decode(rec, &r);
	is_int(r.lid, 2, "LFT switch LID");
	is_int(r.block, 1, "LFT block number");
	is_int(r.ports[0], 0, "entry 0 is at offset 8, after 4 reserved bytes");
	is_int(r.ports[10], 1, "entry 10");
	is_int(r.ports[63], LFT_NO_ROUTE, "last entry: no route");
}

static void test_portinfo_record(void)
{
	uint8_t rec[PORTINFO_RECORD_BYTES] = { 0 };
	struct portinfo_record r;

	rec[0] = 0x00; rec[1] = 0x03;		/* EndportLID 3 */
	rec[2] = 7;				/* PortNum */
	rec[3] = 0x01;				/* Options */
	rec[4 + 16] = 0x00; rec[4 + 17] = 0x09;	/* PortInfo.LID 9 */
	rec[4 + 28] = 7;			/* LocalPortNum */
	rec[4 + 31] = 0x02;			/* LinkWidthActive 4x */
	rec[4 + 32] = 0x74;			/* SpeedSupported 7, state ACTIVE */
	rec[4 + 33] = 0x52;			/* LinkUp, default Polling */
	rec[4 + 34] = 0xc2;			/* protect bits 3, LMC 2 */
	rec[4 + 35] = 0x47;			/* SpeedActive QDR, enabled 7 */
	rec[4 + 36] = 0x40;			/* NeighborMTU 2048, SM SL 0 */
	rec[4 + 41] = 0x25;			/* InitTypeReply 2, MTUCap 4096 */
	portinforec_decode(rec, &r);
	is_int(r.neighbor_mtu, 4, "NeighborMTU: high nibble of byte 36");
	is_int(r.mtu_cap, 5, "MTUCap: low nibble of byte 41");
	is_int(r.lid, 3, "PIR endport LID");
	is_int(r.port_num, 7, "PIR port number");
	is_int(r.options, 1, "PIR options");
	is_int(r.port_lid, 9, "PortInfo LID at record offset 20");
	is_int(r.local_port, 7, "LocalPortNum");
	is_int(r.width_active, 2, "LinkWidthActive");
	is_int(r.port_state, PORT_STATE_ACTIVE, "PortState: low nibble of byte 32");
	is_int(r.phys_state, 5, "PortPhysicalState: high nibble of byte 33");
	is_int(r.lmc, 2, "LMC: low 3 bits of byte 34, not the protect bits");
	is_int(r.speed_active, 4, "LinkSpeedActive: high nibble of byte 35");
	is_int(r.speed_ext_active, 0, "no extended speed");
	is_str(portinfo_width_str(r.width_active), "4x", "width word");
	is_str(portinfo_speed_str(&r), "QDR", "speed word");
	is_str(portinfo_state_str(r.port_state), "ACTIVE", "state word");
	is_str(portinfo_phys_state_str(r.phys_state), "LinkUp", "phys word");
	rec[4 + 62] = 0x13;			/* ExtActive FDR, ext supported 3 */
	portinforec_decode(rec, &r);
	is_int(r.speed_ext_active, 1, "LinkSpeedExtActive: high nibble of byte 66");
	is_str(portinfo_speed_str(&r), "FDR", "an extended speed wins");
	is_str(portinfo_width_str(3), "?", "no width code 3");
	is_str(portinfo_state_str(9), "?", "no state 9");
}

/* The common MAD and SA headers of a Get, then the record's key. */
static void expect_get(const uint8_t *mad, uint16_t attr, uint64_t mask,
		       const char *what)
{
	uint8_t want[SA_HEADER_BYTES] = { 1, 0x03, 2, 0x01 };

	want[16] = (uint8_t)(attr >> 8);
	want[17] = (uint8_t)attr;
	for (int i = 0; i < 8; i++)
		want[48 + i] = (uint8_t)(mask >> (56 - 8 * i));
	is_mem(mad, want, SA_HEADER_BYTES, "%s: SubnAdmGet header, mask", what);
}

static void test_requests(void)
{
	uint8_t mad[SA_MAD_BYTES];
	uint8_t zero[SA_DATA_BYTES] = { 0 };

	sa_encode_link_get(mad, 0x0203, 8);
	expect_get(mad, 0x0020, 0x3, "LinkRecord");
	is_int(mad[56], 0x02, "from LID high byte");
	is_int(mad[57], 0x03, "from LID low byte");
	is_int(mad[58], 8, "from port");
	is_mem(mad + 59, zero, SA_DATA_BYTES - 3, "nothing else set");

	sa_encode_lft_get(mad, 5, 0x0102);
	expect_get(mad, 0x0015, 0x3, "LFTRecord");
	is_int(mad[57], 5, "switch LID");
	is_int(mad[58], 0x01, "block high byte");
	is_int(mad[59], 0x02, "block low byte");
	is_mem(mad + 60, zero, SA_DATA_BYTES - 4, "nothing else set");

	/* One block of every switch: a GetTable (method 0x12), BlockNum. */
	sa_encode_lft_block_table(mad, 0x0203);
	is_int(mad[3], 0x12, "LFT block table: SubnAdmGetTable");
	is_int(mad[17], 0x15, "LFTRecord");
	is_int(mad[55], 0x2, "component mask BlockNum alone");
	is_mem(mad + 48, zero, 7, "no other mask bit");
	is_int(mad[56] | mad[57], 0, "no switch LID");
	is_int(mad[58], 0x02, "block high byte");
	is_int(mad[59], 0x03, "block low byte");
	is_mem(mad + 60, zero, SA_DATA_BYTES - 4, "nothing else set");

	sa_encode_portinfo_get(mad, 0x0a0b, 3);
	expect_get(mad, 0x0012, 0x3, "PortInfoRecord");
	is_int(mad[56], 0x0a, "endport LID high byte");
	is_int(mad[57], 0x0b, "endport LID low byte");
	is_int(mad[58], 3, "port number");
	is_mem(mad + 59, zero, SA_DATA_BYTES - 3, "nothing else set");

	sa_encode_node_get(mad, 7);
	expect_get(mad, 0x0011, 0x1, "NodeRecord");
	is_int(mad[57], 7, "LID");
	is_mem(mad + 58, zero, SA_DATA_BYTES - 2, "nothing else set");
}

int main(void)
{
	test_link_record();
	test_lft_record();
	test_portinfo_record();
	test_requests();
	return tap_done();
}
