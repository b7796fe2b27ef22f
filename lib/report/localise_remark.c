/* Remarking routers (localise_model.h loc_find_remarks): each remarked
 * trace names the hops around the change; the router most of them
 * share rewrites, or the hop no trace shows between two. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/localise_model.h"

/* A remark names a router only with at least this many remarked traces. */
#define REMARK_MIN_FLOWS 2

/* name is a router some trace answered from (a responder is none). */
static bool is_router(const struct report_traces *t, const char *name)
{
	return loc_node_element(t, name) != SIZE_MAX;
}

/* A router already named for remarking that traces show between a and
 * b (links a -> it -> b): the hop that did not answer between them on
 * some remarked traces is that router (its answers lost or rate
 * limited), no other. */
static bool named_between(const struct report_traces *t,
			  const struct localise *l, const char *a,
			  const char *b)
{
	for (size_t k = 0; k < l->count; k++) {
		const struct localise_suspect *s = &l->items[k];

		if (s->cause == LOCALISE_REMARK && s->address &&
		    loc_link_seen(t, a, s->address) && loc_link_seen(t, s->address, b))
			return true;
	}
	return false;
}

/* A remarked trace left whose class changed between two routers that no
 * trace shows next to each other, nor with a router named for
 * remarking between them: a hop that answers no trace is there. */
static bool unseen_change(const struct report_traces *t,
			  const struct localise *l, const bool *left, size_t k)
{
	const struct report_trace_flow *f = &t->flows[k];

	return left[k] && f->remark_after && f->remark_before &&
	       is_router(t, f->remark_after) &&
	       is_router(t, f->remark_before) &&
	       !loc_link_seen(t, f->remark_after, f->remark_before) &&
	       !named_between(t, l, f->remark_after, f->remark_before);
}

/* Marks a router in set (1: there); -1 when memory ran out, else
 * whether it was new. */
static int mark(struct strmap *set, const char *router)
{
	void **slot = strmap_slot(set, router);

	if (!slot)
		return -1;
	if (*slot)
		return 0;
	*slot = (void *)1;
	return 1;
}

/* The remarked traces left (left) whose class changed across a hop that
 * answers no trace (unseen_change): the most common pair A, B of
 * routers around it, and with it every such trace that shares a router
 * around the change with it, either way (transitively: a silent core
 * sits between every spine of its group, both ways), when
 * at least REMARK_MIN_FLOWS traces share that pair: named as the hop
 * after A, those traces taken from left. 1 when named, 0 when not, -1
 * when memory ran out. */
static int remark_unseen(const struct model *m, struct localise *l,
			 bool *left)
{
	const struct report_traces *t = m->t;
	struct strmap pairs = { 0 }, around = { 0 };
	const struct report_trace_flow *top = NULL;
	size_t top_n = 0, through = 0, traces = 0, routers = 2;
	struct localise_suspect *s;
	bool grew = true;
	int rc = -1;

	for (size_t k = 0; k < t->count; k++) {
		const struct report_trace_flow *f = &t->flows[k];
		char *key;
		void **slot;

		if (!unseen_change(t, l, left, k))
			continue;
		if (asprintf(&key, "%s|%s", f->remark_after,
			     f->remark_before) < 0)
			goto out;
		slot = strmap_slot(&pairs, key);
		free(key);
		if (!slot)
			goto out;
		*slot = (void *)((uintptr_t)*slot + 1);
		if ((size_t)(uintptr_t)*slot > top_n) {
			top_n = (size_t)(uintptr_t)*slot;
			top = f;
		}
	}
	rc = 0;
	if (top_n < REMARK_MIN_FLOWS)
		goto out;
	rc = -1;
	if (mark(&around, top->remark_after) < 0 ||
	    mark(&around, top->remark_before) < 0)
		goto out;
	/* Each pass takes the traces that meet the sets; a pass that adds
	 * no router to them is the last (at most one pass per router). */
	while (grew) {
		grew = false;
		for (size_t k = 0; k < t->count; k++) {
			const struct report_trace_flow *f = &t->flows[k];
			int x, y;

			if (!unseen_change(t, l, left, k) ||
			    (!strmap_get(&around, f->remark_after) &&
			     !strmap_get(&around, f->remark_before)))
				continue;
			x = mark(&around, f->remark_after);
			y = mark(&around, f->remark_before);
			if (x < 0 || y < 0)
				goto out;
			routers += (size_t)x + (size_t)y;
			left[k] = false;
			traces++;
			grew = true;
		}
	}
	/* The traces through A that kept their class (A forwards them
	 * elsewhere, or the hop after it does not rewrite all). */
	for (size_t k = 0; k < t->count; k++) {
		const struct report_trace_flow *f = &t->flows[k];

		if (f->remark_after || f->remark_before)
			continue;
		for (size_t i = 0; i < f->element_count; i++)
			if (t->elements[f->elements[i]].kind != REPORT_PATH_LINK &&
			    strcmp(t->elements[f->elements[i]].name,
				   top->remark_after) == 0) {
				through++;
				break;
			}
	}
	s = loc_new_suspect(l);
	if (!s)
		goto out;
	s->cause = LOCALISE_REMARK;
	s->kind = "hop";
	s->failing = s->explained = traces;
	s->passing = through;
	s->confidence = 0.5;	/* its address is not known */
	s->cannot_localise = true;
	if (asprintf(&s->name, "after %s", top->remark_after) < 0) {
		s->name = NULL;
		goto out;
	}
	if (asprintf(&s->reason, "%zu traces see the traffic class change "
		     "between %s and %s (%zu traces), or between two of %zu "
		     "routers around it (sharing one with those), that no trace "
		     "shows next to each other: the hop between them, which "
		     "answers no trace, rewrites it (%zu traces through %s kept "
		     "it)", traces, top->remark_after, top->remark_before, top_n,
		     routers, through, top->remark_after) < 0) {
		s->reason = NULL;
		goto out;
	}
	rc = 1;
out:
	strmap_free(&pairs);
	strmap_free(&around);
	return rc;
}

/* Remarking: each remarked trace names the last hop that saw the
 * traffic class sent and the first that saw another. The router that
 * most of them share (as either) rewrites; greedy as the loss fit. */
int loc_find_remarks(const struct model *m, struct localise *l)
{
	const struct report_traces *t = m->t;
	bool *left = calloc(t->count + 1, sizeof(*left));
	struct strmap count = { 0 };
	int rc = -1;

	if (!left)
		return -1;
	for (size_t k = 0; k < t->count; k++)
		if (t->flows[k].remark_after || t->flows[k].remark_before) {
			left[k] = true;
			l->remarked++;
		}
	for (;;) {
		const char *best = NULL, *rival = NULL, *ends[2];
		size_t best_n = 0, shared = 0, through = 0;
		struct localise_suspect *s;

		strmap_free(&count);
		for (size_t k = 0; k < t->count; k++) {
			if (!left[k])
				continue;
			ends[0] = t->flows[k].remark_after;
			ends[1] = t->flows[k].remark_before;
			for (int i = 0; i < 2; i++) {
				void **slot;

				if (!ends[i] || !is_router(t, ends[i]))
					continue;
				slot = strmap_slot(&count, ends[i]);
				if (!slot)
					goto out;
				*slot = (void *)((uintptr_t)*slot + 1);
				if ((size_t)(uintptr_t)*slot > best_n)
					best_n = (size_t)(uintptr_t)*slot;
			}
		}
		/* The most shared; of equals the last hop that saw the class
		 * sent (a router rewrites what it forwards); another as
		 * shared is a rival the data cannot tell apart. */
		for (int i = 0; i < 2; i++)
			for (size_t k = 0; k < t->count; k++) {
				const char *x = i ? t->flows[k].remark_before
						  : t->flows[k].remark_after;

				if (!left[k] || !x || !is_router(t, x) ||
				    (size_t)(uintptr_t)strmap_get(&count, x) !=
					    best_n)
					continue;
				if (!best)
					best = x;
				else if (!rival && strcmp(x, best) != 0)
					rival = x;
			}
		if (best_n < REMARK_MIN_FLOWS || !best)
			break;
		/* The traces through it that kept their class. */
		for (size_t k = 0; k < t->count; k++) {
			const struct report_trace_flow *f = &t->flows[k];
			bool remarked = f->remark_after || f->remark_before;

			for (size_t i = 0; !remarked && i < f->element_count;
			     i++)
				if (t->elements[f->elements[i]].kind !=
					    REPORT_PATH_LINK &&
				    strcmp(t->elements[f->elements[i]].name,
					   best) == 0) {
					through++;
					break;
				}
		}
		/* Most traces through it keep their class: it is on the way
		 * of the remarked ones, not what rewrites them (that one
		 * does not answer traces: named by its place, when it has
		 * one). */
		if (through > best_n) {
			int named = remark_unseen(m, l, left);

			if (named < 0)
				goto out;
			if (named)
				continue;
			break;
		}
		s = loc_new_suspect(l);
		if (!s)
			goto out;
		s->cause = LOCALISE_REMARK;
		s->kind = "router";
		s->name = strdup(best);
		s->address = strdup(best);
		for (size_t k = 0; k < t->count; k++) {
			const struct report_trace_flow *f = &t->flows[k];

			if (left[k] &&
			    ((f->remark_after && strcmp(f->remark_after, best) == 0) ||
			     (f->remark_before &&
			      strcmp(f->remark_before, best) == 0))) {
				left[k] = false;
				shared++;
			}
		}
		if (rival && loc_add_name(&s->alternatives,
					  &s->alternative_count, rival))
			goto out;
		s->failing = shared;
		s->passing = through;
		s->explained = shared;
		s->confidence = (double)shared / (shared + through) *
				(rival ? 0.5 : 1.0);
		s->cannot_localise = rival != NULL;
		if (!s->name || !s->address ||
		    asprintf(&s->reason, "%zu traces see the traffic class "
			     "change at it (the last hop that saw it sent or "
			     "the first that saw it changed); %zu through it "
			     "kept it", shared, through) < 0)
			goto out;
	}
	rc = 0;
out:
	strmap_free(&count);
	free(left);
	return rc;
}
