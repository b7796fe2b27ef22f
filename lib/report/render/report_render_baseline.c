/* report --baseline for people (one line per change) and for scripts
 * (one JSON document). */
#include <stdio.h>
#include <string.h>

#include "out/json_writer.h"
#include "out/output.h"
#include "report/report_baseline.h"
#include "report/render/report_render.h"
#include "base/text_escape.h"

/* A name for a line of at most 100 columns: escaped for the terminal,
 * cut with "..." past REPORT_CHANGE_NAME_MAX bytes. */
static const char *short_name(const char *name, char *out, size_t len)
{
	size_t took = text_escape_prefix(name, strlen(name), out,
					 REPORT_CHANGE_NAME_MAX - 2 < len
						 ? REPORT_CHANGE_NAME_MAX - 2
						 : len);

	if (took < strlen(name))
		strcat(out, "...");
	return out;
}

static const struct report_remark *first_remark(const struct report_cell *c)
{
	return c && c->remark_count ? &c->remarks[0] : NULL;
}

/* What changed, in a few words. */
static void detail(const struct report_change *ch, char *buf, size_t len)
{
	const struct report_cell *o = ch->old, *c = ch->cur;
	const struct report_remark *rm;
	char a[64], b[64];

	switch (ch->kind) {
	case CHANGE_LOST:
	case CHANGE_RECOVERED:
		snprintf(buf, len, "%s -> %s", report_status_word(o->status),
			 report_status_word(c->status));
		break;
	case CHANGE_LOSS:
		snprintf(buf, len, "%llu of %llu lost",
			 (unsigned long long)(c->sent - c->received),
			 (unsigned long long)c->sent);
		break;
	case CHANGE_LOSS_GONE:
		snprintf(buf, len, "was %llu of %llu lost",
			 (unsigned long long)(o->sent - o->received),
			 (unsigned long long)o->sent);
		break;
	case CHANGE_REMARKED:
	case CHANGE_UNREMARKED:
		rm = first_remark(ch->kind == CHANGE_REMARKED ? c : o);
		if (rm)
			snprintf(buf, len, "%stclass 0x%02x seen 0x%02x",
				 ch->kind == CHANGE_REMARKED ? "" : "was ",
				 rm->sent, rm->seen);
		else
			snprintf(buf, len, "traffic class");
		break;
	case CHANGE_RTT:
		snprintf(buf, len, "median %s -> %s (+%.0f%%)",
			 report_rtt_text(o, a, sizeof(a)),
			 report_rtt_text(c, b, sizeof(b)),
			 o->rtt_median_us > 0
				 ? (c->rtt_median_us / o->rtt_median_us - 1) *
					   100
				 : 0.0);
		break;
	case CHANGE_HOPS:
		snprintf(buf, len, "%s -> %s", report_hops_text(o, a, sizeof(a)),
			 report_hops_text(c, b, sizeof(b)));
		break;
	case CHANGE_NEW_PAIR:
		snprintf(buf, len, "%s", report_status_word(c->status));
		break;
	case CHANGE_GONE_PAIR:
		snprintf(buf, len, "was %s", report_status_word(o->status));
		break;
	default:
		buf[0] = '\0';
	}
}

void report_diff_render_text(const struct report_diff *d)
{
	size_t others = d->count - d->regressions;

	out_text("%zu pairs before, %zu now, %zu in both: %zu regression%s, "
		 "%zu other change%s\n", d->old_pairs, d->cur_pairs,
		 d->common_pairs, d->regressions,
		 d->regressions == 1 ? "" : "s", others,
		 others == 1 ? "" : "s");
	for (size_t k = 0; k < d->count; k++) {
		const struct report_change *ch = &d->changes[k];
		char src[REPORT_CHANGE_NAME_MAX + 4];
		char dst[REPORT_CHANGE_NAME_MAX + 4], what[96];

		detail(ch, what, sizeof(what));
		out_text("%-10s %s -> %s: %s\n", report_change_word(ch->kind),
			 short_name(ch->source, src, sizeof(src)),
			 short_name(ch->destination, dst, sizeof(dst)), what);
	}
	if (d->count)
		out_text("(RTT: a median more than %g%% and %g us above the "
			 "baseline's)\n", d->rtt_regression_pct,
			 d->rtt_floor_us);
}

/* A pair as one run saw it; null when that run did not probe it. */
static void json_side(struct json_writer *w, const char *key,
		      const struct report_cell *c)
{
	if (!c) {
		jw_null(w, key);
		return;
	}
	jw_open_object(w, key);
	jw_string(w, "status", report_status_name(c->status));
	jw_uint(w, "sent", c->sent);
	jw_uint(w, "received", c->received);
	jw_open_array(w, "hops");
	for (size_t k = 0; k < c->hop_count; k++)
		jw_int(w, NULL, c->hops[k]);
	jw_close_array(w);
	if (c->has_rtt)
		jw_double(w, "rtt_median_us", c->rtt_median_us);
	else
		jw_null(w, "rtt_median_us");
	report_json_remarks(w, c);
	jw_close_object(w);
}

int report_diff_render_json(FILE *f, const struct report_diff *d,
			    const char *old_input,
			    const char *const *cur_inputs, size_t cur_count,
			    bool pretty)
{
	struct json_writer writer, *w = &writer;

	json_writer_init(w, f, pretty);
	jw_open_object(w, NULL);
	jw_string(w, "schema", REPORT_BASELINE_SCHEMA);
	jw_open_object(w, "baseline");
	jw_open_array(w, "inputs");
	jw_string(w, NULL, old_input);
	jw_close_array(w);
	jw_uint(w, "pairs", d->old_pairs);
	jw_close_object(w);
	jw_open_object(w, "current");
	jw_open_array(w, "inputs");
	for (size_t k = 0; k < cur_count; k++)
		jw_string(w, NULL, cur_inputs[k]);
	jw_close_array(w);
	jw_uint(w, "pairs", d->cur_pairs);
	jw_close_object(w);
	jw_uint(w, "common_pairs", d->common_pairs);
	jw_double(w, "rtt_regression_pct", d->rtt_regression_pct);
	jw_double(w, "rtt_floor_us", d->rtt_floor_us);
	jw_open_array(w, "changes");
	for (size_t k = 0; k < d->count; k++) {
		const struct report_change *ch = &d->changes[k];

		jw_open_object(w, NULL);
		jw_string(w, "kind", report_change_name(ch->kind));
		jw_bool(w, "regression", report_change_is_regression(ch->kind));
		jw_string(w, "source", ch->source);
		jw_string(w, "destination", ch->destination);
		json_side(w, "before", ch->old);
		json_side(w, "now", ch->cur);
		jw_close_object(w);
	}
	jw_close_array(w);
	jw_open_object(w, "summary");
	jw_uint(w, "regressions", d->regressions);
	jw_uint(w, "changes", d->count);
	for (int k = 0; k < CHANGE_KIND_COUNT; k++)
		jw_uint(w, report_change_name((enum report_change_kind)k),
			d->kind_count[k]);
	jw_close_object(w);
	jw_close_object(w);
	return json_writer_finish(w);
}
