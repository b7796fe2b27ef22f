/* See flow_paths.h. */
#include <stdlib.h>

#include "report/flow_paths.h"

/* The next element of f's path at or after *i that is not skipped;
 * false when there is none. */
static bool next_kept(const struct report_trace_flow *f, const bool *skip,
		      size_t *i)
{
	while (*i < f->element_count && skip && skip[f->elements[*i]])
		++*i;
	return *i < f->element_count;
}

static uint64_t path_hash(const struct report_trace_flow *f,
			  const bool *skip)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; next_kept(f, skip, &i); i++) {
		h = (h ^ f->elements[i]) * 0x100000001b3ull;
		h ^= h >> 29;
	}
	return h;
}

static bool same_path(const struct report_trace_flow *a,
		      const struct report_trace_flow *b, const bool *skip)
{
	size_t i = 0, j = 0;

	for (;; i++, j++) {
		bool more_a = next_kept(a, skip, &i);
		bool more_b = next_kept(b, skip, &j);

		if (!more_a || !more_b)
			return more_a == more_b;
		if (a->elements[i] != b->elements[j])
			return false;
	}
}

int flow_path_numbers(const struct report_traces *t, const bool *skip,
		      uint32_t *out)
{
	/* Each flow's slot: the first flow of its path + 1, 0 free; at most
	 * half full, so never grown. */
	size_t capacity = 16, mask;
	uint32_t *first, paths = 0;

	if (t->count >= UINT32_MAX)
		return -1;
	while (capacity < 2 * t->count)
		capacity *= 2;
	first = calloc(capacity, sizeof(*first));
	if (!first)
		return -1;
	mask = capacity - 1;
	for (size_t k = 0; k < t->count; k++) {
		const struct report_trace_flow *f = &t->flows[k];
		size_t i = (size_t)path_hash(f, skip) & mask;

		while (first[i] && !same_path(&t->flows[first[i] - 1], f, skip))
			i = (i + 1) & mask;
		if (!first[i]) {
			first[i] = (uint32_t)k + 1;
			out[k] = paths++;
		} else {
			out[k] = out[first[i] - 1];
		}
	}
	free(first);
	return 0;
}
