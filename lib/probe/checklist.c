/* Checklist files for `ibahprobe check`: see checklist.h for the format. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "probe/checklist.h"
#include "base/diag.h"
#include "base/line_reader.h"
#include "base/parse.h"
#include "verbs/ud_endpoint.h"

#define LINE_MAX_BYTES 4096
/* A checklist of more lines than this is a mistake (/dev/zero, an
 * endless pipe), not a fabric. */
#define CHECKLIST_MAX_LINES 100000
#define ENTRY_MAX_WORDS 64
#define WORD_MAX_BYTES 256

/* How an expectation's value is written. */
enum value_form {
	FORM_FLAG,	/* a bare word */
	FORM_EXACT,	/* name=N */
	FORM_RANGE,	/* name=N or name=N-M */
	FORM_AT_MOST,	/* name<=N */
	FORM_AT_LEAST,	/* name>=N or name=N */
	FORM_YES_NO,	/* name=yes|no */
	FORM_NAME,	/* name=WORD, kept as written */
	FORM_ALL,	/* name=all */
};

enum value_unit {
	UNIT_NONE,
	UNIT_PERCENT,	/* N or N% */
	UNIT_USEC,	/* N, Nus or Nms; kept in microseconds */
	UNIT_MTU,	/* 256..4096 bytes */
};

static const struct {
	const char *name;
	enum value_form form;
	enum value_unit unit;
	uint64_t max;
	enum expect_need need;
} expect_specs[EXPECT_KIND_COUNT] = {
	[EXPECT_REACHABLE] = { "reachable", FORM_FLAG, UNIT_NONE, 0, NEED_PROBE },
	[EXPECT_UNREACHABLE] = { "unreachable", FORM_FLAG, UNIT_NONE, 0,
				 NEED_PROBE },
	[EXPECT_HOPS] = { "hops", FORM_RANGE, UNIT_NONE, 255, NEED_PROBE },
	[EXPECT_LOSS] = { "loss", FORM_AT_MOST, UNIT_PERCENT, 100, NEED_PROBE },
	[EXPECT_RTT_MEDIAN] = { "rtt_median", FORM_AT_MOST, UNIT_USEC,
				3600000000ull, NEED_PROBE },
	[EXPECT_RTT_P99] = { "rtt_p99", FORM_AT_MOST, UNIT_USEC, 3600000000ull,
			     NEED_PROBE },
	[EXPECT_TCLASS_PRESERVED] = { "tclass_preserved", FORM_FLAG, UNIT_NONE,
				      0, NEED_PROBE },
	[EXPECT_TCLASS_SEEN] = { "tclass_seen", FORM_EXACT, UNIT_NONE, 255,
				 NEED_PROBE },
	[EXPECT_FLOW_LABEL_PRESERVED] = { "flow_label_preserved", FORM_FLAG,
					  UNIT_NONE, 0, NEED_PROBE },
	[EXPECT_PATH_MTU] = { "path_mtu", FORM_AT_LEAST, UNIT_MTU, 4096,
			      NEED_PATH },
	[EXPECT_PATH_SL] = { "path_sl", FORM_EXACT, UNIT_NONE, 15, NEED_PATH },
	[EXPECT_GRH_REQUIRED] = { "grh_required", FORM_YES_NO, UNIT_NONE, 1,
				  NEED_AH },
	[EXPECT_NETWORK_RTT_MEDIAN] = { "network_rtt_median", FORM_AT_MOST,
					UNIT_USEC, 3600000000ull, NEED_PROBE },
	[EXPECT_NETWORK_RTT_P99] = { "network_rtt_p99", FORM_AT_MOST,
				     UNIT_USEC, 3600000000ull, NEED_PROBE },
	[EXPECT_ISOLATED] = { "isolated", FORM_FLAG, UNIT_NONE, 0,
			      NEED_PROBE },
	[EXPECT_PCP_SEEN] = { "pcp_seen", FORM_EXACT, UNIT_NONE, 7,
			      NEED_PROBE },
	[EXPECT_MCAST_JOINABLE] = { "mcast_joinable", FORM_FLAG, UNIT_NONE, 0,
				    NEED_MCAST_SA },
	[EXPECT_MCAST_MEMBERS] = { "mcast_members", FORM_AT_LEAST, UNIT_NONE,
				   4096, NEED_MCAST_PROBE },
	[EXPECT_MCAST_MEMBER] = { "mcast_member", FORM_NAME, UNIT_NONE, 0,
				  NEED_MCAST_PROBE },
	[EXPECT_PATHS_OK] = { "paths_ok", FORM_ALL, UNIT_NONE, 0,
			      NEED_PROBE },
};

/* What to send, and how the probes reach the responder. */
enum send_param {
	SEND_HOP_LIMIT, SEND_TCLASS, SEND_FLOW_LABEL, SEND_SL, SEND_COUNT,
	SEND_QPN, SEND_QKEY, SEND_PARAM_COUNT,
};
static const char *const send_names[SEND_PARAM_COUNT] = {
	[SEND_HOP_LIMIT] = "hop_limit", [SEND_TCLASS] = "tclass",
	[SEND_FLOW_LABEL] = "flow_label", [SEND_SL] = "sl",
	[SEND_COUNT] = "count", [SEND_QPN] = "qpn", [SEND_QKEY] = "qkey",
};

const char *expectation_name_value(const struct expectation *e)
{
	const char *eq = strchr(e->text, '=');

	return eq ? eq + 1 : "";
}

bool expect_kind_is_mcast(enum expect_kind kind)
{
	return kind == EXPECT_MCAST_JOINABLE || kind == EXPECT_MCAST_MEMBERS ||
	       kind == EXPECT_MCAST_MEMBER;
}

const char *expect_kind_name(enum expect_kind kind)
{
	return kind < EXPECT_KIND_COUNT ? expect_specs[kind].name : "?";
}

enum expect_need expect_need_of(enum expect_kind kind)
{
	return expect_specs[kind].need;
}

bool entry_needs(const struct check_entry *entry, enum expect_need need)
{
	for (size_t i = 0; i < entry->expect_count; i++)
		if (expect_specs[entry->expects[i].kind].need == need)
			return true;
	return false;
}

/* One word of a line: name, operator and value, and where it starts. */
struct word {
	char text[WORD_MAX_BYTES];
	unsigned column;
	char *name, *value;
	const char *op;		/* "", "=", "<=", ">=" */
	unsigned value_column;
};

static void split_word(struct word *w)
{
	/* A lone "<" or ">" is split too, so "loss<5" is answered with how
	 * loss is written rather than as an unknown word. */
	static const char *const ops[] = { "<=", ">=", "=", "<", ">" };
	char *at;

	w->name = w->text;
	w->op = "";
	w->value = NULL;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		at = strstr(w->text, ops[i]);
		if (!at)
			continue;
		w->op = ops[i];
		*at = '\0';
		w->value = at + strlen(ops[i]);
		w->value_column = w->column + (unsigned)(w->value - w->text);
		return;
	}
}

static int fail_at(char *err, size_t errlen, unsigned line, unsigned column,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int fail_at(char *err, size_t errlen, unsigned line, unsigned column,
		   const char *fmt, ...)
{
	char msg[DIAG_MSG_MAX * 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%u:%u: %s", line, column, msg);
	return -1;
}

/* The words a value may end with, attached ("50ms") or as the next word
 * ("50 ms", as the TAP lines write "at most 50000 us"). */
static const struct {
	const char *text;
	enum value_unit unit;
	uint64_t scale;		/* to the kept unit */
} unit_words[] = {
	{ "us", UNIT_USEC, 1 },
	{ "\xc2\xb5s", UNIT_USEC, 1 },	/* µs, as UTF-8 */
	{ "ms", UNIT_USEC, 1000 },
	{ "%", UNIT_PERCENT, 1 },
	{ "bytes", UNIT_MTU, 1 },
};

static bool is_unit_word(const char *text)
{
	for (size_t i = 0; i < sizeof(unit_words) / sizeof(unit_words[0]); i++)
		if (strcmp(text, unit_words[i].text) == 0)
			return true;
	return false;
}

/* Cuts a unit of this kind off the end of number (and the blank before
 * it); returns its scale, 1 when there is none. */
static uint64_t strip_unit(char *number, enum value_unit unit)
{
	size_t len = strlen(number);

	for (size_t i = 0; i < sizeof(unit_words) / sizeof(unit_words[0]); i++) {
		size_t ulen = strlen(unit_words[i].text);

		if (unit_words[i].unit != unit || len <= ulen ||
		    strcmp(number + len - ulen, unit_words[i].text) != 0)
			continue;
		number[len - ulen] = '\0';
		if (len - ulen > 1 && number[len - ulen - 1] == ' ')
			number[len - ulen - 1] = '\0';
		return unit_words[i].scale;
	}
	return 1;
}

/* A duration in microseconds: N, N us, N µs, N ms; milliseconds may have
 * up to three decimals (0.5 ms), which are whole microseconds. */
static int parse_duration_us(const char *name, const char *value,
			     char *number, uint64_t scale, uint64_t max,
			     uint64_t *us, char *err, size_t errlen)
{
	char *dot = strchr(number, '.');
	uint64_t whole, frac = 0;
	size_t digits = 0;
	char msg[DIAG_MSG_MAX];

	if (dot) {
		*dot = '\0';
		digits = strlen(dot + 1);
		if (!*number || digits == 0 ||
		    strspn(dot + 1, "0123456789") != digits)
			goto not_a_duration;
		if (scale == 1 || digits > 3) {
			snprintf(err, errlen, "%s '%s' is finer than a "
				 "microsecond: RTTs are judged in whole "
				 "microseconds", name, value);
			return -1;
		}
		frac = strtoull(dot + 1, NULL, 10);
		for (size_t i = digits; i < 3; i++)
			frac *= 10;
	}
	if (strspn(number, "0123456789") != strlen(number) || !*number)
		goto not_a_duration;
	if (parse_u64(number, name, 0, max / scale, &whole, msg, sizeof(msg)) ||
	    whole * scale + frac > max) {
		snprintf(err, errlen, "%s '%s' is out of range: expected at "
			 "most %llu us (%llu ms)", name, value,
			 (unsigned long long)max,
			 (unsigned long long)(max / 1000));
		return -1;
	}
	*us = whole * scale + frac;
	return 0;
not_a_duration:
	snprintf(err, errlen, "%s '%s' is not a duration: expected N (microseconds), "
		 "N us or N ms, e.g. %s<=200 or %s<=1.5 ms", name, value, name,
		 name);
	return -1;
}

/* A number with the unit's suffixes, within [0, max]. */
static int parse_amount(const struct word *w, enum value_unit unit,
			uint64_t max, uint64_t *value, char *err, size_t errlen)
{
	char number[64], msg[DIAG_MSG_MAX];
	uint64_t scale = 1;
	size_t len = strlen(w->value);

	if (len >= sizeof(number)) {
		snprintf(err, errlen, "the value of %s is too long", w->name);
		return -1;
	}
	memcpy(number, w->value, len + 1);
	if (unit != UNIT_NONE)
		scale = strip_unit(number, unit);
	if (unit == UNIT_USEC)
		return parse_duration_us(w->name, w->value, number, scale, max,
					 value, err, errlen);
	if (unit == UNIT_MTU) {
		uint16_t mtu;

		if (parse_mtu(number, &mtu, msg, sizeof(msg)))
			goto bad;
		*value = mtu;
		return 0;
	}
	if (parse_u64(number, w->name, 0, max / scale, value, msg, sizeof(msg)))
		goto bad;
	*value *= scale;
	return 0;
bad:
	snprintf(err, errlen, "%s%s", msg,
		 unit == UNIT_PERCENT ? " (percent)" : "");
	return -1;
}

/* "hops=N or hops=N-M": how a word of this form is written. */
static const char *form_syntax(enum value_form form, const char *name,
			       char *buf, size_t len)
{
	switch (form) {
	case FORM_FLAG:
		snprintf(buf, len, "a bare word");
		break;
	case FORM_EXACT:
		snprintf(buf, len, "%s=N", name);
		break;
	case FORM_RANGE:
		snprintf(buf, len, "%s=N or %s=N-M", name, name);
		break;
	case FORM_AT_MOST:
		snprintf(buf, len, "%s<=N", name);
		break;
	case FORM_AT_LEAST:
		snprintf(buf, len, "%s>=N or %s=N", name, name);
		break;
	case FORM_YES_NO:
		snprintf(buf, len, "%s=yes or %s=no", name, name);
		break;
	case FORM_NAME:
		snprintf(buf, len, "%s=HOST", name);
		break;
	case FORM_ALL:
		snprintf(buf, len, "%s=all", name);
		break;
	}
	return buf;
}

static int parse_expectation(const struct word *w, enum expect_kind kind,
			     unsigned line, struct expectation *e, char *err,
			     size_t errlen)
{
	enum value_form form = expect_specs[kind].form;
	bool op_ok;
	char msg[DIAG_MSG_MAX + 64], syntax[2 * WORD_MAX_BYTES + 16];
	char *dash;

	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->column = w->column;
	snprintf(e->text, sizeof(e->text), "%s%s%s", w->name, w->op,
		 w->value ? w->value : "");
	switch (form) {
	case FORM_FLAG:
		op_ok = !*w->op;
		break;
	case FORM_AT_MOST:
		op_ok = strcmp(w->op, "<=") == 0;
		break;
	case FORM_AT_LEAST:
		op_ok = strcmp(w->op, ">=") == 0 || strcmp(w->op, "=") == 0;
		break;
	default:
		op_ok = strcmp(w->op, "=") == 0;
		break;
	}
	if (!op_ok || (w->value && !*w->value))
		return fail_at(err, errlen, line, w->column,
			       "%s is written as %s", w->name,
			       form_syntax(form, w->name, syntax,
					   sizeof(syntax)));
	e->high = UINT64_MAX;
	switch (form) {
	case FORM_FLAG:
	case FORM_NAME:
		return 0;
	case FORM_YES_NO:
		if (strcmp(w->value, "yes") != 0 && strcmp(w->value, "no") != 0)
			return fail_at(err, errlen, line, w->value_column,
				       "%s takes yes or no, not '%s'", w->name,
				       w->value);
		e->low = e->high = strcmp(w->value, "yes") == 0;
		return 0;
	case FORM_ALL:
		if (strcmp(w->value, "all") != 0)
			return fail_at(err, errlen, line, w->value_column,
				       "%s takes all, not '%s'", w->name,
				       w->value);
		return 0;
	case FORM_RANGE:
		dash = strchr(w->value, '-');
		if (dash) {
			struct word lo = *w, hi = *w;

			lo.value = lo.text + (w->value - w->text);
			lo.value[dash - w->value] = '\0';
			hi.value = hi.text + (dash + 1 - w->text);
			if (parse_amount(&lo, UNIT_NONE, expect_specs[kind].max,
					 &e->low, msg, sizeof(msg)) ||
			    parse_amount(&hi, UNIT_NONE, expect_specs[kind].max,
					 &e->high, msg, sizeof(msg)))
				return fail_at(err, errlen, line,
					       w->value_column, "%s", msg);
			if (e->low > e->high)
				return fail_at(err, errlen, line,
					       w->value_column,
					       "%s range '%s' runs backwards",
					       w->name, w->value);
			return 0;
		}
		__attribute__((fallthrough));	/* a single value */
	case FORM_EXACT:
	case FORM_AT_MOST:
	case FORM_AT_LEAST:
		if (parse_amount(w, expect_specs[kind].unit,
				 expect_specs[kind].max, &e->low, msg,
				 sizeof(msg)))
			return fail_at(err, errlen, line, w->value_column,
				       "%s", msg);
		if (form == FORM_AT_MOST) {
			e->high = e->low;
			e->low = 0;
		} else if (form != FORM_AT_LEAST || strcmp(w->op, "=") == 0) {
			e->high = e->low;
		}
		return 0;
	}
	return 0;
}

static int parse_send(const struct word *w, enum send_param p,
		      struct check_entry *e, bool *seen, unsigned line,
		      char *err, size_t errlen)
{
	char msg[DIAG_MSG_MAX];
	int rc = 0;

	if (seen[p])
		return fail_at(err, errlen, line, w->column,
			       "%s is given twice", w->name);
	seen[p] = true;
	if (strcmp(w->op, "=") != 0 || !*w->value)
		return fail_at(err, errlen, line, w->column,
			       "%s is written as %s=VALUE", w->name, w->name);
	switch (p) {
	case SEND_HOP_LIMIT:
		e->has_hop_limit = true;
		rc = parse_hop_limit(w->value, &e->send.hop_limit, msg,
				     sizeof(msg));
		break;
	case SEND_TCLASS:
		e->has_traffic_class = true;
		rc = parse_traffic_class(w->value, &e->send.traffic_class, msg,
					 sizeof(msg));
		break;
	case SEND_FLOW_LABEL:
		e->has_flow_label = true;
		rc = parse_flow_label(w->value, &e->send.flow_label, msg,
				      sizeof(msg));
		break;
	case SEND_SL:
		e->has_sl = true;
		rc = parse_sl(w->value, &e->send.sl, msg, sizeof(msg));
		break;
	case SEND_COUNT:
		e->has_count = true;
		rc = parse_u32(w->value, "count", 1, 1000000, &e->count, msg,
			       sizeof(msg));
		break;
	case SEND_QPN:
		e->has_qpn = true;
		rc = parse_qpn(w->value, &e->qpn, msg, sizeof(msg));
		break;
	case SEND_QKEY:
		e->has_qkey = true;
		rc = parse_qkey(w->value, &e->qkey, msg, sizeof(msg));
		break;
	case SEND_PARAM_COUNT:
		break;
	}
	if (rc)
		return fail_at(err, errlen, line, w->value_column, "%s", msg);
	return 0;
}

/* Dispatches one word after the destination. */
static int parse_word(struct word *w, struct check_entry *e, bool *seen,
		      unsigned line, char *err, size_t errlen)
{
	split_word(w);
	for (int p = 0; p < SEND_PARAM_COUNT; p++)
		if (strcmp(w->name, send_names[p]) == 0)
			return parse_send(w, (enum send_param)p, e, seen, line,
					  err, errlen);
	for (int k = 0; k < EXPECT_KIND_COUNT; k++) {
		struct expectation *grown;

		if (strcmp(w->name, expect_specs[k].name) != 0)
			continue;
		grown = realloc(e->expects,
				(e->expect_count + 1) * sizeof(*grown));
		if (!grown) {
			snprintf(err, errlen, "%u: out of memory", line);
			return -1;
		}
		e->expects = grown;
		if (parse_expectation(w, (enum expect_kind)k, line,
				      &e->expects[e->expect_count], err, errlen))
			return -1;
		e->expect_count++;
		return 0;
	}
	return fail_at(err, errlen, line, w->column,
		       is_unit_word(w->name)
			       ? "'%s' is a unit: it follows a number, as in "
				 "rtt_median<=50 ms, loss<=20 %%, "
				 "path_mtu>=2048 bytes"
			       : "unknown word '%s': expected reachable, unreachable, "
		       "isolated, hops, loss, rtt_median, rtt_p99, network_rtt_median, "
		       "network_rtt_p99, tclass_preserved, tclass_seen, pcp_seen, flow_label_preserved, path_mtu, path_sl, "
		       "grh_required, paths_ok, mcast_joinable, mcast_members, "
		       "mcast_member, or what to send: hop_limit, tclass, "
		       "flow_label, sl, count, qpn, qkey", w->name);
}

static void entry_clear(struct check_entry *e)
{
	dest_clear(&e->dest);
	free(e->expects);
	memset(e, 0, sizeof(*e));
}

/* Cuts the line into words with their 1-based columns; stops at '#'. */
static ssize_t split_words(const char *text, struct word *words, size_t max)
{
	size_t n = 0, i = 0;

	while (text[i] && text[i] != '#' && n < max) {
		size_t start;

		if (text[i] == ' ' || text[i] == '\t' || text[i] == '\r') {
			i++;
			continue;
		}
		start = i;
		while (text[i] && text[i] != ' ' && text[i] != '\t' &&
		       text[i] != '\r' && text[i] != '#')
			i++;
		if (i - start >= WORD_MAX_BYTES) {
			words[0].column = (unsigned)start + 1;
			return -1;
		}
		memcpy(words[n].text, text + start, i - start);
		words[n].text[i - start] = '\0';
		words[n].column = (unsigned)start + 1;
		n++;
	}
	return (ssize_t)n;
}

/* "rtt_median<=50 ms": a unit word after a value that ends in a digit
 * belongs to it (joined with one blank, so the text as written stays
 * readable in the TAP line). Returns the new word count. */
static ssize_t join_units(struct word *words, size_t n)
{
	size_t out = 1;

	for (size_t i = 1; i < n; i++) {
		struct word *prev = &words[out - 1];
		size_t len = strlen(prev->text);

		if (out > 1 && is_unit_word(words[i].text) && len &&
		    isdigit((unsigned char)prev->text[len - 1]) &&
		    strpbrk(prev->text, "=<>") &&
		    len + 1 + strlen(words[i].text) < WORD_MAX_BYTES) {
			prev->text[len] = ' ';
			strcpy(prev->text + len + 1, words[i].text);
			continue;
		}
		if (out != i)
			words[out] = words[i];
		out++;
	}
	return (ssize_t)out;
}

/* A group is answered by many members through no rendezvous: only the
 * mcast_ expectations mean something for it, and they mean nothing for
 * one destination. */
static int mcast_mismatch(const struct check_entry *e, unsigned line,
			  char *err, size_t errlen)
{
	bool group = e->dest.kind == DEST_MCAST;

	for (size_t i = 0; i < e->expect_count; i++) {
		const struct expectation *x = &e->expects[i];

		if (expect_kind_is_mcast(x->kind) == group)
			continue;
		return fail_at(err, errlen, line, x->column, group
			       ? "%s is not for a group: a group expects "
				 "mcast_joinable, mcast_members>=N or "
				 "mcast_member=HOST"
			       : "%s is for a group: give an mcast: "
				 "destination", expect_kind_name(x->kind));
	}
	if (group && e->has_qpn)
		return fail_at(err, errlen, line, 1, "qpn= is not for a "
			       "group: probes to a group go to QPN 0xffffff");
	return 0;
}

int checklist_add_line(struct checklist *list, const char *text,
		       unsigned line, char *err, size_t errlen)
{
	struct word words[ENTRY_MAX_WORDS + 1];
	struct check_entry e = { .line = line, .qkey = UD_DEFAULT_QKEY };
	bool seen[SEND_PARAM_COUNT] = { false };
	unsigned qkey_column = 0;
	char msg[DIAG_MSG_MAX];
	ssize_t n;

	if (strlen(text) >= LINE_MAX_BYTES)
		return fail_at(err, errlen, line, 1,
			       "the line is longer than %d bytes",
			       LINE_MAX_BYTES - 1);
	n = split_words(text, words, ENTRY_MAX_WORDS + 1);
	if (n < 0)
		return fail_at(err, errlen, line, words[0].column,
			       "a word longer than %d bytes", WORD_MAX_BYTES - 1);
	if (n == 0)
		return 0;
	if (n > ENTRY_MAX_WORDS)
		return fail_at(err, errlen, line, words[ENTRY_MAX_WORDS].column,
			       "more than %d words on one line",
			       ENTRY_MAX_WORDS);
	n = join_units(words, (size_t)n);
	if (dest_parse(words[0].text, &e.dest, msg, sizeof(msg)))
		return fail_at(err, errlen, line, words[0].column, "%s", msg);
	for (ssize_t i = 1; i < n; i++) {
		if (parse_word(&words[i], &e, seen, line, err, errlen)) {
			entry_clear(&e);
			return -1;
		}
		if (strcmp(words[i].name, send_names[SEND_QKEY]) == 0)
			qkey_column = words[i].column;
	}
	/* A group's members share a Q_Key that no rendezvous tells. */
	if (seen[SEND_QKEY] && !e.has_qpn && e.dest.kind != DEST_MCAST) {
		entry_clear(&e);
		return fail_at(err, errlen, line, qkey_column,
			       "qkey= needs qpn=: without them the rendezvous "
			       "tells both");
	}
	if (mcast_mismatch(&e, line, err, errlen)) {
		entry_clear(&e);
		return -1;
	}
	if (e.expect_count == 0) {
		bool group = e.dest.kind == DEST_MCAST;

		e.expects = calloc(1, sizeof(*e.expects));
		if (!e.expects) {
			entry_clear(&e);
			snprintf(err, errlen, "%u: out of memory", line);
			return -1;
		}
		e.expects[0].kind = group ? EXPECT_MCAST_MEMBERS
					  : EXPECT_REACHABLE;
		e.expects[0].column = words[0].column;
		e.expects[0].low = group ? 1 : 0;
		e.expects[0].high = UINT64_MAX;
		snprintf(e.expects[0].text, sizeof(e.expects[0].text), "%s",
			 group ? "mcast_members>=1" : "reachable");
		e.expect_count = 1;
	}
	if (list->count == list->capacity) {
		size_t capacity = list->capacity ? list->capacity * 2 : 16;
		struct check_entry *grown =
			realloc(list->entries, capacity * sizeof(*grown));

		if (!grown) {
			entry_clear(&e);
			snprintf(err, errlen, "%u: out of memory", line);
			return -1;
		}
		list->entries = grown;
		list->capacity = capacity;
	}
	list->entries[list->count++] = e;
	return 0;
}

/* One more broken line into err (one line each, as many as fit among the
 * first CHECKLIST_ERRORS_SHOWN); the rest are only counted. */
static void note_broken(char *err, size_t errlen, size_t *used,
			size_t broken, const char *label, const char *msg)
{
	int n;

	if (broken > CHECKLIST_ERRORS_SHOWN || *used >= errlen)
		return;
	n = snprintf(err + *used, errlen - *used, "%s%s:%s",
		     broken > 1 ? "\n" : "", label, msg);
	if (n > 0)
		*used = *used + (size_t)n < errlen ? *used + (size_t)n
						   : errlen - 1;
}

int checklist_read(struct checklist *list, FILE *in, const char *label,
		   char *err, size_t errlen)
{
	struct line_reader lines;
	char msg[DIAG_MSG_MAX * 2];
	size_t broken = 0, used = 0;
	int rc;

	if (line_reader_init(&lines, in, label, LINE_MAX_BYTES - 1,
			     CHECKLIST_MAX_LINES)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	err[0] = '\0';
	/* Every broken line is said, not only the first: a checklist is
	 * fixed in one pass. */
	while ((rc = line_reader_next(&lines, msg, sizeof(msg))) > 0)
		if (checklist_add_line(list, lines.buf, (unsigned)lines.line,
				       msg, sizeof(msg)))
			note_broken(err, errlen, &used, ++broken, label, msg);
	line_reader_free(&lines);
	if (rc < 0) {
		/* The file itself (a line too long, a NUL byte): reading
		 * stops there. Its message names the label already. */
		++broken;
		if (broken <= CHECKLIST_ERRORS_SHOWN && used < errlen)
			snprintf(err + used, errlen - used, "%s%s",
				 broken > 1 ? "\n" : "", msg);
	}
	if (broken > CHECKLIST_ERRORS_SHOWN) {
		size_t at = strlen(err);

		snprintf(err + at, errlen - at, "\n%s: %zu more broken lines "
			 "(the first %d are shown)", label,
			 broken - CHECKLIST_ERRORS_SHOWN, CHECKLIST_ERRORS_SHOWN);
	}
	if (broken) {
		checklist_free(list);
		return -1;
	}
	return 0;
}

void checklist_free(struct checklist *list)
{
	for (size_t i = 0; i < list->count; i++)
		entry_clear(&list->entries[i]);
	free(list->entries);
	memset(list, 0, sizeof(*list));
}
