/* Unit tests of the probe wire format: golden bytes, round trips, and
 * every way a malformed message is refused. */
#include <stdlib.h>
#include <string.h>

#include "wire/probe_wire.h"
#include "tap.h"

static struct probe_header sample_header(void)
{
	struct probe_header h = {
		.kind = PROBE_REQUEST,
		.probe_id = 0x01020304,
		.sequence = 0xa0b0c0d0,
		.send_time_ns = 0x1122334455667788ull,
		.asked = { .hop_limit = 7, .traffic_class = 0x28, .sl = 3,
			   .flow_label = 0x12345 },
		.flags = PROBE_REQUEST_WANTS_TIMING,
	};
	return h;
}

static void test_request_golden(void)
{
	/* Written out from the layout table in probe_wire.h. */
	static const uint8_t golden[32] = {
		0x49, 0x41, 0x48, 0x50, 0x01, 0x01, 0x00, 0xd0,
		0x01, 0x02, 0x03, 0x04, 0xa0, 0xb0, 0xc0, 0xd0,
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		0x07, 0x28, 0x03, 0x01, 0x00, 0x01, 0x23, 0x45,
	};
	struct probe_header h = sample_header(), back;
	uint8_t buf[PROBE_MAX_SIZE];

	is_int(PROBE_REQUEST_MIN_SIZE, 208, "smallest request: reply 160 + "
	       "stamps 48");
	is_int(probe_encode_request(&h, buf, 208), 208, "request of 208 bytes");
	is_mem(buf, golden, sizeof(golden), "request header bytes");
	ok(buf[207] == 0 && buf[32] == 0, "padding is zeroed");
	is_int(probe_decode_header(buf, 208, &back), PROBE_OK, "decodes");
	is_int(back.flags, PROBE_REQUEST_WANTS_TIMING, "request flags");
	is_int(back.sequence, 0xa0b0c0d0, "sequence");
	is_int(back.send_time_ns == 0x1122334455667788ull, 1, "send time");
	is_int(back.asked.flow_label, 0x12345, "asked flow label");
	is_int(back.asked.traffic_class, 0x28, "asked traffic class");
	is_int(back.kind, PROBE_REQUEST, "kind");
	is_int(probe_encode_request(&h, buf, 207), 0, "too small refused");
	is_int(probe_encode_request(&h, buf, PROBE_MAX_SIZE + 1), 0,
	       "too large refused");
	is_int(probe_encode_request(&h, buf, 1024), 1024, "padded to 1024");
	is_int(probe_decode_header(buf, 1024, &back), PROBE_OK, "1024 decodes");
	is_int(back.length, 1024, "length field");
}

static void test_reply_round_trip(void)
{
	struct probe_reply r = { 0 }, back;
	uint8_t buf[PROBE_REPLY_SIZE + 8];

	r.header = sample_header();
	r.observed.grh_present = true;
	r.observed.grh_ipv4 = true;
	r.observed.ip_version = 4;
	r.observed.traffic_class = 0x2a;
	r.observed.hop_limit = 62;
	r.observed.flow_label = 0xfffff;
	r.observed.sgid.raw[15] = 1;
	r.observed.dgid.raw[0] = 0xfe;
	r.observed.slid = 0xbfff;
	r.observed.sl = 15;
	r.observed.dlid_path_bits = 0x7f;
	r.observed.pkey_index = 0x1234;
	r.observed.src_qp = 0xabcdef;
	r.observed.wc_flags = IBV_WC_GRH;
	r.reverse_created = true;
	r.reverse_errno = -1;
	r.reverse_ah.is_global = 1;
	r.reverse_ah.dlid = 0x1234;
	r.reverse_ah.port_num = 1;
	r.reverse_ah.grh.hop_limit = 62;
	r.reverse_ah.grh.flow_label = 0x54321;
	r.reverse_ah.grh.sgid_index = 3;
	r.reverse_ah.grh.dgid.raw[10] = 0xff;
	r.responder_time_ns = 42;

	is_int(probe_encode_reply(&r, buf, PROBE_REPLY_SIZE), PROBE_REPLY_SIZE,
	       "reply size");
	ok(PROBE_REPLY_SIZE <= PROBE_REQUEST_MIN_SIZE,
	   "a reply is never larger than the smallest request");
	is_int(buf[5], PROBE_REPLY, "kind byte");
	is_int(buf[32], 0x07, "observed flags byte");
	is_int(probe_decode_reply(buf, PROBE_REPLY_SIZE, &back), PROBE_OK,
	       "reply decodes");
	ok(back.observed.grh_present && back.observed.grh_ipv4 &&
		   back.reverse_created, "flags survive");
	is_int(back.observed.hop_limit, 62, "observed hop limit");
	is_int(back.observed.flow_label, 0xfffff, "observed flow label");
	is_int(back.observed.slid, 0xbfff, "slid");
	is_int(back.observed.src_qp, 0xabcdef, "src_qp");
	is_int(back.observed.pkey_index, 0x1234, "pkey_index");
	is_mem(back.observed.sgid.raw, r.observed.sgid.raw, 16, "sgid");
	is_int(back.reverse_ah.grh.flow_label, 0x54321, "reverse flow label");
	is_int(back.reverse_ah.grh.sgid_index, 3, "reverse sgid_index");
	is_int(back.reverse_ah.dlid, 0x1234, "reverse dlid");
	is_int(back.reverse_errno, -1, "reverse errno sign kept");
	is_int(back.responder_time_ns, 42, "responder time");
	is_int(back.header.sequence, 0xa0b0c0d0, "sequence echoed");
}

/* The reply's count and sent hop limit sit in bytes that were reserved
 * (zero) before: their offsets are the contract with older probers, and
 * an older responder's zeros must decode as unknown, never as 0. */
static void test_reply_count_and_hop_limit_sent(void)
{
	struct probe_reply r = { 0 }, back;
	uint8_t buf[PROBE_REPLY_V1_SIZE];

	r.header = sample_header();
	r.reverse_ah.grh.hop_limit = 255;
	r.hop_limit_sent_known = true;
	r.hop_limit_sent = 64;
	r.responder_received = 0x01020307;
	probe_encode_reply(&r, buf, PROBE_REPLY_V1_SIZE);
	is_int(buf[32], 0x10, "flags: bit 4 says byte 98 is the sent hop limit");
	is_int(buf[96], 255, "reverse AH hop limit stays at 96");
	is_int(buf[98], 64, "hop limit the reply left with at 98");
	is_int(buf[99], 0, "byte 99 stays reserved");
	ok(buf[132] == 1 && buf[133] == 2 && buf[134] == 3 && buf[135] == 7,
	   "received count at 132, big endian");
	is_int(probe_decode_reply(buf, sizeof(buf), &back), PROBE_OK, "decodes");
	ok(back.hop_limit_sent_known && back.hop_limit_sent == 64,
	   "sent hop limit round trip");
	is_int(back.responder_received, 0x01020307, "count round trip");

	/* An older responder: flag clear, bytes 98 and 132..135 zero. */
	r.hop_limit_sent_known = false;
	r.responder_received = 0;
	probe_encode_reply(&r, buf, PROBE_REPLY_V1_SIZE);
	is_int(buf[98], 0, "unknown sent hop limit writes 0");
	buf[98] = 77;	/* junk without the flag is not believed */
	probe_decode_reply(buf, sizeof(buf), &back);
	ok(!back.hop_limit_sent_known && back.hop_limit_sent == 0,
	   "no flag: sent hop limit unknown whatever byte 98 holds");
	is_int(back.responder_received, 0, "zero count: unknown");
}

static void test_malformed(void)
{
	struct probe_header h = sample_header(), back;
	struct probe_reply r;
	uint8_t buf[PROBE_MAX_SIZE];

	probe_encode_request(&h, buf, 208);
	buf[7] = 200;	/* an older prober's 200-byte request */
	is_int(probe_decode_header(buf, 31, &back), PROBE_ERR_SHORT,
	       "shorter than a header");
	is_int(probe_decode_header(buf, 199, &back), PROBE_ERR_SHORT,
	       "shorter than its length field");
	buf[0] ^= 0xff;
	is_int(probe_decode_header(buf, 200, &back), PROBE_ERR_MAGIC,
	       "bad magic");
	buf[0] ^= 0xff;
	buf[4] = 2;
	is_int(probe_decode_header(buf, 200, &back), PROBE_ERR_VERSION,
	       "unknown version");
	buf[4] = 1;
	buf[5] = 9;
	is_int(probe_decode_header(buf, 200, &back), PROBE_ERR_KIND,
	       "unknown kind");
	buf[5] = PROBE_REQUEST;
	buf[6] = 0;
	buf[7] = 100;
	is_int(probe_decode_header(buf, 200, &back), PROBE_ERR_LENGTH,
	       "request length below the minimum");
	probe_encode_request(&h, buf, 208);
	buf[5] = PROBE_REPLY;
	is_int(probe_decode_header(buf, 208, &back), PROBE_ERR_LENGTH,
	       "a reply of neither 136 nor 160 bytes");
	buf[5] = PROBE_STAMPS;
	is_int(probe_decode_header(buf, 208, &back), PROBE_ERR_LENGTH,
	       "stamps of another size than 48");
	probe_encode_request(&h, buf, 208);
	is_int(probe_decode_stamps(buf, 208, &(struct probe_stamps){ 0 }),
	       PROBE_ERR_KIND, "a request is no stamps message");
	is_int(probe_decode_reply(buf, 208, &r), PROBE_ERR_KIND,
	       "a request is not a reply");
	is_str(probe_decode_error_name(PROBE_ERR_SHORT), "truncated",
	       "error names");
	/* Random bytes never decode as a valid message by accident. */
	srand(7);
	int accepted = 0;
	for (int i = 0; i < 10000; i++) {
		for (int b = 0; b < 200; b++)
			buf[b] = (uint8_t)rand();
		accepted += probe_decode_header(buf, 200, &back) == PROBE_OK;
	}
	is_int(accepted, 0, "10000 random buffers refused");
}

/* The timing of a 160-byte reply; an older prober's request gets the
 * 136 bytes it knows, and an older responder's reply decodes with the
 * dwell unknown. */
static void test_reply_timing(void)
{
	struct probe_reply r = { 0 }, back;
	struct probe_header v1 = sample_header();
	uint8_t buf[PROBE_MAX_SIZE];

	r.header = sample_header();
	r.header.length = 208;
	r.dwell_known = true;
	r.dwell_ns = 0x0102030405060708ull;
	r.reply_ah_wait_ns = 1000000000ull;
	r.responder_wait = STAMP_SW_BUSY;
	r.stamps_follow = true;
	is_int(probe_reply_size_for(&r.header), 160, "a prober that reads "
	       "timing gets 160 bytes");
	ok(probe_stamps_allowed(&r.header), "208 bytes cover reply + stamps");
	is_int(probe_encode_reply(&r, buf, 150), 0, "no reply of 150 bytes");
	is_int(probe_encode_reply(&r, buf, PROBE_REPLY_SIZE), 160, "encoded");
	is_int(buf[136], 0x03, "timing flags: dwell known, stamps follow");
	is_int(buf[137], STAMP_SW_BUSY, "wait mode at 137");
	ok(buf[144] == 1 && buf[151] == 8, "dwell at 144, big endian");
	is_int(probe_decode_reply(buf, 160, &back), PROBE_OK, "decodes");
	ok(back.dwell_known && back.dwell_ns == r.dwell_ns &&
		   back.reply_ah_wait_ns == 1000000000ull &&
		   back.responder_wait == STAMP_SW_BUSY && back.stamps_follow,
	   "timing round trip");
	buf[137] = 9;
	probe_decode_reply(buf, 160, &back);
	is_int(back.responder_wait, STAMP_UNKNOWN, "an unknown wait mode is "
	       "unknown");

	/* An older prober: no flag, 136 bytes asked, 136 answered. */
	v1.flags = 0;
	v1.length = 136;
	is_int(probe_reply_size_for(&v1), 136, "older prober: 136 bytes");
	ok(!probe_stamps_allowed(&v1), "older prober: no stamps message");
	v1.flags = PROBE_REQUEST_WANTS_TIMING;
	v1.length = 200;
	ok(!probe_stamps_allowed(&v1), "a request smaller than reply + "
	   "stamps draws no stamps message");
	r.header.flags = 0;
	is_int(probe_encode_reply(&r, buf, PROBE_REPLY_V1_SIZE), 136,
	       "136-byte reply");
	is_int(buf[7], 136, "its length field");
	is_int(probe_decode_reply(buf, 136, &back), PROBE_OK,
	       "an older responder's reply decodes");
	ok(!back.dwell_known && !back.stamps_follow &&
		   back.responder_wait == STAMP_UNKNOWN,
	   "with the timing unknown");
}

static void test_stamps(void)
{
	struct probe_stamps m = { .header = sample_header() }, back;
	uint8_t buf[PROBE_STAMPS_SIZE];

	m.hw_dwell_known = true;
	m.hw_dwell_ns = 2345;
	is_int(probe_encode_stamps(&m, buf), 48, "stamps message of 48 bytes");
	is_int(buf[5], PROBE_STAMPS, "kind 3");
	is_int(buf[32], 1, "hw dwell known");
	is_int(probe_decode_stamps(buf, sizeof(buf), &back), PROBE_OK,
	       "decodes");
	ok(back.hw_dwell_known && back.hw_dwell_ns == 2345 &&
		   back.header.sequence == 0xa0b0c0d0,
	   "hw dwell and sequence round trip");
	is_int(probe_decode_reply(buf, sizeof(buf), &(struct probe_reply){ 0 }),
	       PROBE_ERR_KIND, "stamps are no reply");
	m.hw_dwell_known = false;
	probe_encode_stamps(&m, buf);
	buf[47] = 5;	/* junk without the flag is not believed */
	probe_decode_stamps(buf, sizeof(buf), &back);
	ok(!back.hw_dwell_known && back.hw_dwell_ns == 0, "no flag: unknown");
}

/* The VLAN tag sits in bytes 46..47, reserved (zero) before: an older
 * responder's reply says unknown, never "untagged, PCP 0". */
static void test_reply_vlan(void)
{
	struct probe_reply r = { 0 }, back;
	uint8_t buf[PROBE_REPLY_SIZE];

	r.header = sample_header();
	r.observed.vlan_reporter = true;
	r.observed.vlan_known = true;
	r.observed.pcp_known = true;
	r.observed.vlan_id = 100;
	r.observed.pcp = 3;
	probe_encode_reply(&r, buf, PROBE_REPLY_SIZE);
	is_int(buf[32], 0xe0, "flags: bits 5, 6, 7");
	ok(buf[46] == 0x60 && buf[47] == 0x64,
	   "tag at 46..47: PCP 3 VID 100 = 0x6064");
	probe_decode_reply(buf, sizeof(buf), &back);
	ok(back.observed.vlan_reporter && back.observed.vlan_known &&
		   back.observed.pcp_known && back.observed.vlan_id == 100 &&
		   back.observed.pcp == 3,
	   "VLAN 100 PCP 3 round trip");
	/* The VID without the PCP (hns reports the VID alone). */
	r.observed.pcp_known = false;
	probe_encode_reply(&r, buf, PROBE_REPLY_V1_SIZE);
	ok(buf[32] == 0x60 && buf[46] == 0x00 && buf[47] == 0x64,
	   "VID alone: bit 7 clear, no PCP bits");
	probe_decode_reply(buf, PROBE_REPLY_V1_SIZE, &back);
	ok(back.observed.vlan_known && !back.observed.pcp_known &&
		   back.observed.pcp == 0, "PCP unknown round trip");
	/* A responder whose CQ cannot say (rxe). */
	r.observed.vlan_known = false;
	r.observed.vlan_id = 100;
	probe_encode_reply(&r, buf, PROBE_REPLY_SIZE);
	ok(buf[32] == 0x20 && buf[46] == 0 && buf[47] == 0,
	   "reporter without a tag: bit 5 only, bytes zero");
	/* An older responder: bits clear; junk in 46..47 is not believed. */
	r.observed.vlan_reporter = false;
	probe_encode_reply(&r, buf, PROBE_REPLY_SIZE);
	is_int(buf[32], 0, "older responder: no VLAN bits");
	buf[46] = 0xe0;
	buf[47] = 0x05;
	probe_decode_reply(buf, sizeof(buf), &back);
	ok(!back.observed.vlan_reporter && !back.observed.vlan_known &&
		   !back.observed.pcp_known && back.observed.vlan_id == 0,
	   "older responder: VLAN unknown whatever 46..47 hold");
}

int main(void)
{
	test_request_golden();
	test_reply_round_trip();
	test_reply_count_and_hop_limit_sent();
	test_reply_vlan();
	test_malformed();
	test_reply_timing();
	test_stamps();
	return tap_done();
}
