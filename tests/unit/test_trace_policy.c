/* Unit tests of the trace policy's rotating sample: per round at most T
 * destinations, distinct; a fixed list traced whole within ceil(n / T)
 * consecutive rounds from any round on; round numbers up to 2^64 - 1. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fleet/trace_policy.h"
#include "tap.h"

int main(void)
{
	size_t out[64];

	is_int(trace_policy_sample(0, 5, 3, out), 0, "no destination: none");
	is_int(trace_policy_sample(2, 0, 5, out), 2, "T above n: all of them");
	is_int(trace_policy_sample(5, 0, 2, out), 2, "T 2 of 5: two");
	ok(out[0] == 0 && out[1] == 1, "round 0 starts at the first");
	trace_policy_sample(5, 1, 2, out);
	ok(out[0] == 2 && out[1] == 3, "round 1 the next two");
	trace_policy_sample(5, 2, 2, out);
	ok(out[0] == 4 && out[1] == 0, "round 2 wraps around");
	for (size_t n = 1; n <= 17; n++) {
		for (uint32_t t = 1; t <= 6; t++) {
			size_t rounds = (n + t - 1) / t;
			bool whole = true, distinct = true;

			for (uint64_t from = 0; from < 2 * n; from++) {
				bool seen[64] = { false };

				for (uint64_t r = from; r < from + rounds; r++) {
					size_t k = trace_policy_sample(n, r, t,
								       out);
					bool once[64] = { false };

					for (size_t i = 0; i < k; i++) {
						if (once[out[i]])
							distinct = false;
						once[out[i]] = true;
						seen[out[i]] = true;
					}
				}
				for (size_t i = 0; i < n; i++)
					whole = whole && seen[i];
			}
			ok(whole && distinct, "n %zu, T %u: distinct, all in "
			   "%zu rounds from any round", n, t, rounds);
		}
	}
	{
		size_t k = trace_policy_sample(7, UINT64_MAX, 3, out);

		ok(k == 3 && out[0] < 7 && out[1] < 7 && out[2] < 7,
		   "round 2^64 - 1: in range");
	}
	return tap_done();
}
