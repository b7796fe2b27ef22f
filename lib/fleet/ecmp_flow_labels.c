/* The coupon-collector count of flow labels per destination (see
 * ecmp_flow_labels.h). */
#include <stdlib.h>

#include "fleet/ecmp_flow_labels.h"

/* The distribution of distinct branches seen, label by label: after one
 * more label, j branches seen stay j with probability j / W and become
 * j + 1 with (W - j) / W. Unlike the inclusion-exclusion sum
 * sum_k (-1)^k C(W, k) (1 - k/W)^n, every term is positive, so it stays
 * exact in doubles for wide fans too. Returns P(all W seen) after labels
 * labels, or after the first label count that reaches confidence, which
 * *needed then gets (0: none up to labels); -1 when out of memory. */
static double cover_walk(uint32_t width, uint32_t labels, double confidence,
			 uint32_t *needed)
{
	double *p = calloc((size_t)width + 1, sizeof(*p));
	double all = 0;

	if (!p)
		return -1;
	p[0] = 1;
	if (needed)
		*needed = 0;
	for (uint32_t n = 1; n <= labels; n++) {
		for (uint32_t j = width; j >= 1; j--)
			p[j] = p[j] * j / width +
			       p[j - 1] * (width - j + 1) / width;
		p[0] = 0;
		all = p[width];
		if (needed && all >= confidence) {
			*needed = n;
			break;
		}
	}
	free(p);
	return all;
}

double ecmp_cover_probability(uint32_t width, uint32_t labels)
{
	if (width == 0)
		return 0;
	return cover_walk(width, labels, 2, NULL);
}

uint32_t ecmp_flow_labels_needed(uint32_t width, double confidence)
{
	uint32_t needed = 0;

	if (width == 0)
		return 0;
	if (cover_walk(width, ECMP_FLOW_LABELS_MAX, confidence, &needed) < 0)
		return 0;
	return needed;
}
