/* Results whose hop count differs from their flow's trace (see
 * hop_changes.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/hop_changes.h"

int hop_changes_trace_hops(const struct report_trace_flow *fl,
			   const struct report_traces *t)
{
	const char *at = NULL;
	int routers = 0;

	if (!fl->element_count || !fl->dest_address)
		return -1;
	for (size_t i = 0; i < fl->element_count; i++) {
		const struct report_path_element *e =
			&t->elements[fl->elements[i]];
		bool link_turn = i % 2 == 0;

		if (link_turn != (e->kind == REPORT_PATH_LINK))
			return -1;	/* a silent hop broke the chain */
		if (e->kind == REPORT_PATH_LINK) {
			if (at && (!e->from || strcmp(e->from, at) != 0))
				return -1;
			at = e->to;
		} else if (e->kind == REPORT_PATH_ROUTER) {
			if (!at || strcmp(e->name, at) != 0)
				return -1;
			routers++;
		} else {
			return -1;	/* InfiniBand: no hop limit to count */
		}
	}
	/* Ends with the link into the destination. */
	if (fl->element_count % 2 == 0 || !at ||
	    strcmp(at, fl->dest_address) != 0)
		return -1;
	return routers;
}

int hop_changes_find(struct hop_changes *hc, const struct report *r,
		     const struct report_traces *t)
{
	struct report_trace_join local;
	const struct report_trace_join *join = report_traces_joined(t, r, &local);
	size_t n = r->record_count;

	memset(hc, 0, sizeof(*hc));
	hc->items = malloc((n ? n : 1) * sizeof(*hc->items));
	if (!join || !hc->items) {
		report_trace_join_free(&local);
		hop_changes_free(hc);
		return -1;
	}
	for (size_t k = 0; k < n; k++) {
		const struct report_record *rec = r->records[k];
		const struct report_trace_flow *trace = join->trace[k];
		int trace_hops;

		if (!trace || rec->hops < 0 || r->runs[rec->run].dropped)
			continue;
		trace_hops = join->trace_hops[trace - t->flows];
		if (trace_hops < 0)
			continue;
		hc->compared++;
		if (trace_hops != rec->hops)
			hc->items[hc->count++] = (struct hop_change){
				.record = rec, .trace = trace,
				.hops = rec->hops, .trace_hops = trace_hops,
			};
	}
	report_trace_join_free(&local);
	return 0;
}

void hop_changes_free(struct hop_changes *hc)
{
	free(hc->items);
	memset(hc, 0, sizeof(*hc));
}
