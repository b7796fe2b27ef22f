/* Checked parsers for every number and address ibahprobe accepts. Unlike
 * a bare strtoul, they refuse empty text, signs, trailing junk and values
 * out of range, and say which range was expected. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/parse.h"

/* Values in messages are quoted as typed; cap what we echo back. */
#define ECHO_MAX 64

static void echo_value(const char *text, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s%s", ECHO_MAX, text,
		 strlen(text) > ECHO_MAX ? "..." : "");
}

/* The range in decimal, and in hex too for a field people write in hex
 * (hex) when it is wider than a byte. */
static void range_message(char *err, size_t errlen, const char *text,
			  const char *what, uint64_t min, uint64_t max,
			  bool hex, const char *problem)
{
	char shown[ECHO_MAX + 4];

	echo_value(text, shown, sizeof(shown));
	if (hex && max > 255)
		snprintf(err, errlen,
			 "%s '%s' %s: expected %llu-%llu (0x%llx-0x%llx)",
			 what, shown, problem, (unsigned long long)min,
			 (unsigned long long)max, (unsigned long long)min,
			 (unsigned long long)max);
	else
		snprintf(err, errlen, "%s '%s' %s: expected %llu-%llu", what,
			 shown, problem, (unsigned long long)min,
			 (unsigned long long)max);
}

static int parse_number(const char *text, const char *what, uint64_t min,
			uint64_t max, bool hex, uint64_t *out, char *err,
			size_t errlen)
{
	unsigned long long value;
	char *end;

	if (!text || !*text) {
		snprintf(err, errlen, "%s is empty: expected %llu-%llu", what,
			 (unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	/* strtoull accepts leading blanks and signs ("-1" wraps): refuse. */
	if (!isdigit((unsigned char)text[0])) {
		range_message(err, errlen, text, what, min, max, hex,
			      "is not a number");
		return -1;
	}
	errno = 0;
	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		/* strtoull would take a second "0x" ("0x0x28"): only hex
		 * digits may follow the prefix. */
		if (!isxdigit((unsigned char)text[2]) ||
		    strspn(text + 2, "0123456789abcdefABCDEF") !=
			    strlen(text + 2)) {
			range_message(err, errlen, text, what, min, max, hex,
				      "is not a number");
			return -1;
		}
		value = strtoull(text + 2, &end, 16);
	} else {
		value = strtoull(text, &end, 10);
	}
	if (*end) {
		range_message(err, errlen, text, what, min, max, hex,
			      "is not a number");
		return -1;
	}
	if (errno == ERANGE || value < min || value > max) {
		range_message(err, errlen, text, what, min, max, hex,
			      "is out of range");
		return -1;
	}
	*out = value;
	return 0;
}

int parse_u64(const char *text, const char *what, uint64_t min, uint64_t max,
	      uint64_t *out, char *err, size_t errlen)
{
	return parse_number(text, what, min, max, false, out, err, errlen);
}

int parse_u64_hex(const char *text, const char *what, uint64_t min,
		  uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	return parse_number(text, what, min, max, true, out, err, errlen);
}

static int parse_narrow(const char *text, const char *what, uint32_t min,
			uint32_t max, bool hex, uint32_t *out, char *err,
			size_t errlen)
{
	uint64_t value;

	if (parse_number(text, what, min, max, hex, &value, err, errlen))
		return -1;
	*out = (uint32_t)value;
	return 0;
}

int parse_u32(const char *text, const char *what, uint32_t min, uint32_t max,
	      uint32_t *out, char *err, size_t errlen)
{
	return parse_narrow(text, what, min, max, false, out, err, errlen);
}

int parse_u32_hex(const char *text, const char *what, uint32_t min,
		  uint32_t max, uint32_t *out, char *err, size_t errlen)
{
	return parse_narrow(text, what, min, max, true, out, err, errlen);
}

/* Narrowing wrappers: one line each so every kind keeps its own range;
 * hex: a field of the IBA or verbs that people write in hex. */
#define DEFINE_PARSER(name, type, what, min, max, hex)                         \
	int name(const char *text, type *out, char *err, size_t errlen)        \
	{                                                                      \
		uint32_t value;                                                \
		if (parse_narrow(text, what, min, max, hex, &value, err,       \
				 errlen))                                      \
			return -1;                                             \
		*out = (type)value;                                            \
		return 0;                                                      \
	}

/* 0xc000-0xfffe are multicast LIDs and 0xffff the permissive LID: a unicast
 * destination is 1..0xbfff. */
DEFINE_PARSER(parse_lid, uint16_t, "lid", 1, 0xbfff, true)
DEFINE_PARSER(parse_sl, uint8_t, "4-bit sl", 0, 15, false)
DEFINE_PARSER(parse_gid_index, uint8_t, "gid index", 0, 255, false)
DEFINE_PARSER(parse_pkey, uint16_t, "p_key", 0, 0xffff, true)
DEFINE_PARSER(parse_qpn, uint32_t, "24-bit qpn", 1, 0xffffff, true)
DEFINE_PARSER(parse_qkey, uint32_t, "q_key", 0, 0xffffffff, true)
DEFINE_PARSER(parse_flow_label, uint32_t, "20-bit flow label", 0, 0xfffff, true)
DEFINE_PARSER(parse_hop_limit, uint8_t, "hop limit", 0, 255, false)
DEFINE_PARSER(parse_traffic_class, uint8_t, "traffic class", 0, 255, true)
DEFINE_PARSER(parse_port_num, uint8_t, "port", 1, 254, false)
DEFINE_PARSER(parse_src_path_bits, uint8_t, "src_path_bits", 0, 127, false)
DEFINE_PARSER(parse_timeout_ms, uint32_t, "timeout (ms)", 1, 3600000, false)

int parse_static_rate(const char *text, uint8_t *rate, char *err,
		      size_t errlen)
{
	uint32_t value;

	/* enum ibv_rate: 0 is "port rate", 2..24 are rates; 1 is unused. */
	if (parse_u32(text, "static rate", 0, IBV_RATE_1200_GBPS, &value, err,
		      errlen) == 0 && value != 1) {
		*rate = (uint8_t)value;
		return 0;
	}
	snprintf(err, errlen,
		 "static rate '%.*s' is not an enum ibv_rate value: expected 0 "
		 "(port rate) or 2-24 as verbs.h numbers them (3 = 10 Gb/s, "
		 "12 = 56 Gb/s, 16 = 100 Gb/s)",
		 ECHO_MAX, text ? text : "");
	return -1;
}

int parse_mtu(const char *text, uint16_t *mtu_bytes, char *err, size_t errlen)
{
	static const uint16_t mtus[] = { 256, 512, 1024, 2048, 4096 };
	char shown[ECHO_MAX + 4];
	uint32_t value;
	size_t i;

	if (parse_u32(text, "mtu", 1, 4096, &value, err, errlen) == 0) {
		if (value >= 1 && value <= 5) {
			*mtu_bytes = mtus[value - 1];
			return 0;
		}
		for (i = 0; i < sizeof(mtus) / sizeof(mtus[0]); i++) {
			if (mtus[i] == value) {
				*mtu_bytes = mtus[i];
				return 0;
			}
		}
	}
	echo_value(text ? text : "", shown, sizeof(shown));
	snprintf(err, errlen,
		 "mtu '%s' is not valid: expected 256, 512, 1024, 2048, 4096 "
		 "(or the code 1-5)",
		 shown);
	return -1;
}

int parse_gid(const char *text, union ibv_gid *gid, char *err, size_t errlen)
{
	struct in_addr v4;
	char shown[ECHO_MAX + 4];

	if (!text || !*text) {
		snprintf(err, errlen,
			 "gid is empty: expected an IPv6-format GID such as "
			 "fe80::2 or an IPv4 address");
		return -1;
	}
	if (inet_pton(AF_INET6, text, gid->raw) == 1)
		return 0;
	if (inet_pton(AF_INET, text, &v4) == 1) {
		/* RoCE v2 carries IPv4 as an IPv4-mapped GID. */
		memset(gid->raw, 0, 10);
		gid->raw[10] = 0xff;
		gid->raw[11] = 0xff;
		memcpy(&gid->raw[12], &v4, 4);
		return 0;
	}
	echo_value(text, shown, sizeof(shown));
	snprintf(err, errlen,
		 "gid '%s' is not valid: expected an IPv6-format GID such as "
		 "fe80::2 or an IPv4 address",
		 shown);
	return -1;
}

/* Values seen so far, for dropping repeats in constant time: a bitmap
 * over min..max, so a long list ("0-4095,0-4095,...") stays linear. */
struct seen_values {
	uint8_t *bits;
	uint32_t min;
	size_t capacity;	/* of list->values */
};

static int value_list_add(struct value_list *list, struct seen_values *seen,
			  size_t max_count, uint32_t value, const char *what,
			  char *err, size_t errlen)
{
	uint32_t bit = value - seen->min;

	if (seen->bits[bit / 8] & (1u << bit % 8))
		return 0;
	if (list->count >= max_count) {
		snprintf(err, errlen, "%s list has more than %zu values", what,
			 max_count);
		return -1;
	}
	if (list->count == seen->capacity) {
		size_t want = seen->capacity ? seen->capacity * 2 : 16;
		uint32_t *grown = realloc(list->values, want * sizeof(*grown));

		if (!grown) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		list->values = grown;
		seen->capacity = want;
	}
	seen->bits[bit / 8] |= (uint8_t)(1u << bit % 8);
	list->values[list->count++] = value;
	return 0;
}

int parse_value_list(const char *text, const char *what, uint32_t min,
		     uint32_t max, size_t max_count, struct value_list *list,
		     char *err, size_t errlen)
{
	char *copy, *item, *save = NULL, *dash;
	uint32_t first, last, v;
	struct seen_values seen = { .min = min };
	int rc = -1;

	list->count = 0;
	list->values = NULL;
	if (!text || !*text) {
		snprintf(err, errlen, "%s list is empty: expected values "
			 "%u-%u such as 1,3-5", what, min, max);
		return -1;
	}
	copy = strdup(text);
	/* Lists are of 8- and 20-bit fields: at most 128 KiB of bits. */
	seen.bits = calloc(((size_t)max - min) / 8 + 1, 1);
	if (!copy || !seen.bits) {
		free(copy);
		free(seen.bits);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* strtok_r would skip empty items ("1,,2"): find them first. */
	if (copy[0] == ',' || copy[strlen(copy) - 1] == ',' ||
	    strstr(copy, ",,")) {
		snprintf(err, errlen, "%s list '%s' has an empty item", what,
			 text);
		goto out;
	}
	for (item = strtok_r(copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		dash = strchr(item, '-');
		if (dash)
			*dash = '\0';
		if (parse_u32_hex(item, what, min, max, &first, err, errlen))
			goto out;
		last = first;
		if (dash && parse_u32_hex(dash + 1, what, min, max, &last, err,
					  errlen))
			goto out;
		if (last < first) {
			snprintf(err, errlen,
				 "%s range '%s-%s' runs backwards", what, item,
				 dash + 1);
			goto out;
		}
		for (v = first;; v++) {
			if (value_list_add(list, &seen, max_count, v, what,
					   err, errlen))
				goto out;
			if (v == last)
				break;
		}
	}
	rc = 0;
out:
	free(copy);
	free(seen.bits);
	if (rc)
		value_list_free(list);
	return rc;
}

void value_list_free(struct value_list *list)
{
	free(list->values);
	list->values = NULL;
	list->count = 0;
}
