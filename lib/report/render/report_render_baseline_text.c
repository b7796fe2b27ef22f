/* report --baseline for people: a summary line, then one line per change
 * between the baseline and now; through lib/out/output.h. */
#include <stdio.h>
#include <string.h>

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
