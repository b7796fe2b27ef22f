/* Pre-run warnings of probe; see probe_warnings.h. */
#include <stdio.h>
#include <string.h>

#include "probe/probe_warnings.h"

/* One distinct message and whom it concerns, while collecting. */
struct pending {
	char what[DIAG_MSG_MAX];
	const struct probe_target *first;	/* its first destination */
	const struct probe_target *last;	/* counted up to here */
	size_t more;				/* other destinations */
};

static void note(struct pending *p, size_t *n, size_t *dropped,
		 const struct probe_target *t, const char *what)
{
	for (size_t i = 0; i < *n; i++) {
		if (strcmp(p[i].what, what) != 0)
			continue;
		/* Cells of one target stand together: a target counts
		 * once, however many parameter sets it has. */
		if (p[i].last != t) {
			p[i].last = t;
			p[i].more++;
		}
		return;
	}
	if (*n == PROBE_WARNINGS_MAX) {
		(*dropped)++;
		return;
	}
	snprintf(p[*n].what, sizeof(p[*n].what), "%s", what);
	p[*n].first = p[*n].last = t;
	p[*n].more = 0;
	(*n)++;
}

void probe_warnings_collect(const struct probe_session *s,
			    struct probe_warnings *out)
{
	struct pending pending[PROBE_WARNINGS_MAX];
	const struct probe_target *prev = NULL;
	char what[DIAG_MSG_MAX];
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < s->cell_count; i++) {
		const struct probe_cell *c = &s->cells[i];
		const struct probe_target *t = c->target;

		/* --qpn skips the rendezvous, so a port in the destination
		 * reaches nothing: say so rather than ignore it silently. */
		if (t != prev && t->has_qpn && !t->preset &&
		    t->dest->has_port) {
			snprintf(what, sizeof(what), "--qpn skips the "
				 "rendezvous, so its port %u is ignored",
				 t->dest->port);
			note(pending, &n, &out->dropped, t, what);
		}
		prev = t;
		/* ah_check's warnings (ah shows the same ones): the AH was
		 * created anyway, but not as the user meant. */
		for (size_t k = 0; k < c->check.count; k++)
			if (c->check.items[k].severity == AH_WARNING)
				note(pending, &n, &out->dropped, t,
				     c->check.items[k].message);
	}
	for (size_t i = 0; i < n; i++) {
		struct probe_warning *w = &out->items[out->count++];
		char who[DIAG_MSG_MAX + 32];
		int len;

		if (pending[i].more)
			snprintf(who, sizeof(who), "%.*s and %zu more",
				 DIAG_MSG_MAX, pending[i].first->dest->text,
				 pending[i].more);
		else
			snprintf(who, sizeof(who), "%.*s", DIAG_MSG_MAX,
				 pending[i].first->dest->text);
		/* A destination is at most 256 characters, a message 255:
		 * both fit in text. */
		len = snprintf(w->text, sizeof(w->text), "%s: %s", who,
			       pending[i].what);
		if (len < 0)
			w->text[0] = '\0';
	}
}

void probe_warnings_print(const struct probe_session *s)
{
	struct probe_warnings w;

	probe_warnings_collect(s, &w);
	for (size_t i = 0; i < w.count; i++)
		diag_warn("%s", w.items[i].text);
	if (w.dropped)
		diag_warn("more warnings were left out (the first %d are "
			  "above)", PROBE_WARNINGS_MAX);
}
