/* Checked parsers, one per kind of number or address the user types.
 * Each rejects empty input, trailing junk and out-of-range values, and on
 * failure writes a message that names the value, what it is and the valid
 * range into err (DIAG_MSG_MAX bytes are enough). All return 0 or -1. */
#ifndef IBAHPROBE_PARSE_H
#define IBAHPROBE_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

/* Decimal or 0x hex, in [min, max]; what names the quantity in messages,
 * which say the range in decimal: "count '2000000' is out of range:
 * expected 0-1000000". */
int parse_u64(const char *text, const char *what, uint64_t min, uint64_t max,
	      uint64_t *out, char *err, size_t errlen);
int parse_u32(const char *text, const char *what, uint32_t min, uint32_t max,
	      uint32_t *out, char *err, size_t errlen);
/* The same for a field people write in hex as often (LIDs, P_Keys, QPNs,
 * Q_Keys, flow labels, GUIDs): the range is said both ways, "expected
 * 0-1048575 (0x0-0xfffff)". */
int parse_u64_hex(const char *text, const char *what, uint64_t min,
		  uint64_t max, uint64_t *out, char *err, size_t errlen);
int parse_u32_hex(const char *text, const char *what, uint32_t min,
		  uint32_t max, uint32_t *out, char *err, size_t errlen);

int parse_lid(const char *text, uint16_t *lid, char *err, size_t errlen);
int parse_sl(const char *text, uint8_t *sl, char *err, size_t errlen);
int parse_gid_index(const char *text, uint8_t *index, char *err, size_t errlen);
int parse_pkey(const char *text, uint16_t *pkey, char *err, size_t errlen);
int parse_qpn(const char *text, uint32_t *qpn, char *err, size_t errlen);
int parse_qkey(const char *text, uint32_t *qkey, char *err, size_t errlen);
int parse_flow_label(const char *text, uint32_t *fl, char *err, size_t errlen);
int parse_hop_limit(const char *text, uint8_t *hl, char *err, size_t errlen);
int parse_traffic_class(const char *text, uint8_t *tc, char *err,
			size_t errlen);
int parse_port_num(const char *text, uint8_t *port, char *err, size_t errlen);
int parse_src_path_bits(const char *text, uint8_t *bits, char *err,
			size_t errlen);
/* The ibv_rate enum value itself (0 = port rate, 2..24), as verbs.h
 * numbers it. */
int parse_static_rate(const char *text, uint8_t *rate, char *err,
		      size_t errlen);
/* MTU in bytes (256, 512, 1024, 2048, 4096) or the IBA code 1..5. */
int parse_mtu(const char *text, uint16_t *mtu_bytes, char *err, size_t errlen);
/* Milliseconds, 1 .. 3600000. */
int parse_timeout_ms(const char *text, uint32_t *ms, char *err, size_t errlen);

/* GID text: an IPv6 literal, or an IPv4 address (mapped to ::ffff:a.b.c.d). */
int parse_gid(const char *text, union ibv_gid *gid, char *err, size_t errlen);

/* A list of values and inclusive ranges, "0-3,7" or "0x28,0x48", each
 * checked against [min, max]. Values are expanded in the order given,
 * duplicates dropped; at most max_count of them. For fields of up to
 * about 24 bits: repeats are found in a bitmap of max - min + 1 bits. */
struct value_list {
	size_t count;
	uint32_t *values;
};
int parse_value_list(const char *text, const char *what, uint32_t min,
		     uint32_t max, size_t max_count, struct value_list *list,
		     char *err, size_t errlen);
void value_list_free(struct value_list *list);

#endif
