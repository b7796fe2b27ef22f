/* Grouping traced flows by router path: see trace_paths.h. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "out/text_layout.h"
#include "trace/trace_paths.h"

/* A path being built: its hops as known so far (a silent hop is filled
 * in by the first member that answered there) and its first flow. */
struct path_draft {
	const char **hops;
	size_t hop_count;
	size_t first;
};

static bool answered_everywhere(const struct trace_path_flow *f)
{
	for (size_t h = 0; h < f->hop_count; h++)
		if (!f->hops[h])
			return false;
	return f->hop_count > 0;
}

static bool fits(const struct path_draft *d, const struct trace_path_flow *f)
{
	if (d->hop_count != f->hop_count)
		return false;
	for (size_t h = 0; h < f->hop_count; h++)
		if (d->hops[h] && f->hops[h] && strcmp(d->hops[h], f->hops[h]))
			return false;
	return true;
}

static void take_into(struct path_draft *d, const struct trace_path_flow *f,
		      size_t i)
{
	for (size_t h = 0; h < f->hop_count; h++)
		if (!d->hops[h])
			d->hops[h] = f->hops[h];
	if (i < d->first)
		d->first = i;
}

/* Puts flow i into the one draft it fits, or opens one; the draft's
 * number (0-based, in creation order) in group[i], AMBIGUOUS when it
 * fits more than one: its silent hops hide which of them it took, and
 * counting it for the first would overstate that path (rate-limited
 * routers make such flows common). */
#define AMBIGUOUS SIZE_MAX

static int place(struct path_draft *drafts, size_t *count,
		 const struct trace_path_flow *f, size_t i, size_t *group)
{
	struct path_draft *d;
	size_t fit = 0, first_fit = 0;

	for (size_t g = 0; g < *count; g++)
		if (fits(&drafts[g], f) && fit++ == 0)
			first_fit = g;
	if (fit > 1) {
		group[i] = AMBIGUOUS;
		return 0;
	}
	if (fit == 1) {
		take_into(&drafts[first_fit], f, i);
		group[i] = first_fit;
		return 0;
	}
	d = &drafts[*count];
	d->hops = calloc(f->hop_count, sizeof(*d->hops));
	if (!d->hops)
		return -1;
	d->hop_count = f->hop_count;
	d->first = i;
	take_into(d, f, i);
	group[i] = (*count)++;
	return 0;
}

int trace_paths_group(const struct trace_path_flow *flows, size_t n,
		      unsigned *index, size_t *paths)
{
	struct path_draft *drafts = calloc(n ? n : 1, sizeof(*drafts));
	size_t *group = calloc(n ? n : 1, sizeof(*group));
	size_t *number = calloc(n ? n : 1, sizeof(*number));
	size_t count = 0, next = 0;
	int rc = -1;

	if (!drafts || !group || !number)
		goto out;
	/* Complete flows first, so that the paths they define are there
	 * before a flow with gaps is compared. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++) {
			bool complete = answered_everywhere(&flows[i]);

			if (flows[i].hop_count == 0 || complete != (pass == 0))
				continue;
			if (place(drafts, &count, &flows[i], i, group))
				goto out;
		}
	/* Numbers in the order of first appearance among all flows. */
	for (size_t i = 0; i < n; i++) {
		size_t g;

		if (flows[i].hop_count == 0 || group[i] == AMBIGUOUS)
			continue;
		g = group[i];
		if (drafts[g].first == i)
			number[g] = ++next;
	}
	for (size_t i = 0; i < n; i++)
		index[i] = !flows[i].hop_count	  ? 0
			   : group[i] == AMBIGUOUS ? TRACE_PATH_AMBIGUOUS
						   : (unsigned)number[group[i]];
	*paths = count;
	rc = 0;
out:
	if (drafts)
		for (size_t g = 0; g < count; g++)
			free(drafts[g].hops);
	free(drafts);
	free(group);
	free(number);
	return rc;
}

const char *trace_paths_address(const struct trace_path_flow *flows,
				size_t n, const unsigned *index, unsigned p,
				size_t h)
{
	for (size_t i = 0; i < n; i++)
		if (index[i] == p && h < flows[i].hop_count && flows[i].hops[h])
			return flows[i].hops[h];
	return NULL;
}

static int compare_labels(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

size_t trace_paths_format_labels(const uint32_t *labels, size_t n, char *buf,
				 size_t len)
{
	uint32_t *sorted = malloc((n ? n : 1) * sizeof(*sorted));
	size_t used = 0, distinct = 0;

	if (len)
		buf[0] = '\0';
	if (!sorted)
		return 0;
	memcpy(sorted, labels, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), compare_labels);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		/* The run sorted[i..j] of consecutive labels (repeats too). */
		while (j + 1 < n && sorted[j + 1] - sorted[j] <= 1)
			j++;
		for (size_t k = i; k <= j; k++)
			distinct += k == i || sorted[k] != sorted[k - 1];
		if (len)
			text_append(buf, len, &used, "%s0x%x", i ? ", " : "",
				    (unsigned)sorted[i]);
		if (len && sorted[j] != sorted[i])
			text_append(buf, len, &used, "-0x%x",
				    (unsigned)sorted[j]);
		i = j + 1;
	}
	free(sorted);
	return distinct;
}
