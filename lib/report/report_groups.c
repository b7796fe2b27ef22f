/* Folding the report matrix into group x group blocks (report --groups).
 * One pass assigns every node (row, column or both) a group; a second
 * walks each block's cells once to count them and take their median RTT.
 * Linear in the cells, plus a sort of each block's medians. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_groups.h"

/* The file's group of node n: by the host it probed from, its address
 * (a destination that never probed), or a text probers gave for it. */
static long node_file_group(const struct host_groups *hg,
			    const struct report_node *n)
{
	long g = -1;

	if (n->host)
		g = host_groups_find(hg, n->host);
	if (g < 0 && n->addr)
		g = host_groups_find(hg, n->addr);
	for (size_t i = 0; g < 0 && i < n->dest_texts.count; i++)
		g = host_groups_find(hg, n->dest_texts.items[i]);
	return g;
}

/* The name an ungrouped node's group takes: its host, so two devices of
 * one unlisted host share one group, else the destination's name. */
static const char *node_own_name(const struct report_node *n)
{
	if (n->host)
		return n->host;
	if (n->dest_name)
		return n->dest_name;
	return n->source_name ? n->source_name : n->key;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_str_index(const void *a, const void *b, void *names)
{
	const char *const *n = names;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(n[x], n[y]);

	return c ? c : (x > y) - (x < y);
}

static int fold_block(struct report_block *b, const struct report *r,
		      const struct report_group *src,
		      const struct report_group *dst, double *scratch)
{
	size_t n = 0;

	for (size_t i = 0; i < src->row_count; i++)
		for (size_t j = 0; j < dst->col_count; j++) {
			const struct report_cell *c =
				report_cell(r, src->rows[i], dst->cols[j]);

			if (!c->probed)
				continue;
			b->pairs++;
			b->status[c->status]++;
			b->remarked += c->tclass_remarked;
			if (c->has_rtt)
				scratch[n++] = c->rtt_median_us;
		}
	if (n) {
		qsort(scratch, n, sizeof(*scratch), cmp_double);
		b->has_rtt = true;
		b->rtt_median_us = n % 2 ? scratch[n / 2]
					 : (scratch[n / 2 - 1] +
					    scratch[n / 2]) / 2;
	}
	return 0;
}

static int add_member(size_t **list, size_t *count, size_t index)
{
	size_t *grown = realloc(*list, (*count + 1) * sizeof(**list));

	if (!grown)
		return -1;
	grown[(*count)++] = index;
	*list = grown;
	return 0;
}

/* id_of's mark of a file group that some node belongs to, before the
 * groups so marked are numbered. */
#define HOLDS_A_NODE (SIZE_MAX - 1)

/* Group ids per node: the file's groups that hold a node keep the file's
 * order; ungrouped hosts follow, one group per distinct host name. */
static int assign(struct report_grouping *g, const struct report *r,
		  const struct host_groups *hg, size_t *group_of)
{
	size_t file_groups = hg ? hg->group_count : 1;
	size_t *id_of = malloc((file_groups + 1) * sizeof(*id_of));
	size_t *alone = malloc((r->node_count + 1) * sizeof(*alone));
	const char **alone_name = malloc((r->node_count + 1) *
					 sizeof(*alone_name));
	size_t alone_count = 0, used = 0, *order = NULL, *run_group = NULL;
	long *file_group = malloc((r->node_count + 1) * sizeof(*file_group));
	int rc = -1;

	if (!id_of || !alone || !alone_name || !file_group)
		goto out;
	for (size_t k = 0; k < file_groups; k++)
		id_of[k] = SIZE_MAX;
	for (size_t k = 0; k < r->node_count; k++) {
		file_group[k] = hg ? node_file_group(hg, &r->nodes[k]) : 0;
		if (file_group[k] >= 0)
			id_of[file_group[k]] = HOLDS_A_NODE;
		else
			alone_name[alone_count++] = node_own_name(&r->nodes[k]);
	}
	for (size_t k = 0; k < file_groups; k++)
		if (id_of[k] == HOLDS_A_NODE)
			id_of[k] = used++;
	/* Unlisted hosts by name, each name once, in first-node order. */
	order = malloc((alone_count + 1) * sizeof(*order));
	if (!order)
		goto out;
	for (size_t k = 0; k < alone_count; k++)
		order[k] = k;
	qsort_r(order, alone_count, sizeof(*order), cmp_str_index,
		alone_name);
	{
		size_t distinct = 0;

		for (size_t k = 0; k < alone_count; k++)
			if (k == 0 || strcmp(alone_name[order[k]],
					     alone_name[order[k - 1]]))
				distinct++;
		g->count = used + distinct;
		g->ungrouped = distinct;
	}
	g->groups = calloc(g->count + 1, sizeof(*g->groups));
	if (!g->groups)
		goto out;
	for (size_t k = 0; k < file_groups; k++)
		if (id_of[k] != SIZE_MAX &&
		    !(g->groups[id_of[k]].name =
		      strdup(hg ? hg->group_names[k] : "all hosts")))
			goto out;
	/* alone[i]: the group of the i-th unlisted node. Runs of one name
	 * in the sorted order first, then numbered in the order their
	 * names first appear among the nodes. */
	run_group = malloc((g->ungrouped + 1) * sizeof(*run_group));
	if (!run_group)
		goto out;
	for (size_t s = 0, run = 0; s < alone_count; s++) {
		if (s && strcmp(alone_name[order[s]], alone_name[order[s - 1]]))
			run++;
		alone[order[s]] = run;
	}
	for (size_t k = 0; k < g->ungrouped; k++)
		run_group[k] = SIZE_MAX;
	for (size_t k = 0, next = used; k < alone_count; k++) {
		size_t run = alone[k];

		if (run_group[run] == SIZE_MAX) {
			run_group[run] = next++;
			g->groups[run_group[run]].ungrouped = true;
			if (!(g->groups[run_group[run]].name =
				      strdup(alone_name[k])))
				goto out;
		}
		alone[k] = run_group[run];
	}
	for (size_t k = 0, a = 0; k < r->node_count; k++)
		group_of[k] = file_group[k] >= 0 ? id_of[file_group[k]]
						 : alone[a++];
	rc = 0;
out:
	free(id_of);
	free(alone);
	free(alone_name);
	free(file_group);
	free(order);
	free(run_group);
	return rc;
}

int report_groups_build(struct report_grouping *g, const struct report *r,
			const struct host_groups *hg, char *err,
			size_t errlen)
{
	size_t *group_of = malloc((r->node_count + 1) * sizeof(*group_of));
	size_t *row_group = malloc((r->row_count + 1) * sizeof(*row_group));
	size_t *col_group = malloc((r->col_count + 1) * sizeof(*col_group));
	double *scratch = NULL;
	size_t largest = 0;

	memset(g, 0, sizeof(*g));
	if (!group_of || !row_group || !col_group ||
	    assign(g, r, hg, group_of))
		goto fail;
	for (size_t k = 0; k < r->node_count; k++) {
		const struct report_node *n = &r->nodes[k];

		if (n->row >= 0)
			row_group[n->row] = group_of[k];
		if (n->col >= 0)
			col_group[n->col] = group_of[k];
	}
	for (size_t i = 0; i < r->row_count; i++)
		if (add_member(&g->groups[row_group[i]].rows,
			       &g->groups[row_group[i]].row_count, i))
			goto fail;
	for (size_t j = 0; j < r->col_count; j++)
		if (add_member(&g->groups[col_group[j]].cols,
			       &g->groups[col_group[j]].col_count, j))
			goto fail;
	g->blocks = calloc(g->count * g->count + 1, sizeof(*g->blocks));
	for (size_t a = 0; a < g->count; a++)
		for (size_t b = 0; b < g->count; b++) {
			size_t n = g->groups[a].row_count *
				   g->groups[b].col_count;

			largest = n > largest ? n : largest;
		}
	scratch = malloc((largest + 1) * sizeof(*scratch));
	if (!g->blocks || !scratch)
		goto fail;
	for (size_t a = 0; a < g->count; a++)
		for (size_t b = 0; b < g->count; b++)
			fold_block(&g->blocks[a * g->count + b], r,
				   &g->groups[a], &g->groups[b], scratch);
	free(scratch);
	free(group_of);
	free(row_group);
	free(col_group);
	return 0;
fail:
	free(scratch);
	free(group_of);
	free(row_group);
	free(col_group);
	report_groups_free(g);
	snprintf(err, errlen, "out of memory folding the report into groups");
	errno = ENOMEM;
	return -1;
}

const struct report_block *report_groups_block(const struct report_grouping *g,
					       size_t src, size_t dst)
{
	return &g->blocks[src * g->count + dst];
}

int report_block_worst(const struct report_block *b)
{
	for (int s = REPORT_STATUS_COUNT - 1; s >= 0; s--)
		if (b->status[s])
			return s;
	return -1;
}

size_t report_block_failing(const struct report_block *b)
{
	return b->pairs - b->status[REPORT_REACHABLE];
}

void report_groups_free(struct report_grouping *g)
{
	for (size_t k = 0; g->groups && k < g->count; k++) {
		free(g->groups[k].name);
		free(g->groups[k].rows);
		free(g->groups[k].cols);
	}
	free(g->groups);
	free(g->blocks);
	memset(g, 0, sizeof(*g));
}
