/* Unit tests of what responder discovery makes of the SA's answers
 * (lib/sa/discovery_answers.c): GetTable answers as byte vectors into
 * responders (foreign records skipped and counted, empty, cut, bad
 * layout), the record a Set or Delete echoes, the GID a lookup asks by,
 * each lookup's answer, and the paths. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/gid.h"
#include "sa/discovery_answers.h"
#include "sa/responder_discovery.h"
#include "wire/wire_bytes.h"
#include "tap.h"

#define ATTR_OFFSET 44	/* SA header: AttributeOffset, in 8-byte words */
#define RMPP_FLAGS 26
#define RMPP_PAYLOAD_LENGTH 32
#define MAX_RECORDS 4
#define TABLE_BYTES (SA_HEADER_BYTES + MAX_RECORDS * SERVICE_RECORD_BYTES)

/* Record 0 of an opensm 3.3.23 GetTableResp (tests/unit/test_servicerec.c):
 * GID fe80::10:3, lease 60, "ibahprobe:hostH2", format 1, LID 4, QPN
 * 0x123, Q_Key 0x1ab4e0be. */
static const uint8_t opensm_record[SERVICE_RECORD_BYTES] = {
	0x02, 0x00, 0x00, 0x00, 0x1a, 0xb4, 0xe0, 0xbe,
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0x03,
	0xff, 0xff, 0, 0, 0, 0, 0, 0x3c,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	'i', 'b', 'a', 'h', 'p', 'r', 'o', 'b', 'e', ':', 'h', 'o', 's', 't',
	'H', '2', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0x00, 0x01, 0x00, 0x00, 0x00, 0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0x00, 0x00, 0x01, 0x23, 0x1a, 0xb4, 0xe0, 0xbe, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static union ibv_gid gid_of(uint16_t last)
{
	union ibv_gid g;

	memset(&g, 0, sizeof(g));
	g.raw[0] = 0xfe;
	g.raw[1] = 0x80;
	wire_put16(g.raw, 14, last);
	return g;
}

/* A responder's record as serve registers it. */
static void responder_bytes(uint16_t gid_last, uint32_t qpn, const char *host,
			    uint8_t *out)
{
	struct responder_record r;
	struct service_record rec;

	memset(&r, 0, sizeof(r));
	r.gid = gid_of(gid_last);
	r.qpn = qpn;
	r.qkey = 0x1ab4e0be;
	r.lid = gid_last;
	r.rendezvous_port = 18515;
	r.lease = IBAHPROBE_SERVICE_LEASE_S;
	snprintf(r.host, sizeof(r.host), "%s", host);
	servicerec_from_responder(&r, &rec);
	servicerec_encode(&rec, out);
}

/* A whole (reassembled) GetTableResp of the given records. */
static size_t table(uint8_t *msg, const uint8_t (*records)[SERVICE_RECORD_BYTES],
		    size_t n)
{
	memset(msg, 0, TABLE_BYTES);
	msg[0] = 1;	/* BaseVersion */
	msg[1] = SA_MGMT_CLASS;
	msg[2] = SA_CLASS_VERSION;
	msg[3] = SA_METHOD_GET_TABLE_RESP;
	wire_put16(msg, 16, SA_ATTR_SERVICE_RECORD);
	if (n)
		wire_put16(msg, ATTR_OFFSET, SERVICE_RECORD_BYTES / 8);
	for (size_t i = 0; i < n; i++)
		memcpy(msg + SA_HEADER_BYTES + i * SERVICE_RECORD_BYTES,
		       records[i], SERVICE_RECORD_BYTES);
	return SA_HEADER_BYTES + n * SERVICE_RECORD_BYTES;
}

static void test_table(void)
{
	uint8_t rec[4][SERVICE_RECORD_BYTES], msg[TABLE_BYTES];
	struct service_record foreign;
	struct discovery d = { 0 };
	char err[256] = "";
	size_t len;

	memcpy(rec[0], opensm_record, sizeof(opensm_record));
	responder_bytes(7, 0x456, "b", rec[1]);
	/* Someone else under ibahprobe's ServiceID. */
	servicerec_decode(rec[1], &foreign);
	snprintf(foreign.name, sizeof(foreign.name), "someone-else");
	servicerec_encode(&foreign, rec[2]);
	responder_bytes(9, 0x789, "", rec[3]);
	len = table(msg, (const uint8_t (*)[SERVICE_RECORD_BYTES])rec, 4);

	is_int(discovery_take_table(msg, len, &d, err, sizeof(err)), 0,
	       "table: decoded");
	is_int(d.count, 3, "table: three responders");
	is_int(d.foreign, 1, "table: the other service counted, not listed");
	ok(!d.truncated, "table: whole");
	is_int(d.expected, 4, "table: four records in the answer");
	is_int(d.items[0].responder.qpn, 0x123, "table: opensm's record: QPN");
	is_int(d.items[0].responder.qkey, 0x1ab4e0be, "table: opensm's record: Q_Key");
	is_int(d.items[0].responder.lid, 4, "table: opensm's record: LID");
	is_int(d.items[0].responder.lease, 60, "table: opensm's record: lease");
	is_str(d.items[0].responder.host, "hostH2", "table: opensm's record: host");
	ok(d.items[0].found && !d.items[0].path_ok,
	   "table: found, no path yet");
	is_int(d.items[1].responder.qpn, 0x456, "table: in order: second");
	is_int(d.items[1].responder.rendezvous_port, 18515,
	       "table: rendezvous port");
	is_int(d.items[2].responder.qpn, 0x789,
	       "table: the record after the foreign one takes its place");
	is_str(d.items[2].responder.host, "", "table: no host");
	discovery_free(&d);
	ok(d.items == NULL && d.count == 0, "table: freed");
}

/* Each way a record under our ServiceID is not a responder's. */
static void test_table_foreign(void)
{
	uint8_t rec[3][SERVICE_RECORD_BYTES], msg[TABLE_BYTES];
	struct service_record r;
	struct discovery d = { 0 };
	char err[256];
	size_t len;

	responder_bytes(1, 0x10, "a", rec[0]);
	servicerec_decode(rec[0], &r);
	r.data16[0] = 2;	/* a format this ibahprobe does not read */
	servicerec_encode(&r, rec[0]);
	responder_bytes(2, 0, "b", rec[1]);	/* no QPN */
	responder_bytes(3, 0x30, "c", rec[2]);
	servicerec_decode(rec[2], &r);
	r.id = 0x1000;	/* another service */
	servicerec_encode(&r, rec[2]);
	len = table(msg, (const uint8_t (*)[SERVICE_RECORD_BYTES])rec, 3);
	is_int(discovery_take_table(msg, len, &d, err, sizeof(err)), 0,
	       "foreign: decoded");
	is_int(d.count, 0, "foreign: no responder");
	is_int(d.foreign, 3, "foreign: format 2, QPN 0 and another ServiceID skipped");
	discovery_free(&d);
}

/* The same GID twice (two P_Keys make two records): both are listed, as
 * the SA gave them; nothing removes duplicates. */
static void test_table_same_gid(void)
{
	uint8_t rec[2][SERVICE_RECORD_BYTES], msg[TABLE_BYTES];
	struct discovery d = { 0 };
	char err[256];
	size_t len;

	responder_bytes(5, 0x50, "a", rec[0]);
	responder_bytes(5, 0x51, "a", rec[1]);
	len = table(msg, (const uint8_t (*)[SERVICE_RECORD_BYTES])rec, 2);
	is_int(discovery_take_table(msg, len, &d, err, sizeof(err)), 0,
	       "same GID: decoded");
	is_int(d.count, 2, "same GID: both kept");
	is_int(d.items[1].responder.qpn, 0x51, "same GID: in the SA's order");
	discovery_free(&d);
}

static void test_table_empty_and_bad(void)
{
	uint8_t msg[TABLE_BYTES];
	struct discovery d = { 0 };
	char err[256] = "";
	size_t len = table(msg, NULL, 0);

	is_int(discovery_take_table(msg, len, &d, err, sizeof(err)), 0,
	       "empty: no records is no error");
	ok(d.count == 0 && d.foreign == 0 && !d.truncated, "empty: nothing");
	ok(d.items != NULL, "empty: a list all the same");
	discovery_free(&d);

	memset(&d, 0, sizeof(d));
	len = table(msg, NULL, 0);
	wire_put16(msg, ATTR_OFFSET, 10);
	is_int(discovery_take_table(msg, len + 80, &d, err, sizeof(err)), -1,
	       "bad: a stride shorter than a record");
	is_str(err, "attribute offset 10 (80 bytes) is shorter than a record "
	       "(176 bytes)", "bad: says so");
	ok(d.items == NULL, "bad: no list");

	is_int(discovery_take_table(msg, 20, &d, err, sizeof(err)), -1,
	       "short: less than an SA header");
	is_str(err, "the answer is 20 bytes, shorter than an SA header",
	       "short: says so");
}

/* The first packet of a three-record RMPP answer, as a stack without RMPP
 * reassembly hands it over. */
static void test_table_cut(void)
{
	uint8_t rec[1][SERVICE_RECORD_BYTES], msg[TABLE_BYTES];
	struct discovery d = { 0 };
	char err[256], text[512];

	responder_bytes(1, 0x10, "a", rec[0]);
	table(msg, (const uint8_t (*)[SERVICE_RECORD_BYTES])rec, 1);
	msg[RMPP_FLAGS] = SA_RMPP_FLAG_ACTIVE | SA_RMPP_FLAG_FIRST;
	/* 3 records of data and 3 segments of 20 bytes of SA header. */
	wire_put32(msg, RMPP_PAYLOAD_LENGTH, 3 * SERVICE_RECORD_BYTES + 3 * 20);
	is_int(discovery_take_table(msg, SA_MAD_BYTES, &d, err, sizeof(err)), 0,
	       "cut: decoded");
	is_int(d.count, 1, "cut: the record that arrived");
	ok(d.truncated, "cut: noted");
	is_int(d.expected, 3, "cut: of three");
	discovery_truncation_message(&d, text, sizeof(text));
	is_str(text, "only the first packet of the SA's answer arrived (1 "
	       "ServiceRecords of 3): this port's MAD stack did not reassemble "
	       "the multi-packet (RMPP) answer (the ibsim simulator cannot); "
	       "the list is incomplete", "cut: the warning");
	d.expected = 0;
	discovery_truncation_message(&d, text, sizeof(text));
	ok(strstr(text, "(1 ServiceRecords of more)") != NULL,
	   "cut: of more, when the whole is unknown: %s", text);
	discovery_free(&d);
}

static void test_echo(void)
{
	uint8_t mad[SA_MAD_BYTES] = { 0 };
	union ibv_gid mine = gid_of(7), other = gid_of(8);
	struct service_record rec;
	char err[256] = "";

	responder_bytes(7, 0x456, "b", mad + SA_HEADER_BYTES);
	is_int(discovery_check_echo(mad, &mine, err, sizeof(err)), 0,
	       "echo: our record");
	is_int(discovery_check_echo(mad, &other, err, sizeof(err)), -1,
	       "echo: another GID's record");
	is_str(err, "the SA answered with another record (ServiceID "
	       "0x020000001ab4e0be)", "echo: says so");
	servicerec_decode(mad + SA_HEADER_BYTES, &rec);
	rec.id = 0x1234;
	servicerec_encode(&rec, mad + SA_HEADER_BYTES);
	is_int(discovery_check_echo(mad, &mine, err, sizeof(err)), -1,
	       "echo: another ServiceID");
	is_str(err, "the SA answered with another record (ServiceID "
	       "0x0000000000001234)", "echo: names it");
}

static void test_lookup_gid(void)
{
	union ibv_gid port = gid_of(1), got;
	struct dest by_gid = { .kind = DEST_GID, .has_gid = true,
			       .gid = gid_of(0x99) };
	struct dest by_guid = { .kind = DEST_GUID, .guid = 0x0002c90300a1b2c3ull };
	char text[GID_TEXT_MAX];

	wire_put64(port.raw, 0, 0xfe80000000000abcull);
	discovery_lookup_gid(&by_gid, &port, &got);
	ok(memcmp(got.raw, by_gid.gid.raw, 16) == 0, "lookup GID: gid: as given");
	discovery_lookup_gid(&by_guid, &port, &got);
	is_str(gid_format(&got, text, sizeof(text)), "fe80::abc:2:c903:a1:b2c3",
	       "lookup GID: guid: under the port's prefix");
}

static void test_take_lookup(void)
{
	struct sa_query q;
	struct discovered_responder r;
	char want[256];

	memset(&q, 0, sizeof(q));
	memset(&r, 0, sizeof(r));
	r.responder.gid = gid_of(0x42);
	q.result = SA_RESULT_STATUS;
	q.status = SA_STATUS_NO_RECORDS;
	discovery_take_lookup(&q, 100, &r);
	ok(!r.found, "lookup: no record: not found");
	is_str(r.error, "no ibahprobe responder is registered for fe80::42 in "
	       "the SA", "lookup: no record: says so");

	memset(&r, 0, sizeof(r));
	r.responder.gid = gid_of(0x42);
	q.result = SA_RESULT_TIMEOUT;
	q.umad_error = ETIMEDOUT;
	q.attempts = 3;
	discovery_take_lookup(&q, 100, &r);
	sa_query_describe(&q, "ServiceRecord Get", 100, want, sizeof(want));
	ok(!r.found, "lookup: no answer: not found");
	is_str(r.error, want, "lookup: no answer: as sa_query_describe says");

	memset(&r, 0, sizeof(r));
	r.responder.gid = gid_of(0x42);
	memset(&q, 0, sizeof(q));
	q.result = SA_RESULT_OK;
	responder_bytes(0x42, 0, "x", q.response + SA_HEADER_BYTES);
	discovery_take_lookup(&q, 100, &r);
	ok(!r.found, "lookup: not a responder's record: not found");
	is_str(r.error, "the SA's record for fe80::42 is not an ibahprobe "
	       "responder's: QPN 0x0 is not a UD QP number",
	       "lookup: not a responder's record: says why");
	ok(memcmp(r.responder.gid.raw, gid_of(0x42).raw, 16) == 0,
	   "lookup: not a responder's record: the GID asked stays");

	memset(&r, 0, sizeof(r));
	r.responder.gid = gid_of(0x42);
	responder_bytes(0x42, 0x777, "hostX", q.response + SA_HEADER_BYTES);
	discovery_take_lookup(&q, 100, &r);
	ok(r.found, "lookup: a responder's record: found");
	is_int(r.responder.qpn, 0x777, "lookup: its QPN");
	is_str(r.responder.host, "hostX", "lookup: its host");
	is_str(r.error, "", "lookup: no error");
}

static void test_all_timed_out(void)
{
	struct sa_query q[2];

	memset(q, 0, sizeof(q));
	q[0].result = q[1].result = SA_RESULT_TIMEOUT;
	ok(discovery_lookups_all_timed_out(q, 2), "all timed out: the SA is missing");
	q[1].result = SA_RESULT_STATUS;
	ok(!discovery_lookups_all_timed_out(q, 2), "one answered: not the SA");
	ok(!discovery_lookups_all_timed_out(q, 0), "no lookups: nothing timed out");
}

static void test_paths(void)
{
	struct discovered_responder items[3];
	struct discovery d = { .count = 3, .items = items };
	struct path_result results[3];
	struct dest_list dests = { 0 };
	char err[256];

	memset(items, 0, sizeof(items));
	memset(results, 0, sizeof(results));
	for (int i = 0; i < 3; i++)
		items[i].responder.gid = gid_of((uint16_t)(0x10 + i));
	items[0].found = items[1].found = true;
	snprintf(items[2].error, sizeof(items[2].error), "not registered");
	results[0].status = PATH_OK;
	results[0].record.dlid = 17;
	results[1].status = PATH_ERROR;
	snprintf(results[1].error, sizeof(results[1].error), "no path");
	results[2].status = PATH_OK;
	results[2].record.dlid = 99;
	discovery_take_paths(&d, results);
	ok(items[0].path_ok && items[0].dlid == 17, "paths: a path gives the DLID");
	ok(!items[1].path_ok, "paths: no path");
	is_str(items[1].error, "no path", "paths: its error");
	ok(!items[2].path_ok && items[2].dlid == 0,
	   "paths: a responder not found takes no path");
	is_str(items[2].error, "not registered", "paths: and keeps its error");

	is_int(discovery_to_dests(&d, &dests, err, sizeof(err)), 0,
	       "dests: one per responder");
	is_int(dests.count, 3, "dests: each keeps its place");
	is_str(dests.items[2].text, "gid:fe80::12", "dests: as gid:");
	dest_list_free(&dests);
}

int main(void)
{
	test_table();
	test_table_foreign();
	test_table_same_gid();
	test_table_empty_and_bad();
	test_table_cut();
	test_echo();
	test_lookup_gid();
	test_take_lookup();
	test_all_timed_out();
	test_paths();
	return tap_done();
}
