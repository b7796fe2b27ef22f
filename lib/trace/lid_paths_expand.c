/* --paths all's ranges and PathRecords from the SA; see
 * lid_paths_expand.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/lid_paths.h"
#include "trace/lid_paths_expand.h"

/* The LMC of each destination's port, asked of the SA in rounds (its
 * NodeRecord, then its PortInfoRecord). */
static int dest_lmcs(struct sa_client *sa, struct trace_store *store,
		     struct lid_paths_dest *dests, size_t n,
		     const struct lid_paths_query *q,
		     struct trace_fetch_stats *stats, char *err, size_t errlen)
{
	struct trace_key *need = calloc(n ? n : 1, sizeof(*need));
	int rc = 0;

	if (!need) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int round = 0; round < 3 && rc == 0; round++) {
		size_t count = 0;

		for (size_t i = 0; i < n; i++) {
			if (!dests[i].dlid)
				continue;
			dests[i].lmc_unknown[0] = '\0';
			if (lid_paths_lmc(store, dests[i].dlid, &dests[i].lmc,
					  &need[count], dests[i].lmc_unknown,
					  sizeof(dests[i].lmc_unknown)) ==
			    LID_PATHS_NEED)
				count++;
		}
		if (!count)
			break;
		rc = ib_trace_fetch_records(sa, need, count, store, q->window,
					    q->timeout_ms, q->retries, stats,
					    err, errlen);
	}
	free(need);
	return rc;
}

int lid_paths_expand(struct path_session *session,
		     const struct path_constraints *want,
		     struct trace_store *store, struct lid_paths_dest *dests,
		     size_t n, const struct lid_paths_query *q,
		     struct lid_paths_expansion *x,
		     struct trace_fetch_stats *stats, char *err,
		     size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		dests[i].lmc = 0;
		dests[i].base = dests[i].dlid;
		dests[i].count = 1;
		dests[i].lmc_unknown[0] = '\0';
	}
	if (dest_lmcs(&session->sa, store, dests, n, q, stats, err, errlen))
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct lid_paths_dest *d = &dests[i];

		d->first_extra = x->dests.count;
		if (!d->dlid)
			continue;
		d->base = lid_paths_base(d->dlid, d->lmc);
		d->count = lid_paths_count(d->base, d->lmc);
		for (unsigned p = 0; p < d->count; p++) {
			char text[16];

			if (d->base + p == d->dlid)
				continue;
			snprintf(text, sizeof(text), "lid:%u", d->base + p);
			if (dest_list_add(&x->dests, text, err, errlen))
				return -1;
		}
	}
	if (!x->dests.count)
		return 0;
	x->paths = calloc(x->dests.count, sizeof(*x->paths));
	if (!x->paths) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return path_resolve_all(session, &x->dests, want, q->window,
				q->timeout_ms, q->retries, x->paths, err,
				errlen);
}

const struct path_result *lid_paths_result(const struct lid_paths_expansion *x,
					   const struct lid_paths_dest *d,
					   unsigned p)
{
	if (d->base + p == d->dlid || p >= d->count)
		return NULL;
	return &x->paths[d->first_extra + p - (d->base + p > d->dlid)];
}

void lid_paths_expansion_free(struct lid_paths_expansion *x)
{
	dest_list_free(&x->dests);
	free(x->paths);
	x->paths = NULL;
}

int lid_paths_parse(const char *arg, bool *all, char *err, size_t errlen)
{
	*all = !strcmp(arg, "all");
	if (*all || !strcmp(arg, "base"))
		return 0;
	snprintf(err, errlen, "--paths takes base or all, not '%s'", arg);
	return -1;
}
