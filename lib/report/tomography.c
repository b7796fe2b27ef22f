/* Tomography over traced flows (tomography.h): per element the list of
 * failing and of passing flows through it; elements with the
 * same two sets are one segment (found by sorting on a hash of the sets,
 * so a fabric of thousands of links is no quadratic pass); then a greedy
 * choice among the segments. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/tomography.h"

/* Per element, the failing and the passing traced flows through it, as
 * ascending flow indices in one array each (compressed rows: a fabric's
 * million results cost their paths' length, not elements x flows). */
struct state {
	size_t *fail_at, *pass_at;	/* element e: [at[e], at[e + 1]) */
	size_t *fail, *pass;
	uint64_t *hash;
};

static size_t fail_count(const struct state *st, size_t e)
{
	return st->fail_at[e + 1] - st->fail_at[e];
}

static size_t pass_count(const struct state *st, size_t e)
{
	return st->pass_at[e + 1] - st->pass_at[e];
}

/* FNV-1a over both lists: equal lists, equal hashes. */
static uint64_t sets_hash(const struct state *st, size_t e)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t k = st->fail_at[e]; k < st->fail_at[e + 1]; k++)
		h = (h ^ st->fail[k]) * 0x100000001b3ULL;
	h = (h ^ 0xff) * 0x100000001b3ULL;
	for (size_t k = st->pass_at[e]; k < st->pass_at[e + 1]; k++)
		h = (h ^ st->pass[k]) * 0x100000001b3ULL;
	return h;
}

static bool same_sets(const struct state *st, size_t a, size_t b)
{
	return fail_count(st, a) == fail_count(st, b) &&
	       pass_count(st, a) == pass_count(st, b) &&
	       memcmp(st->fail + st->fail_at[a], st->fail + st->fail_at[b],
		      fail_count(st, a) * sizeof(size_t)) == 0 &&
	       memcmp(st->pass + st->pass_at[a], st->pass + st->pass_at[b],
		      pass_count(st, a) * sizeof(size_t)) == 0;
}

static int by_hash(const void *pa, const void *pb, void *arg)
{
	const struct state *st = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	uint64_t ha = st->hash[a], hb = st->hash[b];

	if (ha != hb)
		return ha < hb ? -1 : 1;
	return a < b ? -1 : a > b;
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

/* Each segment's elements in the order of a flow through it (every flow
 * through one of them goes through all of them): its first failing flow,
 * the same for all its members. One walk per such flow serves every
 * segment it leads, and an element is placed once (a loop repeats it), so
 * a shared path of n elements costs n, not n squared. */
static int segments_order(const struct state *st,
			  const struct tomo_flow *flows, struct segment *segs,
			  size_t count, const size_t *segment_of,
			  size_t element_count)
{
	bool *placed = calloc(element_count ? element_count : 1,
			      sizeof(*placed));
	size_t *lead = calloc(count ? count : 1, sizeof(*lead));
	bool *walked = NULL;
	size_t flow_count = 0;

	if (!placed || !lead)
		goto fail;
	for (size_t k = 0; k < count; k++) {
		lead[k] = st->fail[st->fail_at[segs[k].first]];
		if (lead[k] + 1 > flow_count)
			flow_count = lead[k] + 1;
	}
	walked = calloc(flow_count ? flow_count : 1, sizeof(*walked));
	if (!walked)
		goto fail;
	for (size_t k = 0; k < count; k++) {
		const struct tomo_flow *fl = &flows[lead[k]];

		if (walked[lead[k]])
			continue;
		walked[lead[k]] = true;
		for (size_t i = 0; i < fl->element_count; i++) {
			size_t e = fl->elements[i], seg = segment_of[e];
			struct tomo_suspect *s;

			if (seg == SIZE_MAX || lead[seg] != lead[k] || placed[e])
				continue;
			placed[e] = true;
			s = &segs[seg].s;
			s->elements[s->element_count++] = e;
		}
	}
	free(walked);
	free(lead);
	free(placed);
	return 0;
fail:
	free(walked);
	free(lead);
	free(placed);
	return -1;
}

/* Two passes over the paths: how many flows each element carries, then
 * the flows themselves (in flow order, so a loop's repeat is the entry
 * just written). */
static int state_init(struct state *st, const struct tomo_flow *flows,
		      size_t flow_count, size_t element_count,
		      struct tomo_result *out)
{
	size_t *fill_fail = NULL, *fill_pass = NULL;
	int rc = -1;

	st->fail_at = calloc(element_count + 1, sizeof(size_t));
	st->pass_at = calloc(element_count + 1, sizeof(size_t));
	st->hash = calloc(element_count + 1, sizeof(uint64_t));
	fill_fail = calloc(element_count + 1, sizeof(size_t));
	fill_pass = calloc(element_count + 1, sizeof(size_t));
	if (!st->fail_at || !st->pass_at || !st->hash || !fill_fail ||
	    !fill_pass)
		goto out;
	for (size_t f = 0; f < flow_count; f++) {
		const struct tomo_flow *fl = &flows[f];

		if (fl->failing)
			out->failing++;
		else
			out->passing++;
		if (!fl->traced) {
			out->failing_untraced += fl->failing;
			continue;
		}
		for (size_t k = 0; k < fl->element_count; k++) {
			if (fl->elements[k] >= element_count)
				goto out;
			/* An upper bound: a loop counts twice here. */
			(fl->failing ? st->fail_at : st->pass_at)
				[fl->elements[k] + 1]++;
		}
	}
	for (size_t e = 0; e < element_count; e++) {
		st->fail_at[e + 1] += st->fail_at[e];
		st->pass_at[e + 1] += st->pass_at[e];
	}
	st->fail = calloc(st->fail_at[element_count] + 1, sizeof(size_t));
	st->pass = calloc(st->pass_at[element_count] + 1, sizeof(size_t));
	if (!st->fail || !st->pass)
		goto out;
	for (size_t f = 0; f < flow_count; f++) {
		const struct tomo_flow *fl = &flows[f];

		for (size_t k = 0; fl->traced && k < fl->element_count; k++) {
			size_t e = fl->elements[k];
			size_t *at = fl->failing ? st->fail_at : st->pass_at;
			size_t *fill = fl->failing ? fill_fail : fill_pass;
			size_t *list = fl->failing ? st->fail : st->pass;

			if (fill[e] && list[at[e] + fill[e] - 1] == f)
				continue;	/* a loop: once per flow */
			list[at[e] + fill[e]++] = f;
		}
	}
	/* Close the gaps that loops left: each element's list moves down
	 * to where the previous one ends. */
	for (int side = 0; side < 2; side++) {
		size_t *at = side ? st->pass_at : st->fail_at;
		size_t *fill = side ? fill_pass : fill_fail;
		size_t *list = side ? st->pass : st->fail, end = 0;

		for (size_t e = 0; e < element_count; e++) {
			memmove(list + end, list + at[e], fill[e] * sizeof(size_t));
			at[e] = end;
			end += fill[e];
		}
		at[element_count] = end;
	}
	rc = 0;
out:
	free(fill_fail);
	free(fill_pass);
	return rc;
}

static void state_free(struct state *st)
{
	free(st->fail);
	free(st->pass);
	free(st->fail_at);
	free(st->pass_at);
	free(st->hash);
}

/* Elements on some failing flow, grouped by their two sets. */
static int segments_build(struct state *st, const struct tomo_flow *flows,
			  size_t element_count,
			  struct segment **segs_out, size_t *count_out)
{
	size_t *order = calloc(element_count ? element_count : 1,
			       sizeof(size_t));
	size_t *segment_of = calloc(element_count ? element_count : 1,
				    sizeof(size_t));
	struct segment *segs = NULL;
	size_t n = 0, count = 0, *members = NULL;
	int rc = -1;

	if (!order || !segment_of)
		goto out;
	for (size_t e = 0; e < element_count; e++) {
		segment_of[e] = SIZE_MAX;
		if (!fail_count(st, e))
			continue;
		st->hash[e] = sets_hash(st, e);
		order[n++] = e;
	}
	qsort_r(order, n, sizeof(*order), by_hash, st);
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
		s->s.failing = fail_count(st, e);
		s->s.passing = pass_count(st, e);
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
	/* Each segment's size (its members, counted once each), then its
	 * order along its first failing flow. */
	members = calloc(count ? count : 1, sizeof(*members));
	if (!members)
		goto out;
	for (size_t i = 0; i < n; i++)
		members[segment_of[order[i]]]++;
	for (size_t k = 0; k < count; k++) {
		segs[k].s.elements = calloc(members[k], sizeof(size_t));
		if (!segs[k].s.elements)
			goto out;
	}
	if (segments_order(st, flows, segs, count, segment_of, element_count))
		goto out;
	for (size_t k = 0; k < count; k++)
		segs[k].first = segs[k].s.elements[0];
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
	free(members);
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
	bool *open = NULL;	/* failing traced flows not yet explained */
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (state_init(&st, flows, flow_count, element_count, out) ||
	    segments_build(&st, flows, element_count, &segs, &seg_count))
		goto out;
	open = calloc(flow_count ? flow_count : 1, sizeof(*open));
	if (!open)
		goto out;
	for (size_t f = 0; f < flow_count; f++)
		open[f] = flows[f].failing && flows[f].traced;
	for (;;) {
		struct segment *best = NULL;
		size_t best_explains = 0;
		struct tomo_suspect *items;

		for (size_t k = 0; k < seg_count; k++) {
			struct segment *s = &segs[k];
			size_t explains = 0;

			if (s->taken || !qualifies(s))
				continue;
			for (size_t k2 = st.fail_at[s->first];
			     k2 < st.fail_at[s->first + 1]; k2++)
				explains += open[st.fail[k2]];
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
		for (size_t k = st.fail_at[best->first];
		     k < st.fail_at[best->first + 1]; k++)
			open[st.fail[k]] = false;
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
