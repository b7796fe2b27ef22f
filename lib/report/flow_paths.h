/* Numbers for the paths of traced flows: two flows get one number when
 * they cross the same elements in the same order, so that localisation
 * tells paths apart by a number, without a text of each path or a copy
 * of its elements. */
#ifndef IBAHPROBE_FLOW_PATHS_H
#define IBAHPROBE_FLOW_PATHS_H

#include <stdbool.h>
#include <stdint.h>

#include "report/report_traces.h"

/* out[k]: the number of flow k's path, from 0 in the order the flows
 * come; elements e with skip[e] are left out of every path (skip NULL:
 * none). 0, or -1 when memory ran out or there are 2^32 flows. */
int flow_path_numbers(const struct report_traces *t, const bool *skip,
		      uint32_t *out);

#endif
