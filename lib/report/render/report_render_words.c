/* The words every form of a report shares: a cell ("ok 2h 41us"), its
 * hops and RTT, the summary line, what --expect misses and when the runs
 * were, so the text matrix, the JSON's readers and the pages agree. */
#include <stdio.h>
#include <string.h>

#include "out/text_layout.h"
#include "report/render/report_render.h"

/* n in decimal at buf[used..len), NUL-terminated when it fits: what
 * snprintf("%d") would write, without printf (a report writes a million
 * cells). The new used, which may pass len as snprintf's count does. */
static size_t append_int(char *buf, size_t len, size_t used, int n)
{
	char digits[16];
	size_t k = 0;
	unsigned v = n < 0 ? 0u - (unsigned)n : (unsigned)n;

	do
		digits[k++] = (char)('0' + v % 10);
	while (v /= 10);
	if (n < 0)
		digits[k++] = '-';
	for (size_t i = 0; i < k; i++, used++)
		if (used + 1 < len)
			buf[used] = digits[k - 1 - i];
	if (len)
		buf[used < len ? used : len - 1] = '\0';
	return used;
}

const char *report_hops_text(const struct report_cell *c, char *buf,
			     size_t len)
{
	size_t used = 0;

	if (!c->hop_count) {
		snprintf(buf, len, "?h");
		return buf;
	}
	buf[0] = '\0';
	for (size_t i = 0; i < c->hop_count && used < len; i++) {
		if (i) {
			if (used + 1 < len)
				buf[used] = ',';
			used++;
			if (used < len)
				buf[used] = '\0';
			else
				break;
		}
		used = append_int(buf, len, used, c->hops[i]);
	}
	if (used + 1 < len) {
		buf[used] = 'h';
		buf[used + 1] = '\0';
	}
	return buf;
}

const char *report_us_text(double us, char *buf, size_t len)
{
	if (us >= 10000)
		snprintf(buf, len, "%.0fms", us / 1000);
	else if (us >= 1000)
		snprintf(buf, len, "%.1fms", us / 1000);
	else if (us >= 10)
		snprintf(buf, len, "%.0fus", us);
	else
		snprintf(buf, len, "%.1fus", us);
	return buf;
}

const char *report_rtt_text(const struct report_cell *c, char *buf,
			    size_t len)
{
	if (!c->has_rtt) {
		snprintf(buf, len, "%s", "");
		return buf;
	}
	return report_us_text(c->rtt_median_us, buf, len);
}

const char *report_cell_text(const struct report_cell *c, char *buf,
			     size_t len)
{
	char hops[64], rtt[32];
	const char *mark = c->tclass_remarked ? " R" : "";

	if (!c->probed)
		snprintf(buf, len, c->run_failed ? "FAIL" : ".");
	else if (c->status == REPORT_REACHABLE)
		snprintf(buf, len, "ok %s%s%s%s",
			 report_hops_text(c, hops, sizeof(hops)),
			 c->has_rtt ? " " : "",
			 report_rtt_text(c, rtt, sizeof(rtt)), mark);
	else if (c->status == REPORT_PARTIAL)
		snprintf(buf, len, "LOSS %llu/%llu%s",
			 (unsigned long long)(c->sent - c->received),
			 (unsigned long long)c->sent, mark);
	else if (c->status == REPORT_UNREACHABLE)
		snprintf(buf, len, "--%s", mark);
	else
		snprintf(buf, len, "ERR%s", mark);
	return buf;
}

const char *report_summary_text(const struct report *r, char *buf,
				size_t len)
{
	int n = snprintf(buf, len, "%zu source%s x %zu destination%s, %zu "
			 "pair%s: %zu reachable, %zu partial loss, %zu "
			 "unreachable, %zu error",
			 r->row_count, r->row_count == 1 ? "" : "s",
			 r->col_count, r->col_count == 1 ? "" : "s", r->pairs,
			 r->pairs == 1 ? "" : "s",
			 r->status_count[REPORT_REACHABLE],
			 r->status_count[REPORT_PARTIAL],
			 r->status_count[REPORT_UNREACHABLE],
			 r->status_count[REPORT_ERROR]);

	if (r->failed_count && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "; %zu failed run%s",
			 r->failed_count, r->failed_count == 1 ? "" : "s");
	return buf;
}

const char *report_expect_text(const struct report *r, char *buf, size_t len)
{
	if (!r->expect.count)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%zu host%s expected: %zu sent no results, "
			 "%zu pair%s never probed", r->expect.count,
			 r->expect.count == 1 ? "" : "s", r->silent_hosts.count,
			 r->never_probed_count,
			 r->never_probed_count == 1 ? "" : "s");
	return buf;
}

/* When the runs started and with what parameters: "run
 * 2026-11-23T18:12:27Z", "runs 2026-...Z to 2026-...Z" or "run date
 * unknown" in *when; the distinct run_params ("count 10, ..."), "; "
 * between them, in *params ("" when unknown). */
static void runs_text(const struct report *r, char *when, size_t when_len,
		      char *params, size_t params_len)
{
	const struct report_run *first = NULL, *last = NULL;
	size_t used = 0, shown_params = 0, more = 0;

	params[0] = '\0';
	for (size_t k = 0; k < r->run_count; k++) {
		const struct report_run *ru = &r->runs[k];
		bool seen = false;

		if (ru->dropped)
			continue;
		if (ru->start_time) {
			if (!first || ru->start < first->start)
				first = ru;
			if (!last || ru->start > last->start)
				last = ru;
		}
		if (!ru->params_text)
			continue;
		for (size_t j = 0; j < k && !seen; j++)
			seen = !r->runs[j].dropped && r->runs[j].params_text &&
			       strcmp(r->runs[j].params_text,
				      ru->params_text) == 0;
		if (seen)
			continue;
		if (shown_params == 3) {
			more++;
			continue;
		}
		if (used < params_len)
			used += (size_t)snprintf(params + used,
						 params_len - used, "%s%s",
						 shown_params ? "; " : "",
						 ru->params_text);
		shown_params++;
	}
	if (more && used < params_len)
		snprintf(params + used, params_len - used, "; and %zu more",
			 more);
	if (!first)
		snprintf(when, when_len, "run date unknown");
	else if (first->start == last->start)
		snprintf(when, when_len, "run %s", first->start_time);
	else
		snprintf(when, when_len, "runs %s to %s", first->start_time,
			 last->start_time);
}

void report_heading_text(const struct report *r, char *runs, size_t runs_len,
			 char *params, size_t params_len)
{
	char when[160], distinct[1024], expect[160];

	runs_text(r, when, sizeof(when), distinct, sizeof(distinct));
	report_expect_text(r, expect, sizeof(expect));
	snprintf(runs, runs_len, "%s \xc2\xb7 %zu source%s sent results%s%s",
		 when, r->sources, r->sources == 1 ? "" : "s",
		 expect[0] ? " \xc2\xb7 " : "", expect);
	snprintf(params, params_len, "parameters: %s",
		 distinct[0] ? distinct : "unknown");
}

size_t report_text_width(const char *s)
{
	return text_columns(s);
}
