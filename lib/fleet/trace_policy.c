/* The rotating sample of passing flows a host traces each round (see
 * trace_policy.h). */
#include "fleet/trace_policy.h"

size_t trace_policy_sample(size_t count, uint64_t round, uint32_t per_round,
			   size_t *out)
{
	size_t take = per_round < count ? per_round : count;
	size_t start;

	if (!count)
		return 0;
	/* round * per_round mod count without overflow at round 2^64 - 1. */
	start = (size_t)((round % count) * (per_round % count) % count);
	for (size_t i = 0; i < take; i++)
		out[i] = (start + i) % count;
	return take;
}
