/* Judging one checklist expectation against what was measured for its
 * entry: held or not, with what was got and what was expected in words
 * for the TAP line ("got 1, expected 2"). Pure logic. */
#ifndef IBAHPROBE_CHECK_EXPECT_H
#define IBAHPROBE_CHECK_EXPECT_H

#include <stdbool.h>
#include <stdint.h>

#include "checklist.h"

/* What was measured for one entry; unset parts stay false/NULL. */
struct check_measured {
	/* Probes (NEED_PROBE): error set when they could not be sent at
	 * all (no responder, AH creation failed). */
	bool probed;
	const char *probe_error;
	uint32_t sent, received;
	bool rtt_valid;
	double rtt_median_us, rtt_p99_us;
	int hops;			/* -1: unknown */
	bool observed_valid, grh_present;
	struct probe_params asked;
	uint8_t tclass_seen;
	uint32_t flow_label_seen;
	/* The path (NEED_PATH). */
	bool path_valid;
	const char *path_error;
	uint16_t path_mtu;		/* bytes */
	bool has_path_sl;
	uint8_t path_sl;
	/* The AH that was or would be built (NEED_AH). */
	bool ah_known;
	const char *ah_error;
	bool ah_is_global;
};

struct check_outcome {
	bool ok;
	char got[96];
	char expected[64];
};

void check_expect_judge(const struct expectation *e,
			const struct check_measured *m,
			struct check_outcome *out);

#endif
