/* Tomography over traced flows (tomography.h): per element the set of
 * failing and of passing flows through it as bit sets; elements with the
 * same two sets are one segment (found by sorting on a hash of the sets,
 * so a fabric of thousands of links is no quadratic pass); then a greedy
 * choice among the segments. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tomography.h"

struct state {
	size_t words;		/* 64-bit words of one flow set */
	uint64_t *fail, *pass;	/* element_count sets of each */
	size_t *fail_count, *pass_count;
	uint64_t *hash;
};

static uint64_t *set_of(uint64_t *sets, size_t words, size_t e)
{
	return sets + e * words;
}

static size_t popcount_and(const uint64_t *a, const uint64_t *b, size_t words)
{
	size_t n = 0;

	for (size_t w = 0; w < words; w++)
		n += (size_t)__builtin_popcountll(b ? a[w] & b[w] : a[w]);
	return n;
}

/* FNV-1a over both sets: equal sets, equal hashes. */
static uint64_t sets_hash(const struct state *st, size_t e)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	const uint64_t *sets[2] = { set_of(st->fail, st->words, e),
				    set_of(st->pass, st->words, e) };

	for (int k = 0; k < 2; k++)
		for (size_t w = 0; w < st->words; w++) {
			h ^= sets[k][w];
			h *= 0x100000001b3ULL;
		}
	return h;
}

static bool same_sets(const struct state *st, size_t a, size_t b)
{
	size_t bytes = st->words * sizeof(uint64_t);

	return memcmp(set_of(st->fail, st->words, a),
		      set_of(st->fail, st->words, b), bytes) == 0 &&
	       memcmp(set_of(st->pass, st->words, a),
		      set_of(st->pass, st->words, b), bytes) == 0;
}

static const struct state *sort_state;

static int by_hash(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	uint64_t ha = sort_state->hash[a], hb = sort_state->hash[b];

	if (ha != hb)
		return ha < hb ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* The segment's elements in the order of the first flow through it
 * (every flow through one of them goes through all of them). */
static int segment_order(struct tomo_suspect *s, const struct tomo_flow *flows,
			 size_t flow_count, const size_t *segment_of,
			 size_t segment)
{
	for (size_t f = 0; f < flow_count; f++) {
		const struct tomo_flow *fl = &flows[f];
		bool through = false;

		for (size_t k = 0; fl->traced && k < fl->element_count; k++)
			through |= segment_of[fl->elements[k]] == segment;
		if (!through)
			continue;
		for (size_t k = 0; k < fl->element_count; k++) {
			size_t e = fl->elements[k];
			bool seen = false;

			if (segment_of[e] != segment)
				continue;
			for (size_t j = 0; j < s->element_count; j++)
				seen |= s->elements[j] == e;
			if (!seen)
				s->elements[s->element_count++] = e;
		}
		return 0;
	}
	return -1;
}

struct segment {
	struct tomo_suspect s;
	size_t first;		/* its first element, for the tie-break */
	bool taken;
};

static bool stronger(const struct segment *a, size_t ea,
		     const struct segment *b, size_t eb,
		     const char *(*tie_name)(size_t, const void *),
		     const void *ctx)
{
	int c;

	if (ea != eb)
		return ea > eb;
	if (a->s.passing != b->s.passing)
		return a->s.passing < b->s.passing;
	if (tie_name) {
		c = strverscmp(tie_name(a->first, ctx), tie_name(b->first, ctx));
		if (c)
			return c < 0;
	}
	return a->first < b->first;
}

static int state_init(struct state *st, const struct tomo_flow *flows,
		      size_t flow_count, size_t element_count,
		      struct tomo_result *out)
{
	size_t n = element_count ? element_count : 1;

	st->words = (flow_count + 63) / 64;
	if (!st->words)
		st->words = 1;
	st->fail = calloc(n * st->words, sizeof(uint64_t));
	st->pass = calloc(n * st->words, sizeof(uint64_t));
	st->fail_count = calloc(n, sizeof(size_t));
	st->pass_count = calloc(n, sizeof(size_t));
	st->hash = calloc(n, sizeof(uint64_t));
	if (!st->fail || !st->pass || !st->fail_count || !st->pass_count ||
	    !st->hash)
		return -1;
	for (size_t f = 0; f < flow_count; f++) {
		const struct tomo_flow *fl = &flows[f];
		uint64_t bit = 1ULL << (f % 64);

		if (fl->failing)
			out->failing++;
		else
			out->passing++;
		if (!fl->traced) {
			out->failing_untraced += fl->failing;
			continue;
		}
		for (size_t k = 0; k < fl->element_count; k++) {
			size_t e = fl->elements[k];
			uint64_t *w;

			if (e >= element_count)
				return -1;
			w = (fl->failing ? st->fail : st->pass) +
			    e * st->words + f / 64;
			if (*w & bit)
				continue;	/* a loop: once per flow */
			*w |= bit;
			(fl->failing ? st->fail_count : st->pass_count)[e]++;
		}
	}
	return 0;
}

static void state_free(struct state *st)
{
	free(st->fail);
	free(st->pass);
	free(st->fail_count);
	free(st->pass_count);
	free(st->hash);
}

/* Elements on some failing flow, grouped by their two sets. */
static int segments_build(struct state *st, const struct tomo_flow *flows,
			  size_t flow_count, size_t element_count,
			  struct segment **segs_out, size_t *count_out)
{
	size_t *order = calloc(element_count ? element_count : 1,
			       sizeof(size_t));
	size_t *segment_of = calloc(element_count ? element_count : 1,
				    sizeof(size_t));
	struct segment *segs = NULL;
	size_t n = 0, count = 0;
	int rc = -1;

	if (!order || !segment_of)
		goto out;
	for (size_t e = 0; e < element_count; e++) {
		segment_of[e] = SIZE_MAX;
		if (!st->fail_count[e])
			continue;
		st->hash[e] = sets_hash(st, e);
		order[n++] = e;
	}
	sort_state = st;
	qsort(order, n, sizeof(*order), by_hash);
	segs = calloc(n ? n : 1, sizeof(*segs));
	if (!segs)
		goto out;
	for (size_t i = 0; i < n; i++) {
		size_t e = order[i];
		struct segment *s;

		if (segment_of[e] != SIZE_MAX)
			continue;
		s = &segs[count];
		s->first = e;
		s->s.failing = st->fail_count[e];
		s->s.passing = st->pass_count[e];
		s->s.element_count = 0;
		segment_of[e] = count;
		/* Equal hashes stand together; a collision is told apart by
		 * the sets themselves. */
		for (size_t j = i + 1; j < n && st->hash[order[j]] == st->hash[e];
		     j++)
			if (segment_of[order[j]] == SIZE_MAX &&
			    same_sets(st, e, order[j]))
				segment_of[order[j]] = count;
		count++;
	}
	for (size_t k = 0; k < count; k++) {
		size_t members = 0;

		for (size_t e = 0; e < element_count; e++)
			members += segment_of[e] == k;
		segs[k].s.elements = calloc(members, sizeof(size_t));
		if (!segs[k].s.elements ||
		    segment_order(&segs[k].s, flows, flow_count, segment_of, k))
			goto out;
		segs[k].first = segs[k].s.elements[0];
	}
	rc = 0;
out:
	if (rc && segs)
		for (size_t k = 0; k < count; k++)
			free(segs[k].s.elements);
	if (rc) {
		free(segs);
		segs = NULL;
		count = 0;
	}
	*segs_out = segs;
	*count_out = count;
	free(order);
	free(segment_of);
	return rc;
}

static bool qualifies(const struct segment *s)
{
	return s->s.passing * 100 <=
	       (s->s.failing + s->s.passing) * TOMO_MAX_PASSING_PCT;
}

int tomo_find(struct tomo_result *out, const struct tomo_flow *flows,
	      size_t flow_count, size_t element_count,
	      const char *(*tie_name)(size_t element, const void *ctx),
	      const void *ctx)
{
	struct state st = { 0 };
	struct segment *segs = NULL;
	size_t seg_count = 0;
	uint64_t *open = NULL;	/* failing traced flows not yet explained */
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (state_init(&st, flows, flow_count, element_count, out) ||
	    segments_build(&st, flows, flow_count, element_count, &segs,
			   &seg_count))
		goto out;
	open = calloc(st.words, sizeof(uint64_t));
	if (!open)
		goto out;
	for (size_t f = 0; f < flow_count; f++)
		if (flows[f].failing && flows[f].traced)
			open[f / 64] |= 1ULL << (f % 64);
	for (;;) {
		struct segment *best = NULL;
		size_t best_explains = 0;
		struct tomo_suspect *items;

		for (size_t k = 0; k < seg_count; k++) {
			struct segment *s = &segs[k];
			size_t explains;

			if (s->taken || !qualifies(s))
				continue;
			explains = popcount_and(set_of(st.fail, st.words,
						       s->first), open,
						st.words);
			if (explains < TOMO_MIN_EXPLAINED)
				continue;
			if (!best || stronger(s, explains, best, best_explains,
					      tie_name, ctx)) {
				best = s;
				best_explains = explains;
			}
		}
		if (!best)
			break;
		items = realloc(out->items, (out->count + 1) * sizeof(*items));
		if (!items)
			goto out;
		out->items = items;
		best->taken = true;
		best->s.explained = best_explains;
		best->s.rank = out->count &&
				       items[out->count - 1].explained ==
					       best_explains
			       ? items[out->count - 1].rank : out->count + 1;
		items[out->count++] = best->s;
		best->s.elements = NULL;	/* out owns them now */
		out->explained += best_explains;
		for (size_t w = 0; w < st.words; w++)
			open[w] &= ~set_of(st.fail, st.words, best->first)[w];
	}
	rc = 0;
out:
	for (size_t k = 0; k < seg_count; k++)
		free(segs[k].s.elements);
	free(segs);
	free(open);
	state_free(&st);
	if (rc)
		tomo_free(out);
	return rc;
}

void tomo_free(struct tomo_result *out)
{
	for (size_t k = 0; k < out->count; k++)
		free(out->items[k].elements);
	free(out->items);
	memset(out, 0, sizeof(*out));
}
