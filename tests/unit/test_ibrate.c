/* Unit tests of MTU, rate and packet-life conversions, checked against
 * libibverbs for every rate code (the enum is not monotonic). */
#include <string.h>

#include <infiniband/verbs.h>

#include "base/ibrate.h"
#include "tap.h"

int main(void)
{
	char buf[32], err[512];
	uint8_t code;
	int mismatched = 0;

	is_int(ibrate_mtu_bytes(1), 256, "mtu 1");
	is_int(ibrate_mtu_bytes(4), 2048, "mtu 4");
	is_int(ibrate_mtu_bytes(5), 4096, "mtu 5");
	is_int(ibrate_mtu_bytes(0), 0, "mtu 0 unknown");
	is_int(ibrate_mtu_bytes(6), 0, "mtu 6 unknown");
	is_int(ibrate_mtu_code(1024), 3, "1024 -> 3");
	is_int(ibrate_mtu_code(1500), 0, "1500 is no IB MTU");
	is_int(ibrate_code(0x84), 4, "selector masked off");
	is_int(ibrate_selector(0x84), 2, "selector 2");

	for (int c = 2; c <= IBV_RATE_1200_GBPS; c++)
		if ((int)ibrate_mbps((uint8_t)c) !=
		    ibv_rate_to_mbps((enum ibv_rate)c))
			mismatched++;
	is_int(mismatched, 0, "every code agrees with ibv_rate_to_mbps");
	is_int(ibrate_mbps(3), 10000, "3 is 10 Gb/s");
	is_int(ibrate_mbps(5), 5000, "5 is 5 Gb/s (not monotonic)");
	is_int(ibrate_mbps(0), 0, "0 unknown");
	ok(ibrate_gbps(12) == 56, "12 is nominally 56 Gb/s");
	is_int(ibrate_mbps(12), 56250, "and carries 56250 Mb/s of data");
	is_int(ibrate_mbps(1), 0, "1 unknown");
	is_str(ibrate_format_gbps(2, buf, sizeof(buf)), "2.5", "2.5");
	is_str(ibrate_format_gbps(12, buf, sizeof(buf)), "56", "56");
	is_str(ibrate_format_gbps(99, buf, sizeof(buf)), "?", "unknown");

	is_int(ibrate_parse_gbps("10", &code, err, sizeof(err)), 0, "parse 10");
	is_int(code, 3, "10 -> 3");
	is_int(ibrate_parse_gbps("2.5", &code, err, sizeof(err)), 0, "2.5");
	is_int(code, 2, "2.5 -> 2");
	is_int(ibrate_parse_gbps("100", &code, err, sizeof(err)), 0, "100");
	is_int(code, 16, "100 -> 16");
	is_int(ibrate_parse_gbps("11", &code, err, sizeof(err)), -1,
	       "11 Gb/s is no rate");
	ok(strstr(err, "2.5, 5, 10") != NULL, "message lists rates in order: "
	   "%s", err);
	is_int(ibrate_parse_gbps("10x", &code, err, sizeof(err)), -1, "junk");
	is_int(ibrate_parse_gbps("", &code, err, sizeof(err)), -1, "empty");
	ok(ibrate_packet_life_us(0) > 4.09 && ibrate_packet_life_us(0) < 4.1,
	   "packet life 0 is 4.096 us");
	ok(ibrate_packet_life_us(18) > 1073741 && ibrate_packet_life_us(18) < 1073742,
	   "packet life 18 is ~1.07 s");
	return tap_done();
}
