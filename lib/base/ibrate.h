/* MTU and rate codes as the IBA and verbs number them. The rate enum is not
 * monotonic (3 = 10 Gb/s, 5 = 5 Gb/s): never compare codes, convert. The
 * PathRecord octets carry a 2-bit selector above the 6-bit code. */
#ifndef IBAHPROBE_IBRATE_H
#define IBAHPROBE_IBRATE_H

#include <stddef.h>
#include <stdint.h>

/* The 6-bit value of a PathRecord mtu/rate/packet life octet. */
static inline uint8_t ibrate_code(uint8_t octet)
{
	return octet & 0x3f;
}

/* The 2-bit selector: 0 greater than, 1 less than, 2 exactly, 3 best. */
static inline uint8_t ibrate_selector(uint8_t octet)
{
	return octet >> 6;
}

/* MTU code 1..5 -> 256..4096 bytes; 0 for anything else. */
uint16_t ibrate_mtu_bytes(uint8_t code);
/* 256..4096 -> 1..5; 0 for anything else. */
uint8_t ibrate_mtu_code(uint16_t bytes);

/* Rate code (enum ibv_rate) -> the data rate in Mb/s (56250 for FDR 4x,
 * as ibv_rate_to_mbps) and the nominal Gb/s of its name (56); 0 for
 * unknown codes. */
uint32_t ibrate_mbps(uint8_t code);
double ibrate_gbps(uint8_t code);
/* "2.5", "10", "56", ... or "?" for an unknown code. */
const char *ibrate_format_gbps(uint8_t code, char *buf, size_t len);
/* Gb/s text -> the exact rate code; refuses rates no code has, listing
 * the valid ones. */
int ibrate_parse_gbps(const char *text, uint8_t *code, char *err,
		      size_t errlen);

/* Packet life time code -> microseconds (4.096 us * 2^code). */
double ibrate_packet_life_us(uint8_t code);

#endif
