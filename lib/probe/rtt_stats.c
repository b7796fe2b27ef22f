/* RTT sample store and summary statistics. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "probe/rtt_stats.h"

int rtt_add(struct rtt_samples *s, uint64_t ns)
{
	if (s->limit && s->count == s->limit) {
		s->ns[s->next] = ns;	/* the oldest goes */
		s->next = (s->next + 1) % s->limit;
		return 0;
	}
	if (s->count == s->capacity) {
		size_t cap = s->capacity ? s->capacity * 2 : 64;

		if (s->limit && cap > s->limit)
			cap = s->limit;
		uint64_t *grown = realloc(s->ns, cap * sizeof(*grown));

		if (!grown)
			return -1;
		s->ns = grown;
		s->capacity = cap;
	}
	s->ns[s->count++] = ns;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int rtt_summarize(const struct rtt_samples *s, struct rtt_summary *sum)
{
	return rtt_summarize_latest(s, s->count, sum);
}

int rtt_summarize_latest(const struct rtt_samples *s, size_t latest,
			 struct rtt_summary *sum)
{
	uint64_t *sorted;
	double total = 0;
	size_t n = latest < s->count ? latest : s->count, rank;
	/* Full ring: the newest sample sits just before next; else the
	 * newest is the last one stored. */
	size_t end = s->limit && s->count == s->limit ? s->next : s->count;

	memset(sum, 0, sizeof(*sum));
	if (n == 0)
		return -1;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -1;
	for (size_t i = 0; i < n; i++)
		sorted[i] = s->ns[(end + s->count - n + i) % s->count];
	qsort(sorted, n, sizeof(*sorted), cmp_u64);
	for (size_t i = 0; i < n; i++)
		total += (double)sorted[i];
	sum->count = n;
	sum->min_us = sorted[0] / 1e3;
	sum->max_us = sorted[n - 1] / 1e3;
	sum->mean_us = total / n / 1e3;
	sum->median_us = n % 2 ? sorted[n / 2] / 1e3
			       : (sorted[n / 2 - 1] + sorted[n / 2]) / 2e3;
	rank = (size_t)ceil(0.99 * (double)n);
	sum->p99_us = sorted[rank - 1] / 1e3;
	free(sorted);
	return 0;
}

void rtt_free(struct rtt_samples *s)
{
	free(s->ns);
	memset(s, 0, sizeof(*s));
}
