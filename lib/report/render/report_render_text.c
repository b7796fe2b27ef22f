/* The report as a text matrix: summary, the matrix with its legend, the
 * suspects section, findings, what --expect misses and the runs' notes;
 * through lib/out/output.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/output.h"
#include "report/render/report_render.h"
#include "report/render/report_render_text_layout.h"

/* A list of names, as many a line as fit. */
static void name_list(const char *head, const char *const *items,
		      size_t count)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	fputs(head, f);
	for (size_t k = 0; k < count; k++)
		fprintf(f, "%s%s", k ? ", " : "", items[k]);
	if (fclose(f) == 0)
		report_text_wrapped(2, text);
	free(text);
}

#define CORNER "source \\ destination"

static void print_matrix(const struct report *r)
{
	size_t first = report_text_width(CORNER), *widths;
	char cell[128];

	widths = calloc(r->col_count ? r->col_count : 1, sizeof(*widths));
	if (!widths)
		return;
	for (size_t i = 0; i < r->row_count; i++) {
		size_t w = report_text_shown(r->rows[i]->source_name, false);

		first = w > first ? w : first;
	}
	for (size_t j = 0; j < r->col_count; j++) {
		widths[j] = report_text_shown(r->cols[j]->dest_name, false);
		for (size_t i = 0; i < r->row_count; i++) {
			size_t w = strlen(report_cell_text(report_cell(r, i, j),
							   cell, sizeof(cell)));

			widths[j] = w > widths[j] ? w : widths[j];
		}
	}
	out_text("%s%*s", CORNER, (int)(first - report_text_width(CORNER)),
		 "");
	for (size_t j = 0; j < r->col_count; j++) {
		out_text("  ");
		report_text_pad(r->cols[j]->dest_name,
				j + 1 < r->col_count ? widths[j] : 0);
	}
	out_newline();
	for (size_t i = 0; i < r->row_count; i++) {
		report_text_pad(r->rows[i]->source_name, first);
		for (size_t j = 0; j < r->col_count; j++) {
			out_text("  ");
			report_cell_text(report_cell(r, i, j), cell,
					 sizeof(cell));
			out_text("%s%*s", cell,
				 (int)(j + 1 < r->col_count
					       ? widths[j] - strlen(cell)
					       : 0),
				 "");
		}
		out_newline();
	}
	free(widths);
}

static void print_findings(const struct report *r)
{
	bool any = false;
	size_t at = 0, i, j;

	while (report_next_noteworthy(r, &at, &i, &j)) {
		const struct report_cell *c = report_cell(r, i, j);

		if (!any)
			out_text("\nfindings:\n");
		any = true;
		out_text("  ");
		report_text_shown(r->rows[i]->source_name, true);
		out_text(" -> ");
		report_text_shown(r->cols[j]->dest_name, true);
		out_text(": %s", report_status_word(c->status));
		if (c->sent)
			out_text(", %llu of %llu answered",
				 (unsigned long long)c->received,
				 (unsigned long long)c->sent);
		out_text(" (%zu set%s%s)\n", c->sets, c->sets == 1 ? "" : "s",
			 c->interrupted ? ", run interrupted" : "");
		for (size_t k = 0; k < c->errors.count; k++) {
			char *line;

			if (asprintf(&line, "error: %s", c->errors.items[k]) < 0)
				continue;
			report_text_wrapped(6, line);
			free(line);
		}
		for (size_t k = 0; k < c->findings.count; k++)
			report_text_wrapped(6, c->findings.items[k]);
	}
	for (size_t k = 0; k < r->failed_count; k++) {
		const struct report_failed_run *f = &r->failed[k];
		char *line;

		if (!any)
			out_text("\nfindings:\n");
		any = true;
		if (asprintf(&line, "%s%sa probe run failed (exit status "
			     "%d): %s (%s)", f->host ? f->host : "",
			     f->host ? ": " : "", f->exit_status, f->error,
			     f->where) < 0)
			continue;
		report_text_wrapped(2, line);
		free(line);
	}
}

static bool any_run_failed(const struct report *r)
{
	for (size_t i = 0; i < r->row_count; i++)
		for (size_t j = 0; j < r->col_count; j++)
			if (report_cell(r, i, j)->run_failed)
				return true;
	return false;
}

/* What --expect misses, and the runs' notes. */
static void print_expected(const struct report *r)
{
	const char **names;

	if (r->silent_hosts.count || r->never_probed_count)
		out_text("\nexpected but missing:\n");
	if (r->silent_hosts.count)
		name_list("sent no results: ",
			  (const char *const *)r->silent_hosts.items,
			  r->silent_hosts.count);
	if (!r->never_probed_count)
		return;
	names = calloc(r->never_probed_count, sizeof(*names));
	if (!names)
		return;
	for (size_t k = 0; k < r->never_probed_count; k++)
		if (asprintf((char **)&names[k], "%s -> %s",
			     r->never_probed[k].source,
			     r->never_probed[k].destination) < 0)
			names[k] = NULL;
	name_list("never probed: ", names, r->never_probed_count);
	for (size_t k = 0; k < r->never_probed_count; k++)
		free((char *)names[k]);
	free(names);
}

static void print_notes(const struct report *r)
{
	if (r->notes.count)
		out_text("\nnotes:\n");
	for (size_t k = 0; k < r->notes.count; k++)
		report_text_wrapped(2, r->notes.items[k]);
}

void report_render_text(const struct report *r)
{
	char summary[512];

	out_text("%s\n", report_summary_text(r, summary, sizeof(summary)));
	if (r->expect.count)
		out_text("%s\n", report_expect_text(r, summary,
						    sizeof(summary)));
	out_newline();
	print_matrix(r);
	out_text("\nlegend: ok Nh T = reachable, N router hops, median RTT T; "
		 "LOSS l/s = l of s probes lost;\n        -- = unreachable; "
		 "ERR = error; R = traffic class remarked; . = not probed%s\n",
		 any_run_failed(r) ? ";\n        FAIL = the probe run of the "
				     "source failed" : "");
	report_render_suspects_text(r, NULL);
	if (r->identifiability)
		report_render_identifiability_text(r->identifiability);
	if (r->hop_changes)
		report_render_hop_changes_text(r->hop_changes);
	print_findings(r);
	print_expected(r);
	print_notes(r);
}
