/* MTU, rate and packet life conversions; see ibrate.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "base/ibrate.h"

uint16_t ibrate_mtu_bytes(uint8_t code)
{
	return code >= 1 && code <= 5 ? (uint16_t)(128u << code) : 0;
}

uint8_t ibrate_mtu_code(uint16_t bytes)
{
	for (uint8_t code = 1; code <= 5; code++)
		if (ibrate_mtu_bytes(code) == bytes)
			return code;
	return 0;
}

uint32_t ibrate_mbps(uint8_t code)
{
	int mbps;

	/* 0 means "port rate" in an AH and "unknown" in a path record. */
	if (code == 0 || code > IBV_RATE_1200_GBPS)
		return 0;
	mbps = ibv_rate_to_mbps((enum ibv_rate)code);
	return mbps > 0 ? (uint32_t)mbps : 0;
}

/* The nominal rates the enum names (IBV_RATE_56_GBPS...), which admins
 * know; ibv_rate_to_mbps gives the data rate after encoding (56.25). */
double ibrate_gbps(uint8_t code)
{
	static const double nominal[] = {
		[2] = 2.5, [3] = 10, [4] = 30, [5] = 5, [6] = 20, [7] = 40,
		[8] = 60, [9] = 80, [10] = 120, [11] = 14, [12] = 56,
		[13] = 112, [14] = 168, [15] = 25, [16] = 100, [17] = 200,
		[18] = 300, [19] = 28, [20] = 50, [21] = 400, [22] = 600,
		[23] = 800, [24] = 1200,
	};

	return code < sizeof(nominal) / sizeof(nominal[0]) ? nominal[code]
							   : 0;
}

const char *ibrate_format_gbps(uint8_t code, char *buf, size_t len)
{
	double gbps = ibrate_gbps(code);

	if (gbps == 0)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%g", gbps);
	return buf;
}

int ibrate_parse_gbps(const char *text, uint8_t *code, char *err,
		      size_t errlen)
{
	char valid[256] = "", one[16];
	double gbps = 0;
	char *end = NULL;

	if (text && *text && (text[0] >= '0' && text[0] <= '9'))
		gbps = strtod(text, &end);
	for (uint8_t c = IBV_RATE_2_5_GBPS; c <= IBV_RATE_1200_GBPS; c++) {
		if (end && !*end && ibrate_gbps(c) != 0 &&
		    fabs(gbps - ibrate_gbps(c)) < 1e-9) {
			*code = c;
			return 0;
		}
	}
	/* List the valid rates in increasing order of speed. */
	for (double floor = 0;;) {
		double next = 1e9;

		for (uint8_t c = IBV_RATE_2_5_GBPS; c <= IBV_RATE_1200_GBPS; c++)
			if (ibrate_gbps(c) > floor && ibrate_gbps(c) < next)
				next = ibrate_gbps(c);
		if (next == 1e9)
			break;
		snprintf(one, sizeof(one), "%s%g", valid[0] ? ", " : "", next);
		strncat(valid, one, sizeof(valid) - strlen(valid) - 1);
		floor = next;
	}
	snprintf(err, errlen, "rate '%.32s' is not an InfiniBand rate: "
		 "expected one of %s (Gb/s)", text ? text : "", valid);
	return -1;
}

double ibrate_packet_life_us(uint8_t code)
{
	return 4.096 * ldexp(1.0, code & 0x3f);
}
