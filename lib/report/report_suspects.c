/* Suspects of a fabric report: greedy choice of the node (or group of
 * nodes) whose columns, rows or both explain the most failing pairs still
 * unexplained. Counts
 * per row and column are kept up to date as suspects are chosen, so a
 * fabric of thousands of hosts costs one pass over its cells, once for
 * the counts and once per chosen axis. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_suspects.h"

/* One row or column of the matrix. */
struct tally {
	struct report_suspect_axis axis;
	size_t unexplained;	/* failing and no suspect explains it */
	size_t picked;		/* the suspect it belongs to; SIZE_MAX: none */
};

struct state {
	const struct report *r;
	const struct report_grouping *g;	/* NULL: no groups */
	struct tally *rows, *cols;
	size_t *row_group, *col_group;	/* index into g->groups */
	bool *group_cleared;	/* a member works toward the outside */
};

/* One node or group as a candidate, as it stands now. */
struct candidate {
	const struct report_node *node;	/* NULL: a group */
	size_t group;			/* index into g->groups */
	enum report_suspect_kind kind;
	size_t explained;
	size_t failing, probed;	/* over its axes, for the tie-break */
};

const char *report_suspect_kind_name(enum report_suspect_kind kind)
{
	static const char *const names[] = {
		[REPORT_SUSPECT_GROUP] = "group",
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

static bool takes_col(enum report_suspect_kind kind)
{
	return kind == REPORT_SUSPECT_HOST ||
	       kind == REPORT_SUSPECT_DESTINATION;
}

static bool takes_row(enum report_suspect_kind kind)
{
	return kind == REPORT_SUSPECT_HOST || kind == REPORT_SUSPECT_SOURCE;
}

/* The k-th node of a group: its rows' nodes, then the nodes of its
 * columns that are no row (a node's row and column share its group). */
static const struct report_node *member(const struct report *r,
					const struct report_group *grp,
					size_t k)
{
	const struct report_node *n;

	if (k < grp->row_count)
		return r->rows[grp->rows[k]];
	for (size_t j = 0; j < grp->col_count; j++) {
		n = r->cols[grp->cols[j]];
		if (n->row < 0 && k-- == grp->row_count)
			return n;
	}
	return NULL;
}

static size_t member_count(const struct report_group *grp,
			   const struct report *r)
{
	size_t n = grp->row_count;

	for (size_t j = 0; j < grp->col_count; j++)
		n += r->cols[grp->cols[j]]->row < 0;
	return n;
}

/* Does n fail toward the rest of the fabric, not only toward other
 * members of group a (a member that fails only to the members that are
 * down is no part of the fault)? qualifies() over the pairs of its row,
 * then of its column, whose other end is outside the group. */
static bool fails_outside(const struct state *st, const struct report_node *n,
			  size_t a)
{
	const struct report *r = st->r;

	for (int axis = 0; axis < 2; axis++) {
		bool by_row = axis == 0;
		int at = by_row ? n->row : n->col;
		size_t len = by_row ? r->col_count : r->row_count;
		size_t probed = 0, open_failing = 0, elsewhere = 0;

		if (at < 0 ||
		    (by_row ? st->rows : st->cols)[at].picked != SIZE_MAX)
			continue;
		for (size_t k = 0; k < len; k++) {
			const struct report_cell *c;
			bool other_picked;

			if ((by_row ? st->col_group : st->row_group)[k] == a)
				continue;
			c = by_row ? pair(r, (size_t)at, k) : pair(r, k, (size_t)at);
			if (!c)
				continue;
			probed++;
			other_picked = (by_row ? st->cols : st->rows)[k].picked !=
				       SIZE_MAX;
			if (failing(c) && other_picked)
				elsewhere++;
			else if (failing(c))
				open_failing++;
		}
		if (probed >= REPORT_SUSPECT_MIN_PROBED && open_failing &&
		    open_failing * 100 >=
			    (probed - elsewhere) * REPORT_SUSPECT_MIN_SHARE_PCT)
			return true;
	}
	return false;
}

/* A group as it stands: every member a suspect of its own and failing
 * toward the outside (a group with one working member is no rack fault),
 * at least two members, and the pairs among members counted once. */
static bool evaluate_group(struct state *st, size_t a, struct candidate *c)
{
	const struct report *r = st->r;
	const struct report_group *grp = &st->g->groups[a];
	size_t count = member_count(grp, r);
	struct candidate m;

	if (grp->ungrouped || count < 2 || st->group_cleared[a])
		return false;
	*c = (struct candidate){ .group = a, .kind = REPORT_SUSPECT_GROUP };
	for (size_t k = 0; k < count; k++) {
		if (!evaluate(st, member(r, grp, k), &m))
			return false;
		c->explained += m.explained;
		c->failing += m.failing;
		c->probed += m.probed;
	}
	/* Counts only fall: a group cleared stays cleared. */
	for (size_t k = 0; k < count; k++)
		if (!fails_outside(st, member(r, grp, k), a)) {
			st->group_cleared[a] = true;
			return false;
		}
	/* A failing pair between two members is in a row and a column that
	 * both count it. */
	for (size_t k = 0; k < grp->row_count; k++) {
		const struct report_node *src = r->rows[grp->rows[k]];

		evaluate(st, src, &m);
		if (!takes_row(m.kind))
			continue;
		for (size_t j = 0; j < grp->col_count; j++) {
			const struct report_node *dst = r->cols[grp->cols[j]];
			struct candidate d;

			evaluate(st, dst, &d);
			if (takes_col(d.kind) &&
			    failing(pair(r, grp->rows[k], grp->cols[j])))
				c->explained--;
		}
	}
	return true;
}

static const char *node_name(const struct report_node *n,
			     enum report_suspect_kind kind)
{
	if (kind == REPORT_SUSPECT_DESTINATION || !n->source_name)
		return n->dest_name;
	return n->source_name;
}

static const char *candidate_name(const struct state *st,
				  const struct candidate *c)
{
	return c->node ? node_name(c->node, c->kind)
		       : st->g->groups[c->group].name;
}

/* Is a stronger than b? More pairs explained; then the larger share of
 * its pairs failing; then a group before a host before one axis; then by
 * name, so that the order never depends on the order of the inputs. */
static bool stronger(const struct state *st, const struct candidate *a,
		     const struct candidate *b)
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
	c = strverscmp(candidate_name(st, a), candidate_name(st, b));
	if (c || !a->node || !b->node)
		return c < 0;
	return strcmp(a->node->key, b->node->key) < 0;
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

static void axis_add(struct report_suspect_axis *sum,
		     const struct report_suspect_axis *a)
{
	sum->probed += a->probed;
	sum->failing += a->failing;
	sum->elsewhere += a->elsewhere;
	for (int k = 0; k < REPORT_STATUS_COUNT; k++)
		sum->status[k] += a->status[k];
}

/* A node's axes go to suspect index, after its evidence is added to s's
 * as it stands (a group adds all its members' before taking any). */
static void node_evidence(const struct state *st, const struct report_node *n,
			  enum report_suspect_kind kind,
			  struct report_suspect *s)
{
	if (takes_col(kind))
		axis_add(&s->destination, &st->cols[n->col].axis);
	if (takes_row(kind))
		axis_add(&s->source, &st->rows[n->row].axis);
}

static int node_take(struct state *st, const struct report_node *n,
		     enum report_suspect_kind kind, size_t index,
		     struct report_suspect *s)
{
	if (takes_col(kind) && take_col(st, (size_t)n->col, index, s))
		return -1;
	if (takes_row(kind) && take_row(st, (size_t)n->row, index, s))
		return -1;
	return 0;
}

/* A group's members and their kinds, as they stand before it is taken. */
static int group_members(const struct state *st, const struct candidate *c,
			 struct report_suspect *s)
{
	const struct report_group *grp = &st->g->groups[c->group];
	size_t count = member_count(grp, st->r);

	s->members = calloc(count, sizeof(*s->members));
	s->member_kinds = calloc(count, sizeof(*s->member_kinds));
	if (!s->members || !s->member_kinds)
		return -1;
	for (size_t k = 0; k < count; k++) {
		struct candidate m;

		s->members[k] = member(st->r, grp, k);
		evaluate(st, s->members[k], &m);
		s->member_kinds[k] = m.kind;
	}
	s->member_count = count;
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
	s->name = candidate_name(st, c);
	s->explained = c->explained;
	/* Ranks on pairs explained alone: the greedy order never raises
	 * them, so equal counts are neighbours. */
	s->rank = index && items[index - 1].explained == s->explained
			  ? items[index - 1].rank : index + 1;
	out->explained += c->explained;
	if (c->node) {
		s->as_destination = takes_col(c->kind);
		s->as_source = takes_row(c->kind);
		node_evidence(st, c->node, c->kind, s);
		return node_take(st, c->node, c->kind, index, s);
	}
	if (group_members(st, c, s))
		return -1;
	/* The evidence as it stood when it was chosen: taking one member
	 * changes the counts of the next. */
	for (size_t k = 0; k < s->member_count; k++) {
		s->as_destination |= takes_col(s->member_kinds[k]);
		s->as_source |= takes_row(s->member_kinds[k]);
		node_evidence(st, s->members[k], s->member_kinds[k], s);
	}
	for (size_t k = 0; k < s->member_count; k++)
		if (node_take(st, s->members[k], s->member_kinds[k], index, s))
			return -1;
	return 0;
}

/* Which group each row and column is in. */
static int group_index(struct state *st)
{
	const struct report *r = st->r;
	const struct report_grouping *g = st->g;

	st->row_group = calloc(r->row_count ? r->row_count : 1,
			       sizeof(*st->row_group));
	st->col_group = calloc(r->col_count ? r->col_count : 1,
			       sizeof(*st->col_group));
	st->group_cleared = calloc(g->count, sizeof(*st->group_cleared));
	if (!st->row_group || !st->col_group || !st->group_cleared)
		return -1;
	for (size_t i = 0; i < r->row_count; i++)
		st->row_group[i] = SIZE_MAX;
	for (size_t j = 0; j < r->col_count; j++)
		st->col_group[j] = SIZE_MAX;
	for (size_t a = 0; a < g->count; a++) {
		for (size_t k = 0; k < g->groups[a].row_count; k++)
			st->row_group[g->groups[a].rows[k]] = a;
		for (size_t k = 0; k < g->groups[a].col_count; k++)
			st->col_group[g->groups[a].cols[k]] = a;
	}
	return 0;
}

int report_suspects_find(struct report_suspects *s, const struct report *r,
			 const struct report_grouping *g)
{
	struct state st = { .r = r, .g = g && g->count >= 2 ? g : NULL };
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
	if (st.g && group_index(&st)) {
		rc = -1;
		goto out;
	}
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
			    (!found || stronger(&st, &c, &best))) {
				best = c;
				found = true;
			}
		for (size_t a = 0; st.g && a < st.g->count; a++)
			if (evaluate_group(&st, a, &c) &&
			    (!found || stronger(&st, &c, &best))) {
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
	free(st.row_group);
	free(st.col_group);
	free(st.group_cleared);
	if (rc)
		report_suspects_free(s);
	return rc;
}

void report_suspects_free(struct report_suspects *s)
{
	for (size_t k = 0; k < s->count; k++) {
		free(s->items[k].others);
		free(s->items[k].members);
		free(s->items[k].member_kinds);
	}
	free(s->items);
	memset(s, 0, sizeof(*s));
}
