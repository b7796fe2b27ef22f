/* The suspects of a report as the HTML pages' short list above the
 * matrix (the SVG page's and the --groups canvas page's). */
#include <stdio.h>
#include <stdlib.h>

#include "out/markup.h"
#include "report/render/report_render.h"
#include "report/report_suspects.h"

/* The suspects on the path, as a list of their own after the matrix's
 * (a paragraph saying why none when no failing result is placed). */
static void html_path_suspects(FILE *f, const struct report_path_suspects *ps)
{
	char *counts = report_path_counts(ps);

	markup_printf(f, "<p><b>Suspects on the path</b> (%s%s)</p>\n",
		      counts ? counts : "",
		      ps->tomo.count ? "; the strongest first" : "");
	free(counts);
	if (!ps->tomo.count)
		return;
	fputs("<ol>\n", f);
	for (size_t k = 0; k < ps->tomo.count; k++) {
		const struct tomo_suspect *x = &ps->tomo.items[k];
		char *via = NULL, *name = report_path_suspect_name(ps, x, &via);
		char *evidence = report_path_evidence(x);

		markup_printf(f, "<li value=\"%zu\">%s <b>%s</b>: explains "
			      "%zu failing result%s", x->rank,
			      report_path_suspect_kind(ps, x),
			      name ? name : "?", x->explained,
			      x->explained == 1 ? "" : "s");
		if (via && via[0])
			markup_printf(f, "; via %s", via);
		if (evidence)
			markup_printf(f, "; %s", evidence);
		fputs("</li>\n", f);
		free(name);
		free(via);
		free(evidence);
	}
	fputs("</ol>\n", f);
}

void report_render_suspects_html(FILE *f, const struct report *r,
				 const struct report_grouping *g)
{
	struct report_suspects s;

	if (r->localise) {
		report_render_localise_html(f, r->localise);
		if (r->path_suspects) {
			fputs("<div class=\"suspects\">\n", f);
			html_path_suspects(f, r->path_suspects);
			fputs("</div>\n", f);
		}
		return;
	}
	if (report_suspects_find(&s, r, g) || !s.count) {
		report_suspects_free(&s);
		if (r->path_suspects) {
			fputs("<div class=\"suspects\">\n", f);
			html_path_suspects(f, r->path_suspects);
			fputs("</div>\n", f);
		}
		return;
	}
	fprintf(f, "<div class=\"suspects\">\n<p><b>Suspects</b> (they "
		"explain %zu of %zu failing pairs; the strongest first):</p>\n"
		"<ol>\n", s.explained, s.failing);
	for (size_t k = 0; k < s.count; k++) {
		const struct report_suspect *x = &s.items[k];
		enum report_suspect_line lines[4];
		size_t n = report_suspect_lines(x, lines);

		markup_printf(f, "<li value=\"%zu\">%s <b>%s</b>: explains "
			      "%zu failing pair%s", x->rank,
			      report_suspect_kind_name(x->kind), x->name,
			      x->explained, x->explained == 1 ? "" : "s");
		for (size_t l = 0; l < n; l++) {
			char *text = report_suspect_evidence(&s, x, lines[l]);

			if (text)
				markup_printf(f, "; %s", text);
			free(text);
		}
		fputs("</li>\n", f);
	}
	fputs("</ol>\n", f);
	if (r->path_suspects)
		html_path_suspects(f, r->path_suspects);
	fputs("</div>\n", f);
	report_suspects_free(&s);
}
