/* See report_baseline.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_baseline.h"
#include "base/strmap.h"

static const struct {
	const char *name, *word;
	bool regression;
} kinds[CHANGE_KIND_COUNT] = {
	[CHANGE_LOST] = { "lost", "LOST", true },
	[CHANGE_LOSS] = { "partial_loss", "LOSS", true },
	[CHANGE_REMARKED] = { "remarked", "REMARKED", true },
	[CHANGE_RTT] = { "rtt_regression", "RTT", true },
	[CHANGE_RECOVERED] = { "recovered", "RECOVERED", false },
	[CHANGE_LOSS_GONE] = { "loss_gone", "LOSS GONE", false },
	[CHANGE_UNREMARKED] = { "remarking_gone", "UNREMARKED", false },
	[CHANGE_HOPS] = { "hops", "HOPS", false },
	[CHANGE_NEW_PAIR] = { "new_pair", "NEW PAIR", false },
	[CHANGE_GONE_PAIR] = { "gone_pair", "GONE PAIR", false },
};

const char *report_change_name(enum report_change_kind kind)
{
	return kind < CHANGE_KIND_COUNT ? kinds[kind].name : "?";
}

const char *report_change_word(enum report_change_kind kind)
{
	return kind < CHANGE_KIND_COUNT ? kinds[kind].word : "?";
}

bool report_change_is_regression(enum report_change_kind kind)
{
	return kind < CHANGE_KIND_COUNT && kinds[kind].regression;
}

bool report_rtt_regressed(double old_us, double cur_us, double pct,
			  double floor_us)
{
	return cur_us - old_us > floor_us &&
	       cur_us > old_us * (1.0 + pct / 100.0);
}

/* Nothing answered: unreachable, or not probed at all (error). */
static bool lost(const struct report_cell *c)
{
	return c->status == REPORT_UNREACHABLE || c->status == REPORT_ERROR;
}

static bool lossy(const struct report_cell *c)
{
	return c->status == REPORT_PARTIAL;
}

static bool same_hops(const struct report_cell *a, const struct report_cell *b)
{
	if (!a->hop_count || !b->hop_count)
		return true;	/* unknown on one side: nothing to compare */
	if (a->hop_count != b->hop_count)
		return false;
	return memcmp(a->hops, b->hops, a->hop_count * sizeof(*a->hops)) == 0;
}

static int add(struct report_diff *d, enum report_change_kind kind,
	       const char *source, const char *destination,
	       const struct report_cell *old, const struct report_cell *cur)
{
	if (d->count == d->capacity) {
		size_t cap = d->capacity ? d->capacity * 2 : 64;
		struct report_change *grown =
			realloc(d->changes, cap * sizeof(*grown));

		if (!grown)
			return -1;
		d->changes = grown;
		d->capacity = cap;
	}
	d->changes[d->count++] = (struct report_change){
		kind, source, destination, old, cur,
	};
	d->kind_count[kind]++;
	d->regressions += report_change_is_regression(kind);
	return 0;
}

/* The changes of one pair probed in both runs. */
static int compare(struct report_diff *d, const char *source,
		   const char *destination, const struct report_cell *old,
		   const struct report_cell *cur)
{
	int rc = 0;

	if (!lost(old) && lost(cur))
		rc |= add(d, CHANGE_LOST, source, destination, old, cur);
	else if (lost(old) && !lost(cur))
		rc |= add(d, CHANGE_RECOVERED, source, destination, old, cur);
	else if (!lossy(old) && lossy(cur))
		rc |= add(d, CHANGE_LOSS, source, destination, old, cur);
	else if (lossy(old) && !lossy(cur) && !lost(cur))
		rc |= add(d, CHANGE_LOSS_GONE, source, destination, old, cur);
	if (!old->tclass_remarked && cur->tclass_remarked)
		rc |= add(d, CHANGE_REMARKED, source, destination, old, cur);
	else if (old->tclass_remarked && !cur->tclass_remarked && !lost(cur))
		rc |= add(d, CHANGE_UNREMARKED, source, destination, old, cur);
	if (old->has_rtt && cur->has_rtt &&
	    report_rtt_regressed(old->rtt_median_us, cur->rtt_median_us,
				 d->rtt_regression_pct, d->rtt_floor_us))
		rc |= add(d, CHANGE_RTT, source, destination, old, cur);
	if (!same_hops(old, cur))
		rc |= add(d, CHANGE_HOPS, source, destination, old, cur);
	return rc ? -1 : 0;
}

static char *pair_key(const char *source, const char *destination)
{
	char *key;

	if (asprintf(&key, "%zu:%s%s", strlen(source), source,
		     destination) < 0)
		return NULL;
	return key;
}

/* Regressions first, each kind together, pairs in their order within it:
 * a counting sort, stable. */
static int sort_by_kind(struct report_diff *d)
{
	struct report_change *sorted;
	size_t at[CHANGE_KIND_COUNT], next = 0;

	if (!d->count)
		return 0;
	sorted = malloc(d->count * sizeof(*sorted));
	if (!sorted)
		return -1;
	for (int k = 0; k < CHANGE_KIND_COUNT; k++) {
		at[k] = next;
		next += d->kind_count[k];
	}
	for (size_t i = 0; i < d->count; i++)
		sorted[at[d->changes[i].kind]++] = d->changes[i];
	free(d->changes);
	d->changes = sorted;
	d->capacity = d->count;
	return 0;
}

/* One entry per pair old probed: found again in cur or not. */
struct old_pair {
	const struct report_cell *cell;
	size_t row, col;
	bool matched;
};

int report_diff_build(const struct report *old, const struct report *cur,
		      double rtt_regression_pct, double rtt_floor_us,
		      struct report_diff *d)
{
	struct strmap index = { 0 };
	struct old_pair *pairs;
	size_t n = 0;
	int rc = 0;

	memset(d, 0, sizeof(*d));
	d->rtt_regression_pct = rtt_regression_pct;
	d->rtt_floor_us = rtt_floor_us;
	d->old_pairs = old->pairs;
	d->cur_pairs = cur->pairs;
	pairs = calloc(old->pairs ? old->pairs : 1, sizeof(*pairs));
	if (!pairs)
		return -1;
	for (size_t i = 0; i < old->row_count && rc == 0; i++)
		for (size_t j = 0; j < old->col_count && rc == 0; j++) {
			const struct report_cell *c = report_cell(old, i, j);
			char *key;
			void **slot;

			if (!c->probed)
				continue;
			key = pair_key(old->rows[i]->source_name,
				       old->cols[j]->dest_name);
			slot = key ? strmap_slot(&index, key) : NULL;
			free(key);
			if (!slot) {
				rc = -1;
				break;
			}
			pairs[n] = (struct old_pair){ c, i, j, false };
			*slot = &pairs[n++];
		}
	for (size_t i = 0; i < cur->row_count && rc == 0; i++)
		for (size_t j = 0; j < cur->col_count && rc == 0; j++) {
			const struct report_cell *c = report_cell(cur, i, j);
			const char *s = cur->rows[i]->source_name;
			const char *t = cur->cols[j]->dest_name;
			struct old_pair *p;
			char *key;

			if (!c->probed)
				continue;
			key = pair_key(s, t);
			if (!key) {
				rc = -1;
				break;
			}
			p = strmap_get(&index, key);
			free(key);
			if (!p) {
				rc = add(d, CHANGE_NEW_PAIR, s, t, NULL, c);
				continue;
			}
			p->matched = true;
			d->common_pairs++;
			rc = compare(d, s, t, p->cell, c);
		}
	for (size_t k = 0; k < n && rc == 0; k++)
		if (!pairs[k].matched)
			rc = add(d, CHANGE_GONE_PAIR,
				 old->rows[pairs[k].row]->source_name,
				 old->cols[pairs[k].col]->dest_name,
				 pairs[k].cell, NULL);
	strmap_free(&index);
	free(pairs);
	if (rc == 0)
		rc = sort_by_kind(d);
	if (rc)
		report_diff_free(d);
	return rc;
}

void report_diff_free(struct report_diff *d)
{
	free(d->changes);
	memset(d, 0, sizeof(*d));
}
