/* probe --mtu's output: one aligned text row per destination (what
 * arrives, what is lost, the bound and where it came from, the verdict
 * in words; -v each step) and a summary; or one JSON document (schema
 * MTU_SCHEMA) with the numbers, the verdict key and the steps. */
#ifndef IBAHPROBE_MTU_PRINT_H
#define IBAHPROBE_MTU_PRINT_H

#include <stdbool.h>

#include "probe/mtu_probe.h"
#include "out/run_info.h"

struct mtu_run {
	struct run_info info;
	const char *host;
	uint32_t probes_per_size;
	bool interrupted;
};

/* Text before the search starts: what is searched, from where. */
void mtu_print_head(const struct mtu_run *run, const struct probe_session *s);

/* The rows (text) or the whole document (JSON), after the search. */
void mtu_print_results(const struct mtu_run *run,
		       const struct probe_session *s,
		       const struct mtu_dest *d);

#endif
