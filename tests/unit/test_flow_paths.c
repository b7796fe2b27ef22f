/* Unit tests of the numbers of traced flows' paths (report/flow_paths.h):
 * the same elements in the same order share a number, an order, a length
 * or one element apart do not, and skipped elements count for nothing. */
#include <stdint.h>
#include <stdlib.h>

#include "report/flow_paths.h"
#include "tap.h"

int main(void)
{
	size_t p0[] = { 1, 2, 3, 4 }, p1[] = { 1, 2, 3, 4 },
	       p2[] = { 1, 3, 2, 4 }, p3[] = { 1, 2, 3 },
	       p4[] = { 9, 2, 3, 4 }, p5[] = { 8, 2, 3, 7 },
	       p6[] = { 2, 3 };
	struct report_trace_flow flows[] = {
		{ .elements = p0, .element_count = 4 },
		{ .elements = p1, .element_count = 4 },
		{ .elements = p2, .element_count = 4 },
		{ .elements = p3, .element_count = 3 },
		{ .elements = p4, .element_count = 4 },
		{ .elements = p5, .element_count = 4 },
		{ .elements = p6, .element_count = 2 },
		{ .elements = NULL, .element_count = 0 },
	};
	struct report_traces t = { .flows = flows, .count = 8 };
	/* 1, 4, 7, 8, 9: a host's access links, say */
	bool skip[10] = { [1] = true, [4] = true, [7] = true, [8] = true,
			  [9] = true };
	uint32_t n[8];

	ok(flow_path_numbers(&t, NULL, n) == 0, "numbered");
	ok(n[0] == 0 && n[1] == 0, "the same elements: one number, the first");
	ok(n[2] != n[0] && n[3] != n[0] && n[4] != n[0] && n[3] != n[2],
	   "another order, a prefix, another element: others");
	ok(n[2] == 1 && n[3] == 2 && n[4] == 3 && n[5] == 4 && n[6] == 5 &&
		   n[7] == 6,
	   "numbered from 0 in the order the flows come");
	ok(flow_path_numbers(&t, skip, n) == 0, "numbered, some skipped");
	ok(n[0] == 0 && n[1] == 0 && n[3] == 0 && n[4] == 0 && n[5] == 0 &&
		   n[6] == 0,
	   "paths that differ only in skipped elements share a number");
	ok(n[2] == 1 && n[7] == 2, "the others keep theirs");
	return tap_done();
}
