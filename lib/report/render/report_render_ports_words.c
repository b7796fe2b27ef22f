/* The fleet port audit's sentences, shared by its text, JSON and HTML
 * forms (report_render_ports.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report/render/report_render_ports.h"

const char *ports_count_text(size_t n, char *buf, size_t len)
{
	char digits[32];
	size_t nd, out = 0;

	nd = (size_t)snprintf(digits, sizeof(digits), "%zu", n);
	for (size_t i = 0; i < nd && out + 2 < len; i++) {
		if (i && (nd - i) % 3 == 0)
			buf[out++] = ',';
		buf[out++] = digits[i];
	}
	buf[out] = '\0';
	return buf;
}

static const char *const fact_label[AUDIT_FACT_COUNT] = {
	[AUDIT_FACT_GID_V2_IPV4] = "RoCE v2 IPv4 GID",
	[AUDIT_FACT_GID_V2_IPV6] = "RoCE v2 IPv6 GID",
	[AUDIT_FACT_MTU] = "MTU",
	[AUDIT_FACT_FIRMWARE] = "firmware",
	[AUDIT_FACT_RATE] = "rate",
	[AUDIT_FACT_STATE] = "state",
};

static bool is_gid_fact(enum audit_fact_id id)
{
	return id == AUDIT_FACT_GID_V2_IPV4 || id == AUDIT_FACT_GID_V2_IPV6;
}

const char *ports_value_words(enum audit_fact_id id, const char *value,
			      char *buf, size_t len)
{
	if (is_gid_fact(id))
		/* "none" in JSON; "absent" reads as a sentence. */
		snprintf(buf, len, strcmp(value, "none") == 0 ? "absent"
							       : "at index %s",
			 value);
	else if (id == AUDIT_FACT_RATE && strcmp(value, "unknown") != 0)
		snprintf(buf, len, "%s Gb/s", value);
	else
		snprintf(buf, len, "%s", value);
	return buf;
}

struct sentence {
	char *buf;
	size_t len, at;
};

static void put(struct sentence *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void put(struct sentence *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (s->at >= s->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(s->buf + s->at, s->len - s->at, fmt, ap);
	va_end(ap);
	if (n > 0)
		s->at += (size_t)n;
}

const char *ports_fact_sentence(const struct ports_audit *a,
				enum audit_fact_id id, char *buf, size_t len)
{
	const struct audit_fact *f = &a->facts[id];
	const struct audit_value *top = audit_fact_majority(f);
	struct sentence s = { buf, len, 0 };
	char words[128], count[32], total_text[32];
	size_t total = 0;

	buf[0] = '\0';
	if (!top)
		return buf;
	for (size_t v = 0; v < f->value_count; v++)
		total += f->values[v].count;
	ports_value_words(id, top->value, words, sizeof(words));
	ports_count_text(top->count, count, sizeof(count));
	ports_count_text(total, total_text, sizeof(total_text));
	if (f->value_count == 1)
		put(&s, "%s %s on %s%s %s%s", fact_label[id], words,
		    total > 1 ? "all " : "", total_text, f->unit,
		    total == 1 ? "" : "s");
	else if (id == AUDIT_FACT_FIRMWARE)
		put(&s, "%s %s on all but %s %s%s", fact_label[id], words,
		    ports_count_text(total - top->count, count, sizeof(count)),
		    f->unit, total - top->count == 1 ? "" : "s");
	else
		put(&s, "%s %s on %s %s%s", fact_label[id], words, count,
		    f->unit, top->count == 1 ? "" : "s");
	for (size_t v = 1; v < f->value_count; v++) {
		const struct audit_value *o = &f->values[v];

		ports_value_words(id, o->value, words, sizeof(words));
		ports_count_text(o->count, count, sizeof(count));
		if (id == AUDIT_FACT_FIRMWARE)
			put(&s, "%s%s on %s", v == 1 ? " (" : ", ", words,
			    count);
		else if (is_gid_fact(id))
			put(&s, "; %s on %s %s%s", words, count, f->unit,
			    o->count == 1 ? "" : "s");
		else
			put(&s, ", %s on %s", words, count);
	}
	if (id == AUDIT_FACT_FIRMWARE && f->value_count > 1)
		put(&s, ")");
	/* NCCL_IB_GID_INDEX is set for the fleet's IPv4 GIDs; IPv6 ones
	 * are listed, not judged. */
	if (id == AUDIT_FACT_GID_V2_IPV4) {
		size_t others = total - top->count, n = f->target_failing;

		if (n && f->pinned)
			put(&s, ": NCCL_IB_GID_INDEX=%ld (expected) fails on "
			    "%s %s%s", f->target_index,
			    ports_count_text(n, count, sizeof(count)),
			    f->unit, n == 1 ? "" : "s");
		else if (n && n == others)
			put(&s, ": a fleet-wide NCCL_IB_GID_INDEX=%ld fails "
			    "there", f->target_index);
		else if (n)
			put(&s, ": a fleet-wide NCCL_IB_GID_INDEX=%ld fails "
			    "on %s of them", f->target_index,
			    ports_count_text(n, count, sizeof(count)));
	} else if (f->pinned && f->disagreeing) {
		put(&s, ": expected %s, %s %s%s differ", f->expected,
		    ports_count_text(f->disagreeing, count, sizeof(count)),
		    f->unit, f->disagreeing == 1 ? "" : "s");
	}
	return buf;
}
