/* Which flows of one destination took which router path: a RoCE trace of
 * many flow labels (each its own UDP source port, so its own ECMP choice)
 * grouped into distinct paths, as an admin asks after a sweep. */
#ifndef IBAHPROBE_TRACE_PATHS_H
#define IBAHPROBE_TRACE_PATHS_H

#include <stddef.h>
#include <stdint.h>

/* One traced flow: per hop (hop limit 1, 2, ...) the address that
 * answered, NULL for a silent hop ("*"); the last hop is the responder's
 * when the flow reached it. hop_count 0: the flow was not traced. */
struct trace_path_flow {
	const char *const *hops;
	size_t hop_count;
};

/* index[] of a flow whose silent hops fit more than one path. */
#define TRACE_PATH_AMBIGUOUS UINT32_MAX

/* Groups n flows into paths; index[i] becomes flow i's path, numbered 1,
 * 2, ... in the order the paths first appear among the flows (0: a flow
 * with no hops, which belongs to no path; TRACE_PATH_AMBIGUOUS: a flow
 * that fits more than one path). *paths: how many distinct.
 *
 * Two flows share a path when they have as many hops and, at every hop,
 * the same address or a silent hop on either side: a query lost to rate
 * limiting does not make a path of its own. Flows that answered at every
 * hop define the paths; a flow with silent hops joins the one path it
 * fits, is ambiguous when it fits several (its silent hops cannot tell
 * them apart, so it is counted for none), and only a flow that fits none
 * opens a path, which later flows with silent hops may join (their
 * answers fill its gaps). Returns 0, or -1 when out of memory (index
 * untouched). */
int trace_paths_group(const struct trace_path_flow *flows, size_t n,
		      unsigned *index, size_t *paths);

/* The address path p (1-based) shows at hop h (0-based): the first of
 * its flows that answered there, NULL when all of them were silent. */
const char *trace_paths_address(const struct trace_path_flow *flows,
				size_t n, const unsigned *index, unsigned p,
				size_t h);

/* The flow labels as sorted hex ranges, "0x1-0x3, 0x7, 0x9-0xa" (each
 * label once) into buf (cut, NUL-terminated, when it does not fit).
 * Returns the number of distinct labels; 0 also when out of memory (buf
 * then empty). */
size_t trace_paths_format_labels(const uint32_t *labels, size_t n, char *buf,
				 size_t len);

#endif
