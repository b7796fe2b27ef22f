/* One probe result (destination and parameter set) through the output
 * layer: the text row and the JSON object of `probe`, also used by
 * `check -v` and merged by `report`. */
#ifndef IBAHPROBE_PROBE_PRINT_H
#define IBAHPROBE_PROBE_PRINT_H

#include "probe_engine.h"

void probe_cell_print(const struct probe_session *s,
		      const struct probe_cell *c);

#endif
