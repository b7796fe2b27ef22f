/* Unit tests of the checked parsers: every kind of number the user types,
 * at its boundaries, with junk, and the exact words of the messages. */
#include <arpa/inet.h>
#include <stdlib.h>

#include "base/diag.h"
#include "base/parse.h"
#include "tap.h"

static char err[DIAG_MSG_MAX];

/* Runs one parser over text into a uint64_t, whatever its width. */
#define PARSE(fn, type, text, out)                                             \
	({                                                                     \
		type v_ = 0;                                                   \
		int r_ = fn((text), &v_, err, sizeof(err));                    \
		*(out) = v_;                                                   \
		r_;                                                            \
	})

static void test_numbers(void)
{
	uint64_t v;

	is_int(parse_u64("0", "n", 0, 10, &v, err, sizeof(err)), 0, "0 in 0-10");
	is_int(parse_u64("0x0a", "n", 0, 10, &v, err, sizeof(err)), 0, "hex 0x0a");
	is_int(v, 10, "0x0a is 10");
	is_int(parse_u64("010", "n", 0, 10, &v, err, sizeof(err)), 0,
	       "a leading zero is still decimal");
	is_int(v, 10, "010 is 10, not octal 8");
	is_int(parse_u64("0X1F", "n", 0, 100, &v, err, sizeof(err)), 0, "0X upper case");
	is_int(v, 31, "0X1F is 31");
	ok(parse_u64("18446744073709551615", "n", 0, UINT64_MAX, &v, err,
		     sizeof(err)) == 0 && v == UINT64_MAX, "2^64-1 fits");
	is_int(parse_u64_hex("18446744073709551616", "n", 0, UINT64_MAX, &v,
			     err, sizeof(err)), -1, "2^64 overflows");
	is_str(err, "n '18446744073709551616' is out of range: expected "
		    "0-18446744073709551615 (0x0-0xffffffffffffffff)",
	       "overflow is out of range, not garbage");
	/* A count, a size, a port: decimal quantities, said in decimal. */
	uint32_t v32;

	is_int(parse_u32("2000000", "count", 0, 1000000, &v32, err,
			 sizeof(err)), -1, "a count out of range");
	is_str(err, "count '2000000' is out of range: expected 0-1000000",
	       "its range in decimal only");
	is_int(parse_u32("x", "count", 0, 1000000, &v32, err, sizeof(err)),
	       -1, "a count that is no number");
	is_str(err, "count 'x' is not a number: expected 0-1000000",
	       "the same");
	is_int(parse_u32_hex("0x100000", "20-bit flow label", 0, 0xfffff, &v32,
			     err, sizeof(err)), -1, "a flow label out of range");
	is_str(err, "20-bit flow label '0x100000' is out of range: expected "
		    "0-1048575 (0x0-0xfffff)", "a field written in hex: both");

	static const char *const junk[] = { " 1", "1 ", "+1", "-0", "-1", "1e3",
					    "0x", "x1", "1.0", "0x1g", "١",
					    "0x0x5", "0X0x5", "0x 5" };
	for (size_t i = 0; i < sizeof(junk) / sizeof(*junk); i++) {
		char want[DIAG_MSG_MAX];

		snprintf(want, sizeof(want), "n '%s' is not a number: "
			 "expected 0-10", junk[i]);
		is_int(parse_u64(junk[i], "n", 0, 10, &v, err, sizeof(err)), -1,
		       "'%s' refused", junk[i]);
		is_str(err, want, "'%s' named as not a number", junk[i]);
	}
	is_int(parse_u64("", "n", 0, 10, &v, err, sizeof(err)), -1, "empty refused");
	is_str(err, "n is empty: expected 0-10", "empty named as empty");
	is_int(parse_u64("11", "n", 0, 10, &v, err, sizeof(err)), -1, "max+1 refused");
	is_int(parse_u64("4", "n", 5, 10, &v, err, sizeof(err)), -1, "min-1 refused");

	is_int(parse_u32("4294967295", "n", 0, UINT32_MAX, &v32, err,
			 sizeof(err)), 0, "u32 max");
	is_int(parse_u32("4294967296", "n", 0, UINT32_MAX, &v32, err,
			 sizeof(err)), -1, "u32 max+1");
}

/* One row per field parser: the smallest and largest valid values, the
 * first invalid ones on both sides (when there is one), and the message
 * for an out-of-range value. */
static void test_fields(void)
{
	uint64_t v;

	is_int(PARSE(parse_lid, uint16_t, "1", &v), 0, "lid 1");
	is_int(PARSE(parse_lid, uint16_t, "0xbfff", &v), 0, "lid 0xbfff (last unicast)");
	is_int(v, 0xbfff, "lid value");
	is_int(PARSE(parse_lid, uint16_t, "0", &v), -1, "lid 0 refused");
	is_int(PARSE(parse_lid, uint16_t, "0xc000", &v), -1, "multicast lid refused");
	is_str(err, "lid '0xc000' is out of range: expected 1-49151 (0x1-0xbfff)",
	       "lid message names the unicast range");

	is_int(PARSE(parse_sl, uint8_t, "15", &v), 0, "sl 15");
	is_int(PARSE(parse_sl, uint8_t, "16", &v), -1, "sl 16 refused");
	is_str(err, "4-bit sl '16' is out of range: expected 0-15", "sl message");

	is_int(PARSE(parse_gid_index, uint8_t, "255", &v), 0, "gid index 255");
	is_int(PARSE(parse_gid_index, uint8_t, "256", &v), -1,
	       "gid index 256 refused (sgid_index is 8 bits)");

	is_int(PARSE(parse_pkey, uint16_t, "0xffff", &v), 0, "pkey 0xffff");
	is_int(PARSE(parse_pkey, uint16_t, "0x10000", &v), -1, "pkey 0x10000 refused");

	is_int(PARSE(parse_qpn, uint32_t, "0xffffff", &v), 0, "qpn 2^24-1");
	is_int(PARSE(parse_qpn, uint32_t, "0x1000000", &v), -1, "qpn 2^24 refused");
	is_str(err, "24-bit qpn '0x1000000' is out of range: expected 1-16777215 "
		    "(0x1-0xffffff)", "qpn message");

	is_int(PARSE(parse_qkey, uint32_t, "0xffffffff", &v), 0, "qkey 2^32-1");
	is_int(PARSE(parse_qkey, uint32_t, "0x100000000", &v), -1, "qkey 2^32 refused");

	is_int(PARSE(parse_flow_label, uint32_t, "0xfffff", &v), 0, "flow label 2^20-1");
	is_int(v, 0xfffff, "flow label value");
	is_int(PARSE(parse_flow_label, uint32_t, "1048576", &v), -1,
	       "flow label 2^20 refused");
	is_str(err, "20-bit flow label '1048576' is out of range: expected "
		    "0-1048575 (0x0-0xfffff)", "flow label message");

	is_int(PARSE(parse_hop_limit, uint8_t, "0", &v), 0, "hop limit 0");
	is_int(PARSE(parse_hop_limit, uint8_t, "255", &v), 0, "hop limit 255");
	is_int(PARSE(parse_hop_limit, uint8_t, "256", &v), -1, "hop limit 256 refused");
	is_str(err, "hop limit '256' is out of range: expected 0-255",
	       "hop limit message");

	is_int(PARSE(parse_traffic_class, uint8_t, "0xff", &v), 0, "tclass 0xff");
	is_int(PARSE(parse_traffic_class, uint8_t, "0x100", &v), -1, "tclass 0x100 refused");

	is_int(PARSE(parse_port_num, uint8_t, "1", &v), 0, "port 1");
	is_int(PARSE(parse_port_num, uint8_t, "0", &v), -1, "port 0 refused");
	is_int(PARSE(parse_port_num, uint8_t, "255", &v), -1, "port 255 refused");

	is_int(PARSE(parse_src_path_bits, uint8_t, "127", &v), 0, "path bits 127");
	is_int(PARSE(parse_src_path_bits, uint8_t, "128", &v), -1,
	       "path bits 128 refused (LMC is at most 7)");

	is_int(PARSE(parse_static_rate, uint8_t, "0", &v), 0, "rate 0 = port rate");
	is_int(PARSE(parse_static_rate, uint8_t, "1", &v), -1,
	       "rate 1 is no ibv_rate value");
	is_int(PARSE(parse_static_rate, uint8_t, "2", &v), 0, "rate 2 = 2.5 Gb/s");
	is_int(PARSE(parse_static_rate, uint8_t, "24", &v), 0,
	       "rate 24 = IBV_RATE_1200_GBPS");
	is_int(PARSE(parse_static_rate, uint8_t, "25", &v), -1, "rate 25 refused");

	is_int(PARSE(parse_mtu, uint16_t, "4096", &v), 0, "mtu 4096");
	is_int(v, 4096, "mtu 4096 bytes");
	is_int(PARSE(parse_mtu, uint16_t, "3", &v), 0, "mtu code 3");
	is_int(v, 1024, "mtu code 3 is 1024 bytes");
	is_int(PARSE(parse_mtu, uint16_t, "1500", &v), -1, "mtu 1500 refused");
	is_str(err, "mtu '1500' is not valid: expected 256, 512, 1024, 2048, 4096 "
		    "(or the code 1-5)", "mtu message lists the valid ones");
	is_int(PARSE(parse_mtu, uint16_t, "6", &v), -1, "mtu code 6 refused");
	is_int(PARSE(parse_mtu, uint16_t, "0", &v), -1, "mtu code 0 refused");

	is_int(PARSE(parse_timeout_ms, uint32_t, "1", &v), 0, "timeout 1 ms");
	is_int(PARSE(parse_timeout_ms, uint32_t, "3600000", &v), 0, "timeout 1 h");
	is_int(PARSE(parse_timeout_ms, uint32_t, "0", &v), -1, "timeout 0 refused");
	is_int(PARSE(parse_timeout_ms, uint32_t, "3600001", &v), -1,
	       "timeout over an hour refused");
}

static void test_gids(void)
{
	union ibv_gid gid;
	const uint8_t mapped[16] = { [10] = 0xff, [11] = 0xff, 10, 0, 0, 2 };
	const uint8_t v6[16] = { 0xfe, 0x80, [15] = 2 };

	is_int(parse_gid("10.0.0.2", &gid, err, sizeof(err)), 0, "IPv4 address");
	is_mem(gid.raw, mapped, 16, "IPv4 becomes ::ffff:10.0.0.2");
	is_int(parse_gid("::ffff:10.0.0.2", &gid, err, sizeof(err)), 0,
	       "IPv4-mapped text");
	is_mem(gid.raw, mapped, 16, "the same GID");
	is_int(parse_gid("fe80::2", &gid, err, sizeof(err)), 0, "IPv6 text");
	is_mem(gid.raw, v6, 16, "fe80::2");
	static const char *const bad[] = { "", "zz::1", "1.2.3", "1.2.3.4.5",
					   "::ffff:1.2.3.4.5", "fe80::2%eth0",
					   "[fe80::2]", "1::2::3" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		is_int(parse_gid(bad[i], &gid, err, sizeof(err)), -1,
		       "gid '%s' refused", bad[i]);
	is_int(parse_gid("zz::1", &gid, err, sizeof(err)), -1, "again");
	is_str(err, "gid 'zz::1' is not valid: expected an IPv6-format GID such "
		    "as fe80::2 or an IPv4 address", "gid message");
}

static void test_lists(void)
{
	struct value_list list = { 0 };
	static const uint32_t want[] = { 7, 0, 1, 2, 3, 40 };

	is_int(parse_value_list("7,0-3,3,0x28", "tc", 0, 255, 100, &list, err,
				sizeof(err)), 0, "values and a range");
	is_int(list.count, 6, "duplicates dropped, order kept");
	ok(list.count == 6 && memcmp(list.values, want, sizeof(want)) == 0,
	   "7 0 1 2 3 40");
	value_list_free(&list);

	is_int(parse_value_list("0x28,0x48", "tc", 0, 255, 100, &list, err,
				sizeof(err)), 0, "hex values");
	ok(list.count == 2 && list.values[0] == 0x28 && list.values[1] == 0x48,
	   "0x28 0x48");
	value_list_free(&list);

	is_int(parse_value_list("5", "hl", 0, 255, 1, &list, err, sizeof(err)),
	       0, "a single value");
	is_int(list.count, 1, "one value");
	value_list_free(&list);

	static const char *const bad[] = { "", ",", "1,", ",1", "1,,2", "3-1",
					   "1-", "-1", "0-256", "256", "x",
					   "1-2-3", "0-10 " };
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		is_int(parse_value_list(bad[i], "tc", 0, 255, 100, &list, err,
					sizeof(err)), -1, "list '%s' refused",
		       bad[i]);
		is_int(list.count, 0, "and left empty");
	}
	/* A long list of repeats: each value once, in first-seen order
	 * (linear: the repeats cost a bit test each). */
	{
		size_t n = 1000, len = n * 7 + 1;
		char *text = malloc(len);
		bool ordered = true;

		text[0] = '\0';
		for (size_t i = 0; i < n; i++)
			strcat(text, i ? ",0-4095" : "0-4095");
		is_int(parse_value_list(text, "fl", 0, 0xfffff, 4096, &list,
					err, sizeof(err)), 0,
		       "'0-4095' a thousand times");
		is_int(list.count, 4096, "4096 distinct values");
		for (size_t i = 0; i < list.count; i++)
			ordered = ordered && list.values[i] == i;
		ok(ordered, "in first-seen order");
		value_list_free(&list);
		free(text);
	}
	is_int(parse_value_list("0-255", "tc", 0, 255, 100, &list, err,
				sizeof(err)), -1, "more values than allowed");
	ok(strstr(err, "100") != NULL, "the limit is named: %s", err);
	is_int(list.count, 0, "and nothing kept");
}

int main(void)
{
	test_numbers();
	test_fields();
	test_gids();
	test_lists();
	return tap_done();
}
