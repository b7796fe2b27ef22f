/* Unit tests of the ServiceRecord codec and of ibahprobe's responder
 * records: a record as opensm sent it (golden bytes), exact component
 * masks, request headers, response methods, and how the records of a
 * GetTable answer are found (whole, empty, reassembled, cut). */
#include <stdlib.h>
#include <string.h>

#include "wire/servicerec.h"
#include "tap.h"

/* The record of a ServiceRecord GetTableResp from opensm 3.3.23, bytes 56
 * to 232 of the MAD: ServiceID 0x020000001ab4e0be, GID fe80::10:3, P_Key
 * 0xffff, lease 60, name "ibahprobe:hostH2", ServiceData16 {1, 0, 4},
 * ServiceData32 {0x123, 0x1ab4e0be}. */
static const uint8_t golden[SERVICE_RECORD_BYTES] = {
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

static void h2_responder(struct responder_record *r)
{
	memset(r, 0, sizeof(*r));
	r->gid.raw[0] = 0xfe;
	r->gid.raw[1] = 0x80;
	r->gid.raw[13] = 0x10;
	r->gid.raw[15] = 0x03;
	r->qpn = 0x123;
	r->qkey = 0x1ab4e0be;
	r->lid = 4;
	r->lease = 60;
	strcpy(r->host, "hostH2");
}

static void test_golden(void)
{
	struct service_record rec, back;
	struct responder_record r, want;
	uint8_t again[SERVICE_RECORD_BYTES];
	char err[256];

	servicerec_decode(golden, &rec);
	is_int(rec.id == IBAHPROBE_SERVICE_ID, 1, "ServiceID at 0");
	is_int(rec.gid.raw[15], 3, "ServiceGID at 8");
	is_int(rec.pkey, 0xffff, "ServiceP_Key at 24");
	is_int(rec.lease, 60, "ServiceLease at 28");
	is_str(rec.name, "ibahprobe:hostH2", "ServiceName at 48, NUL-padded");
	is_int(rec.data16[0], 1, "ServiceData16[0] at 128: format");
	is_int(rec.data16[2], 4, "ServiceData16[2] at 132: LID");
	is_int(rec.data32[0], 0x123, "ServiceData32[0] at 144: QPN");
	is_int(rec.data32[1], 0x1ab4e0be, "ServiceData32[1] at 148: Q_Key");
	servicerec_encode(&rec, again);
	is_mem(again, golden, SERVICE_RECORD_BYTES, "re-encodes exactly");

	is_int(servicerec_to_responder(&rec, &r, err, sizeof(err)), 0,
	       "an ibahprobe record");
	h2_responder(&want);
	is_mem(r.gid.raw, want.gid.raw, 16, "responder GID");
	is_int(r.qpn, 0x123, "responder QPN");
	is_int(r.qkey, 0x1ab4e0be, "responder Q_Key");
	is_str(r.host, "hostH2", "host from the name");
	is_int(r.rendezvous_port, 0, "no rendezvous port");

	/* The record ibahprobe registers is byte for byte what the SA
	 * stored and sent back. */
	servicerec_from_responder(&want, &back);
	servicerec_encode(&back, again);
	is_mem(again, golden, SERVICE_RECORD_BYTES,
	       "a registered responder encodes to the golden record");
}

static void test_masks(void)
{
	struct responder_record r;
	struct service_record rec;
	uint64_t mask;

	is_int(SR_COMP_DATA8(0), 1ull << 7, "ServiceData8[0] is bit 7");
	is_int(SR_COMP_DATA8(15), 1ull << 22, "ServiceData8[15] is bit 22");
	is_int(SR_COMP_DATA16(0), 1ull << 23, "ServiceData16[0] is bit 23");
	is_int(SR_COMP_DATA32(0), 1ull << 31, "ServiceData32[0] is bit 31");
	is_int(SR_COMP_DATA32(3), 1ull << 34, "ServiceData32[3] is bit 34");
	is_int(SR_COMP_DATA64(1), 1ull << 36, "ServiceData64[1] is bit 36");
	h2_responder(&r);
	mask = servicerec_from_responder(&r, &rec);
	/* ID, GID, P_Key, lease, name; Data16 0-2 (bits 23-25); Data32 0-1
	 * (bits 31-32); never the ServiceKey (bit 5). */
	is_int(mask, 0x1ull | 0x2 | 0x4 | 0x10 | 0x40 | 0x3800000ull |
			     0x180000000ull,
	       "Set mask: exactly the fields written");
	is_int(mask & SR_COMP_KEY, 0, "no ServiceKey");
	mask = servicerec_discovery_query(&rec);
	is_int(mask, SR_COMP_ID, "discovery matches the ServiceID only");
	is_int(rec.id == IBAHPROBE_SERVICE_ID, 1, "with ibahprobe's ID");
	is_int(IBAHPROBE_SERVICE_ID >> 56, 0x02,
	       "a locally administered ServiceID (IBA Annex A3)");
}

static void test_requests(void)
{
	/* SubnAdmSet of the golden record, TID 0x42: base version 1, class
	 * 0x03 version 2, method 0x02, attribute 0x0031, mask at 48. */
	static const uint8_t head[SA_HEADER_BYTES] = {
		0x01, 0x03, 0x02, 0x02, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0x42,
		0x00, 0x31, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0,
		0, 0, 0, 0x01, 0x83, 0x80, 0x00, 0x57,
	};
	struct responder_record r;
	struct service_record rec;
	uint8_t mad[SA_MAD_BYTES];
	uint64_t mask;

	h2_responder(&r);
	mask = servicerec_from_responder(&r, &rec);
	sa_encode_service_request(mad, SA_METHOD_SET, 0x42, &rec, mask);
	is_mem(mad, head, SA_HEADER_BYTES, "Set header bytes");
	is_mem(mad + SA_HEADER_BYTES, golden, SERVICE_RECORD_BYTES,
	       "the record follows the header");
	sa_encode_service_request(mad, SA_METHOD_DELETE, 0x42, &rec, mask);
	is_int(mad[3], 0x15, "Delete is method 0x15");
	is_int(sa_response_method(SA_METHOD_SET), 0x81, "Set -> GetResp");
	is_int(sa_response_method(SA_METHOD_GET), 0x81, "Get -> GetResp");
	is_int(sa_response_method(SA_METHOD_DELETE), 0x95,
	       "Delete -> DeleteResp");
	is_int(sa_response_method(SA_METHOD_GET_TABLE), 0x92,
	       "GetTable -> GetTableResp");
}

/* A GetTableResp with n records laid out at the given stride. */
static uint8_t *table(size_t n, size_t stride, size_t *len)
{
	uint8_t *m;

	*len = SA_HEADER_BYTES + (n ? (n - 1) * stride + SERVICE_RECORD_BYTES : 0);
	m = calloc(1, *len < SA_MAD_BYTES ? SA_MAD_BYTES : *len);
	m[0] = 1;
	m[1] = SA_MGMT_CLASS;
	m[3] = SA_METHOD_GET_TABLE_RESP;
	m[26] = SA_RMPP_FLAG_ACTIVE;
	m[45] = n ? (uint8_t)(stride / 8) : 0;
	for (size_t i = 0; i < n; i++)
		memcpy(m + SA_HEADER_BYTES + i * stride, golden,
		       SERVICE_RECORD_BYTES);
	return m;
}

/* Marks m the first segment of an RMPP message of paylen bytes. */
static void first_segment(uint8_t *m, uint8_t flags, uint32_t paylen)
{
	m[26] |= flags;
	m[32] = (uint8_t)(paylen >> 24);
	m[33] = (uint8_t)(paylen >> 16);
	m[34] = (uint8_t)(paylen >> 8);
	m[35] = (uint8_t)paylen;
}

static void test_table_layout(void)
{
	struct sa_table t;
	char err[256];
	size_t len;
	uint8_t *m;

	m = table(0, 176, &len);
	is_int(sa_table_layout(m, len, SERVICE_RECORD_BYTES, &t, err,
			       sizeof(err)), 0, "empty table");
	ok(t.count == 0 && !t.truncated, "no records, attribute offset 0");
	free(m);

	m = table(1, 176, &len);
	is_int(len, 232, "one record: 232 bytes");
	sa_table_layout(m, len, SERVICE_RECORD_BYTES, &t, err, sizeof(err));
	ok(t.count == 1 && !t.truncated && t.stride == 176, "one whole record");
	free(m);

	/* Reassembled by the kernel: exact length; the first segment's
	 * payload length counts 220 bytes a segment, 20 of them SA header:
	 * 544 bytes of records in 3 segments are 604. */
	m = table(3, 184, &len);
	is_int(len, 56 + 544, "three records at a stride of 184: 600 bytes");
	first_segment(m, SA_RMPP_FLAG_FIRST, 604);
	sa_table_layout(m, len, SERVICE_RECORD_BYTES, &t, err, sizeof(err));
	ok(t.count == 3 && t.expected == 3 && !t.truncated,
	   "three records at a padded stride of 184");
	/* The same header, only the first packet delivered. */
	sa_table_layout(m, SA_MAD_BYTES, SERVICE_RECORD_BYTES, &t, err,
			sizeof(err));
	ok(t.count == 1 && t.expected == 3 && t.truncated,
	   "cut to the first packet: 1 of 3, truncated");
	free(m);

	/* Ten segments (11 records at 176, 1,936 bytes): 2,136. */
	m = table(11, 176, &len);
	first_segment(m, SA_RMPP_FLAG_FIRST, 2136);
	sa_table_layout(m, len, SERVICE_RECORD_BYTES, &t, err, sizeof(err));
	ok(t.count == 11 && t.expected == 11 && !t.truncated,
	   "eleven records in ten segments: whole, not taken for cut");
	free(m);

	/* One segment: 20 + 176 bytes of payload. */
	m = table(1, 176, &len);
	first_segment(m, SA_RMPP_FLAG_FIRST | SA_RMPP_FLAG_LAST, 196);
	sa_table_layout(m, len, SERVICE_RECORD_BYTES, &t, err, sizeof(err));
	ok(t.count == 1 && t.expected == 1 && !t.truncated,
	   "one segment with its payload length");
	free(m);

	/* As the simulator delivers two records: one MAD, RMPP active, no
	 * payload length, the data ending in part of a record. */
	m = table(2, 176, &len);
	sa_table_layout(m, SA_MAD_BYTES, SERVICE_RECORD_BYTES, &t, err,
			sizeof(err));
	ok(t.count == 1 && t.truncated && t.expected == 0,
	   "cut without a payload length: 1, more unknown");
	m[26] = 0;
	sa_table_layout(m, SA_MAD_BYTES, SERVICE_RECORD_BYTES, &t, err,
			sizeof(err));
	ok(t.count == 1 && !t.truncated, "not RMPP: one MAD is all there is");
	m[45] = 10;
	is_int(sa_table_layout(m, SA_MAD_BYTES, SERVICE_RECORD_BYTES, &t, err,
			       sizeof(err)), -1,
	       "a stride shorter than a record is refused");
	ok(strstr(err, "attribute offset 10") != NULL, "and named: %s", err);
	is_int(sa_table_layout(m, 40, SERVICE_RECORD_BYTES, &t, err,
			       sizeof(err)), -1, "shorter than a header");
	free(m);
}

static void test_foreign_records(void)
{
	struct responder_record r;
	struct service_record rec;
	char err[256];

	servicerec_decode(golden, &rec);
	rec.id = 0x0000000001060000ull;
	is_int(servicerec_to_responder(&rec, &r, err, sizeof(err)), -1,
	       "another ServiceID");
	servicerec_decode(golden, &rec);
	strcpy(rec.name, "ibahprobex");
	is_int(servicerec_to_responder(&rec, &r, err, sizeof(err)), -1,
	       "a name that only starts like ours");
	strcpy(rec.name, "ibahprobe");
	is_int(servicerec_to_responder(&rec, &r, err, sizeof(err)), 0,
	       "the bare name, no host");
	is_str(r.host, "", "no host");
	rec.data16[0] = 2;
	is_int(servicerec_to_responder(&rec, &r, err, sizeof(err)), -1,
	       "a later record format");
	ok(strstr(err, "format 2") != NULL, "named: %s", err);
	rec.data16[0] = 1;
	rec.data32[0] = 0;
	is_int(servicerec_to_responder(&rec, &r, err, sizeof(err)), -1,
	       "QPN 0");
}

static void test_long_host(void)
{
	struct responder_record r;
	struct service_record rec;
	uint8_t data[SERVICE_RECORD_BYTES];

	h2_responder(&r);
	memset(r.host, 'h', SERVICE_NAME_BYTES);
	r.host[SERVICE_NAME_BYTES] = '\0';
	servicerec_from_responder(&r, &rec);
	is_int(strlen(rec.name), SERVICE_NAME_BYTES, "name cut to 64 bytes");
	servicerec_encode(&rec, data);
	is_int(data[48 + 63], 'h', "a full name has no NUL in the field");
	is_int(data[112], 0, "and does not spill into ServiceData8");
	servicerec_decode(data, &rec);
	is_int(strlen(rec.name), SERVICE_NAME_BYTES, "decodes to 64 bytes");
}

int main(void)
{
	test_golden();
	test_masks();
	test_requests();
	test_table_layout();
	test_foreign_records();
	test_long_host();
	return tap_done();
}
