/* The suspects of a report (report_suspects.h) in the words every form
 * shares: a suspect's evidence lines, a member's name, and for --traces
 * the suspects on the path's evidence and the section's counts line. */
#include <stdio.h>
#include <stdlib.h>

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

const char *report_suspect_member_name(const struct report_node *n,
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
				report_suspect_member_name(x->members[k],
							   x->member_kinds[k]));
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
