/* Unit tests of node_ports_from_table(): the NodeRecord GetTable answer
 * for a node description, as opensm sends it for a dual-port CA (one
 * record per port, records padded to 112 bytes: attribute offset 14) and
 * as the kernel hands it to user space after RMPP reassembly (276 bytes),
 * or cut to its first packet where nothing reassembles (256 bytes). */
#include <stdlib.h>
#include <string.h>

#include "sa/path_resolve.h"
#include "tap.h"
#include "wire/wire_bytes.h"

#define STRIDE 112

/* One NodeRecord at rec: LID, CA with 2 ports, port GUID, LocalPortNum
 * (NodeInfo byte 36, record byte 40), description "X". */
static void put_record(uint8_t *rec, uint16_t lid, uint64_t port_guid,
		       uint8_t port)
{
	wire_put16(rec, 0, lid);
	rec[4 + 0] = 1;			/* BaseVersion */
	rec[4 + 1] = 1;			/* ClassVersion */
	rec[4 + 2] = 1;			/* NodeType CA */
	rec[4 + 3] = 2;			/* NumPorts */
	wire_put64(rec, 4 + 12, 0x0002c90300001000ull);	/* NodeGUID */
	wire_put64(rec, 4 + 20, port_guid);
	rec[4 + 36] = port;		/* LocalPortNum */
	rec[44] = 'X';
}

/* A GetTableResp header: RMPP DATA, first (and last) segment. */
static void put_header(uint8_t *mad, uint32_t payload_length, uint8_t flags)
{
	mad[0] = 1;
	mad[1] = 0x03;
	mad[2] = 2;
	mad[3] = 0x92;
	wire_put16(mad, 16, 0x0011);
	mad[24] = 1;			/* RMPP version */
	mad[25] = 1;			/* DATA */
	mad[26] = flags;
	wire_put32(mad, 28, 1);		/* segment 1 */
	wire_put32(mad, 32, payload_length);
	wire_put16(mad, 44, STRIDE / 8);
}

static void test_whole_table(void)
{
	uint8_t msg[56 + STRIDE + 108] = { 0 };
	struct node_ports np;
	char err[128] = "";

	/* Port 2 first: the SA keeps no order. */
	put_header(msg, 260, 0x1 | 0x2 | 0x4);
	put_record(msg + 56, 9, 0x0002c90300001002ull, 2);
	put_record(msg + 56 + STRIDE, 8, 0x0002c90300001001ull, 1);
	is_int(node_ports_from_table(msg, sizeof(msg), &np, err, sizeof(err)),
	       0, "the reassembled two-record table decodes");
	is_int(np.count, 2, "two ports");
	ok(!np.truncated, "whole");
	is_int(np.ports[0].port_num, 1, "port 1 first");
	is_int(np.ports[0].lid, 8, "its LID");
	ok(np.ports[0].port_guid == 0x0002c90300001001ull, "its GUID");
	is_int(np.ports[1].port_num, 2, "then port 2");
	is_int(np.ports[1].lid, 9, "its LID");
	node_ports_free(&np);

	/* The same port twice (an SA that lists a record once per path):
	 * one port. */
	put_record(msg + 56 + STRIDE, 9, 0x0002c90300001002ull, 2);
	is_int(node_ports_from_table(msg, sizeof(msg), &np, err, sizeof(err)),
	       0, "a repeated port decodes");
	is_int(np.count, 1, "counted once");
	node_ports_free(&np);
}

static void test_cut_table(void)
{
	uint8_t msg[256] = { 0 };
	struct node_ports np;
	char err[128] = "";

	/* The first packet only: one whole record, 92 bytes of the next. */
	put_header(msg, 260, 0x1 | 0x2);
	put_record(msg + 56, 8, 0x0002c90300001001ull, 1);
	memset(msg + 56 + STRIDE, 0xee, sizeof(msg) - 56 - STRIDE);
	is_int(node_ports_from_table(msg, sizeof(msg), &np, err, sizeof(err)),
	       0, "the cut table decodes");
	is_int(np.count, 1, "the whole record only");
	ok(np.truncated, "and says it was cut");
	is_int(np.expected, 2, "of two, from the RMPP payload length");
	node_ports_free(&np);
}

static void test_empty_and_bad(void)
{
	uint8_t msg[56] = { 0 };
	uint8_t bad[256] = { 0 };
	struct node_ports np;
	char err[128] = "";

	put_header(msg, 20, 0x1 | 0x2 | 0x4);
	wire_put16(msg, 44, 0);		/* opensm: no records, offset 0 */
	is_int(node_ports_from_table(msg, sizeof(msg), &np, err, sizeof(err)),
	       0, "an empty table decodes");
	is_int(np.count, 0, "no port: no such node");
	node_ports_free(&np);

	put_header(bad, 0, 0);
	wire_put16(bad, 44, 4);		/* 32 bytes: shorter than a record */
	is_int(node_ports_from_table(bad, sizeof(bad), &np, err, sizeof(err)),
	       -1, "a stride shorter than a NodeRecord is refused");
	ok(strstr(err, "shorter than a record") != NULL, "says why: %s", err);
	is_int(node_ports_from_table(bad, 40, &np, err, sizeof(err)), -1,
	       "shorter than the SA header: refused");
}

int main(void)
{
	test_whole_table();
	test_cut_table();
	test_empty_and_bad();
	return tap_done();
}
