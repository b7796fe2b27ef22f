/* Results that crossed another number of routers than their traces
 * (hop_changes.h) in the three forms: report -j's "hop_changes" (every
 * one), and, when there are any, a text section and an HTML note (the
 * first of them, and how many more). */
#include <stdio.h>
#include <stdlib.h>

#include "out/json_writer.h"
#include "out/markup.h"
#include "out/output.h"
#include "report/render/report_render.h"
#include "report/render/report_render_text_layout.h"

/* Results a page names; -j has them all. */
#define HOP_CHANGES_SHOWN_MAX 20

/* "a -> d-ecmp fl 0x1 tc 0: 4 router hops, its trace 3". Malloc'd. */
static char *change_text(const struct hop_change *c)
{
	const struct report_record *rec = c->record;
	char *text = NULL;

	if (asprintf(&text, "%s -> %s fl 0x%lx tc %d: %d router hop%s, its "
		     "trace %d", rec->host ? rec->host : "?",
		     rec->dest_text ? rec->dest_text : "?",
		     (unsigned long)(rec->params.flow_label < 0
					     ? 0 : rec->params.flow_label),
		     rec->params.traffic_class, c->hops,
		     c->hops == 1 ? "" : "s", c->trace_hops) < 0)
		return NULL;
	return text;
}

static char *summary_text(const struct hop_changes *hc)
{
	char *text = NULL;

	if (asprintf(&text, "%zu of %zu results with a complete trace crossed "
		     "another number of routers than their trace: the route "
		     "changed between probe and trace, or a router does not "
		     "count down the hop limit", hc->count, hc->compared) < 0)
		return NULL;
	return text;
}

void report_render_hop_changes_json(struct json_writer *w,
				    const struct hop_changes *hc)
{
	jw_open_object(w, "hop_changes");
	jw_uint(w, "compared", hc->compared);
	jw_open_array(w, "changed");
	for (size_t i = 0; i < hc->count; i++) {
		const struct hop_change *c = &hc->items[i];
		const struct report_record *rec = c->record;

		jw_open_object(w, NULL);
		jw_string(w, "host", rec->host);
		jw_string(w, "dest", rec->dest_text);
		if (rec->params.flow_label < 0)
			jw_null(w, "flow_label");
		else
			jw_uint(w, "flow_label", (uint64_t)rec->params.flow_label);
		if (rec->params.traffic_class < 0)
			jw_null(w, "traffic_class");
		else
			jw_uint(w, "traffic_class",
				(uint64_t)rec->params.traffic_class);
		jw_uint(w, "hops", (uint64_t)c->hops);
		jw_uint(w, "trace_hops", (uint64_t)c->trace_hops);
		jw_close_object(w);
	}
	jw_close_array(w);
	jw_close_object(w);
}

void report_render_hop_changes_text(const struct hop_changes *hc)
{
	char *summary;

	if (!hc->count)
		return;
	summary = summary_text(hc);
	out_text("\nhop counts (results against their traces):\n");
	if (summary)
		report_text_wrapped(2, summary);
	free(summary);
	for (size_t i = 0; i < hc->count && i < HOP_CHANGES_SHOWN_MAX; i++) {
		char *line = change_text(&hc->items[i]), *bulleted = NULL;

		if (line && asprintf(&bulleted, "- %s", line) >= 0)
			report_text_wrapped(2, bulleted);
		free(bulleted);
		free(line);
	}
	if (hc->count > HOP_CHANGES_SHOWN_MAX)
		out_text("  and %zu more (report -j lists them all)\n",
			 hc->count - HOP_CHANGES_SHOWN_MAX);
}

void report_render_hop_changes_html(FILE *f, const struct hop_changes *hc)
{
	char *summary;

	if (!hc->count)
		return;
	summary = summary_text(hc);
	markup_printf(f, "<div class=\"suspects\">\n<p><b>Hop counts</b>: "
		      "%s</p>\n<ul>\n", summary ? summary : "");
	free(summary);
	for (size_t i = 0; i < hc->count && i < HOP_CHANGES_SHOWN_MAX; i++) {
		char *line = change_text(&hc->items[i]);

		if (line)
			markup_printf(f, "<li>%s</li>\n", line);
		free(line);
	}
	fputs("</ul>\n", f);
	if (hc->count > HOP_CHANGES_SHOWN_MAX)
		markup_printf(f, "<p>and %zu more (report -j lists them all)"
			      "</p>\n", hc->count - HOP_CHANGES_SHOWN_MAX);
	fputs("</div>\n", f);
}
