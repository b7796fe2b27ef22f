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
/* An edge no trace shows rewrites for at least this many hosts (one
 * host's changes are as likely its own way's). */
#define REMARK_EDGE_HOSTS_MIN 2
/* Hosts named in an edge's reason; the JSON lists every one. */
#define REMARK_NAMES_SHOWN 4

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

/* Router x (an element of the traces) is seen between the two routers
 * around trace k's change: the hop that did not answer there may be x
 * (rate limited), which answers other traces. */
static bool fills_gap(const struct report_traces *t, size_t k, size_t x)
{
	const struct report_trace_flow *f = &t->flows[k];
	const char *name = t->elements[x].name;

	return loc_link_seen(t, f->remark_after, name) &&
	       loc_link_seen(t, name, f->remark_before);
}

/* Per router (by element), the remarked traces left that name it as
 * the last hop that saw the class sent (after) or the first that saw it
 * changed (before), those across a hop that did not answer where it is
 * seen between the two (gap) counted as both; seen: the routers with
 * any, in the order the traces first name them, after before before. */
struct remark_roles {
	size_t *after, *before;
	size_t *seen, seen_count;
	bool *gap;	/* per trace: across a hop some router fills */
};

static int roles_init(struct remark_roles *r, const struct report_traces *t)
{
	size_t n = t->element_count + 1;

	r->after = calloc(n, sizeof(*r->after));
	r->before = calloc(n, sizeof(*r->before));
	r->seen = calloc(n, sizeof(*r->seen));
	r->gap = calloc(t->count + 1, sizeof(*r->gap));
	return r->after && r->before && r->seen && r->gap ? 0 : -1;
}

static void roles_free(struct remark_roles *r)
{
	free(r->after);
	free(r->before);
	free(r->seen);
	free(r->gap);
}

/* A router rewrites at one place: as it forwards (the last hop that
 * saw the class sent) or as it takes a datagram in (the first that saw
 * it changed). A router counted in both roles is one the remarked
 * traces pass both ways with the rewriting hop beside it, so its
 * weight is the larger role, not their sum. */
static size_t role_weight(const struct remark_roles *r, size_t x)
{
	return r->after[x] > r->before[x] ? r->after[x] : r->before[x];
}

static void roles_count(struct remark_roles *r, const struct report_traces *t,
			const struct localise *l, const bool *left)
{
	size_t n = t->element_count + 1;

	memset(r->after, 0, n * sizeof(*r->after));
	memset(r->before, 0, n * sizeof(*r->before));
	memset(r->gap, 0, (t->count + 1) * sizeof(*r->gap));
	r->seen_count = 0;
	for (int role = 0; role < 2; role++)
		for (size_t k = 0; k < t->count; k++) {
			const struct report_trace_flow *f = &t->flows[k];
			const char *end = role ? f->remark_before
					       : f->remark_after;
			size_t x;

			if (!left[k] || !end)
				continue;
			x = loc_node_element(t, end);
			if (x == SIZE_MAX)
				continue;
			if (!r->after[x] && !r->before[x])
				r->seen[r->seen_count++] = x;
			(role ? r->before : r->after)[x]++;
		}
	/* (only routers the remarked traces name: one that answers none
	 * of them is the unseen hop's to claim) */
	for (size_t k = 0; k < t->count; k++) {
		if (!unseen_change(t, l, left, k))
			continue;
		for (size_t i = 0; i < r->seen_count; i++) {
			size_t x = r->seen[i];

			if (!fills_gap(t, k, x))
				continue;
			r->after[x]++;
			r->before[x]++;
			r->gap[k] = true;
		}
	}
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

/* A change across a hop that answers no trace (unseen_change), and no
 * router the remarked traces name is seen there (roles gap). */
static bool unseen_gap(const struct report_traces *t, const struct localise *l,
		       const bool *left, const struct remark_roles *roles,
		       size_t k)
{
	return !roles->gap[k] && unseen_change(t, l, left, k);
}

/* A remarked trace left whose class changed across hops that did not
 * answer between a router of around and no router (the tracing host,
 * the destination, an address no trace shows as a router). */
static bool across_edge(const struct report_traces *t, const bool *left,
			const struct strmap *around, size_t k)
{
	const struct report_trace_flow *f = &t->flows[k];
	bool after = f->remark_after && is_router(t, f->remark_after);
	bool before = f->remark_before && is_router(t, f->remark_before);

	if (!left[k] || !f->remark_gap || after == before)
		return false;
	return after ? strmap_get(around, f->remark_after) != NULL
		     : strmap_get(around, f->remark_before) != NULL;
}

/* The hop no trace shows that rewrites: of the remarked traces left
 * whose class changed across it (unseen_gap), the most common pair A, B
 * of routers around it (top, top_n traces), and with it every such
 * trace that shares a router around the change with it, either way
 * (transitively: a silent core sits between every spine of its group,
 * both ways), marked in taken (routers: how many routers are around
 * it). The traces taken; 0 when fewer than REMARK_MIN_FLOWS share that
 * pair; -1 when memory ran out. */
struct unseen_hop {
	const struct report_trace_flow *top;
	size_t top_n, traces, routers;
};

static int unseen_group(const struct report_traces *t,
			const struct localise *l, const bool *left,
			const struct remark_roles *roles, bool *taken,
			struct unseen_hop *u)
{
	struct strmap pairs = { 0 }, around = { 0 };
	bool grew = true;
	int rc = -1;

	*u = (struct unseen_hop){ .routers = 2 };
	for (size_t k = 0; k < t->count; k++) {
		const struct report_trace_flow *f = &t->flows[k];
		char *key;
		void **slot;

		taken[k] = false;
		if (!unseen_gap(t, l, left, roles, k))
			continue;
		if (asprintf(&key, "%s|%s", f->remark_after,
			     f->remark_before) < 0)
			goto out;
		slot = strmap_slot(&pairs, key);
		free(key);
		if (!slot)
			goto out;
		*slot = (void *)((uintptr_t)*slot + 1);
		if ((size_t)(uintptr_t)*slot > u->top_n) {
			u->top_n = (size_t)(uintptr_t)*slot;
			u->top = f;
		}
	}
	rc = 0;
	if (u->top_n < REMARK_MIN_FLOWS)
		goto out;
	rc = -1;
	if (mark(&around, u->top->remark_after) < 0 ||
	    mark(&around, u->top->remark_before) < 0)
		goto out;
	/* Each pass takes the traces that meet the sets; a pass that adds
	 * no router to them is the last (at most one pass per router). */
	while (grew) {
		grew = false;
		for (size_t k = 0; k < t->count; k++) {
			const struct report_trace_flow *f = &t->flows[k];
			int x, y;

			if (taken[k] || !unseen_gap(t, l, left, roles, k) ||
			    (!strmap_get(&around, f->remark_after) &&
			     !strmap_get(&around, f->remark_before)))
				continue;
			x = mark(&around, f->remark_after);
			y = mark(&around, f->remark_before);
			if (x < 0 || y < 0)
				goto out;
			u->routers += (size_t)x + (size_t)y;
			taken[k] = true;
			u->traces++;
			grew = true;
		}
	}
	/* And the traces whose class changed across hops that did not
	 * answer between a router around it and this host or the
	 * destination (the hops before or after it did not answer
	 * either). */
	for (size_t k = 0; k < t->count; k++)
		if (!taken[k] && across_edge(t, left, &around, k)) {
			taken[k] = true;
			u->traces++;
		}
	rc = 0;
out:
	strmap_free(&pairs);
	strmap_free(&around);
	return rc < 0 ? -1 : (int)(u->traces > 0);
}

/* The host at the end of trace k's change when hops that did not
 * answer lie between it and the router on the other side: the
 * destination (the class changed between the last router that saw it
 * sent and the responder) or the tracing host (between it and the first
 * router that saw another). NULL otherwise. */
static const char *edge_host(const struct report_traces *t, const bool *left,
			     size_t k)
{
	const struct report_trace_flow *f = &t->flows[k];

	if (!left[k] || !f->remark_gap || !f->remark_before)
		return NULL;
	if (f->remark_after && is_router(t, f->remark_after) &&
	    !is_router(t, f->remark_before))
		return f->remark_before;
	if (!f->remark_after && is_router(t, f->remark_before))
		return f->source;
	return NULL;
}

/* Whether trace f kept its class through the edge of host h: it did not
 * change, and it came from h or reached it (its last link leads to h). */
static bool kept_at_edge(const struct report_traces *t,
			 const struct report_trace_flow *f, const char *h)
{
	const struct report_path_element *last;

	if (f->remark_after || f->remark_before || !f->element_count)
		return false;
	if (f->source && strcmp(f->source, h) == 0)
		return true;
	last = &t->elements[f->elements[f->element_count - 1]];
	return last->kind == REPORT_PATH_LINK && strcmp(last->to, h) == 0;
}

/* The hosts whose edge router no trace shows and rewrites: of the
 * remarked traces left whose class changed between a host and a router
 * across hops that did not answer (edge_host), the hosts where more
 * traces changed so than kept their class (a silent ToR that rewrites
 * what it forwards, seen from both sides of it). Hosts behind two such
 * edges at once are taken for one (which edge a host is behind no trace
 * says). */
struct remark_edge {
	const char **hosts;	/* in the order the traces first name them */
	size_t *changed, *kept;
	size_t count, traces, kept_traces, hosts_in;
	struct strmap index;	/* host -> its number + 1 */
};

/* Whether e's host i is one of its group. */
static bool host_in(const struct remark_edge *e, size_t i)
{
	return e->changed[i] > e->kept[i];
}

static void edge_free(struct remark_edge *e)
{
	free(e->hosts);
	free(e->changed);
	free(e->kept);
	strmap_free(&e->index);
	memset(e, 0, sizeof(*e));
}

/* Whether host h is one of e's group. */
static bool edge_has(const struct remark_edge *e, const char *h)
{
	void *id = h ? strmap_get(&e->index, h) : NULL;
	size_t i = (size_t)(uintptr_t)id - 1;

	return id && host_in(e, i);
}

/* e filled from the traces left. 0, or -1 when memory ran out. */
static int edge_find(const struct report_traces *t, const bool *left,
		     struct remark_edge *e)
{
	memset(e, 0, sizeof(*e));
	e->hosts = calloc(t->count + 1, sizeof(*e->hosts));
	e->changed = calloc(t->count + 1, sizeof(*e->changed));
	e->kept = calloc(t->count + 1, sizeof(*e->kept));
	if (!e->hosts || !e->changed || !e->kept)
		return -1;
	for (size_t k = 0; k < t->count; k++) {
		const char *h = edge_host(t, left, k);
		void **slot;

		if (!h)
			continue;
		slot = strmap_slot(&e->index, h);
		if (!slot)
			return -1;
		if (!*slot) {
			e->hosts[e->count] = h;
			*slot = (void *)(uintptr_t)++e->count;
		}
		e->changed[(uintptr_t)*slot - 1]++;
	}
	for (size_t k = 0; e->count && k < t->count; k++) {
		const struct report_trace_flow *f = &t->flows[k];
		const char *ends[2] = { f->source, f->dest_address };

		for (int i = 0; i < 2; i++) {
			void *id = ends[i] ? strmap_get(&e->index, ends[i])
					   : NULL;

			if (id && kept_at_edge(t, f, ends[i])) {
				e->kept[(uintptr_t)id - 1]++;
				break;
			}
		}
	}
	for (size_t i = 0; i < e->count; i++)
		if (host_in(e, i)) {
			e->traces += e->changed[i];
			e->kept_traces += e->kept[i];
			e->hosts_in++;
		}
	return 0;
}

/* A router already named for remarking that traces show next to most
 * of e's hosts: their edge, which answers some traces (the changes left
 * lie across it and another hop that did not answer). NULL: none. */
static struct localise_suspect *named_edge(const struct report_traces *t,
					   struct localise *l,
					   const struct remark_edge *e)
{
	for (size_t k = 0; k < l->count; k++) {
		struct localise_suspect *s = &l->items[k];
		size_t next = 0;

		if (s->cause != LOCALISE_REMARK || !s->address)
			continue;
		for (size_t i = 0; i < e->count; i++)
			next += host_in(e, i) &&
				(loc_link_seen(t, s->address, e->hosts[i]) ||
				 loc_link_seen(t, e->hosts[i], s->address));
		if (2 * next > e->hosts_in)
			return s;
	}
	return NULL;
}

/* The edge e named (or its traces added to the router named that is
 * that edge: named_edge): its hosts the suspect's members, its traces
 * taken from left. 0, or -1 when memory ran out. */
static int remark_edge(const struct report_traces *t, struct localise *l,
		       bool *left, const struct remark_edge *e)
{
	struct localise_suspect *s = named_edge(t, l, e);
	const char *first = NULL;
	size_t shown = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	for (size_t k = 0; k < t->count; k++)
		if (edge_has(e, edge_host(t, left, k)))
			left[k] = false;
	if (s) {
		char *more;

		s->failing += e->traces;
		s->explained += e->traces;
		if (asprintf(&more, "%s; %zu more see it change between it "
			     "and the %zu hosts next to it across hops that "
			     "did not answer", s->reason, e->traces,
			     e->hosts_in) < 0)
			return -1;
		free(s->reason);
		s->reason = more;
		return 0;
	}
	s = loc_new_suspect(l);
	if (!s)
		return -1;
	s->members = calloc(e->hosts_in, sizeof(*s->members));
	if (!s->members)
		return -1;
	for (size_t i = 0; i < e->count; i++) {
		if (!host_in(e, i))
			continue;
		if (!first)
			first = e->hosts[i];
		s->members[s->member_count] = strdup(e->hosts[i]);
		if (!s->members[s->member_count++])
			return -1;
	}
	s->cause = LOCALISE_REMARK;
	s->kind = "hop";
	s->failing = s->explained = e->traces;
	s->passing = e->kept_traces;
	s->confidence = (double)e->traces / (e->traces + e->kept_traces);
	if (asprintf(&s->name, "edge of %s", first) < 0) {
		s->name = NULL;
		return -1;
	}
	f = open_memstream(&text, &len);
	if (!f)
		return -1;
	fprintf(f, "%zu traces see the traffic class change between %zu "
		"hosts (", e->traces, e->hosts_in);
	for (size_t i = 0; i < s->member_count && shown < REMARK_NAMES_SHOWN;
	     i++)
		fprintf(f, "%s%s", shown++ ? ", " : "", s->members[i]);
	if (s->member_count > REMARK_NAMES_SHOWN)
		fprintf(f, " and %zu more",
			s->member_count - REMARK_NAMES_SHOWN);
	fprintf(f, ") and the routers next to them, across hops that answer "
		"no trace: the edge router they share rewrites it (it never "
		"answers traces, so its address is not known); %zu traces to "
		"or from them kept it", e->kept_traces);
	if (fclose(f)) {
		free(text);
		return -1;
	}
	s->reason = text;
	return 0;
}

/* The remarked traces that kept their class through router name. */
static size_t kept_through(const struct report_traces *t, const char *name)
{
	size_t through = 0;

	for (size_t k = 0; k < t->count; k++) {
		const struct report_trace_flow *f = &t->flows[k];

		if (f->remark_after || f->remark_before)
			continue;
		for (size_t i = 0; i < f->element_count; i++)
			if (t->elements[f->elements[i]].kind != REPORT_PATH_LINK &&
			    strcmp(t->elements[f->elements[i]].name, name) == 0) {
				through++;
				break;
			}
	}
	return through;
}

/* The unseen hop u (unseen_group) named as the hop after its pair's A,
 * its traces (taken) taken from left. 0, or -1 when memory ran out. */
static int remark_unseen(const struct model *m, struct localise *l,
			 bool *left, const bool *taken,
			 const struct unseen_hop *u)
{
	const struct report_traces *t = m->t;
	const struct report_trace_flow *top = u->top;
	/* (the traces through A that kept their class: A forwards them
	 * elsewhere, or the hop after it does not rewrite all) */
	size_t through = kept_through(t, top->remark_after);
	struct localise_suspect *s;

	for (size_t k = 0; k < t->count; k++)
		if (taken[k])
			left[k] = false;
	s = loc_new_suspect(l);
	if (!s)
		return -1;
	s->cause = LOCALISE_REMARK;
	s->kind = "hop";
	s->failing = s->explained = u->traces;
	s->passing = through;
	s->confidence = 0.5;	/* its address is not known */
	s->cannot_localise = true;
	if (asprintf(&s->name, "after %s", top->remark_after) < 0) {
		s->name = NULL;
		return -1;
	}
	if (asprintf(&s->reason, "%zu traces see the traffic class change "
		     "between %s and %s (%zu traces), or between two of %zu "
		     "routers around it (sharing one with those), or one of "
		     "them and a host, that no trace shows next to each other: "
		     "the hop between them, which answers no trace, rewrites it "
		     "(%zu traces through %s kept it)", u->traces,
		     top->remark_after, top->remark_before, u->top_n,
		     u->routers, through, top->remark_after) < 0) {
		s->reason = NULL;
		return -1;
	}
	return 0;
}

/* Router x named for remarking: the traces left that name it around
 * their change, or across a hop it fills (roles gap), taken from left;
 * rival: another router as shared. 0, or -1 when memory ran out. */
static int remark_router(const struct report_traces *t, struct localise *l,
			 bool *left, size_t x, const char *rival)
{
	const char *best = t->elements[x].name;
	size_t shared = 0, through = kept_through(t, best);
	struct localise_suspect *s = loc_new_suspect(l);

	if (!s)
		return -1;
	for (size_t k = 0; k < t->count; k++) {
		const struct report_trace_flow *f = &t->flows[k];

		if (!left[k])
			continue;
		if ((f->remark_after && strcmp(f->remark_after, best) == 0) ||
		    (f->remark_before && strcmp(f->remark_before, best) == 0) ||
		    (f->remark_after && f->remark_before &&
		     is_router(t, f->remark_after) &&
		     is_router(t, f->remark_before) &&
		     !loc_link_seen(t, f->remark_after, f->remark_before) &&
		     fills_gap(t, k, x))) {
			left[k] = false;
			shared++;
		}
	}
	s->cause = LOCALISE_REMARK;
	s->kind = "router";
	s->name = strdup(best);
	s->address = strdup(best);
	if (rival && loc_add_name(&s->alternatives, &s->alternative_count,
				  rival))
		return -1;
	s->failing = shared;
	s->passing = through;
	s->explained = shared;
	s->confidence = (double)shared / (shared + through) *
			(rival ? 0.5 : 1.0);
	s->cannot_localise = rival != NULL;
	if (!s->name || !s->address ||
	    asprintf(&s->reason, "%zu traces see the traffic class change at "
		     "it (the last hop that saw it sent or the first that saw "
		     "it changed); %zu through it kept it", shared,
		     through) < 0)
		return -1;
	return 0;
}

/* Remarking: each remarked trace names the last hop that saw the
 * traffic class sent and the first that saw another. The router that
 * most of them share in one role (role_weight) rewrites, unless more of
 * them changed across one hop that answers no trace (unseen_group), or
 * between hosts and the routers next to them (edge_find); greedy as the
 * loss fit. */
int loc_find_remarks(const struct model *m, struct localise *l)
{
	const struct report_traces *t = m->t;
	bool *left = calloc(t->count + 1, sizeof(*left));
	bool *taken = calloc(t->count + 1, sizeof(*taken));
	struct remark_roles roles = { 0 };
	struct remark_edge edge = { 0 };
	int rc = -1;

	if (!left || !taken || roles_init(&roles, t))
		goto out;
	for (size_t k = 0; k < t->count; k++)
		if (t->flows[k].remark_after || t->flows[k].remark_before) {
			left[k] = true;
			l->remarked++;
		}
	for (;;) {
		size_t best = SIZE_MAX, best_n = 0, rival = SIZE_MAX;
		struct unseen_hop u;
		int group;

		roles_count(&roles, t, l, left);
		/* The most shared; of equals the first the traces name as
		 * the last hop that saw the class sent (a router rewrites
		 * what it forwards); another as shared is a rival the data
		 * cannot tell apart. */
		for (size_t i = 0; i < roles.seen_count; i++) {
			size_t x = roles.seen[i], n = role_weight(&roles, x);

			if (n > best_n) {
				best = x;
				best_n = n;
				rival = SIZE_MAX;
			} else if (n == best_n && rival == SIZE_MAX) {
				rival = x;
			}
		}
		group = unseen_group(t, l, left, &roles, taken, &u);
		if (group < 0 || edge_find(t, left, &edge))
			goto out;
		/* More traces changed between hosts and the routers next to
		 * them, across hops no trace shows, than any router or
		 * unseen hop between routers shares: their edge rewrites. */
		if (edge.hosts_in >= REMARK_EDGE_HOSTS_MIN &&
		    edge.traces >= REMARK_MIN_FLOWS && edge.traces > best_n &&
		    (!group || edge.traces > u.traces)) {
			if (remark_edge(t, l, left, &edge))
				goto out;
			edge_free(&edge);
			continue;
		}
		edge_free(&edge);
		/* More traces changed across one hop no trace shows than
		 * any router shares: that hop rewrites (the routers around
		 * it each see a part of them, one way or the other). */
		if (group && u.traces > best_n) {
			if (remark_unseen(m, l, left, taken, &u))
				goto out;
			continue;
		}
		if (best_n < REMARK_MIN_FLOWS || best == SIZE_MAX)
			break;
		/* Most traces through it keep their class: it is on the way
		 * of the remarked ones, not what rewrites them (that one
		 * does not answer traces: named by its place, when it has
		 * one). */
		if (kept_through(t, t->elements[best].name) > best_n) {
			if (!group)
				break;
			if (remark_unseen(m, l, left, taken, &u))
				goto out;
			continue;
		}
		if (remark_router(t, l, left, best,
				  rival == SIZE_MAX ? NULL
						    : t->elements[rival].name))
			goto out;
	}
	rc = 0;
out:
	edge_free(&edge);
	roles_free(&roles);
	free(taken);
	free(left);
	return rc;
}
