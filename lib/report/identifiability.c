/* The groups of elements that the traces' path sets cannot separate
 * (see identifiability.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/identifiability.h"

/* The incidence matrix by columns: the flows of element e are
 * flow_of[start[e] .. start[e + 1] - 1], ascending, each once. */
struct columns {
	size_t *start, *flow_of;
	uint64_t *hash;
};

static void columns_free(struct columns *c)
{
	free(c->start);
	free(c->flow_of);
	free(c->hash);
}

/* Two passes over the paths: count, then fill. An element a path names
 * twice (a loop) is in that flow once. */
static int columns_build(struct columns *c, const struct report_traces *t,
			 size_t *flows)
{
	size_t n = t->element_count, *last, total = 0;

	memset(c, 0, sizeof(*c));
	c->start = calloc(n + 1, sizeof(*c->start));
	c->hash = calloc(n ? n : 1, sizeof(*c->hash));
	last = malloc((n ? n : 1) * sizeof(*last));
	if (!c->start || !c->hash || !last)
		goto fail;
	*flows = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t e = 0; e < n; e++)
			last[e] = SIZE_MAX;
		for (size_t f = 0; f < t->count; f++) {
			const struct report_trace_flow *fl = &t->flows[f];

			if (pass == 0 && fl->element_count)
				(*flows)++;
			for (size_t i = 0; i < fl->element_count; i++) {
				size_t e = fl->elements[i];

				if (e >= n || last[e] == f)
					continue;
				last[e] = f;
				if (pass == 0) {
					c->start[e + 1]++;
					total++;
				} else {
					c->flow_of[c->start[e]++] = f;
					/* FNV-1a over the flow numbers. */
					c->hash[e] = (c->hash[e] ^ f) *
						     0x100000001b3ull;
				}
			}
		}
		if (pass == 0) {
			for (size_t e = 0; e < n; e++)
				c->start[e + 1] += c->start[e];
			c->flow_of = malloc((total ? total : 1) *
					    sizeof(*c->flow_of));
			if (!c->flow_of)
				goto fail;
		} else {
			/* Filling moved each start to the next one's. */
			memmove(c->start + 1, c->start, n * sizeof(*c->start));
			c->start[0] = 0;
		}
	}
	free(last);
	return 0;
fail:
	free(last);
	columns_free(c);
	return -1;
}

static size_t column_len(const struct columns *c, size_t e)
{
	return c->start[e + 1] - c->start[e];
}

/* Columns in an order where equal ones are neighbours; ties by element,
 * so each group comes out ascending. */
static int column_cmp(const void *a, const void *b, void *ctx)
{
	const struct columns *c = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	size_t lx = column_len(c, x), ly = column_len(c, y);
	int d;

	if (c->hash[x] != c->hash[y])
		return c->hash[x] < c->hash[y] ? -1 : 1;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	d = memcmp(c->flow_of + c->start[x], c->flow_of + c->start[y],
		   lx * sizeof(*c->flow_of));
	if (d)
		return d;
	return x < y ? -1 : x > y;
}

static int column_same(const struct columns *c, size_t x, size_t y)
{
	return column_len(c, x) == column_len(c, y) &&
	       memcmp(c->flow_of + c->start[x], c->flow_of + c->start[y],
		      column_len(c, x) * sizeof(*c->flow_of)) == 0;
}

/* Per traced flow, whether it is the trace of a failing result. */
static unsigned char *failing_flows(const struct report *r,
				    const struct report_traces *t)
{
	unsigned char *failing = calloc(t->count ? t->count : 1, 1);
	struct report_trace_join local;
	const struct report_trace_join *join;

	if (!failing || !r || !r->record_count)
		return failing;
	join = report_traces_joined(t, r, &local);
	if (!join) {
		free(failing);
		return NULL;
	}
	for (size_t k = 0; k < r->record_count; k++)
		if (join->trace[k] &&
		    r->records[k]->status != REPORT_REACHABLE)
			failing[join->trace[k] - t->flows] = 1;
	report_trace_join_free(&local);
	return failing;
}

static size_t column_failing(const struct columns *c, size_t e,
			     const unsigned char *failing)
{
	size_t n = 0;

	for (size_t i = c->start[e]; i < c->start[e + 1]; i++)
		n += failing[c->flow_of[i]];
	return n;
}

static int group_by_first(const void *a, const void *b)
{
	const struct ident_group *x = a, *y = b;

	return x->elements[0] < y->elements[0] ? -1
	       : x->elements[0] > y->elements[0];
}

static int add_group(struct identifiability *id, const size_t *members,
		     size_t count, size_t flows, size_t failing)
{
	struct ident_group *g;

	g = reallocarray(id->groups, id->group_count + 1, sizeof(*g));
	if (!g)
		return -1;
	id->groups = g;
	g = &id->groups[id->group_count];
	g->elements = malloc(count * sizeof(*g->elements));
	if (!g->elements)
		return -1;
	memcpy(g->elements, members, count * sizeof(*members));
	g->count = count;
	g->flows = flows;
	g->failing = failing;
	id->group_count++;
	return 0;
}

int identifiability_find(struct identifiability *id, const struct report *r,
			 const struct report_traces *t)
{
	size_t n = t->element_count, *order = NULL;
	unsigned char *failing = NULL;
	struct columns c;
	int rc = -1;

	memset(id, 0, sizeof(*id));
	id->traces = t;
	if (columns_build(&c, t, &id->flows))
		return -1;
	order = malloc((n ? n : 1) * sizeof(*order));
	failing = failing_flows(r, t);
	if (!order || !failing)
		goto out;
	for (size_t e = 0; e < n; e++)
		if (column_len(&c, e))
			order[id->elements++] = e;
	qsort_r(order, id->elements, sizeof(*order), column_cmp, &c);
	for (size_t i = 0, j; i < id->elements; i = j) {
		for (j = i + 1; j < id->elements &&
				column_same(&c, order[i], order[j]); j++)
			;
		if (j - i == 1)
			id->separable++;
		else if (add_group(id, order + i, j - i,
				   column_len(&c, order[i]),
				   column_failing(&c, order[i], failing)))
			goto out;
	}
	if (id->group_count)
		qsort(id->groups, id->group_count, sizeof(*id->groups),
		      group_by_first);
	rc = 0;
out:
	free(order);
	free(failing);
	columns_free(&c);
	if (rc)
		identifiability_free(id);
	return rc;
}

void identifiability_free(struct identifiability *id)
{
	for (size_t g = 0; g < id->group_count; g++)
		free(id->groups[g].elements);
	free(id->groups);
	memset(id, 0, sizeof(*id));
}
