/* One router under several addresses in the traces: routers that answer
 * from the address of the interface a datagram came in by, told from
 * the traces alone and folded into one element each, so that what
 * report localises is routers and the links between them, not their
 * interfaces. */
#ifndef IBAHPROBE_TRACE_ALIASES_H
#define IBAHPROBE_TRACE_ALIASES_H

#include <stddef.h>

#include "report/report_traces.h"

/* What trace_aliases_fold found. */
struct trace_aliases {
	/* Addresses that sit before a common next hop (candidates), and of
	 * those the ones whose evidence disagreed (a shared previous hop,
	 * or two of them on one trace). */
	size_t next_hops, disagreeing;
	size_t routers;		/* routers seen under several addresses */
	size_t addresses;	/* the addresses folded into them */
};

/* Folds the addresses of each router that the traces of t show under
 * several (each address then an alias of the one most traces show:
 * report_path_element aliases), renaming the links between them, when
 * the traces are those of routers answering per interface; leaves t as
 * it is otherwise. Before report_traces_join. 0, or -1 when memory ran
 * out (t as it was). */
int trace_aliases_fold(struct report_traces *t, struct trace_aliases *out);

#endif
