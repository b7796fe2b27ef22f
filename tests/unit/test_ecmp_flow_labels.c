/* Unit tests of the coupon-collector sizing of flow labels: known values
 * of P(all W branches seen after n labels) (closed forms for W = 1, 2, 4)
 * and the fewest labels for a confidence, as R-Pingmesh sizes them. */
#include <math.h>

#include "fleet/ecmp_flow_labels.h"
#include "tap.h"

/* Inclusion-exclusion, exact enough for small W: the reference. */
static double closed_form(unsigned w, unsigned n)
{
	double sum = 0, binom = 1;

	for (unsigned k = 0; k <= w; k++) {
		sum += (k % 2 ? -1 : 1) * binom * pow(1.0 - (double)k / w, n);
		binom = binom * (w - k) / (k + 1);
	}
	return sum;
}

int main(void)
{
	/* One branch: one label sees it. */
	ok(ecmp_cover_probability(1, 1) == 1, "W 1: one label covers it");
	is_int(ecmp_flow_labels_needed(1, 0.999), 1, "W 1 needs 1 label");
	/* Fewer labels than branches can never cover them. */
	ok(ecmp_cover_probability(4, 3) == 0, "W 4, 3 labels: 0");
	/* W 2: 1 - 2^(1-n); >= 0.99 first at n = 8 (0.9921875). */
	ok(fabs(ecmp_cover_probability(2, 7) - 0.984375) < 1e-12, "W 2 n 7");
	ok(fabs(ecmp_cover_probability(2, 8) - 0.9921875) < 1e-12, "W 2 n 8");
	is_int(ecmp_flow_labels_needed(2, 0.99), 8, "W 2, 99%%: 8 labels");
	/* W 4: 1 - 4(3/4)^n + 6(1/2)^n - 4(1/4)^n: 0.98732 at 20, 0.99049
	 * at 21. */
	ok(fabs(ecmp_cover_probability(4, 20) - closed_form(4, 20)) < 1e-12,
	   "W 4 n 20 matches the closed form");
	is_int(ecmp_flow_labels_needed(4, 0.99), 21, "W 4, 99%%: 21 labels");
	is_int(ecmp_flow_labels_needed(4, 0.5), 7, "W 4, 50%%: 7 labels "
	       "(0.513 at 7, 0.381 at 6)");
	ok(fabs(ecmp_cover_probability(4, 7) - 8400.0 / 16384) < 1e-12,
	   "W 4 n 7 = 8400/16384");
	/* W 8 and 16 against inclusion-exclusion, over a range of n. */
	for (unsigned w = 8; w <= 16; w += 8) {
		int same = 1;

		for (unsigned n = w; n < 12 * w; n++)
			if (fabs(ecmp_cover_probability(w, n) -
				 closed_form(w, n)) > 1e-9)
				same = 0;
		ok(same, "W %u matches inclusion-exclusion for n %u..%u", w,
		   w, 12 * w - 1);
	}
	/* The count is the first that reaches the confidence. */
	for (unsigned w = 2; w <= 64; w *= 2) {
		uint32_t n = ecmp_flow_labels_needed(w, 0.999);

		ok(n > 0 && ecmp_cover_probability(w, n) >= 0.999 &&
		   ecmp_cover_probability(w, n - 1) < 0.999,
		   "W %u, 99.9%%: %u labels is the fewest", w, n);
	}
	/* Grows like W ln W: 256 branches at 99.9% need about 3,200. */
	{
		uint32_t n = ecmp_flow_labels_needed(256, 0.999);

		ok(n > 256 * log(256) && n < 256 * (log(256) + log(1000)) + 256,
		   "W 256, 99.9%%: %u labels, about W (ln W + ln 1000)", n);
	}
	/* Beyond what probe takes: 0. */
	is_int(ecmp_flow_labels_needed(256, 0.999999999), 0,
	       "W 256 at 1 - 1e-9 needs more than 4096 labels: 0");
	return tap_done();
}
