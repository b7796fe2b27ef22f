/* Unit tests of the SA codecs: a PathRecord and a complete SA Get MAD
 * written out by hand from the IBA layout, exact component masks,
 * selector bits, NodeRecord decoding and MAD status words. */
#include <string.h>

#include "wire/pathrec.h"
#include "tap.h"

/* DGID fe80::2:c903:0:1, SGID fe80::2:c903:0:2, DLID 4, SLID 3, flow
 * label 0x12345, hop limit 0, tclass 0x28, reversible, numb_path 1, P_Key
 * 0xffff, SL 3, MTU exactly 2048 (0x84), rate exactly 10 Gb/s (0x83),
 * packet life exactly code 18 (0x92). */
static const uint8_t golden_path[PATH_RECORD_BYTES] = {
	0, 0, 0, 0, 0, 0, 0, 0,
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x00, 0x02, 0xc9, 0x03, 0, 0, 0, 0x01,
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x00, 0x02, 0xc9, 0x03, 0, 0, 0, 0x02,
	0x00, 0x04, 0x00, 0x03,
	0x01, 0x23, 0x45, 0x00,
	0x28, 0x81, 0xff, 0xff, 0x00, 0x03, 0x84, 0x83, 0x92, 0x00,
	0, 0, 0, 0, 0, 0,
};

static void test_path_golden(void)
{
	struct path_record r;
	uint8_t again[PATH_RECORD_BYTES];

	pathrec_decode(golden_path, &r);
	is_int(r.dgid.raw[15], 1, "dgid");
	is_int(r.sgid.raw[15], 2, "sgid");
	is_int(r.dlid, 4, "dlid");
	is_int(r.slid, 3, "slid");
	is_int(r.flow_label, 0x12345, "all 20 bits of the flow label");
	is_int(r.hop_limit, 0, "hop limit");
	is_int(r.traffic_class, 0x28, "tclass");
	ok(r.reversible, "reversible");
	is_int(r.numb_path, 1, "numb_path");
	is_int(r.pkey, 0xffff, "pkey");
	is_int(r.sl, 3, "sl");
	is_int(r.qos_class, 0, "qos class");
	is_int(r.mtu, 4, "mtu code without the selector (0x84 -> 4)");
	is_int(r.mtu_selector, 2, "mtu selector 'exactly'");
	is_int(r.rate, 3, "rate code 3 (10 Gb/s)");
	is_int(r.packet_life, 18, "packet life code");
	pathrec_encode(&r, again);
	is_mem(again, golden_path, PATH_RECORD_BYTES, "re-encodes exactly");
}

static void test_masks(void)
{
	struct path_constraints w;
	struct path_record r;

	memset(&w, 0, sizeof(w));
	is_int(pathrec_query(&w, &r), 0, "nothing constrained: empty mask");
	w.has_dlid = true;
	w.dlid = 7;
	is_int(pathrec_query(&w, &r), PR_COMP_DLID, "dlid only");
	w.has_sl = true;
	w.sl = 2;
	w.has_flow_label = true;
	w.flow_label = 0xfffff;
	is_int(pathrec_query(&w, &r),
	       PR_COMP_DLID | PR_COMP_SL | PR_COMP_FLOW_LABEL,
	       "dlid, sl, flow label");
	is_int(r.flow_label, 0xfffff, "flow label kept whole (saquery keeps 8 "
	       "bits)");
	w.has_mtu = true;
	w.mtu_bytes = 2048;
	w.has_rate = true;
	w.rate = 12;
	uint64_t mask = pathrec_query(&w, &r);
	ok((mask & (PR_COMP_MTU | PR_COMP_MTU_SELECTOR)) ==
		   (PR_COMP_MTU | PR_COMP_MTU_SELECTOR),
	   "mtu comes with its selector");
	ok((mask & (PR_COMP_RATE | PR_COMP_RATE_SELECTOR)) ==
		   (PR_COMP_RATE | PR_COMP_RATE_SELECTOR),
	   "rate comes with its selector");
	is_int(r.mtu, 4, "2048 is code 4");
	is_int(r.mtu_selector, SA_SELECTOR_EXACTLY, "exactly");
	memset(&w, 0, sizeof(w));
	w.has_pkey = w.has_traffic_class = w.has_hop_limit = true;
	w.has_reversible = w.has_qos_class = w.has_sgid = w.has_dgid = true;
	is_int(pathrec_query(&w, &r),
	       PR_COMP_PKEY | PR_COMP_TCLASS | PR_COMP_HOP_LIMIT |
		       PR_COMP_REVERSIBLE | PR_COMP_QOS_CLASS | PR_COMP_SGID |
		       PR_COMP_DGID,
	       "each constraint its own bit, no others");
}

static void test_mad_golden(void)
{
	/* PathRecord SubnAdmGet, TID 0x1234, DGID fe80::2:c903:0:1 and SL 3:
	 * mask 0x8004. */
	static const uint8_t golden_head[SA_HEADER_BYTES] = {
		0x01, 0x03, 0x02, 0x01, 0x00, 0x00, 0x00, 0x00,
		0, 0, 0, 0, 0, 0, 0x12, 0x34,
		0x00, 0x35, 0x00, 0x00, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
		0x00, 0x00, 0x00, 0x00,
		0, 0, 0, 0, 0, 0, 0x80, 0x04,
	};
	struct path_constraints w;
	struct sa_header h;
	uint8_t mad[SA_MAD_BYTES];

	memset(&w, 0, sizeof(w));
	w.has_dgid = true;
	memcpy(w.dgid.raw, golden_path + 8, 16);
	w.has_sl = true;
	w.sl = 3;
	sa_encode_path_query(mad, 0x1234, &w);
	is_mem(mad, golden_head, SA_HEADER_BYTES, "SA Get header bytes");
	is_mem(mad + SA_HEADER_BYTES + 8, golden_path + 8, 16,
	       "DGID at data offset 8");
	is_int(mad[SA_HEADER_BYTES + 52], 0, "qos/sl high byte");
	is_int(mad[SA_HEADER_BYTES + 53], 3, "sl in the low nibble");
	is_int(mad[SA_HEADER_BYTES + 40], 0, "dlid not set");
	is_int(sa_decode_header(mad, sizeof(mad), &h), 0, "header decodes");
	is_int(h.comp_mask, 0x8004, "mask");
	is_int(h.attr_id, SA_ATTR_PATH_RECORD, "attribute 0x35");
	is_int(h.tid, 0x1234, "tid");
	is_int(h.method, SA_METHOD_GET, "method Get");
	is_int(h.class_version, 2, "class version 2");
	is_int(sa_decode_header(mad, 55, &h), -1, "short MAD refused");
}

static void test_node_record(void)
{
	uint8_t data[NODE_RECORD_BYTES] = { 0 }, mad[SA_MAD_BYTES];
	struct node_record r;
	struct sa_header h;

	data[0] = 0x00;
	data[1] = 0x05;				/* LID 5 */
	data[4 + 2] = 1;			/* CA */
	data[4 + 3] = 2;			/* 2 ports */
	data[4 + 12 + 7] = 0x11;		/* node GUID ...11 */
	data[4 + 20 + 7] = 0x12;		/* port GUID ...12 */
	memcpy(data + 44, "H3 HCA-1", 8);
	noderec_decode(data, &r);
	is_int(r.lid, 5, "node lid");
	is_int(r.node_type, 1, "node type");
	is_int(r.num_ports, 2, "ports");
	is_int(r.node_guid, 0x11, "node guid");
	is_int(r.port_guid, 0x12, "port guid");
	is_str(r.description, "H3 HCA-1", "description");
	memset(data + 44, 'x', 64);
	noderec_decode(data, &r);
	is_int(strlen(r.description), 64, "64-byte description terminated");

	sa_encode_node_query(mad, 9, 0, 0x0002c90300000012ull, NULL);
	sa_decode_header(mad, sizeof(mad), &h);
	is_int(h.comp_mask, NR_COMP_PORT_GUID, "by port guid: bit 8");
	is_int(h.attr_id, SA_ATTR_NODE_RECORD, "attribute 0x11");
	is_int(mad[SA_HEADER_BYTES + 24 + 7], 0x12, "port guid at 24");
	sa_encode_node_query(mad, 9, 0, 0, "H1");
	sa_decode_header(mad, sizeof(mad), &h);
	is_int(h.comp_mask, NR_COMP_NODE_DESCRIPTION, "by name: bit 14");
	is_int(memcmp(mad + SA_HEADER_BYTES + 44, "H1\0", 3), 0,
	       "name zero-padded at 44");
}

static void test_status_words(void)
{
	is_str(sa_status_str(0), "ok", "0 ok");
	is_str(sa_status_str(0x0300), "no records", "0x0300");
	is_str(sa_status_str(0x0500), "invalid GID", "0x0500");
	is_str(sa_status_str(0x0600), "insufficient components", "0x0600");
	is_str(sa_status_str(0x0001), "SA busy", "busy bit");
	is_str(sa_status_str(0x0008), "method not supported", "code 2");
	is_str(sa_status_str(0x001c), "invalid attribute or modifier",
	       "code 7");
}

int main(void)
{
	test_path_golden();
	test_masks();
	test_mad_golden();
	test_node_record();
	test_status_words();
	return tap_done();
}
