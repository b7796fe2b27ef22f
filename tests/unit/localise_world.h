/* A made-up fabric's probe results and traces run through report and its
 * localisation, for the localisation's unit tests: the world a test
 * writes into two memory streams, read and localised, its suspects
 * printed as TAP comments, and freed. */
#ifndef IBAHPROBE_LOCALISE_WORLD_H
#define IBAHPROBE_LOCALISE_WORLD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/localise.h"
#include "report/report_input.h"
#include "report/report_matrix.h"
#include "report/report_traces.h"
#include "report/trace_aliases.h"

struct world {
	struct report r;
	struct report_traces t;
	struct localise l;
	struct trace_aliases aliases;
	char err[512];
};

/* The results rbuf and the traces tbuf (their streams closed) read, the
 * report built and localised, the buffers freed. 0, or -1 with the
 * error printed. */
static inline int world_localise(struct world *w, char *rbuf, size_t rlen,
				 char *tbuf, size_t tlen)
{
	int rc;

	report_init(&w->r);
	memset(&w->t, 0, sizeof(w->t));
	rc = report_read_buffer(&w->r, "probe", rbuf, rlen, NULL, w->err,
				sizeof(w->err)) ||
	     report_build(&w->r, w->err, sizeof(w->err)) ||
	     report_traces_read_buffer(&w->t, "traces", tbuf, tlen, w->err,
				       sizeof(w->err)) ||
	     trace_aliases_fold(&w->t, &w->aliases) ||
	     localise_run(&w->l, &w->r, &w->t);
	if (rc)
		printf("# %s\n", w->err);
	free(rbuf);
	free(tbuf);
	return rc ? -1 : 0;
}

static inline void world_free(struct world *w)
{
	localise_free(&w->l);
	report_traces_free(&w->t);
	report_free(&w->r);
}

static inline void print_suspects(const struct localise *l)
{
	for (size_t k = 0; k < l->count; k++)
		printf("# %zu. %s %s: %s\n", k + 1, l->items[k].kind,
		       l->items[k].name,
		       l->items[k].reason ? l->items[k].reason : "");
}

#endif
