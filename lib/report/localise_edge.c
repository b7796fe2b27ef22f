/* Hosts behind an edge router that answers no trace (localise_model.h
 * loc_group_silent_edges): the model has no element for a router no
 * trace shows, so when such a router drops what it carries, the fit
 * names each host behind it. Those host suspects, alike, are one
 * suspect: the edge they share, or each host. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/localise_model.h"

/* At least this many hosts before they are taken for one edge: two
 * hosts failing alike may be two faults. */
#define EDGE_GROUP_MIN 3
/* A host joins when its loss rate is at least this share of the
 * strongest one's: one cause loses about alike for all. */
#define EDGE_RATE_SHARE 0.5
/* Hosts named in the reason; the JSON lists every one. */
#define EDGE_NAMES_SHOWN 4

/* A host suspect that probed (so it is up: a dead host's edge goes
 * unseen because it answers nothing) and whose edge no trace shows. */
static bool groupable(const struct model *m, const struct localise_suspect *s)
{
	return s->cause == LOCALISE_LOSS && strcmp(s->kind, "host") == 0 &&
	       s->address && strmap_get(&m->hosts, s->address) &&
	       !loc_edge_seen(m, s->address);
}

/* The reason of a group: its hosts, their loss rates. */
static char *group_reason(const struct localise *l, const bool *in, size_t n,
			  double low, double high)
{
	char *text = NULL;
	size_t len = 0, shown = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	fprintf(f, "%zu hosts whose edge router answers no trace (", n);
	for (size_t k = 0; k < l->count; k++) {
		if (!in[k])
			continue;
		if (shown < EDGE_NAMES_SHOWN)
			fprintf(f, "%s%s", shown ? ", " : "", l->items[k].name);
		shown++;
	}
	if (n > EDGE_NAMES_SHOWN)
		fprintf(f, " and %zu more", n - EDGE_NAMES_SHOWN);
	fprintf(f, ") lose alike, %.1f%% to %.1f%% of their datagrams to and "
		"from their peers: the edge router they share, or its links "
		"(it never answers traces, so its address is not known), "
		"or each host", 100 * low, 100 * high);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

int loc_group_silent_edges(const struct model *m, struct localise *l)
{
	size_t strongest = SIZE_MAX, first = SIZE_MAX, n = 0, kept = 0;
	double low = 1, high = 0;
	struct localise_suspect *g;
	bool *in;

	for (size_t k = 0; k < l->count; k++)
		if (groupable(m, &l->items[k]) &&
		    (strongest == SIZE_MAX ||
		     l->items[k].loss_rate > l->items[strongest].loss_rate))
			strongest = k;
	if (strongest == SIZE_MAX)
		return 0;
	in = calloc(l->count, sizeof(*in));
	if (!in)
		return -1;
	for (size_t k = 0; k < l->count; k++) {
		const struct localise_suspect *s = &l->items[k];

		if (!groupable(m, s) || s->loss_rate < EDGE_RATE_SHARE *
					       l->items[strongest].loss_rate)
			continue;
		in[k] = true;
		n++;
		low = s->loss_rate < low ? s->loss_rate : low;
		high = s->loss_rate > high ? s->loss_rate : high;
	}
	if (n < EDGE_GROUP_MIN) {
		free(in);
		return 0;
	}
	/* The group takes the place of its first-ranked member. */
	for (size_t k = 0; first == SIZE_MAX && k < l->count; k++)
		if (in[k])
			first = k;
	g = &l->items[first];
	g->members = calloc(n, sizeof(*g->members));
	if (!g->members) {
		free(in);
		return -1;
	}
	for (size_t k = 0; k < l->count; k++) {
		const struct localise_suspect *s = &l->items[k];

		if (!in[k])
			continue;
		g->members[g->member_count] = strdup(s->address);
		if (!g->members[g->member_count++]) {
			free(in);
			return -1;
		}
		if (k == first)
			continue;
		g->failing += s->failing;
		g->passing += s->passing;
		g->explained += s->explained;
		g->llr += s->llr;
	}
	free(g->reason);
	g->reason = group_reason(l, in, n, low, high);
	free(g->name);
	g->name = NULL;
	if (!g->reason || asprintf(&g->name, "edge of %s", g->address) < 0) {
		g->name = NULL;
		free(in);
		return -1;
	}
	g->kind = "hop";
	g->cause = LOCALISE_UNSEEN;
	free(g->address);
	g->address = NULL;
	for (size_t k = 0; k < l->count; k++) {
		if (in[k] && k != first) {
			loc_suspect_free(&l->items[k]);
			continue;
		}
		l->items[kept++] = l->items[k];
	}
	l->count = kept;
	free(in);
	return 0;
}
