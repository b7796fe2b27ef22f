/* report --baseline for scripts: one JSON document of the changes
 * between the baseline and now, each pair as both sides saw it, written
 * to a stream as it goes (lib/out/json_writer.h). */
#include <stdio.h>

#include "out/json_writer.h"
#include "report/report_baseline.h"
#include "report/render/report_render.h"

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
