/* What the traces of report --traces could not tell apart
 * (identifiability.h) in the three forms: report -j's "identifiability"
 * (every group), the text section and the HTML note (the groups that
 * failing results cross, where telling elements apart matters; the first
 * of them, and how many more). */
#include <stdio.h>
#include <stdlib.h>

#include "out/json_writer.h"
#include "out/markup.h"
#include "out/output.h"
#include "report/render/report_render.h"
#include "report/render/report_render_text_layout.h"

/* Groups a page shows; -j has them all. */
#define IDENT_SHOWN_MAX 20

static const char *element_name(const struct identifiability *id,
				const struct ident_group *g, size_t k)
{
	return id->traces->elements[g->elements[k]].name;
}

/* "A -> B and B -> C: each of the 3 traced flows that crossed one
 * crossed both"; three or more: "A, B and C: ... crossed all"; one flow:
 * "...: one traced flow crossed all, no other any".
 * Malloc'd; NULL when memory ran out. */
static char *group_text(const struct identifiability *id,
			const struct ident_group *g)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	for (size_t k = 0; k < g->count; k++)
		fprintf(f, "%s%s",
			k == 0 ? "" : k + 1 == g->count ? " and " : ", ",
			element_name(id, g, k));
	if (g->flows == 1)
		fprintf(f, ": one traced flow crossed %s, no other %s",
			g->count == 2 ? "both" : "all",
			g->count == 2 ? "either" : "any");
	else
		fprintf(f, ": each of the %zu traced flows that crossed one "
			"crossed %s", g->flows, g->count == 2 ? "both" : "all");
	if (g->failing)
		fprintf(f, g->flows == 1 ? " (the trace of a failing result)"
					 : " (%zu of them failing)", g->failing);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

static size_t failing_groups(const struct identifiability *id)
{
	size_t n = 0;

	for (size_t i = 0; i < id->group_count; i++)
		n += id->groups[i].failing > 0;
	return n;
}

/* "12 of 30 elements on the paths of 40 traced flows stand apart; 6
 * groups cannot be told apart, 2 of them on the paths of failing results
 * (...)". */
static char *summary_text(const struct identifiability *id)
{
	char *text = NULL;

	if (asprintf(&text, "%zu of %zu elements on the paths of %zu traced "
		     "flow%s stand apart; %zu group%s cannot be told apart, "
		     "%zu of them on the paths of failing results (trace "
		     "other flow labels, sources or destinations to separate "
		     "them)", id->separable, id->elements, id->flows,
		     id->flows == 1 ? "" : "s", id->group_count,
		     id->group_count == 1 ? "" : "s", failing_groups(id)) < 0)
		return NULL;
	return text;
}

/* The groups failing results cross, at most IDENT_SHOWN_MAX, each
 * through show(); returns how many more there are. */
static size_t each_shown(const struct identifiability *id,
			 void (*show)(void *ctx, const char *line), void *ctx)
{
	size_t shown = 0, more = 0;

	for (size_t i = 0; i < id->group_count; i++) {
		char *line;

		if (!id->groups[i].failing)
			continue;
		if (shown == IDENT_SHOWN_MAX) {
			more++;
			continue;
		}
		line = group_text(id, &id->groups[i]);
		if (line)
			show(ctx, line);
		free(line);
		shown++;
	}
	return more;
}

void report_render_identifiability_json(struct json_writer *w,
					const struct identifiability *id)
{
	jw_open_object(w, "identifiability");
	jw_uint(w, "elements", id->elements);
	jw_uint(w, "flows", id->flows);
	jw_uint(w, "separable", id->separable);
	jw_open_array(w, "indistinguishable");
	for (size_t i = 0; i < id->group_count; i++) {
		const struct ident_group *g = &id->groups[i];

		jw_open_object(w, NULL);
		jw_uint(w, "flows", g->flows);
		jw_uint(w, "failing", g->failing);
		report_render_path_elements_json(w, id->traces, g->elements,
						 g->count);
		jw_close_object(w);
	}
	jw_close_array(w);
	jw_close_object(w);
}

static void show_text(void *ctx, const char *line)
{
	char *bulleted = NULL;

	(void)ctx;
	if (asprintf(&bulleted, "- %s", line) >= 0)
		report_text_wrapped(2, bulleted);
	free(bulleted);
}

void report_render_identifiability_text(const struct identifiability *id)
{
	char *summary = summary_text(id);
	size_t more;

	out_text("\nindistinguishable (elements the traces cannot tell "
		 "apart):\n");
	if (summary)
		report_text_wrapped(2, summary);
	free(summary);
	more = each_shown(id, show_text, NULL);
	if (more)
		out_text("  and %zu more groups on the paths of failing "
			 "results (report -j lists every group)\n", more);
}

static void show_html(void *ctx, const char *line)
{
	markup_printf(ctx, "<li>%s</li>\n", line);
}

void report_render_identifiability_html(FILE *f,
					const struct identifiability *id)
{
	char *summary = summary_text(id);
	size_t more;

	markup_printf(f, "<div class=\"suspects\">\n<p><b>Indistinguishable"
		      "</b>: %s</p>\n<ul>\n", summary ? summary : "");
	free(summary);
	more = each_shown(id, show_html, f);
	fputs("</ul>\n", f);
	if (more)
		markup_printf(f, "<p>and %zu more groups on the paths of "
			      "failing results (report -j lists every "
			      "group)</p>\n", more);
	fputs("</div>\n", f);
}
