/* libFuzzer target: every number, range and value-list parser against a
 * strict regular grammar. A number is decimal digits, or 0x (or 0X) and
 * hex digits, nothing else (no sign, blank, second prefix or suffix), and
 * in range; a list is such numbers or N-M ranges (N <= M) joined by single
 * commas. A parser accepts exactly what the grammar accepts, with the same
 * value, and a refusal names the quantity.
 *
 * Input: byte 0 picks the parser, the rest is the text. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The grammar's own reading of a number: 0 and the value, or -1 when the
 * text is no number; *overflow when it is one beyond 64 bits. */
static int grammar_number(const char *s, size_t len, uint64_t *value,
			  bool *overflow)
{
	unsigned base = 10;
	size_t i = 0;

	*value = 0;
	*overflow = false;
	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == len)
		return -1;
	for (; i < len; i++) {
		unsigned d;
		char c = s[i];

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return -1;
		if (*value > (UINT64_MAX - d) / base)
			*overflow = true;
		*value = *value * base + d;
	}
	return 0;
}

static bool grammar_in_range(const char *s, size_t len, uint64_t min,
			     uint64_t max, uint64_t *value)
{
	bool overflow;

	return grammar_number(s, len, value, &overflow) == 0 && !overflow &&
	       *value >= min && *value <= max;
}

typedef int (*narrow_fn)(const char *, uint64_t *, char *, size_t);

#define NARROW(fn, type)                                                       \
	static int fn##_u64(const char *t, uint64_t *v, char *e, size_t n)     \
	{                                                                      \
		type x;                                                        \
		int rc = fn(t, &x, e, n);                                      \
		*v = x;                                                        \
		return rc;                                                     \
	}
NARROW(parse_lid, uint16_t)
NARROW(parse_sl, uint8_t)
NARROW(parse_gid_index, uint8_t)
NARROW(parse_pkey, uint16_t)
NARROW(parse_qpn, uint32_t)
NARROW(parse_qkey, uint32_t)
NARROW(parse_flow_label, uint32_t)
NARROW(parse_hop_limit, uint8_t)
NARROW(parse_traffic_class, uint8_t)
NARROW(parse_port_num, uint8_t)
NARROW(parse_src_path_bits, uint8_t)
NARROW(parse_timeout_ms, uint32_t)
NARROW(parse_static_rate, uint8_t)
NARROW(parse_mtu, uint16_t)

static int u64_full(const char *t, uint64_t *v, char *e, size_t n)
{
	return parse_u64(t, "value", 0, UINT64_MAX, v, e, n);
}

static int u64_window(const char *t, uint64_t *v, char *e, size_t n)
{
	return parse_u64(t, "value", 0x10, 0x1000, v, e, n);
}

static int u32_exact(const char *t, uint64_t *v, char *e, size_t n)
{
	uint32_t x;
	int rc = parse_u32(t, "value", 7, 7, &x, e, n);

	*v = x;
	return rc;
}

enum rule { PLAIN, STATIC_RATE, MTU };

static const struct number_parser {
	narrow_fn fn;
	const char *what;	/* how a refusal starts */
	uint64_t min, max;
	enum rule rule;
} numbers[] = {
	{ u64_full, "value", 0, UINT64_MAX, PLAIN },
	{ u64_window, "value", 0x10, 0x1000, PLAIN },
	{ u32_exact, "value", 7, 7, PLAIN },
	{ parse_lid_u64, "lid", 1, 0xbfff, PLAIN },
	{ parse_sl_u64, "4-bit sl", 0, 15, PLAIN },
	{ parse_gid_index_u64, "gid index", 0, 255, PLAIN },
	{ parse_pkey_u64, "p_key", 0, 0xffff, PLAIN },
	{ parse_qpn_u64, "24-bit qpn", 1, 0xffffff, PLAIN },
	{ parse_qkey_u64, "q_key", 0, 0xffffffff, PLAIN },
	{ parse_flow_label_u64, "20-bit flow label", 0, 0xfffff, PLAIN },
	{ parse_hop_limit_u64, "hop limit", 0, 255, PLAIN },
	{ parse_traffic_class_u64, "traffic class", 0, 255, PLAIN },
	{ parse_port_num_u64, "port", 1, 254, PLAIN },
	{ parse_src_path_bits_u64, "src_path_bits", 0, 127, PLAIN },
	{ parse_timeout_ms_u64, "timeout (ms)", 1, 3600000, PLAIN },
	{ parse_static_rate_u64, "static rate", 0, 24, STATIC_RATE },
	{ parse_mtu_u64, "mtu", 1, 4096, MTU },
};
#define NUMBER_PARSERS (sizeof(numbers) / sizeof(numbers[0]))

static const struct list_parser {
	uint32_t min, max;
	size_t max_count;
} lists[] = {
	{ 0, 255, 256 },	/* traffic classes, hop limits */
	{ 0, 0xfffff, 64 },	/* flow labels, few */
	{ 1, 15, 4 },
};
#define LIST_PARSERS (sizeof(lists) / sizeof(lists[0]))

/* What the grammar says the parser must give: accepted and the value. */
static bool expected_number(const struct number_parser *p, const char *text,
			    uint64_t *value)
{
	static const uint16_t mtus[] = { 256, 512, 1024, 2048, 4096 };

	if (!grammar_in_range(text, strlen(text), p->min, p->max, value))
		return false;
	switch (p->rule) {
	case STATIC_RATE:
		return *value != 1;	/* enum ibv_rate has no 1 */
	case MTU:
		if (*value <= 5) {
			*value = mtus[*value - 1];
			return true;
		}
		for (size_t i = 0; i < 5; i++)
			if (*value == mtus[i])
				return true;
		return false;
	default:
		return true;
	}
}

static void check_number(const struct number_parser *p, const char *text)
{
	char err[DIAG_MSG_MAX];
	uint64_t got = 0, want = 0;
	bool accepted, expected = expected_number(p, text, &want);

	err[0] = '\0';
	accepted = p->fn(text, &got, err, sizeof(err)) == 0;
	if (accepted != expected || (accepted && got != want))
		__builtin_trap();
	if (!accepted && strncmp(err, p->what, strlen(p->what)) != 0)
		__builtin_trap();	/* the refusal names the quantity */
}

/* The grammar's expansion of a list: -1 when it is no list or has more
 * than max_count distinct values. */
static int expected_list(const struct list_parser *p, const char *text,
			 uint32_t *values, size_t *count)
{
	uint8_t *seen = calloc(p->max / 8 + 1, 1);
	const char *item = text;
	int rc = -1;

	*count = 0;
	if (!seen)
		abort();
	for (;;) {
		size_t len = strcspn(item, ",");
		const char *dash = memchr(item, '-', len);
		uint64_t first, last;

		if (dash) {
			if (!grammar_in_range(item, (size_t)(dash - item),
					      p->min, p->max, &first) ||
			    !grammar_in_range(dash + 1,
					      len - (size_t)(dash - item) - 1,
					      p->min, p->max, &last) ||
			    last < first)
				goto out;
		} else if (!grammar_in_range(item, len, p->min, p->max,
					     &first)) {
			goto out;
		} else {
			last = first;
		}
		for (uint64_t v = first; v <= last; v++) {
			if (seen[v / 8] & (1u << v % 8))
				continue;
			if (*count == p->max_count)
				goto out;
			seen[v / 8] |= (uint8_t)(1u << v % 8);
			values[(*count)++] = (uint32_t)v;
		}
		if (!item[len])
			break;
		item += len + 1;
	}
	rc = 0;
out:
	free(seen);
	return rc;
}

static void check_list(const struct list_parser *p, const char *text)
{
	struct value_list list;
	char err[DIAG_MSG_MAX];
	uint32_t *want = malloc(p->max_count * sizeof(*want));
	size_t want_count;
	bool accepted, expected;

	if (!want)
		abort();
	expected = expected_list(p, text, want, &want_count) == 0;
	err[0] = '\0';
	accepted = parse_value_list(text, "value", p->min, p->max,
				    p->max_count, &list, err, sizeof(err)) == 0;
	if (accepted != expected)
		__builtin_trap();
	if (accepted) {
		if (list.count != want_count ||
		    memcmp(list.values, want, want_count * sizeof(*want)) != 0)
			__builtin_trap();
		value_list_free(&list);
	} else if (!err[0] || list.count != 0 || list.values) {
		__builtin_trap();
	}
	free(want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;
	unsigned pick;

	if (size < 1)
		return 0;
	pick = data[0] % (NUMBER_PARSERS + LIST_PARSERS);
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	if (pick < NUMBER_PARSERS)
		check_number(&numbers[pick], text);
	else
		check_list(&lists[pick - NUMBER_PARSERS], text);
	free(text);
	return 0;
}
