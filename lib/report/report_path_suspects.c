/* The suspects on the path (report_traces.h): each probe result of the
 * report with the trace of its source host, destination, traffic class
 * and flow label (report_traces_joined), then the tomography core over
 * them, and the suspects' names. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_traces.h"

static const char *element_name(size_t e, const void *ctx)
{
	const struct report_traces *t = ctx;

	return t->elements[e].name;
}

int report_path_suspects_find(struct report_path_suspects *ps,
			      const struct report *r,
			      const struct report_traces *t)
{
	struct report_trace_join local;
	const struct report_trace_join *join = report_traces_joined(t, r, &local);
	struct tomo_flow *flows = NULL;
	size_t n = 0;
	int rc = -1;

	memset(ps, 0, sizeof(*ps));
	ps->traces = t;
	flows = calloc(r->record_count ? r->record_count : 1, sizeof(*flows));
	if (!flows || !join)
		goto out;
	for (size_t k = 0; k < r->record_count; k++) {
		const struct report_record *rec = r->records[k];
		const struct report_trace_flow *tf = join->trace[k];
		enum report_trace_placement placed = join->placement[k];
		bool failing = rec->status != REPORT_REACHABLE;

		if (r->runs[rec->run].dropped ||
		    (rec->sgid && rec->dgid && strcmp(rec->sgid, rec->dgid) == 0))
			continue;
		flows[n++] = (struct tomo_flow){
			.failing = failing,
			.traced = placed == REPORT_TRACE_PLACED,
			.elements = tf ? tf->elements : NULL,
			.element_count = tf ? tf->element_count : 0,
		};
		if (failing && placed == REPORT_TRACE_NONE)
			ps->failing_no_trace++;
		if (failing && placed == REPORT_TRACE_ECMP_UNKNOWN)
			ps->failing_ecmp_unknown++;
	}
	ps->flows = n;
	if (tomo_find(&ps->tomo, flows, n, t->element_count, element_name,
		      t) == 0)
		rc = 0;
out:
	free(flows);
	report_trace_join_free(&local);
	return rc;
}

void report_path_suspects_free(struct report_path_suspects *ps)
{
	tomo_free(&ps->tomo);
	memset(ps, 0, sizeof(*ps));
}

const char *report_path_suspect_kind(const struct report_path_suspects *ps,
				     const struct tomo_suspect *s)
{
	if (s->element_count != 1)
		return "segment";
	return report_path_kind_name(ps->traces->elements[s->elements[0]].kind);
}

/* The nodes along a segment, each once: a router or switch, a link's
 * two ends. */
static size_t segment_nodes(const struct report_traces *t,
			    const struct tomo_suspect *s, const char **nodes)
{
	size_t n = 0;

	for (size_t k = 0; k < s->element_count; k++) {
		const struct report_path_element *e = &t->elements[s->elements[k]];
		const char *ends[2] = { e->from, e->to };

		for (int i = 0; i < 2 && ends[i]; i++)
			if (!n || strcmp(nodes[n - 1], ends[i]) != 0)
				nodes[n++] = ends[i];
	}
	return n;
}

char *report_path_suspect_name(const struct report_path_suspects *ps,
			       const struct tomo_suspect *s, char **via)
{
	const struct report_traces *t = ps->traces;
	const char **nodes = calloc(2 * s->element_count + 1, sizeof(*nodes));
	char *name = NULL, *list = NULL;
	size_t n, len = 0;
	FILE *f;

	*via = NULL;
	if (!nodes)
		return NULL;
	if (s->element_count == 1) {
		name = strdup(t->elements[s->elements[0]].name);
		*via = strdup("");
		goto out;
	}
	n = segment_nodes(t, s, nodes);
	if (n == 0 || asprintf(&name, "%s -> %s", nodes[0], nodes[n - 1]) < 0) {
		name = NULL;
		goto out;
	}
	f = open_memstream(&list, &len);
	if (!f)
		goto out;
	for (size_t k = 1; k + 1 < n; k++)
		fprintf(f, "%s%s", k > 1 ? ", " : "", nodes[k]);
	if (fclose(f)) {
		free(list);
		list = NULL;
	}
	*via = list;
out:
	free(nodes);
	if (!*via) {
		free(name);
		name = NULL;
	}
	return name;
}
