/* The suspects of a report (report_suspects.h) in the words every form
 * shares, as the JSON "suspects" array, and as the HTML page's short list
 * above the matrix. The text section is report_render_text.c's (it
 * shares that file's wrapping). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "markup.h"
#include "report_render.h"
#include "report_suspects.h"

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

void report_render_suspects_json(struct json_writer *w,
				 const struct report_suspects *s)
{
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
	jw_close_array(w);
}

void report_render_suspects_html(FILE *f, const struct report *r,
				 const struct report_grouping *g)
{
	struct report_suspects s;

	if (report_suspects_find(&s, r, g) || !s.count) {
		report_suspects_free(&s);
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
	fputs("</ol>\n</div>\n", f);
	report_suspects_free(&s);
}
