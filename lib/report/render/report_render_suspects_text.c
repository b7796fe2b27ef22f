/* The suspects section of the text report, after the matrix (or the
 * group matrix): the suspects of report_suspects.h and, with --traces,
 * the suspects on the path; through lib/out/output.h. */
#include <stdio.h>
#include <stdlib.h>

#include "base/diag.h"
#include "out/output.h"
#include "report/render/report_render.h"
#include "report/render/report_render_text_layout.h"

/* A suspect's line, aligned with the others' by rank_width and
 * name_width: "  2. host  node03  explains 4 failing pairs" (what: "pair"
 * or "result"). */
static void suspect_line(int rank_width, size_t rank, const char *kind,
			 const char *name, size_t name_width,
			 size_t explained, const char *what)
{
	out_text("  %*zu. %-11s  ", rank_width, rank, kind);
	report_text_pad(name, name_width);
	out_text("  explains %zu failing %s%s\n", explained, what,
		 explained == 1 ? "" : "s");
}

/* report --traces: the suspects on the path, each on one aligned line
 * (rank, kind, name, results it explains), the segment's inner nodes and
 * the evidence below; the counts line also when there is none. */
static void path_suspects_text(const struct report_path_suspects *ps)
{
	char *counts, ranks[32];
	char **names;
	size_t name_width = 0;
	int rank_width;

	if (!ps)
		return;
	counts = report_path_counts(ps);
	out_text("\nsuspects on the path:\n");
	if (counts)
		report_text_wrapped(2, counts);
	free(counts);
	if (!ps->tomo.count)
		return;
	names = calloc(ps->tomo.count, sizeof(*names));
	if (!names)
		return;
	rank_width = snprintf(ranks, sizeof(ranks), "%zu",
			      ps->tomo.items[ps->tomo.count - 1].rank);
	for (size_t k = 0; k < ps->tomo.count; k++) {
		char *via = NULL;
		size_t w;

		names[k] = report_path_suspect_name(ps, &ps->tomo.items[k], &via);
		free(via);
		w = names[k] ? report_text_shown(names[k], false) : 1;
		name_width = w > name_width ? w : name_width;
	}
	for (size_t k = 0; k < ps->tomo.count; k++) {
		const struct tomo_suspect *x = &ps->tomo.items[k];
		char *via = NULL, *name = report_path_suspect_name(ps, x, &via);
		char *evidence = report_path_evidence(x), *line = NULL;

		suspect_line(rank_width, x->rank,
			     report_path_suspect_kind(ps, x),
			     names[k] ? names[k] : "?", name_width,
			     x->explained, "result");
		if (via && via[0] && asprintf(&line, "via %s", via) >= 0) {
			report_text_wrapped((size_t)rank_width + 6, line);
			free(line);
		}
		if (evidence)
			report_text_wrapped((size_t)rank_width + 6, evidence);
		free(evidence);
		free(name);
		free(via);
		free(names[k]);
	}
	free(names);
}

/* After the matrix, only when there is one: each suspect on one aligned
 * line (rank, kind, name, pairs it explains), its evidence below. */
void report_render_suspects_text(const struct report *r,
				 const struct report_grouping *g)
{
	struct report_suspects s;
	size_t name_width = 0;
	int rank_width;
	char ranks[32];

	if (r->localise) {
		/* The localisation is the report's suspects; the path's
		 * tomography follows, its own view of the same traces. */
		report_render_localise_text(r->localise);
		path_suspects_text(r->path_suspects);
		return;
	}
	if (report_suspects_find(&s, r, g)) {
		diag_warn("out of memory naming the suspects");
		return;
	}
	if (!s.count) {
		path_suspects_text(r->path_suspects);
		return;
	}
	rank_width = snprintf(ranks, sizeof(ranks), "%zu",
			      s.items[s.count - 1].rank);
	for (size_t k = 0; k < s.count; k++) {
		size_t w = report_text_shown(s.items[k].name, false);

		name_width = w > name_width ? w : name_width;
	}
	out_text("\nsuspects (they explain %zu of %zu failing pairs; the "
		 "strongest first):\n", s.explained, s.failing);
	for (size_t k = 0; k < s.count; k++) {
		const struct report_suspect *x = &s.items[k];
		enum report_suspect_line lines[4];
		size_t n = report_suspect_lines(x, lines);

		suspect_line(rank_width, x->rank,
			     report_suspect_kind_name(x->kind), x->name,
			     name_width, x->explained, "pair");
		for (size_t l = 0; l < n; l++) {
			char *text = report_suspect_evidence(&s, x, lines[l]);

			if (text)
				report_text_wrapped((size_t)rank_width + 6,
						    text);
			free(text);
		}
	}
	report_suspects_free(&s);
	path_suspects_text(r->path_suspects);
}
