/* The trace policy of a probe plan (plan --traces): which of a host's
 * destinations of the round it traces while they pass. Failing flows are
 * traced at once by whoever sees them fail (007's rule); a rotating sample
 * of passing ones keeps every destination's path set, over all its flow
 * labels, known before it fails, so that report can tell the elements of
 * one path from those of another (deTector's identifiability: elements
 * that every traced flow crosses together cannot be told apart). */
#ifndef IBAHPROBE_TRACE_POLICY_H
#define IBAHPROBE_TRACE_POLICY_H

#include <stddef.h>
#include <stdint.h>

#define TRACE_POLICY_DEFAULT_PER_ROUND 1u

/* The destinations, as indexes into the round's list of count, a host
 * traces in round: per_round of them (all when count is smaller) from
 * position round * per_round on, mod count, in list order of that
 * rotation. A list that stays the same (a host's group) is traced whole
 * in every ceil(count / per_round) consecutive rounds. Writes at most
 * min(count, per_round) indexes to out and returns how many. */
size_t trace_policy_sample(size_t count, uint64_t round, uint32_t per_round,
			   size_t *out);

#endif
