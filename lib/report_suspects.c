/* Suspects of a fabric report: greedy choice of the node whose column,
 * row or both explain the most failing pairs still unexplained. Counts
 * per row and column are kept up to date as suspects are chosen, so a
 * fabric of thousands of hosts costs one pass over its cells, once for
 * the counts and once per chosen axis. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report_suspects.h"

/* One row or column of the matrix. */
struct tally {
	struct report_suspect_axis axis;
	size_t unexplained;	/* failing and no suspect explains it */
	size_t picked;		/* the suspect it belongs to; SIZE_MAX: none */
};

struct state {
	const struct report *r;
	struct tally *rows, *cols;
};

/* One node as a candidate, as it stands now. */
struct candidate {
	const struct report_node *node;
	enum report_suspect_kind kind;
	size_t explained;
	size_t failing, probed;	/* over its axes, for the tie-break */
};

const char *report_suspect_kind_name(enum report_suspect_kind kind)
{
	static const char *const names[] = {
		[REPORT_SUSPECT_HOST] = "host",
		[REPORT_SUSPECT_DESTINATION] = "destination",
		[REPORT_SUSPECT_SOURCE] = "source",
	};

	return kind < REPORT_SUSPECT_KIND_COUNT ? names[kind] : "?";
}

/* A pair says something about its ends only when they are two: a host's
 * probe of itself is left out. */
static const struct report_cell *pair(const struct report *r, size_t i,
				      size_t j)
{
	const struct report_cell *c = report_cell(r, i, j);

	return c->probed && r->rows[i] != r->cols[j] ? c : NULL;
}

static bool failing(const struct report_cell *c)
{
	return c && c->status != REPORT_REACHABLE;
}

static void count(struct state *st)
{
	const struct report *r = st->r;

	for (size_t i = 0; i < r->row_count; i++)
		for (size_t j = 0; j < r->col_count; j++) {
			const struct report_cell *c = pair(r, i, j);
			struct tally *t[2] = { &st->rows[i], &st->cols[j] };

			if (!c)
				continue;
			for (int k = 0; k < 2; k++) {
				t[k]->axis.probed++;
				if (!failing(c))
					continue;
				t[k]->axis.failing++;
				t[k]->axis.status[c->status]++;
				t[k]->unexplained++;
			}
		}
}

/* Thresholds of report_suspects.h, on what no stronger suspect explains:
 * the pairs it explains count against those that work. */
static bool qualifies(const struct tally *t)
{
	size_t open = t->axis.probed - t->axis.elsewhere;

	return t->picked == SIZE_MAX &&
	       t->axis.probed >= REPORT_SUSPECT_MIN_PROBED &&
	       t->unexplained &&
	       t->unexplained * 100 >= open * REPORT_SUSPECT_MIN_SHARE_PCT;
}

/* The node as it stands: a host when both its axes qualify (said once),
 * else the axis that does; false when neither, or too few pairs. */
static bool evaluate(const struct state *st, const struct report_node *n,
		     struct candidate *c)
{
	const struct tally *row = n->row >= 0 ? &st->rows[n->row] : NULL;
	const struct tally *col = n->col >= 0 ? &st->cols[n->col] : NULL;
	bool rq = row && qualifies(row), cq = col && qualifies(col);

	if (!rq && !cq)
		return false;
	c->node = n;
	c->kind = rq && cq ? REPORT_SUSPECT_HOST
		: cq ? REPORT_SUSPECT_DESTINATION : REPORT_SUSPECT_SOURCE;
	c->explained = c->failing = c->probed = 0;
	if (cq) {
		c->explained += col->unexplained;
		c->failing += col->axis.failing;
		c->probed += col->axis.probed;
	}
	if (rq) {
		c->explained += row->unexplained;
		c->failing += row->axis.failing;
		c->probed += row->axis.probed;
	}
	return c->explained >= REPORT_SUSPECT_MIN_EXPLAINED;
}

static const char *node_name(const struct report_node *n,
			     enum report_suspect_kind kind)
{
	if (kind == REPORT_SUSPECT_DESTINATION || !n->source_name)
		return n->dest_name;
	return n->source_name;
}

/* Is a stronger than b? More pairs explained; then the larger share of
 * its pairs failing; then a host before one axis; then by name, so that
 * the order never depends on the order of the inputs. */
static bool stronger(const struct candidate *a, const struct candidate *b)
{
	unsigned long long sa = (unsigned long long)a->failing * b->probed;
	unsigned long long sb = (unsigned long long)b->failing * a->probed;
	int c;

	if (a->explained != b->explained)
		return a->explained > b->explained;
	if (sa != sb)
		return sa > sb;
	if (a->kind != b->kind)
		return a->kind < b->kind;
	c = strverscmp(node_name(a->node, a->kind), node_name(b->node, b->kind));
	return c ? c < 0 : strcmp(a->node->key, b->node->key) < 0;
}

/* One more failing pair of s that the suspect "by" explained first. */
static int other_add(struct report_suspect *s, size_t by)
{
	struct report_suspect_other *o;

	for (size_t k = 0; k < s->other_count; k++)
		if (s->others[k].suspect == by) {
			s->others[k].pairs++;
			return 0;
		}
	o = realloc(s->others, (s->other_count + 1) * sizeof(*o));
	if (!o)
		return -1;
	s->others = o;
	s->others[s->other_count++] = (struct report_suspect_other){ by, 1 };
	return 0;
}

/* Row i goes to suspect index: each failing pair of it is credited to the
 * suspect that took its column before, else it is now explained and its
 * column counts it as explained elsewhere. take_col: the same by column. */
static int take_row(struct state *st, size_t i, size_t index,
		    struct report_suspect *s)
{
	const struct report *r = st->r;

	st->rows[i].picked = index;
	for (size_t j = 0; j < r->col_count; j++) {
		struct tally *col = &st->cols[j];

		if (!failing(pair(r, i, j)))
			continue;
		if (col->picked != SIZE_MAX && col->picked != index) {
			if (other_add(s, col->picked))
				return -1;
		} else if (col->picked == SIZE_MAX) {
			col->unexplained--;
			col->axis.elsewhere++;
		}
	}
	return 0;
}

static int take_col(struct state *st, size_t j, size_t index,
		    struct report_suspect *s)
{
	const struct report *r = st->r;

	st->cols[j].picked = index;
	for (size_t i = 0; i < r->row_count; i++) {
		struct tally *row = &st->rows[i];

		if (!failing(pair(r, i, j)))
			continue;
		if (row->picked != SIZE_MAX && row->picked != index) {
			if (other_add(s, row->picked))
				return -1;
		} else if (row->picked == SIZE_MAX) {
			row->unexplained--;
			row->axis.elsewhere++;
		}
	}
	return 0;
}

static int take(struct state *st, struct report_suspects *out,
		const struct candidate *c)
{
	struct report_suspect *s, *items;
	size_t index = out->count;

	items = realloc(out->items, (out->count + 1) * sizeof(*items));
	if (!items)
		return -1;
	out->items = items;
	s = &items[out->count++];
	memset(s, 0, sizeof(*s));
	s->kind = c->kind;
	s->node = c->node;
	s->name = node_name(c->node, c->kind);
	s->explained = c->explained;
	/* Ranks on pairs explained alone: the greedy order never raises
	 * them, so equal counts are neighbours. */
	s->rank = index && items[index - 1].explained == s->explained
			  ? items[index - 1].rank : index + 1;
	s->as_destination = c->kind != REPORT_SUSPECT_SOURCE;
	s->as_source = c->kind != REPORT_SUSPECT_DESTINATION;
	out->explained += c->explained;
	/* The evidence as it stood when it was chosen. */
	if (s->as_destination) {
		s->destination = st->cols[c->node->col].axis;
		if (take_col(st, (size_t)c->node->col, index, s))
			return -1;
	}
	if (s->as_source) {
		s->source = st->rows[c->node->row].axis;
		if (take_row(st, (size_t)c->node->row, index, s))
			return -1;
	}
	return 0;
}

int report_suspects_find(struct report_suspects *s, const struct report *r)
{
	struct state st = { .r = r };
	int rc = 0;

	memset(s, 0, sizeof(*s));
	st.rows = calloc(r->row_count ? r->row_count : 1, sizeof(*st.rows));
	st.cols = calloc(r->col_count ? r->col_count : 1, sizeof(*st.cols));
	if (!st.rows || !st.cols) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < r->row_count; i++)
		st.rows[i].picked = SIZE_MAX;
	for (size_t j = 0; j < r->col_count; j++)
		st.cols[j].picked = SIZE_MAX;
	count(&st);
	for (size_t j = 0; j < r->col_count; j++)
		s->failing += st.cols[j].axis.failing;
	/* Each round takes the strongest candidate; a node's counts only
	 * fall as others are taken, so a node is taken at most once and
	 * every round explains at least MIN_EXPLAINED more pairs. */
	for (;;) {
		struct candidate best = { 0 }, c;
		bool found = false;

		for (size_t k = 0; k < r->node_count; k++)
			if (evaluate(&st, &r->nodes[k], &c) &&
			    (!found || stronger(&c, &best))) {
				best = c;
				found = true;
			}
		if (!found)
			break;
		if (take(&st, s, &best)) {
			rc = -1;
			break;
		}
	}
out:
	free(st.rows);
	free(st.cols);
	if (rc)
		report_suspects_free(s);
	return rc;
}

void report_suspects_free(struct report_suspects *s)
{
	for (size_t k = 0; k < s->count; k++)
		free(s->items[k].others);
	free(s->items);
	memset(s, 0, sizeof(*s));
}
