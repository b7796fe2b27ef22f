/* Hosts behind an edge router that answers no trace, or each host from
 * its own address that the folding could not join (localise_model.h
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

/* Whether router address r follows host address h alone in the traces
 * and is no alias of another: an edge router answering from its
 * interface towards each host (trace_aliases.h), which the folding could
 * not join to its others (it forwards too little for their next hops to
 * be seen), so each host's access link looks like one of its own. */
static bool faces_host_alone(const struct report_traces *t, const char *h,
			     const char *r)
{
	size_t e = report_traces_element_find(t, REPORT_PATH_ROUTER, r);

	if (e == SIZE_MAX || t->elements[e].alias_count)
		return false;
	for (size_t i = 0; i < t->element_count; i++) {
		const struct report_path_element *x = &t->elements[i];

		if (x->kind == REPORT_PATH_LINK && strcmp(x->to, r) == 0 &&
		    strcmp(x->from, h) != 0)
			return false;
	}
	return true;
}

/* The host address a suspect stands for at an edge, or NULL: a host
 * suspect that probed (so it is up: a dead host's edge goes unseen
 * because it answers nothing) and whose edge no trace shows; or the
 * access link of such a host into a router address that faces it alone
 * (faces_host_alone). */
static const char *edge_host(const struct model *m,
			     const struct localise_suspect *s)
{
	const struct report_traces *t = m->t;
	size_t e;

	if (s->cause != LOCALISE_LOSS)
		return NULL;
	if (strcmp(s->kind, "host") == 0)
		return s->address && strmap_get(&m->hosts, s->address) &&
				       !loc_edge_seen(m, s->address)
			       ? s->address
			       : NULL;
	if (strcmp(s->kind, "link") != 0 ||
	    (e = report_traces_element_find(t, REPORT_PATH_LINK, s->name)) ==
		    SIZE_MAX)
		return NULL;
	return strmap_get(&m->hosts, t->elements[e].from) &&
			       faces_host_alone(t, t->elements[e].from,
						t->elements[e].to)
		       ? t->elements[e].from
		       : NULL;
}

/* The reason of a group: its hosts, their loss rates. */
static char *group_reason(const struct localise *l, const bool *in,
			  const char *const *host, size_t n, double low,
			  double high)
{
	char *text = NULL;
	size_t len = 0, shown = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	fprintf(f, "%zu hosts whose edge router answers no trace, or each "
		"from its own address (", n);
	for (size_t k = 0; k < l->count; k++) {
		if (!in[k])
			continue;
		if (shown < EDGE_NAMES_SHOWN)
			fprintf(f, "%s%s", shown ? ", " : "", host[k]);
		shown++;
	}
	if (n > EDGE_NAMES_SHOWN)
		fprintf(f, " and %zu more", n - EDGE_NAMES_SHOWN);
	fprintf(f, ") lose alike, %.1f%% to %.1f%% of their datagrams to and "
		"from their peers: the edge router they share, or its links "
		"(no trace shows it as one router, so its address is not "
		"known), or each host", 100 * low, 100 * high);
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
	const char **host;
	bool *in;
	int rc = -1;

	if (!l->count)
		return 0;
	host = calloc(l->count, sizeof(*host));
	in = calloc(l->count, sizeof(*in));
	if (!host || !in)
		goto out;
	for (size_t k = 0; k < l->count; k++) {
		host[k] = edge_host(m, &l->items[k]);
		if (host[k] && (strongest == SIZE_MAX ||
				l->items[k].loss_rate >
					l->items[strongest].loss_rate))
			strongest = k;
	}
	rc = 0;
	if (strongest == SIZE_MAX)
		goto out;
	for (size_t k = 0; k < l->count; k++) {
		const struct localise_suspect *s = &l->items[k];

		if (!host[k] || s->loss_rate < EDGE_RATE_SHARE *
					       l->items[strongest].loss_rate)
			continue;
		in[k] = true;
		n++;
		low = s->loss_rate < low ? s->loss_rate : low;
		high = s->loss_rate > high ? s->loss_rate : high;
	}
	if (n < EDGE_GROUP_MIN)
		goto out;
	rc = -1;
	/* The group takes the place of its first-ranked member. */
	for (size_t k = 0; first == SIZE_MAX && k < l->count; k++)
		if (in[k])
			first = k;
	g = &l->items[first];
	g->members = calloc(n, sizeof(*g->members));
	if (!g->members)
		goto out;
	for (size_t k = 0; k < l->count; k++) {
		const struct localise_suspect *s = &l->items[k];

		if (!in[k])
			continue;
		g->members[g->member_count] = strdup(host[k]);
		if (!g->members[g->member_count++])
			goto out;
		if (k == first)
			continue;
		g->failing += s->failing;
		g->passing += s->passing;
		g->explained += s->explained;
		g->llr += s->llr;
	}
	free(g->reason);
	g->reason = group_reason(l, in, host, n, low, high);
	free(g->name);
	g->name = NULL;
	if (!g->reason || asprintf(&g->name, "edge of %s", host[first]) < 0) {
		g->name = NULL;
		goto out;
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
	rc = 0;
out:
	free(host);
	free(in);
	return rc;
}
