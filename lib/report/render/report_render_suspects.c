/* The suspects of a report (report_suspects.h) in the words every form
 * shares, as the JSON "suspects" array, and as the HTML page's short list
 * above the matrix. The text section is report_render_text.c's (it
 * shares that file's wrapping). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/json_writer.h"
#include "out/markup.h"
#include "report/render/report_render.h"
#include "report/report_suspects.h"

/* "1 partial loss, 2 unreachable" */
static void kinds_text(FILE *f, const struct report_suspect_axis *a)
{
	bool first = true;

	for (int st = REPORT_PARTIAL; st < REPORT_STATUS_COUNT; st++) {
		if (!a->status[st])
			continue;
		fprintf(f, "%s%zu %s", first ? "" : ", ", a->status[st],
			report_status_word((enum report_status)st));
		first = false;
	}
}

/* As report_suspects names it: a row's name unless only a column. */
static const char *node_name(const struct report_node *n,
			     enum report_suspect_kind kind)
{
	return kind == REPORT_SUSPECT_DESTINATION || !n->source_name
		       ? n->dest_name : n->source_name;
}

size_t report_suspect_lines(const struct report_suspect *x,
			    enum report_suspect_line lines[4])
{
	size_t n = 0;

	if (x->member_count)
		lines[n++] = REPORT_SUSPECT_LINE_MEMBERS;
	if (x->as_destination)
		lines[n++] = REPORT_SUSPECT_LINE_DESTINATION;
	if (x->as_source)
		lines[n++] = REPORT_SUSPECT_LINE_SOURCE;
	if (x->other_count)
		lines[n++] = REPORT_SUSPECT_LINE_OTHERS;
	return n;
}

char *report_suspect_evidence(const struct report_suspects *s,
			      const struct report_suspect *x,
			      enum report_suspect_line line)
{
	const struct report_suspect_axis *a =
		line == REPORT_SUSPECT_LINE_SOURCE ? &x->source
						   : &x->destination;
	char *text = NULL;
	size_t len = 0, others = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	if (line == REPORT_SUSPECT_LINE_MEMBERS) {
		fprintf(f, "members: ");
		for (size_t k = 0; k < x->member_count; k++)
			fprintf(f, "%s%s %s", k ? ", " : "",
				report_suspect_kind_name(x->member_kinds[k]),
				node_name(x->members[k], x->member_kinds[k]));
	} else if (line == REPORT_SUSPECT_LINE_OTHERS) {
		for (size_t k = 0; k < x->other_count; k++)
			others += x->others[k].pairs;
		fprintf(f, "the other %zu of its failing pairs %s explained "
			"by ", others, others == 1 ? "is" : "are");
		for (size_t k = 0; k < x->other_count; k++) {
			const struct report_suspect *o =
				&s->items[x->others[k].suspect];

			fprintf(f, "%s%s %s", k ? ", " : "",
				report_suspect_kind_name(o->kind), o->name);
			/* Several: how many each. */
			if (x->other_count > 1)
				fprintf(f, " (%zu)", x->others[k].pairs);
		}
	} else if (x->kind == REPORT_SUSPECT_GROUP) {
		/* Pairs, not nodes: a source probes several members. */
		fprintf(f, "%s its members: %zu of %zu pairs fail: ",
			line == REPORT_SUSPECT_LINE_DESTINATION ? "to" : "from",
			a->failing, a->probed);
		kinds_text(f, a);
	} else {
		bool dest = line == REPORT_SUSPECT_LINE_DESTINATION;

		fprintf(f, "fails %s %zu of %zu %s: ", dest ? "from" : "to",
			a->failing, a->probed,
			dest ? "sources" : "destinations");
		kinds_text(f, a);
	}
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

static void json_axis(struct json_writer *w, const char *key, bool present,
		      const struct report_suspect_axis *a)
{
	if (!present) {
		jw_null(w, key);
		return;
	}
	jw_open_object(w, key);
	jw_uint(w, "probed", a->probed);
	jw_uint(w, "failing", a->failing);
	jw_uint(w, "partial_loss", a->status[REPORT_PARTIAL]);
	jw_uint(w, "unreachable", a->status[REPORT_UNREACHABLE]);
	jw_uint(w, "error", a->status[REPORT_ERROR]);
	jw_uint(w, "explained_elsewhere", a->elsewhere);
	jw_close_object(w);
}

char *report_path_evidence(const struct tomo_suspect *x)
{
	char *text;

	if (asprintf(&text, "%zu failing result%s through it, %zu passing",
		     x->failing, x->failing == 1 ? "" : "s", x->passing) < 0)
		return NULL;
	return text;
}

char *report_path_counts(const struct report_path_suspects *ps)
{
	const struct tomo_result *t = &ps->tomo;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	fprintf(f, "from %zu trace%s: they explain %zu of %zu failing "
		"result%s", ps->traces->count,
		ps->traces->count == 1 ? "" : "s", t->explained, t->failing,
		t->failing == 1 ? "" : "s");
	if (ps->failing_no_trace)
		fprintf(f, "; %zu %s no trace", ps->failing_no_trace,
			ps->failing_no_trace == 1 ? "has" : "have");
	if (ps->failing_ecmp_unknown)
		fprintf(f, "; %zu cannot be placed (their traces take "
			"several paths: the provider does not send the flow "
			"label's UDP source port, or the route changed)",
			ps->failing_ecmp_unknown);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/* One suspect on the path, in the shape of the matrix's: the members
 * that do not apply are null or empty, its own after them. */
static void json_path_suspect(struct json_writer *w,
			      const struct report_path_suspects *ps,
			      const struct tomo_suspect *x, size_t rank_base)
{
	const struct report_traces *t = ps->traces;
	const char *kind = report_path_suspect_kind(ps, x);
	char *via = NULL, *name = report_path_suspect_name(ps, x, &via);

	jw_open_object(w, NULL);
	jw_uint(w, "rank", rank_base + x->rank);
	jw_string(w, "kind", kind);
	jw_string(w, "name", name ? name : "?");
	jw_string(w, "address", strcmp(kind, "router") == 0 ? name : NULL);
	jw_uint(w, "explained", x->explained);
	jw_null(w, "as_destination");
	jw_null(w, "as_source");
	jw_open_array(w, "members");
	jw_close_array(w);
	jw_open_array(w, "explained_by");
	jw_close_array(w);
	jw_open_object(w, "results");
	jw_uint(w, "failing", x->failing);
	jw_uint(w, "passing", x->passing);
	jw_close_object(w);
	jw_open_array(w, "elements");
	for (size_t k = 0; k < x->element_count; k++) {
		const struct report_path_element *e = &t->elements[x->elements[k]];

		jw_open_object(w, NULL);
		jw_string(w, "kind", e->kind == REPORT_PATH_LINK ? "link"
				     : e->kind == REPORT_PATH_SWITCH ? "switch"
								     : "router");
		jw_string(w, "name", e->name);
		jw_close_object(w);
	}
	jw_close_array(w);
	jw_close_object(w);
	free(name);
	free(via);
}

void report_render_tomography_json(struct json_writer *w,
				   const struct report_path_suspects *ps)
{
	if (!ps) {
		jw_null(w, "path_tomography");
		return;
	}
	jw_open_object(w, "path_tomography");
	jw_uint(w, "traces", ps->traces->count);
	jw_uint(w, "results", ps->flows);
	jw_uint(w, "failing", ps->tomo.failing);
	jw_uint(w, "explained", ps->tomo.explained);
	jw_uint(w, "failing_without_trace", ps->failing_no_trace);
	jw_uint(w, "failing_ecmp_unknown", ps->failing_ecmp_unknown);
	jw_close_object(w);
}

void report_render_suspects_json(struct json_writer *w,
				 const struct report_suspects *s,
				 const struct report_path_suspects *ps)
{
	size_t rank_base = s->count ? s->items[s->count - 1].rank : 0;

	jw_open_array(w, "suspects");
	for (size_t k = 0; k < s->count; k++) {
		const struct report_suspect *x = &s->items[k];

		jw_open_object(w, NULL);
		jw_uint(w, "rank", x->rank);
		jw_string(w, "kind", report_suspect_kind_name(x->kind));
		jw_string(w, "name", x->name);
		jw_string(w, "address", x->node ? x->node->addr : NULL);
		jw_uint(w, "explained", x->explained);
		json_axis(w, "as_destination", x->as_destination,
			  &x->destination);
		json_axis(w, "as_source", x->as_source, &x->source);
		jw_open_array(w, "members");
		for (size_t m = 0; m < x->member_count; m++) {
			jw_open_object(w, NULL);
			jw_string(w, "kind",
				  report_suspect_kind_name(x->member_kinds[m]));
			jw_string(w, "name", node_name(x->members[m],
						       x->member_kinds[m]));
			jw_close_object(w);
		}
		jw_close_array(w);
		jw_open_array(w, "explained_by");
		for (size_t o = 0; o < x->other_count; o++) {
			const struct report_suspect *by =
				&s->items[x->others[o].suspect];

			jw_open_object(w, NULL);
			jw_string(w, "kind", report_suspect_kind_name(by->kind));
			jw_string(w, "name", by->name);
			jw_uint(w, "pairs", x->others[o].pairs);
			jw_close_object(w);
		}
		jw_close_array(w);
		jw_close_object(w);
	}
	for (size_t k = 0; ps && k < ps->tomo.count; k++)
		json_path_suspect(w, ps, &ps->tomo.items[k], rank_base);
	jw_close_array(w);
}

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
