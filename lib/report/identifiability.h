/* What the traces could not tell apart (report --traces): elements that
 * appear in exactly the same traced flows (identical columns of the
 * flows x elements incidence matrix) are indistinguishable, whatever the
 * inference: a loss on one explains the results as well as a loss on
 * another (deTector, ATC 2017: a probe matrix identifies single faults
 * when its columns differ). Tracing other flow labels, other sources or
 * other destinations is what separates them. */
#ifndef IBAHPROBE_IDENTIFIABILITY_H
#define IBAHPROBE_IDENTIFIABILITY_H

#include <stddef.h>

#include "report/report_traces.h"

/* Elements every flow that crossed one of them crossed all of. */
struct ident_group {
	size_t *elements;	/* indexes into traces->elements, ascending */
	size_t count;		/* >= 2 */
	size_t flows;		/* the traced flows that crossed them */
	/* Of them, the traces of failing results: a group they cross holds
	 * whatever the localisation can name there. */
	size_t failing;
};

struct identifiability {
	const struct report_traces *traces;	/* the caller's, kept */
	size_t elements;	/* on some traced path */
	size_t flows;		/* traced flows with a path */
	size_t separable;	/* elements whose column no other shares */
	/* Groups of two or more, ordered by their first element (the
	 * order the traces named elements in). */
	struct ident_group *groups;
	size_t group_count;
};

/* 0, or -1 when memory ran out. Linear in the traces' hops but for a
 * sort of the elements (n log n). r: the results the traces are joined
 * with (report_traces_joined), for each group's failing flows; NULL: none
 * failing. */
int identifiability_find(struct identifiability *id, const struct report *r,
			 const struct report_traces *t);
void identifiability_free(struct identifiability *id);

#endif
