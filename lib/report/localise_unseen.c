/* What traces cannot see, named (localise_model.h loc_name_unseen):
 * a pick of the unseen hop after a router placed from where failing
 * traces stop and what the passing ones show next: a dead link between
 * two routers, a router that does not answer, a silent edge, or its
 * candidates. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/localise_model.h"
#include "report/trace_neighbours.h"

/* An unseen suspect named by more candidates than this is no place. */
#define UNSEEN_CANDIDATES_MAX 3

/* Silence by policy is told from silence by fault only with at least
 * this many passing traces past the router. */
#define POLICY_PASSING_MIN 4

/* Whether the trace of o, crossing the link at fwd[i], goes on past
 * the link's far end (fwd[i + 1]): that router forwarded it. Something
 * follows it, other than the unseen hop a stopped trace ends with
 * (model elements past the traces' own). */
static bool forwarded_past(const struct report_traces *t,
			   const struct loc_obs *o, size_t i)
{
	if (i + 2 >= o->fwd_count)
		return false;
	return i + 3 < o->fwd_count || o->fwd[i + 2] < t->element_count;
}

/* The routers after router h in the traces, the most failing first
 * and, of equal shares, the least seen carrying results first (one that
 * carries passing flows forwards them; the one a silent fault hides may
 * carry none): where its flows go next. Optional (NULL: not wanted):
 * stop_share, each link's share of failing flows whose traces do not go
 * on past its far end (one whose trace does was forwarded there: its
 * loss is elsewhere); carried, the weight of results on each link. */
static size_t next_hops_carried(const struct model *m, size_t h, size_t *out,
				double *fail_share, double *stop_share_out,
				double *carried_out, size_t max)
{
	const struct report_traces *t = m->t;
	const char *name = t->elements[h].name;
	double carried[16];	/* the weight of results on each link */
	double stop_share[16];
	size_t n = 0;

	if (max > 16)
		max = 16;
	for (size_t i = 0; i < t->element_count && n < max; i++) {
		const struct report_path_element *e = &t->elements[i];

		if (e->kind == REPORT_PATH_LINK && strcmp(e->from, name) == 0 &&
		    loc_node_element(t, e->to) != SIZE_MAX) {
			out[n] = i;
			fail_share[n] = 0;
			n++;
		}
	}
	/* Each link's share of failing flows among the traced ones. */
	for (size_t k = 0; k < n; k++) {
		double f = 0, stopped = 0, all = 0;

		/* weighted: the passing flows traced are a sample */
		for (size_t o = 0; o < m->n; o++)
			for (size_t i = 0; i < m->obs[o].fwd_count; i++)
				if (m->obs[o].fwd[i] == out[k]) {
					all += m->obs[o].weight;
					if (!m->obs[o].failing)
						continue;
					f += m->obs[o].weight;
					if (!forwarded_past(t, &m->obs[o], i))
						stopped += m->obs[o].weight;
				}
		fail_share[k] = all > 0 ? f / all : 0;
		stop_share[k] = all > 0 ? stopped / all : 0;
		carried[k] = all;
	}
	for (size_t a = 1; a < n; a++)
		for (size_t b = a;
		     b > 0 && (fail_share[b] > fail_share[b - 1] ||
			       (fail_share[b] == fail_share[b - 1] &&
				carried[b] < carried[b - 1]));
		     b--) {
			size_t x = out[b];
			double y = fail_share[b], z = carried[b];
			double w = stop_share[b];

			out[b] = out[b - 1];
			out[b - 1] = x;
			fail_share[b] = fail_share[b - 1];
			fail_share[b - 1] = y;
			carried[b] = carried[b - 1];
			carried[b - 1] = z;
			stop_share[b] = stop_share[b - 1];
			stop_share[b - 1] = w;
		}
	if (stop_share_out)
		memcpy(stop_share_out, stop_share, n * sizeof(*stop_share));
	if (carried_out)
		memcpy(carried_out, carried, n * sizeof(*carried));
	return n;
}

static size_t next_hops(const struct model *m, size_t h, size_t *out,
			double *fail_share, size_t max)
{
	return next_hops_carried(m, h, out, fail_share, NULL, NULL, max);
}

/* Where o's route ends: its destination's edge router, or the
 * destination itself when no trace shows its edge (one that never
 * answers). */
static size_t route_end(const struct model *m, const struct loc_obs *o)
{
	size_t edge = m->edge_of[o->ends[1]];

	return edge != SIZE_MAX ? edge : o->ends[1];
}

/* "edge:edge:hop" of a route's key; "edge:edge" with hop 0. */
static void route_key(char *key, size_t len, size_t from, size_t to,
		      unsigned hop)
{
	if (hop)
		snprintf(key, len, "%zu:%zu:%u", from, to, hop);
	else
		snprintf(key, len, "%zu:%zu", from, to);
}

/* ids and their counts, the most counted first, equals in their order
 * (an insertion sort: a handful of them). */
static void sort_by_count(size_t *ids, size_t *counts, size_t n)
{
	for (size_t a = 1; a < n; a++)
		for (size_t b = a; b > 0 && counts[b] > counts[b - 1]; b--) {
			size_t x = ids[b], c = counts[b];

			ids[b] = ids[b - 1];
			counts[b] = counts[b - 1];
			ids[b - 1] = x;
			counts[b - 1] = c;
		}
}

/* Where the failing flows of the unseen pick p after router h would go
 * next: the routers that passing traces between the same edge routers
 * (the first router of the trace, the destination's edge; in a
 * multi-path fabric their paths have one shape) show one hop past where
 * p's traces stop, other than h; the most traces first, at most max in
 * out; their count. *toward: the passing traces between those edges
 * (0 also when memory ran out: nothing can be told then).
 * (Not the far end of a dead link out of h: where each spine meets its
 * own group of cores, the other spines' flows never reach it.) */
static size_t next_toward(const struct model *m, const struct loc_pick *p,
			  size_t h, size_t *out, size_t *votes, size_t max,
			  size_t *toward)
{
	const struct report_traces *t = m->t;
	struct strmap routes = { 0 };
	size_t n = 0;
	char key[80];

	*toward = 0;
	for (size_t k = 0; k < m->n; k++) {
		const struct report_trace_flow *f = m->flow_of[k];
		const struct loc_obs *o = &m->obs[k];
		size_t from, to;
		unsigned hop = 0;
		bool through = false;

		if (!f || !o->failing || o->end_count < 2)
			continue;
		for (size_t i = 0; !through && i < o->fwd_count; i++)
			through = o->fwd[i] == p->element;
		from = loc_first_router(t, f, false);
		to = route_end(m, o);
		if (!through || from == SIZE_MAX)
			continue;
		for (size_t i = 0; i < f->element_count; i++) {
			unsigned at = loc_hop_at(t, f, i, hop);

			hop = at ? at : hop;
		}
		for (int both = 0; both < 2; both++) {
			void **slot;

			route_key(key, sizeof(key), from, to, both ? hop + 1 : 0);
			slot = strmap_slot(&routes, key);
			if (!slot)
				goto out;
			*slot = (void *)1;
		}
	}
	for (size_t k = 0; k < m->n; k++) {
		const struct report_trace_flow *f = m->flow_of[k];
		const struct loc_obs *o = &m->obs[k];
		size_t from, to;
		unsigned hop = 0;

		if (!f || o->failing || o->end_count < 2)
			continue;
		from = loc_first_router(t, f, false);
		to = route_end(m, o);
		route_key(key, sizeof(key), from, to, 0);
		if (from == SIZE_MAX || !strmap_get(&routes, key))
			continue;
		++*toward;
		for (size_t i = 0; i < f->element_count; i++) {
			size_t x = f->elements[i], c;
			unsigned at = loc_hop_at(t, f, i, hop);

			if (!at)
				continue;
			hop = at;
			route_key(key, sizeof(key), from, to, at);
			if (x == h || !strmap_get(&routes, key))
				continue;
			for (c = 0; c < n && out[c] != x; c++)
				;
			if (c < n) {
				votes[c]++;
				continue;
			}
			if (n == max)
				continue;
			out[n] = x;
			votes[n++] = 1;
		}
	}
	sort_by_count(out, votes, n);
out:
	strmap_free(&routes);
	return n;
}

static bool hop_in(const struct report_traces *t, const size_t *hops,
		   size_t n, const char *router)
{
	for (size_t k = 0; k < n; k++)
		if (strcmp(t->elements[hops[k]].to, router) == 0)
			return true;
	return false;
}

/* Whether the unseen pick of element e (after some router) is the same
 * fault as the one being named (its stops after another router). */
typedef bool same_stop_fn(const struct model *m, size_t e, const void *arg);

/* Of the fit's unused unseen picks, those same_stop says are the same
 * fault as s: their evidence added to s (loc_absorb), the routers they
 * follow listed after first, in *list ("A, B, C"). The number of
 * routers listed, or 0 when memory ran out. */
static size_t absorb_stops(const struct model *m, struct localise_suspect *s,
			   const struct loc_fit *fit, bool *used,
			   const char *first, same_stop_fn *same_stop,
			   const void *arg, char **list)
{
	const struct report_traces *t = m->t;
	size_t len = 0, stops = 1;
	FILE *f = open_memstream(list, &len);

	if (!f)
		return 0;
	fputs(first, f);
	for (size_t k = 0; k < fit->count; k++) {
		const struct elem *o = &m->el[fit->picks[k].element];

		if (used[k] || o->after == SIZE_MAX ||
		    !same_stop(m, fit->picks[k].element, arg))
			continue;
		loc_absorb(s, fit, k, used);
		stops++;
		fprintf(f, ", %s", t->elements[o->after].name);
	}
	if (fclose(f)) {
		free(*list);
		*list = NULL;
		return 0;
	}
	return stops;
}

/* same_stop_fn: the passing flows of the router unseen pick e follows
 * go on to router arg (a name) too. */
static bool goes_on_to(const struct model *m, size_t e, const void *arg)
{
	size_t other[16];
	double share[16];
	size_t on = next_hops(m, m->el[e].after, other, share, 16);

	return hop_in(m->t, other, on, arg);
}

static bool toward_unseen_edges(const struct model *m, size_t e);

/* Traces stopping after several routers whose passing flows all go on
 * to one router r: r, which neither forwards nor answers (a router that
 * drops all or nearly all), unless their failing flows go toward an edge
 * no trace shows. 1 when so (s named, the other picks used),
 * 0 when not, -1 when memory ran out. */
static int shared_next_hop(const struct model *m, struct localise_suspect *s,
			   const struct loc_pick *p, const struct loc_fit *fit,
			   bool *used, const size_t *hops, size_t n)
{
	const struct report_traces *t = m->t;
	size_t other[16], on, stops;
	double share[16], stop_share[16];
	const char *r = NULL;
	char *list = NULL;

	/* The candidate that the most picks lead to, weighed by the share
	 * of failing flows on the way to it. */
	double best = 0;
	/* It is where p's failing flows go next: the passing traces toward
	 * their destinations show it one hop past h (when there are any). */
	size_t toward[16], votes[16], toward_n, toward_traces;

	/* Toward hosts whose edge router answers no trace, the hop past the
	 * stops may be that edge, which no trace names: a router traces do
	 * show there forwards to other hosts, and its passing flows clear
	 * it (silent_edge names the hop). */
	if (toward_unseen_edges(m, p->element))
		return 0;
	toward_n = next_toward(m, p, m->el[p->element].after, toward, votes,
			       16, &toward_traces);
	for (size_t i = 0; i < n; i++) {
		const char *c = t->elements[hops[i]].to;
		double score = 0;
		size_t with = 0;
		bool next = !toward_traces;

		for (size_t k = 0; !next && k < toward_n; k++)
			next = strcmp(t->elements[toward[k]].name, c) == 0;
		if (!next)
			continue;

		for (size_t k = 0; k < fit->count; k++) {
			const struct elem *o = &m->el[fit->picks[k].element];

			if (used[k] || o->after == SIZE_MAX)
				continue;
			/* (flows whose traces go on past c: c forwarded
			 * them) */
			on = next_hops_carried(m, o->after, other, share,
					       stop_share, NULL, 16);
			for (size_t j = 0; j < on; j++)
				if (strcmp(t->elements[other[j]].to, c) == 0) {
					score += stop_share[j];
					with++;
				}
		}
		/* Most flows on the way to it fail: not just a neighbour. */
		if (with >= 1 && score > best && score >= with / 2.0) {
			best = score;
			r = c;
		}
	}

	if (!r)
		return 0;
	stops = absorb_stops(m, s, fit, used,
			     t->elements[m->el[p->element].after].name,
			     goes_on_to, r, &list);
	if (!stops)
		return -1;
	s->kind = "router";
	s->name = strdup(r);
	s->address = strdup(r);
	if (asprintf(&s->reason, "the traces of %zu failing flows stop after "
		     "%zu routers (%s); the next hop of their passing flows is "
		     "%s", s->failing, stops, list, r) < 0)
		s->reason = NULL;
	free(list);
	return s->name && s->address && s->reason ? 1 : -1;
}

/* Whether trace f crosses router h and shows a router after it: h is
 * then no edge of f's destination. */
static bool router_after(const struct report_traces *t,
			 const struct report_trace_flow *f, size_t h)
{
	bool crossed = false;

	for (size_t i = 0; f && i < f->element_count; i++) {
		if (crossed &&
		    t->elements[f->elements[i]].kind == REPORT_PATH_ROUTER)
			return true;
		crossed |= f->elements[i] == h;
	}
	return false;
}

/* (Nearly) every failing flow that stops after hn goes to one host: that host
 * (dead, or its link down), not a router on the way, unless some results
 * reach it and about as many as fail toward it, or the traces of those
 * that reach it go on past hn to another router (it is alive, and hn no
 * edge of its: what stops the failing ones is on their way, e.g. one
 * ECMP branch of two). 1 when so
 * (s named), 0 when not, -1 when memory ran out. */
static int one_destination(const struct model *m, struct localise_suspect *s,
			   const struct loc_pick *p, const char *hn,
			   size_t *spread)
{
	size_t dest = SIZE_MAX, votes = 0, all = 0, to = 0, reach = 0;
	size_t h = m->el[p->element].after;
	bool beyond = false;

	/* The majority destination (Boyer-Moore), then its share and the
	 * passing results to it. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < m->n; k++) {
			const struct loc_obs *o = &m->obs[k];
			bool through = false;

			if (pass && !o->failing && o->end_count >= 2 &&
			    o->ends[1] == dest) {
				reach++;
				beyond |= router_after(m->t, m->flow_of[k], h);
			}
			for (size_t i = 0; !through && i < o->fwd_count; i++)
				through = o->fwd[i] == p->element;
			if (!through || !o->failing || o->end_count < 2)
				continue;
			if (pass) {
				all++;
				to += o->ends[1] == dest;
			} else if (!votes) {
				dest = o->ends[1];
				votes = 1;
			} else {
				votes += o->ends[1] == dest ? 1 : (size_t)-1;
			}
		}
	/* The failing flows toward other destinations than the majority's. */
	*spread = all - to;
	/* Nearly all: a few flows stop there for other reasons. */
	if (dest == SIZE_MAX || to < 2 || 10 * to < 8 * all ||
	    (reach >= LOC_FAILING_MIN && (2 * reach >= to || beyond)))
		return 0;
	s->kind = "host";
	s->name = strdup(m->el[dest].name);
	if (m->el[dest].address)
		s->address = strdup(m->el[dest].address);
	if (!s->name || (m->el[dest].address && !s->address) ||
	    asprintf(&s->reason, "the traces of %zu failing flows stop after "
		     "%s, its edge; %zu of them go to it", all, hn, to) < 0)
		return -1;
	return 1;
}

/* Whether router a and b are seen next to each other, either way. */
static bool seen_next_to(const struct report_traces *t, size_t a, size_t b)
{
	return loc_link_seen(t, t->elements[a].name, t->elements[b].name) ||
	       loc_link_seen(t, t->elements[b].name, t->elements[a].name);
}

/* Whether the failing traces that stop at unseen element u (their last
 * router answered, nothing after it) go mostly (more than half, at
 * least LOC_FAILING_MIN of them) toward hosts behind router r: whose
 * edge router is r or one traces show next to r. Over a dead link x - r,
 * the flows that come to x for r's side stop after x so. */
static bool stops_toward(const struct model *m, size_t u, size_t r)
{
	const struct report_traces *t = m->t;
	size_t all = 0, toward = 0;

	for (size_t k = 0; k < m->n; k++) {
		const struct loc_obs *o = &m->obs[k];
		size_t edge;

		if (!o->failing || !o->fwd_count || o->fwd[o->fwd_count - 1] != u ||
		    o->end_count < 2)
			continue;
		all++;
		edge = m->edge_of[o->ends[1]];
		toward += edge != SIZE_MAX &&
			  (edge == r || seen_next_to(t, edge, r));
	}
	return toward >= LOC_FAILING_MIN && 2 * toward > all;
}

/* Routers h and x as the two ends of a link no trace crosses: no trace
 * shows them next to each other nor both next to one router (the link
 * would close a triangle: trace_share_neighbour), and the topology the
 * traces show has a place for the link, by either of two signs: it
 * would close cycles of seen links (trace_may_adjoin: each router meets
 * the routers of the next tier), or the traces stopping after one end
 * (unseen element u_h after h, u_x after x; SIZE_MAX: none) go on toward
 * hosts behind the other (stops_toward; where each spine has a single
 * uplink, as in a rail-optimised fabric, no cycle of four closes). */
static bool dead_link_between(const struct model *m, size_t h, size_t u_h,
			      size_t x, size_t u_x)
{
	const struct report_traces *t = m->t;
	const char *hn = t->elements[h].name, *xn = t->elements[x].name;

	if (h == x || seen_next_to(t, h, x) || trace_share_neighbour(t, hn, xn))
		return false;
	return trace_may_adjoin(t, hn, xn) ||
	       (u_h != SIZE_MAX && stops_toward(m, u_h, x)) ||
	       (u_x != SIZE_MAX && stops_toward(m, u_x, h));
}

/* The unseen pick p after router h paired with another after x when no
 * trace crosses h -> x either way, the traces have a place for a link
 * there (dead_link_between) and they are neighbours on the flows'
 * paths: one end is seen in other traces one position past where the
 * other's traces stop (both, when strict). 1 when paired (s named), 0
 * when not, -1 when memory ran out. */
static int pair_stops(const struct model *m, struct localise_suspect *s,
		      const struct loc_pick *p, const struct loc_fit *fit,
		      bool *used, bool strict)
{
	const struct report_traces *t = m->t;
	size_t h = m->el[p->element].after;
	const char *hn = t->elements[h].name;

	for (size_t k = 0; k < fit->count; k++) {
		const struct elem *o = &m->el[fit->picks[k].element];
		const char *xn;
		bool there, back;

		if (used[k] || o->after == SIZE_MAX || o->after == h)
			continue;
		xn = t->elements[o->after].name;
		/* A dead link joins routers of adjacent tiers: no trace
		 * crosses it, but it would close a cycle of seen links
		 * (two routers where traces stop for other reasons, of one
		 * tier or far apart, would not). */
		there = (m->el[p->element].at << 1) & m->el[o->after].at;
		back = (o->at << 1) & m->el[h].at;
		if (!dead_link_between(m, h, p->element, o->after,
				       fit->picks[k].element))
			continue;
		if (strict ? !(there && back) : !(there || back))
			continue;
		loc_absorb(s, fit, k, used);
		s->kind = "link";
		s->confidence = 1 - (1 - s->confidence) *
					    (1 - fit->picks[k].confidence);
		if (asprintf(&s->name, "%s -> %s", hn, xn) < 0 ||
		    asprintf(&s->reason, "the traces of %zu failing flows stop "
			     "after %s and of %zu after %s; no trace crosses "
			     "between them", p->stats.failing, hn,
			     fit->picks[k].stats.failing, xn) < 0)
			return -1;
		return 1;
	}
	return 0;
}

/* Of routers h and x, whether a router seen next to x meets one that h
 * meets too (it is of h's tier, a peer of h): the fabric's symmetry
 * gives h a link to x as well. */
static bool peer_meets(const struct report_traces *t, const char *h,
		       const char *x)
{
	size_t near[64], n = trace_neighbours(t, x, near, 64);

	for (size_t i = 0; i < n; i++)
		if (strcmp(t->elements[near[i]].name, h) != 0 &&
		    trace_share_neighbour(t, t->elements[near[i]].name, h))
			return true;
	return false;
}

/* How many routers seen next to x meet a router h meets too (h's
 * peers, of its tier). */
static size_t peers_meeting(const struct report_traces *t, const char *h,
			    const char *x)
{
	size_t near[64], n = trace_neighbours(t, x, near, 64), count = 0;

	for (size_t i = 0; i < n; i++)
		count += strcmp(t->elements[near[i]].name, h) != 0 &&
			 trace_share_neighbour(t, t->elements[near[i]].name, h);
	return count;
}

/* The unseen pick p after router h, its far end not among the picks
 * (its stops explained otherwise, or its traces lost): the edge router x
 * that most of the stops go toward (the destinations' edge, more than
 * half of them, at least LOC_FAILING_MIN), when no trace shows x next to
 * h nor next to a router h meets (no triangle), x is seen one hop past
 * where h's traces stop, and h's peers meet x (peer_meets: h's passing
 * flows never go to x, though the fabric's symmetry says they should).
 * Named as the link h -> x (a dead uplink of x seen from above). 1 when
 * named, 0 when not, -1 when memory ran out. */
static int one_end_link(const struct model *m, struct localise_suspect *s,
			const struct loc_pick *p, size_t h)
{
	const struct report_traces *t = m->t;
	const char *hn = t->elements[h].name, *xn;
	size_t x = SIZE_MAX, votes = 0, all = 0, to = 0;

	/* The majority edge (Boyer-Moore), then its count. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < m->n; k++) {
			const struct loc_obs *o = &m->obs[k];
			size_t edge;

			if (!o->failing || !o->fwd_count ||
			    o->fwd[o->fwd_count - 1] != p->element ||
			    o->end_count < 2)
				continue;
			edge = m->edge_of[o->ends[1]];
			if (pass) {
				all++;
				to += edge == x;
			} else if (!votes) {
				x = edge;
				votes = 1;
			} else {
				votes += edge == x ? 1 : (size_t)-1;
			}
		}
	if (x >= t->element_count || x == h || to < LOC_FAILING_MIN ||
	    2 * to <= all || !((m->el[p->element].at << 1) & m->el[x].at))
		return 0;
	xn = t->elements[x].name;
	if (seen_next_to(t, h, x) || trace_share_neighbour(t, hn, xn) ||
	    !peer_meets(t, hn, xn))
		return 0;
	s->kind = "link";
	if (asprintf(&s->name, "%s -> %s", hn, xn) < 0 ||
	    asprintf(&s->reason, "the traces of %zu failing flows stop after "
		     "%s, %zu of them toward hosts behind %s; no trace crosses "
		     "between them, though routers of its tier meet %s",
		     all, hn, to, xn, xn) < 0)
		return -1;
	return 1;
}

/* The unseen pick p after router h, its far end not placed otherwise
 * (the stops at that end not among the picks, and its failing flows
 * spread over many destinations): the routers x seen in other traces one
 * hop past where p's traces stop, never next to h, in no triangle with
 * h, and where the topology the traces show has a place for a link to
 * h (trace_may_adjoin: the routers x meets are h's peers, meeting h's
 * neighbours as h does). h's passing flows never reach such an x,
 * though its peers' do: the next hop its failing flows took. One: the
 * dead link h -> x; up to UNSEEN_CANDIDATES_MAX, the link to the one met
 * by the most of h's peers, the others its alternatives. 1 when named,
 * 0 when not, -1 when memory ran out. */
static int peer_link(const struct model *m, struct localise_suspect *s,
		     const struct loc_pick *p, size_t h)
{
	const struct report_traces *t = m->t;
	const char *hn = t->elements[h].name;
	uint64_t past = m->el[p->element].at << 1;
	size_t found[UNSEEN_CANDIDATES_MAX + 1], met[UNSEEN_CANDIDATES_MAX + 1];
	size_t near[2], n = 0;

	/* (one seen neighbour closes every cycle it is in: no evidence) */
	if (trace_neighbours(t, hn, near, 2) < 2)
		return 0;
	for (size_t x = 0; x < t->element_count && n <= UNSEEN_CANDIDATES_MAX;
	     x++) {
		const char *xn = t->elements[x].name;
		size_t peers;

		if (t->elements[x].kind == REPORT_PATH_LINK || x == h ||
		    !(past & m->el[x].at) || seen_next_to(t, h, x) ||
		    trace_share_neighbour(t, hn, xn) ||
		    !trace_may_adjoin(t, hn, xn))
			continue;
		/* Two of h's peers at least: one may meet x by another
		 * way than h's tier does. */
		peers = peers_meeting(t, hn, xn);
		if (peers < 2)
			continue;
		found[n] = x;
		met[n++] = peers;
	}
	if (!n || n > UNSEEN_CANDIDATES_MAX)
		return 0;
	sort_by_count(found, met, n);
	s->kind = "link";
	if (asprintf(&s->name, "%s -> %s", hn, t->elements[found[0]].name) < 0)
		return -1;
	for (size_t k = 1; k < n; k++) {
		char *alt;
		int rc;

		if (asprintf(&alt, "%s -> %s", hn, t->elements[found[k]].name) < 0)
			return -1;
		rc = loc_add_name(&s->alternatives, &s->alternative_count, alt);
		free(alt);
		if (rc)
			return -1;
	}
	if (n > 1)
		s->confidence = p->confidence * met[0] / (met[0] + met[1]);
	if (asprintf(&s->reason, "the traces of %zu failing flows stop after "
		     "%s; no trace crosses from it to %s, which %zu of its "
		     "peers (routers that share a neighbour with it) meet; its "
		     "passing flows go on to its other next hops",
		     p->stats.failing, hn, t->elements[found[0]].name,
		     met[0]) < 0)
		return -1;
	return 1;
}

/* The hop after router h is silent by policy (an ICMP rate limit, or a
 * router that never answers traces), not by fault: the passing traces
 * that go on past h to another router skip it at least half as often as the
 * failing ones do. A fault on the way loses the failing flows' queries,
 * not the passing ones'; a rate limit costs both alike. The passing
 * traces are a sample: one skip more than they show is counted, so
 * that a rate limit too rare to show in a few of them is not taken for
 * a fault (a fault that skips most failing traces still is). False when
 * too few passing traces go on past h to tell. */
static bool silent_by_policy(const struct model *m, size_t h)
{
	size_t on[2] = { 0 }, skip[2] = { 0 };

	for (size_t k = 0; k < m->n; k++) {
		const struct report_trace_flow *f = m->flow_of[k];
		int failing = m->obs[k].failing;

		for (size_t i = 0; f && i + 1 < f->element_count; i++) {
			const struct report_path_element *next =
				&m->t->elements[f->elements[i + 1]];

			if (f->elements[i] != h)
				continue;
			/* (a trace that leaves h for a host goes no further) */
			if (next->kind != REPORT_PATH_LINK ||
			    loc_node_element(m->t, next->to) != SIZE_MAX) {
				on[failing]++;
				skip[failing] += next->kind != REPORT_PATH_LINK;
			}
			break;
		}
	}
	if (on[0] < POLICY_PASSING_MIN || !on[1])
		return false;
	return 2 * (double)(skip[0] + 1) / (on[0] + 1) >=
	       (double)skip[1] / on[1];
}

/* Nearly all (eight in ten) of the failing flows of unseen pick e go to
 * hosts whose edge router no trace shows (it never answers): where
 * their traces stop says only that the fault is at that edge or on the
 * way into it. */
static bool toward_unseen_edges(const struct model *m, size_t e)
{
	size_t all = 0, unseen = 0;

	for (size_t k = 0; k < m->n; k++) {
		const struct loc_obs *o = &m->obs[k];
		bool through = false;

		for (size_t i = 0; !through && i < o->fwd_count; i++)
			through = o->fwd[i] == e;
		if (!through || !o->failing || o->end_count < 2)
			continue;
		all++;
		unseen += m->edge_of[o->ends[1]] == SIZE_MAX;
	}
	return all >= LOC_FAILING_MIN && 10 * unseen >= 8 * all;
}

/* same_stop_fn: toward_unseen_edges. */
static bool toward_unseen_edges_of(const struct model *m, size_t e,
				   const void *arg)
{
	(void)arg;
	return toward_unseen_edges(m, e);
}

/* The unseen pick p after h whose failing flows go to hosts behind an
 * edge that never answers (toward_unseen_edges), named as the hop after
 * h, with the other unseen picks of that kind (the same silent edge,
 * reached over other routers: their replies or queries cross the fault
 * too). 1 when so, 0 when not, -1 when memory ran out. */
static int silent_edge(const struct model *m, struct localise_suspect *s,
		       const struct loc_pick *p, const struct loc_fit *fit,
		       bool *used, size_t h)
{
	const struct report_traces *t = m->t;
	char *list = NULL;
	size_t stops;

	if (!toward_unseen_edges(m, p->element))
		return 0;
	stops = absorb_stops(m, s, fit, used, t->elements[h].name,
			     toward_unseen_edges_of, NULL, &list);
	if (!stops)
		return -1;
	s->kind = "hop";
	s->name = strdup(m->el[p->element].name);
	if (!s->name ||
	    asprintf(&s->reason, "cannot localise: the traces of %zu failing "
		     "flows stop after %s%s, toward hosts whose edge router "
		     "answers no trace; the fault is at that router or on a "
		     "link into it", s->failing, stops > 1 ? "the routers " : "",
		     list) < 0) {
		free(list);
		return -1;
	}
	free(list);
	return 1;
}

/* Whether the data clear each of n next hops (next_hops_carried): it
 * carries results, and they mostly pass or go on past it (stop_share
 * under a half): it forwards them. A next hop that carries none is not
 * cleared: nothing is known of it. */
static bool all_cleared(const double *stop_share, const double *carried,
			size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (stop_share[k] >= 0.5 || carried[k] <= 0)
			return false;
	return true;
}

/* Router h has next hops in the traces, no more than a candidate set
 * names, and the data clear each (all_cleared): they forward h's
 * flows; the hop after h that lost the failing ones is one no trace
 * shows. */
static bool next_hops_cleared(const struct model *m, size_t h)
{
	size_t hops[16];
	double share[16], stop_share[16], carried[16];
	size_t n = next_hops_carried(m, h, hops, share, stop_share, carried, 16);

	return n && n <= UNSEEN_CANDIDATES_MAX &&
	       all_cleared(stop_share, carried, n);
}

/* same_stop_fn: next_hops_cleared of the router e follows. */
static bool next_hops_cleared_of(const struct model *m, size_t e,
				 const void *arg)
{
	(void)arg;
	return next_hops_cleared(m, m->el[e].after);
}

/* A router already named for loss that traces show next to router h:
 * the hop after h that did not answer on failing flows is that router,
 * which loses the trace queries as it loses the rest (one fault). */
static bool next_to_named(const struct model *m, const struct loc_fit *fit,
			  const bool *used, size_t h)
{
	const struct report_traces *t = m->t;

	for (size_t k = 0; k < fit->count; k++) {
		size_t r = fit->picks[k].element;

		if (used[k] && r < t->element_count &&
		    t->elements[r].kind != REPORT_PATH_LINK &&
		    loc_link_seen(t, t->elements[h].name, t->elements[r].name))
			return true;
	}
	return false;
}

/* s is no suspect (kind NULL, dropped by drop_withdrawn), and its
 * element is left out of the next fit: the results it took are then
 * explained by what else they crossed, or stay unexplained; when
 * keepable and they do (localise.c keep_unexplained), it is put back. */
static void withdraw(struct model *m, struct localise_suspect *s, size_t e,
		     bool keepable)
{
	s->kind = NULL;
	if (m->excluded && !m->excluded[e]) {
		m->excluded[e] = true;
		m->withdrew = true;
		if (m->withdrawn)
			m->withdrawn[e] = keepable;
	}
}

/* Whether router name is suspect x's element: the router, or an end of
 * the link when x's link is unseen (dead, its ends silent to each other)
 * or when its other end is router h (a link out of h). */
static bool names_router(const struct localise_suspect *x, const char *name,
			 const char *h)
{
	const char *arrow;
	size_t len;

	if (!x->kind || !x->name)
		return false;
	if (strcmp(x->kind, "router") == 0)
		return strcmp(x->name, name) == 0;
	if (strcmp(x->kind, "link") != 0 || !(arrow = strstr(x->name, " -> ")))
		return false;
	len = (size_t)(arrow - x->name);
	for (int end = 0; end < 2; end++) {
		const char *a = end ? arrow + 4 : x->name;
		const char *b = end ? x->name : arrow + 4;
		size_t alen = end ? strlen(a) : len, blen = end ? len : strlen(b);

		if (strlen(name) != alen || strncmp(a, name, alen) != 0)
			continue;
		if (x->cause == LOCALISE_UNSEEN ||
		    (strlen(h) == blen && strncmp(b, h, blen) == 0))
			return true;
	}
	return false;
}

/* The unseen pick p after router h, where a router seen after h (one of
 * hops, n of them: next_hops) is already named, or is an end of a dead
 * link already named, with more failing flows than p: that fault loses
 * the trace queries to that router, or its answers on their way back,
 * as it loses the rest; p is its shadow, its stops seen from one more
 * router. The suspect named, its index in l (below the last, s's own);
 * SIZE_MAX when none. */
static size_t shadow_of_named(const struct model *m, const struct localise *l,
			      const struct loc_pick *p, const size_t *hops,
			      size_t n)
{
	const struct report_traces *t = m->t;
	const char *hn = t->elements[m->el[p->element].after].name;

	for (size_t j = 0; j + 1 < l->count; j++) {
		if (l->items[j].failing <= p->stats.failing)
			continue;
		for (size_t i = 0; i < n; i++)
			if (names_router(&l->items[j], t->elements[hops[i]].to,
					 hn))
				return j;
	}
	return SIZE_MAX;
}

/* Kept unseen pick p (localise.c keep_unexplained), the last suspect of
 * l: the first of its group named, with the reason; the others added to
 * it, their hops its aliases (the one silent router seen from each of
 * its neighbours). */
static int name_kept(struct model *m, struct localise *l,
		     const struct loc_pick *p)
{
	struct localise_suspect *s = &l->items[l->count - 1], *head;
	size_t g = loc_kept_first(m, p->element);
	char *others = NULL, *reason;
	size_t len = 0;
	FILE *f;

	if (!m->group_named[g]) {
		m->group_named[g] = l->count;
		s->kind = "hop";
		s->name = strdup(m->el[p->element].name);
		if (!s->name ||
		    asprintf(&s->reason, "the traces of %zu failing flows show "
			     "no answer after %s, where passing traces find "
			     "no answer either, and nothing else explains those "
			     "flows: a router there that does not answer traces "
			     "loses them, or the link to it",
			     s->failing, m->t->elements[m->el[p->element].after]
						 .name) < 0)
			return -1;
		return 0;
	}
	head = &l->items[m->group_named[g] - 1];
	head->failing += p->stats.failing;
	head->explained += p->explained;
	head->llr += p->stats.llr;
	s->kind = NULL;
	if (loc_add_name(&head->aliases, &head->alias_count,
			 m->el[p->element].name))
		return -1;
	f = open_memstream(&others, &len);
	if (!f)
		return -1;
	for (size_t i = 0; i < head->alias_count; i++)
		fprintf(f, "%s%s", i == 0 ? "" :
				   i + 1 == head->alias_count ? " and " : ", ",
			head->aliases[i] + strlen("after "));
	if (fclose(f))
		return -1;
	if (asprintf(&reason, "the traces of %zu failing flows show no answer "
		     "%s and after %s (traces go from one of these to another "
		     "over a hop that does not answer: one router, seen from "
		     "each), where passing traces find no answer either, and "
		     "nothing else explains those flows: a router there that "
		     "does not answer traces loses them, or a link to it",
		     head->failing, head->name, others) < 0) {
		free(others);
		return -1;
	}
	free(others);
	free(head->reason);
	head->reason = reason;
	return 0;
}

/* An unseen element after router h: paired with another unseen pick
 * after x when no trace crosses h -> x either way (a dead link, seen
 * from both ends); else the next hops of h's flows as candidates. */
int loc_name_unseen(struct model *m, struct localise *l,
		    const struct loc_pick *p, const struct loc_fit *fit,
		    bool *used)
{
	const struct report_traces *t = m->t;
	struct localise_suspect *s = &l->items[l->count - 1];
	size_t h = m->el[p->element].after, hops[16];
	const char *hn = t->elements[h].name;
	double share[16], stop_share[16], carried[16];
	size_t n, spread = 0, named;
	char *list = NULL;
	size_t len = 0;
	FILE *f;

	s->cause = LOCALISE_UNSEEN;
	/* Withdrawn before, and nothing else explained its failing
	 * results (localise.c keep_unexplained): the hop after h is silent
	 * by policy and loses them too, or its link does. */
	if (m->kept && m->kept[p->element])
		return name_kept(m, l, p);
	/* Most failing traces go on past it: a router that never answers,
	 * whose address no trace gives; when its passing flows skip it as
	 * often, that is its policy, and no suspect (s withdrawn: kind
	 * NULL). */
	if (2 * m->el[p->element].gaps > p->stats.failing) {
		/* (next to a router named for loss: that router, which
		 * loses the queries too; never kept) */
		if (next_to_named(m, fit, used, h)) {
			withdraw(m, s, p->element, false);
			return 0;
		}
		if (silent_by_policy(m, h)) {
			withdraw(m, s, p->element, true);
			return 0;
		}
	}
	if (2 * m->el[p->element].gaps > p->stats.failing) {
		s->kind = "hop";
		s->name = strdup(m->el[p->element].name);
		if (!s->name ||
		    asprintf(&s->reason, "the traces of %zu failing flows show "
			     "no hop after %s (a router that does not answer "
			     "traces); its address is not known",
			     p->stats.failing, hn) < 0)
			return -1;
		return 0;
	}
	switch (one_destination(m, s, p, hn, &spread)) {
	case -1:
		return -1;
	case 1:
		return 0;
	}
	n = next_hops_carried(m, h, hops, share, stop_share, carried, 16);
	/* No router after h in any trace and hosts' access links end at
	 * it: h is an edge, its next hops hosts. Failing flows toward
	 * several of them (not one host's fault) stop at it: h answers
	 * but does not forward. */
	if (!n && m->edge_router[h] && spread >= LOC_FAILING_MIN) {
		s->kind = "router";
		s->name = strdup(hn);
		s->address = strdup(hn);
		if (asprintf(&s->reason, "the traces of %zu failing flows stop "
			     "after %s, an edge router (no trace shows a router "
			     "after it), toward several of its hosts: it "
			     "answers but does not forward",
			     p->stats.failing, hn) < 0)
			s->reason = NULL;
		return s->name && s->address && s->reason ? 0 : -1;
	}
	/* A router after h already named (or an end of a dead link named)
	 * with more failing flows: that fault's stops, seen from one more
	 * router; its evidence added there, no suspect of its own. */
	named = shadow_of_named(m, l, p, hops, n);
	if (named != SIZE_MAX) {
		l->items[named].failing += p->stats.failing;
		l->items[named].explained += p->explained;
		s->kind = NULL;
		return 0;
	}
	/* A dead link seen from both ends first (both ends placed as
	 * neighbours), then a router several stops lead to, then a dead
	 * link with one end placed. */
	for (int pass = 0; pass < 3; pass++) {
		int rc = pass == 1 ? shared_next_hop(m, s, p, fit, used, hops, n)
				   : pair_stops(m, s, p, fit, used, pass == 0);

		if (rc)
			return rc < 0 ? -1 : 0;
	}
	switch (one_end_link(m, s, p, h)) {
	case -1:
		return -1;
	case 1:
		return 0;
	}
	switch (silent_edge(m, s, p, fit, used, h)) {
	case -1:
		return -1;
	case 1:
		return 0;
	}
	switch (peer_link(m, s, p, h)) {
	case -1:
		return -1;
	case 1:
		return 0;
	}
	/* Passing flows toward the same destinations show no router one
	 * hop past h: that hop never answers, and the fault is there or
	 * on the link to it; no address can be given. */
	{
		size_t toward[1], votes[1], traces;

		if (!next_toward(m, p, h, toward, votes, 1, &traces) &&
		    traces >= LOC_FAILING_MIN) {
			s->kind = "hop";
			s->name = strdup(m->el[p->element].name);
			if (!s->name ||
			    asprintf(&s->reason, "cannot localise: the traces "
				     "of %zu failing flows stop after %s; the "
				     "hop after it toward their destinations "
				     "answers none of %zu passing traces (a "
				     "router that does not answer traces, or "
				     "the link to it)", p->stats.failing, hn,
				     traces) < 0)
				return -1;
			return 0;
		}
	}
	f = open_memstream(&list, &len);
	if (!f)
		return -1;
	for (size_t k = 0; k < n; k++)
		fprintf(f, "%s%s", k == 0 ? "" : k + 1 == n ? " or " : ", ",
			t->elements[hops[k]].to);
	if (fclose(f))
		return -1;
	/* Its flows fail toward its next hops alike, nearly all of them
	 * (noise fails some everywhere): h answers traces but does not
	 * forward. */
	if (n >= 2 && share[0] >= 0.9 && share[1] >= 0.9) {
		s->kind = "router";
		s->name = strdup(hn);
		s->address = strdup(hn);
		if (asprintf(&s->reason, "the traces of %zu failing flows stop "
			     "after %s, and most of its flows toward %s fail: "
			     "it answers but does not forward",
			     p->stats.failing, hn, list) < 0)
			s->reason = NULL;
		free(list);
		return s->name && s->address && s->reason ? 0 : -1;
	}
	/* More next hops than a candidate set can name, and the flows
	 * toward each of them pass mostly, or go on past it (the data
	 * clear each): nothing after h stands out (a fault there would
	 * fail most flows toward its next hop); the stops are answers lost
	 * on their way back, across a fault named elsewhere. No suspect (s
	 * withdrawn). */
	if (n > UNSEEN_CANDIDATES_MAX &&
	    (share[0] < 0.5 || all_cleared(stop_share, carried, n))) {
		free(list);
		withdraw(m, s, p->element, true);
		return 0;
	}
	/* A next hop whose flows mostly pass, or go on past it, forwards
	 * them: the data clear it. When they clear every one, the hop that
	 * did not answer the failing flows is one no trace shows (with
	 * stops after other routers whose next hops are cleared alike).
	 * When some are not cleared, all are still listed, the most failing
	 * first: a branch that carries no results may be the one the fault
	 * hides. */
	if (n && n <= UNSEEN_CANDIDATES_MAX &&
	    all_cleared(stop_share, carried, n)) {
		char *stops = NULL;
		size_t count = absorb_stops(m, s, fit, used, hn,
					    next_hops_cleared_of, NULL, &stops);

		s->kind = "hop";
		s->name = strdup(m->el[p->element].name);
		if (!count ||
		    asprintf(&s->reason, "the traces of %zu failing flows stop "
			     "after %s%s; the next hops traces show after %s "
			     "(%s)%s forward most of %s flows: the hop after %s "
			     "is one that answers no trace, or the link to it",
			     s->failing, count > 1 ? "the routers " : "", stops,
			     hn, list, count > 1 ? " and after the others" : "",
			     count > 1 ? "their" : "its",
			     count > 1 ? "each" : "it") < 0)
			s->reason = NULL;
		free(stops);
		free(list);
		return s->name && s->reason ? 0 : -1;
	}
	if (n) {
		s->kind = "router";
		s->name = strdup(t->elements[hops[0]].to);
		s->address = strdup(t->elements[hops[0]].to);
		for (size_t k = 1; k < n; k++)
			if (loc_add_name(&s->alternatives,
					 &s->alternative_count,
					 t->elements[hops[k]].to))
				break;
		s->confidence = share[0] > 0 ? p->confidence * share[0] /
							 (share[0] + (n > 1 ? share[1] : 0))
					     : p->confidence / n;
	} else {
		s->kind = "hop";
		s->name = strdup(m->el[p->element].name);
	}
	if (asprintf(&s->reason, "the traces of %zu failing flows stop after "
		     "%s; the next hop of its passing flows is %s",
		     p->stats.failing, hn, n ? list : "not known") < 0)
		s->reason = NULL;
	free(list);
	return s->name && s->reason ? 0 : -1;
}
