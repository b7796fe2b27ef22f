/* The localisation's model (localise_model.h): its elements from the
 * traces (routers, links, hosts, the unseen hop after a router), each
 * result's forward path, reverse ends and access links, the pairs'
 * paths its untraced results are spread over, and how the elements
 * relate for the fit (localise_fit.h loc_relations). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/flow_paths.h"
#include "report/localise_model.h"
#include "report/trace_neighbours.h"

/* Tie-breaks of equal evidence (localise_fit.h prefer): a host before
 * the link to it; where traces stop before the links that lead there
 * (a link into a router carries flows that go on elsewhere too, only
 * the sampled passing ones are seen); a link before a router. */
enum prefer { PREFER_HOST, PREFER_UNSEEN, PREFER_LINK, PREFER_ROUTER };

#define ACCESS_SEVERAL ((void *)UINTPTR_MAX)

static size_t add_elem(struct model *m, const char *key, const char *kind,
		       const char *name, const char *address, size_t after,
		       enum prefer prefer)
{
	void **slot = key ? strmap_slot(&m->index, key) : NULL;
	struct elem *e;

	if (key && !slot)
		return SIZE_MAX;
	if (slot && *slot)
		return (size_t)(uintptr_t)*slot - 1;
	if (m->count == m->capacity) {
		size_t cap = m->capacity ? 2 * m->capacity : 64;
		struct elem *x = realloc(m->el, cap * sizeof(*x));
		unsigned char *p = realloc(m->prefer, cap);

		if (x)
			m->el = x;
		if (p)
			m->prefer = p;
		if (!x || !p)
			return SIZE_MAX;
		m->capacity = cap;
	}
	e = &m->el[m->count];
	*e = (struct elem){ .kind = kind, .name = strdup(name),
			    .address = address ? strdup(address) : NULL,
			    .after = after, .before = SIZE_MAX };
	if (!e->name || (address && !e->address)) {
		free(e->name);
		free(e->address);
		return SIZE_MAX;
	}
	m->prefer[m->count] = (unsigned char)prefer;
	if (slot)
		*slot = (void *)(uintptr_t)(m->count + 1);
	return m->count++;
}

static size_t counted(struct strmap *map, const char *key, size_t *count)
{
	void **slot = strmap_slot(map, key);

	if (!slot)
		return SIZE_MAX;
	if (!*slot)
		*slot = (void *)(uintptr_t)(++*count);
	return (size_t)(uintptr_t)*slot - 1;
}

/* The address of a GID or destination text as traces key them; NULL
 * when it is none. */
static bool address_of(const char *text, char *out, size_t len)
{
	return text && report_addr_normalize(text, out, len) == 0;
}

/* A host, by its NIC's address: source and destination are one element
 * (a lossy NIC loses both ways). Named by the host that probed from it
 * when one did. */
static size_t host_elem(struct model *m, const char *addr)
{
	char key[80];
	const char *name = strmap_get(&m->hosts, addr);

	snprintf(key, sizeof(key), "h:%s", addr);
	return add_elem(m, key, "host", name ? name : addr, addr, SIZE_MAX,
			PREFER_HOST);
}

/* The hop that did not answer after router (before: before it), keyed
 * apart from every other element. */
static size_t unseen_hop_elem(struct model *m, size_t router, bool before)
{
	char key[32], *name;
	size_t e;

	snprintf(key, sizeof(key), "%c:%zu", before ? 'b' : 'u', router);
	if (asprintf(&name, "%s %s", before ? "before" : "after",
		     m->t->elements[router].name) < 0)
		return SIZE_MAX;
	e = add_elem(m, key, "hop", name, NULL, before ? SIZE_MAX : router,
		     PREFER_UNSEEN);
	free(name);
	if (e != SIZE_MAX && before)
		m->el[e].before = router;
	return e;
}

static size_t unseen_elem(struct model *m, size_t router)
{
	return unseen_hop_elem(m, router, false);
}

/* The hop before router r that did not answer, reached after another
 * router that did (model_silent_before): a router that never answers
 * traces, or its link into r. A loss there fails the flows that come
 * into r over it from any router before (each of those, the unseen hop
 * after it, carries only its share of them); the flows that reach r
 * otherwise clear it. */
static size_t unseen_before_elem(struct model *m, size_t router)
{
	return unseen_hop_elem(m, router, true);
}

/* The router or switch named so in the traces (SIZE_MAX: none); the
 * traces key elements by kind, so a link's name never passes for one. */
size_t loc_node_element(const struct report_traces *t, const char *name)
{
	size_t i = report_traces_element_find(t, REPORT_PATH_ROUTER, name);

	return i != SIZE_MAX ? i : report_traces_element_find(
					   t, REPORT_PATH_SWITCH, name);
}

/* The link a -> b of the traces (SIZE_MAX: none; also out of memory). */
static size_t link_element(const struct report_traces *t, const char *a,
			   const char *b)
{
	/* (on the stack when it fits: forward paths ask once a hop) */
	char buf[256], *name = buf;
	size_t la = strlen(a), lb = strlen(b), i;

	if (la + lb + 5 > sizeof(buf) &&
	    !(name = malloc(la + lb + 5)))
		return SIZE_MAX;
	memcpy(name, a, la);
	memcpy(name + la, " -> ", 4);
	memcpy(name + la + 4, b, lb + 1);
	i = report_traces_element_find(t, REPORT_PATH_LINK, name);
	if (name != buf)
		free(name);
	return i;
}

bool loc_link_seen(const struct report_traces *t, const char *a, const char *b)
{
	return link_element(t, a, b) != SIZE_MAX;
}

/* The hop (1: the first) at which element i of f answered: one per
 * router, one more for each hop that did not answer before it (two
 * routers without the link between them: one hop is taken to be
 * missing). 0 for a link. */
unsigned loc_hop_at(const struct report_traces *t,
		    const struct report_trace_flow *f, size_t i, unsigned prev)
{
	if (t->elements[f->elements[i]].kind == REPORT_PATH_LINK)
		return 0;
	return prev + (i > 0 && t->elements[f->elements[i - 1]].kind ==
					      REPORT_PATH_LINK
			       ? 1
			       : 2);
}

int loc_model_elements(struct model *m)
{
	const struct report_traces *t = m->t;
	const char *last_sgid = NULL;
	bool last_named = false;

	for (size_t k = 0; k < m->r->record_count; k++) {
		const struct report_record *rec = m->r->records[k];
		char addr[64];
		void **slot;

		/* (a source's results come together, with one sgid string:
		 * once its address is named, the others change nothing) */
		if (rec->sgid && rec->sgid == last_sgid && last_named)
			continue;
		last_sgid = rec->sgid;
		last_named = false;
		if (!address_of(rec->sgid, addr, sizeof(addr)))
			continue;
		slot = strmap_slot(&m->hosts, addr);
		if (!slot)
			return -1;
		if (!*slot)
			*slot = rec->host;
		last_named = *slot != NULL;
	}
	/* Trace elements first, numbered as the traces number them. */
	for (size_t i = 0; i < t->element_count; i++) {
		const struct report_path_element *e = &t->elements[i];
		bool link = e->kind == REPORT_PATH_LINK;

		if (add_elem(m, NULL, report_path_kind_name(e->kind), e->name, link ? NULL : e->name, SIZE_MAX,
			     link ? PREFER_LINK : PREFER_ROUTER) == SIZE_MAX)
			return -1;
	}
	m->out_next = calloc(t->element_count + 1, sizeof(*m->out_next));
	if (!m->out_next)
		return -1;
	for (size_t i = t->element_count; i-- > 0;) {
		void **slot;

		if (t->elements[i].kind != REPORT_PATH_LINK)
			continue;
		slot = strmap_slot(&m->out_first, t->elements[i].from);
		if (!slot)
			return -1;
		m->out_next[i] = *slot ? (size_t)(uintptr_t)*slot - 1 : SIZE_MAX;
		*slot = (void *)(uintptr_t)(i + 1);
	}
	for (size_t i = 0; i < t->element_count; i++) {
		const struct report_path_element *l = &t->elements[i];
		void **slot;

		if (l->kind != REPORT_PATH_LINK || !l->to ||
		    loc_node_element(t, l->to) != SIZE_MAX ||
		    loc_node_element(t, l->from) == SIZE_MAX)
			continue;
		slot = strmap_slot(&m->access_in, l->to);
		if (!slot)
			return -1;
		*slot = *slot ? ACCESS_SEVERAL : (void *)(uintptr_t)(i + 1);
	}
	/* (by hop, a hop that did not answer counted: where a router never
	 * answers, the routers past it keep their places) */
	for (size_t k = 0; k < t->count; k++) {
		const struct report_trace_flow *f = &t->flows[k];
		unsigned hop = 0;

		for (size_t i = 0; i < f->element_count; i++) {
			unsigned at = loc_hop_at(t, f, i, hop);

			if (!at)
				continue;
			hop = at;
			if (hop <= 64)
				m->el[f->elements[i]].at |= 1ull << (hop - 1);
		}
	}
	return 0;
}

/* The hop (1-based, at most 64) of the last router of f (hop_at). */
static unsigned last_position(const struct report_traces *t,
			      const struct report_trace_flow *f)
{
	unsigned hop = 0;

	for (size_t i = 0; i < f->element_count; i++) {
		unsigned at = loc_hop_at(t, f, i, hop);

		hop = at ? at : hop;
	}
	return hop > 64 ? 64 : hop;
}

/* The trace stopped at the router before its destination (the link
 * from it to the destination is known from others): its forward path
 * is all but done, and a reply lost on its way back stops a trace as
 * well; nothing unseen is there. */
static bool stopped_at_edge(const struct report_traces *t,
			    const struct report_trace_flow *f, size_t last)
{
	const char *dest = f->dest_address ? f->dest_address : f->dest;

	return last != SIZE_MAX && dest &&
	       loc_link_seen(t, t->elements[last].name, dest);
}

/* The trace reached its destination: its last element is the link into
 * it (a router last: the trace stopped after that router). */
static bool reached(const struct report_traces *t,
		    const struct report_trace_flow *f)
{
	const struct report_path_element *last =
		&t->elements[f->elements[f->element_count - 1]];

	return last->kind == REPORT_PATH_LINK;
}

size_t loc_first_router(const struct report_traces *t,
			const struct report_trace_flow *f, bool last)
{
	for (size_t i = 0; i < f->element_count; i++) {
		size_t e = f->elements[last ? f->element_count - 1 - i : i];

		if (t->elements[e].kind != REPORT_PATH_LINK)
			return e;
	}
	return SIZE_MAX;
}

/* Room in l for n more. */
static int list_reserve(struct idlist *l, size_t n)
{
	size_t cap = l->capacity ? l->capacity : 16;
	size_t *x;

	if (l->count + n <= l->capacity)
		return 0;
	while (cap < l->count + n)
		cap *= 2;
	x = realloc(l->ids, cap * sizeof(*x));
	if (!x)
		return -1;
	l->ids = x;
	l->capacity = cap;
	return 0;
}

/* e added to l unless it is there; -1 for SIZE_MAX (an element that
 * could not be made) or when memory ran out. */
static int list_add(struct idlist *l, size_t e)
{
	if (e == SIZE_MAX)
		return -1;
	for (size_t i = 0; i < l->count; i++)
		if (l->ids[i] == e)
			return 0;
	if (list_reserve(l, 1))
		return -1;
	l->ids[l->count++] = e;
	return 0;
}

/* l's elements kept in the model's lists (NULL when l is empty); -1
 * when memory ran out (or past loc_obs's counts). */
static int list_keep(struct model *m, const struct idlist *l,
		     const size_t **out, uint32_t *count)
{
	*out = NULL;
	*count = (uint32_t)l->count;
	if (!l->count)
		return 0;
	if (l->count > UINT32_MAX)
		return -1;
	*out = arena_copy(&m->lists, l->ids, l->count * sizeof(*l->ids));
	return *out ? 0 : -1;
}

/* A hop that did not answer between a and c (a rate-limited or silent
 * router): the one router b with links a -> b and b -> c in other
 * traces, its links in ab and bc; false when none or several. */
static bool fill_gap(const struct model *m, const char *a, const char *c,
		     size_t *ab, size_t *b, size_t *bc)
{
	const struct report_traces *t = m->t;
	void *first = strmap_get(&m->out_first, a);
	size_t found = 0;

	for (size_t i = first ? (size_t)(uintptr_t)first - 1 : SIZE_MAX;
	     i != SIZE_MAX; i = m->out_next[i]) {
		const char *mid = t->elements[i].to;
		size_t router = loc_node_element(t, mid), link;

		if (router == SIZE_MAX)
			continue;
		link = link_element(t, mid, c);
		if (link == SIZE_MAX)
			continue;
		if (found++)
			return false;
		*ab = i;
		*b = router;
		*bc = link;
	}
	return found == 1;
}

/* A hop that did not answer between a and c filled with the one router
 * b that other traces show there (fill_gap), when it may be b
 * (model_answer_rates). */
static bool gap_filled(const struct model *m, const char *a, const char *c,
		       size_t *ab, size_t *b, size_t *bc)
{
	return fill_gap(m, a, c, ab, b, bc) &&
	       (!m->may_be_gap || m->may_be_gap[*b]);
}

/* Whether other traces show some router b with links a -> b and b -> c:
 * a hop that did not answer between a and c is then one hop (several
 * may answer there, or none may be it: fill_gap finds no one router),
 * not a run of them past which c is reached. */
static bool one_hop_between(const struct model *m, const char *a,
			    const char *c)
{
	const struct report_traces *t = m->t;
	void *first = strmap_get(&m->out_first, a);

	for (size_t i = first ? (size_t)(uintptr_t)first - 1 : SIZE_MAX;
	     i != SIZE_MAX; i = m->out_next[i])
		if (loc_node_element(t, t->elements[i].to) != SIZE_MAX &&
		    link_element(t, t->elements[i].to, c) != SIZE_MAX)
			return true;
	return false;
}

/* Element i of f is a router reached over a hop that did not answer:
 * the trace shows no link into it (prev: the router before, or the
 * source). */
static bool gap_before(const struct report_traces *t,
		       const struct report_trace_flow *f, size_t i,
		       const char *prev)
{
	return t->elements[f->elements[i]].kind == REPORT_PATH_ROUTER && prev &&
	       (i == 0 || t->elements[f->elements[i - 1]].kind !=
				  REPORT_PATH_LINK);
}

/* The share of queries a router leaves unanswered, from the hops it
 * answered at least one of k: those hops see (m - m^k) / (1 - m^k) of
 * their queries unanswered, increasing in m; inverted by bisection. */
static double miss_rate(double seen_missing, double k)
{
	double lo = 0, hi = 1;

	if (seen_missing <= 0 || k <= 1)
		return seen_missing > 0 ? seen_missing : 0;
	for (int it = 0; it < 40; it++) {
		double mid = (lo + hi) / 2, p = pow(mid, k);

		if ((mid - p) / (1 - p) < seen_missing)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* Which routers the traces reach over one hop that did not answer
 * (one_hop_between) and that no one router fills, from two or more
 * routers before it: a router there that never answers, shared by them
 * (a silent core between the spines of several pods), whose link into
 * the router after it the flows of all of them cross. A hop unanswered
 * only after one router is as likely that router's flows losing the
 * trace queries on their way to the router other traces show there (a
 * lossy link loses them too). Likewise the routers traces of two or
 * more sources reach first over a first hop that did not answer, the
 * only one before it (an edge router that answers no trace: the hop before is it, or its link
 * into the router; answering from each interface, as Linux routers do,
 * the router's address there names that link alone). 0, or -1 when
 * memory ran out. */
static int model_silent_before(struct model *m)
{
	const struct report_traces *t = m->t;
	size_t *first = malloc((t->element_count + 1) * sizeof(*first));
	/* the first source seen reaching it over an unanswered first hop */
	const char **first_source = calloc(t->element_count + 1,
					   sizeof(*first_source));

	m->silent_before = calloc(t->element_count + 1,
				  sizeof(*m->silent_before));
	m->silent_first = calloc(t->element_count + 1,
				 sizeof(*m->silent_first));
	if (!first || !first_source || !m->silent_before || !m->silent_first) {
		free(first);
		free(first_source);
		return -1;
	}
	for (size_t x = 0; x < t->element_count; x++)
		first[x] = SIZE_MAX;
	for (size_t k = 0; k < t->count; k++) {
		const struct report_trace_flow *f = &t->flows[k];
		const char *prev = f->source;
		size_t prev_router = SIZE_MAX;

		for (size_t i = 0; i < f->element_count; i++) {
			size_t x = f->elements[i], ab, b, bc;
			const struct report_path_element *e = &t->elements[x];

			if (prev_router != SIZE_MAX && !m->silent_before[x] &&
			    first[x] != prev_router &&
			    gap_before(t, f, i, prev) &&
			    !gap_filled(m, prev, e->from, &ab, &b, &bc) &&
			    one_hop_between(m, prev, e->from)) {
				if (first[x] == SIZE_MAX)
					first[x] = prev_router;
				else
					m->silent_before[x] = true;
			}
			if (prev_router == SIZE_MAX && f->source &&
			    f->first_hop == 2 && i == 0 &&
			    !m->silent_first[x] && gap_before(t, f, i, prev) &&
			    !gap_filled(m, prev, e->from, &ab, &b, &bc)) {
				if (!first_source[x])
					first_source[x] = f->source;
				else if (strcmp(first_source[x], f->source) != 0)
					m->silent_first[x] = true;
			}
			if (e->kind == REPORT_PATH_LINK)
				continue;
			prev = e->from;
			prev_router = x;
		}
	}
	free(first);
	free(first_source);
	return 0;
}

/* Which routers a hop that did not answer may be. fill_gap finds the one
 * router other traces show between the routers around the hop, but a
 * router that never answers is in no trace, and the one that is may be
 * its neighbour on another branch. A hop is all unanswered by a router
 * that leaves a share m of its queries unanswered with probability m^k
 * (k queries a hop): about n m^k / (1 - m^k) of such hops beside its n
 * answered ones. A router to which far more hops would be attributed is
 * not what those hops are (the ones it answers all but never). */
int loc_model_answer_rates(struct model *m)
{
	const struct report_traces *t = m->t;
	size_t count = t->element_count + 1;
	double *got = calloc(count, sizeof(*got));
	double *asked = calloc(count, sizeof(*asked));
	size_t *hops = calloc(count, sizeof(*hops));
	size_t *gaps = calloc(count, sizeof(*gaps));
	int rc = -1;

	m->may_be_gap = calloc(count, sizeof(*m->may_be_gap));
	if (!got || !asked || !hops || !gaps || !m->may_be_gap)
		goto out;
	for (size_t k = 0; k < t->count; k++) {
		const struct report_trace_flow *f = &t->flows[k];
		const char *prev = f->source;

		for (size_t i = 0; i < f->element_count; i++) {
			size_t x = f->elements[i], ab, b, bc;
			const struct report_path_element *e = &t->elements[x];

			if (gap_before(t, f, i, prev) &&
			    fill_gap(m, prev, e->from, &ab, &b, &bc))
				gaps[b]++;
			if (e->kind == REPORT_PATH_LINK)
				continue;
			prev = e->from;
			if (f->answered && (f->answered[i] & 15)) {
				got[x] += f->answered[i] >> 4;
				asked[x] += f->answered[i] & 15;
				hops[x]++;
			}
		}
	}
	for (size_t x = 0; x < t->element_count; x++) {
		double k, miss, all_missed, expected;

		if (!gaps[x])
			continue;
		if (!hops[x]) {
			/* (no answer counts: as before, it may be) */
			m->may_be_gap[x] = true;
			continue;
		}
		k = asked[x] / hops[x];
		miss = miss_rate(1 - got[x] / asked[x], k);
		all_missed = pow(miss, k);
		expected = all_missed < 1 ? hops[x] * all_missed /
						    (1 - all_missed)
					  : (double)gaps[x];
		m->may_be_gap[x] = gaps[x] <= 2 * expected + LOC_PASSING_SLACK;
	}
	rc = model_silent_before(m);
out:
	free(got);
	free(asked);
	free(hops);
	free(gaps);
	return rc;
}

/* The forward path of f: its elements, and where one hop did not answer
 * the router other traces show there (when it may be that router). */
static int forward_path(struct model *m, const struct report_trace_flow *f,
			bool f_failing, struct idlist *fwd)
{
	const struct report_traces *t = m->t;
	const char *prev = f->source;
	size_t prev_router = SIZE_MAX;
	int rc = 0;

	for (size_t i = 0; i < f->element_count; i++) {
		const struct report_path_element *e = &t->elements[f->elements[i]];
		size_t ab, b, bc;
		bool gap = gap_before(t, f, i, prev);

		if (gap && gap_filled(m, prev, e->from, &ab, &b, &bc)) {
			rc |= list_add(fwd, ab);
			rc |= list_add(fwd, b);
			rc |= list_add(fwd, bc);
		} else if (gap && prev_router != SIZE_MAX) {
			/* A router no trace shows (it never answers): the
			 * hop after the one before it. */
			size_t u = unseen_elem(m, prev_router);

			rc |= list_add(fwd, u);
			if (u != SIZE_MAX && f_failing)
				m->el[u].gaps++;
			/* (one hop: a run of them may hide routers that
			 * answer elsewhere, and what lies before e is then
			 * not one hop) */
			if (m->silent_before && m->silent_before[f->elements[i]] &&
			    one_hop_between(m, prev, e->from))
				rc |= list_add(fwd, unseen_before_elem(
							    m, f->elements[i]));
		} else if (gap && i == 0 && f->first_hop == 2 &&
			   m->silent_first && m->silent_first[f->elements[i]]) {
			/* (one hop, the first: the source's edge, silent) */
			rc |= list_add(fwd, unseen_before_elem(
						    m, f->elements[i]));
		}
		rc |= list_add(fwd, f->elements[i]);
		if (e->kind != REPORT_PATH_LINK) {
			prev = e->from;
			prev_router = f->elements[i];
		}
	}
	return rc;
}

/* How many datagrams each way the result lost: probe's count from the
 * responder where it has one, else all of it of unknown direction. */
static void losses(const struct report_record *rec, struct loc_obs *o)
{
	double lost = (double)rec->sent - rec->received;

	if (lost < 0)
		lost = 0;
	o->lost_there = o->lost_back = 0;
	o->lost_unknown = lost;
	if (rec->loss_direction == REPORT_LOSS_UNKNOWN || rec->lost_there < 0 ||
	    rec->lost_back < 0)
		return;
	o->lost_there = (double)rec->lost_there;
	o->lost_back = (double)rec->lost_back;
	o->lost_unknown = lost - o->lost_there - o->lost_back;
	if (o->lost_unknown < 0)
		o->lost_unknown = 0;
}

/* A host's access link out of it (out) or into it: the one link of the
 * traces between its address and a router; SIZE_MAX when none or
 * several (a host of two NICs on one address). */
static size_t access_link(const struct model *m, const char *addr, bool out)
{
	const struct report_traces *t = m->t;
	size_t found = SIZE_MAX;
	void *v;

	if (!out) {
		v = strmap_get(&m->access_in, addr);
		return v && v != ACCESS_SEVERAL ? (size_t)(uintptr_t)v - 1
						: SIZE_MAX;
	}
	v = strmap_get(&m->out_first, addr);
	for (size_t i = v ? (size_t)(uintptr_t)v - 1 : SIZE_MAX;
	     i != SIZE_MAX; i = m->out_next[i]) {
		if (loc_node_element(t, t->elements[i].to) == SIZE_MAX)
			continue;
		if (found != SIZE_MAX)
			return SIZE_MAX;
		found = i;
	}
	return found;
}

size_t loc_kept_first(const struct model *m, size_t e)
{
	while (m->kept_group[e] != e)
		e = m->kept_group[e];
	return e;
}

size_t loc_dest_edge(const struct model *m, size_t k)
{
	const struct report_trace_flow *f = m->flow_of[k];
	size_t link;

	if (!f || !f->dest_address)
		return SIZE_MAX;
	link = access_link(m, f->dest_address, false);
	return link == SIZE_MAX ? SIZE_MAX
				: loc_node_element(m->t, m->t->elements[link].from);
}

/* The router at the far end of a host's access link (out: the link
 * from the host), SIZE_MAX when none. */
bool loc_edge_seen(const struct model *m, const char *addr)
{
	return strmap_get(&m->access_in, addr) ||
	       access_link(m, addr, true) != SIZE_MAX;
}

static size_t access_router(const struct model *m, size_t link, bool out)
{
	const struct report_path_element *e;

	if (link == SIZE_MAX)
		return SIZE_MAX;
	e = &m->t->elements[link];
	return loc_node_element(m->t, out ? e->to : e->from);
}

/* The id of a normalised address (added when new); -1 when memory ran
 * out. */
static int address_id(struct model *m, const char *addr, uint32_t *id)
{
	void **slot = strmap_slot(&m->address_ids, addr);

	if (!slot || (!*slot && m->address_count >= UINT32_MAX - 1))
		return -1;
	if (!*slot)
		*slot = (void *)(uintptr_t)++m->address_count;
	*id = (uint32_t)((uintptr_t)*slot - 1);
	return 0;
}

/* rec's ends (struct result_ends): the last result's when rec has its
 * strings; NULL when memory ran out. */
static struct result_ends *result_ends(struct model *m,
				       const struct report_record *rec)
{
	struct result_ends *e = &m->last;

	if (e->sgid && rec->sgid == e->sgid && rec->dgid == e->dgid &&
	    rec->dest_text == e->dest_text)
		return e;
	*e = (struct result_ends){ .sgid = rec->sgid, .dgid = rec->dgid,
				   .dest_text = rec->dest_text,
				   .src_edge = SIZE_MAX,
				   .dst_edge = SIZE_MAX };
	e->have_src = address_of(rec->sgid, e->src, sizeof(e->src));
	e->have_dst = address_of(rec->dgid, e->dst, sizeof(e->dst)) ||
		      address_of(rec->dest_text, e->dst, sizeof(e->dst));
	if ((e->have_src && address_id(m, e->src, &e->src_id)) ||
	    (e->have_dst && address_id(m, e->dst, &e->dst_id))) {
		/* (not to be taken for rec's next time) */
		e->sgid = NULL;
		return NULL;
	}
	if (e->have_src)
		e->src_edge = access_router(m, access_link(m, e->src, true),
					    true);
	if (e->have_dst)
		e->dst_edge = access_router(m, access_link(m, e->dst, false),
					    false);
	return e;
}

/* The access links a result crosses (loc_obs access): the source's out
 * and the destination's in on the way there, the destination's out and
 * the source's in on the way back; and the routers at their far ends,
 * each host's first router and its last, as certain as its access link
 * (every trace of its shows the one), so that untraced results are
 * charged to them too (the destination's not when the result's trace
 * stopped before it: its datagrams never got there). Made once for the
 * results of the same ends. */
static int model_access(struct model *m, struct result_ends *ends,
			bool dest_reached, struct loc_obs *o)
{
	const char *src = ends->have_src ? ends->src : NULL;
	const char *dst = ends->have_dst ? ends->dst : NULL;
	int w = dest_reached;

	if (!ends->access[w]) {
		size_t links[4] = {
			src ? access_link(m, src, true) : SIZE_MAX,
			dst ? access_link(m, dst, false) : SIZE_MAX,
			dst ? access_link(m, dst, true) : SIZE_MAX,
			src ? access_link(m, src, false) : SIZE_MAX,
		};
		size_t all[8] = {
			links[0], links[1],
			access_router(m, links[0], true),
			dest_reached ? access_router(m, links[1], false)
				     : SIZE_MAX,
			links[2], links[3],
			dest_reached ? access_router(m, links[2], true)
				     : SIZE_MAX,
			access_router(m, links[3], false),
		};
		size_t list[8], n = 0, there = 0;

		for (int i = 0; i < 8; i++) {
			size_t from = i < 4 ? 0 : there;
			bool listed = false;

			/* (once each way: an element on both is listed
			 * twice) */
			for (size_t j = from; j < n; j++)
				listed |= list[j] == all[i];
			if (all[i] != SIZE_MAX && !listed)
				list[n++] = all[i];
			if (i == 3)
				there = n;
		}
		ends->access[w] = arena_copy(&m->lists, list, n * sizeof(*list));
		if (!ends->access[w])
			return -1;
		ends->access_count[w] = (uint32_t)n;
		ends->access_there[w] = (uint32_t)there;
	}
	o->access = ends->access[w];
	o->access_count = ends->access_count[w];
	o->access_there = ends->access_there[w];
	return 0;
}

/* The two hosts of a result (loc_obs ends), made once for the results
 * of the same ends. */
static int model_ends(struct model *m, struct result_ends *ends,
		      struct loc_obs *o)
{
	if (!ends->ends) {
		m->ends.count = 0;
		if ((ends->have_src &&
		     list_add(&m->ends, host_elem(m, ends->src))) ||
		    (ends->have_dst &&
		     list_add(&m->ends, host_elem(m, ends->dst))))
			return -1;
		ends->ends = arena_copy(&m->lists, m->ends.ids,
					m->ends.count * sizeof(*m->ends.ids));
		if (!ends->ends)
			return -1;
		ends->end_count = (uint32_t)m->ends.count;
	}
	o->ends = ends->end_count ? ends->ends : NULL;
	o->end_count = ends->end_count;
	return 0;
}

/* list_keep, or the list last kept so when l holds the same: the edge
 * routers of a pair's flows are most often the same. */
static int list_keep_again(struct model *m, const struct idlist *l,
			   struct kept_list *last, const size_t **out,
			   uint32_t *count)
{
	if (last->ids && last->count == l->count &&
	    memcmp(last->ids, l->ids, l->count * sizeof(*l->ids)) == 0) {
		*out = last->ids;
		*count = last->count;
		return 0;
	}
	if (list_keep(m, l, out, count))
		return -1;
	last->ids = *out;
	last->count = *count;
	return 0;
}

/* One result as the fit sees it. */
static int model_result(struct model *m, const struct report_record *rec,
			const struct report_trace_flow *f,
			const struct pair_paths *pair, double weight,
			struct loc_obs *o)
{
	const struct report_traces *t = m->t;
	struct result_ends *ends;
	int rc = 0;

	*o = (struct loc_obs){ .weight = weight, .sent = rec->sent,
			       .failing = rec->status != REPORT_REACHABLE,
			       .path = SIZE_MAX };
	losses(rec, o);
	o->source = counted(&m->sources, rec->host, &m->source_count);
	ends = result_ends(m, rec);
	if (o->source == SIZE_MAX || !ends || model_ends(m, ends, o))
		return -1;
	if (rec->hops >= 0)
		o->length = 2 * (unsigned)rec->hops + 3;
	if (!f) {
		rc |= model_access(m, ends, true, o);
		if (pair && pair->spread_count) {
			o->spread = pair->spread;
			o->spread_share = pair->share;
			o->spread_count = pair->spread_count;
		}
		/* Its replies cross the hosts' edge routers as a traced
		 * result's do: a dead uplink of either loses them, and a
		 * pick of it explains the result (loc_relations touch). */
		m->edges.count = 0;
		if (ends->src_edge != SIZE_MAX)
			rc |= list_add(&m->edges, ends->src_edge);
		if (ends->dst_edge != SIZE_MAX)
			rc |= list_add(&m->edges, ends->dst_edge);
		if (!rc && m->edges.count)
			rc |= list_keep_again(m, &m->edges, &m->last_edges,
					      &o->edges, &o->edge_count);
	} else {
		size_t edge, last = loc_first_router(t, f, true);
		bool stopped = !reached(t, f) && last != SIZE_MAX &&
			       !stopped_at_edge(t, f, last);

		m->fwd.count = m->back.count = m->edges.count = 0;
		rc |= model_access(m, ends, !stopped, o);
		rc |= forward_path(m, f, o->failing, &m->fwd);
		/* Nothing came back although the trace's datagrams went
		 * all the way: the replies were lost. */
		if (!stopped && rec->received == 0) {
			o->lost_back += o->lost_unknown;
			o->lost_unknown = 0;
		}
		/* A host hangs off one edge router: its replies leave
		 * through the router its probes entered, and come in
		 * through the one before the destination. */
		edge = loc_first_router(t, f, false);
		/* (Where the trace stopped, its answers came back through
		 * the edge: what is lost is past the stop.) */
		if (edge != SIZE_MAX && !stopped)
			rc |= list_add(&m->back, edge);
		if (edge != SIZE_MAX)
			rc |= list_add(&m->edges, edge);
		if (stopped) {
			size_t u = unseen_elem(m, last);

			rc |= list_add(&m->fwd, u);
			if (u != SIZE_MAX)
				m->el[u].at |= 1ull << (last_position(t, f) - 1);
		} else if (last != SIZE_MAX) {
			/* reached, or stopped at the destination's edge */
			rc |= list_add(&m->edges, last);
		}
		if (rc)
			return -1;
		/* (most forward paths are the trace's own: borrowed) */
		if (m->fwd.count == f->element_count &&
		    memcmp(m->fwd.ids, f->elements,
			   f->element_count * sizeof(*f->elements)) == 0) {
			o->fwd = f->elements;
			o->fwd_count = (uint32_t)f->element_count;
		} else {
			rc |= list_keep(m, &m->fwd, &o->fwd, &o->fwd_count);
		}
		rc |= list_keep_again(m, &m->back, &m->last_back, &o->back,
				      &o->back_count);
		rc |= list_keep_again(m, &m->edges, &m->last_edges, &o->edges,
				      &o->edge_count);
		o->path = m->path_of[f - t->flows];
		if (!o->length)
			o->length = (unsigned)f->element_count + 2;
	}
	return rc ? -1 : 0;
}

/* Whether f is the trace of rec's own flow, not one of its pair's other
 * flows' that the join placed it on because they all took one path (a
 * path rec's flow, hashed by its own port, need not take). */
static bool own_trace(const struct report_record *rec,
		      const struct report_trace_flow *f)
{
	if (rec->wire_udp_sport >= 0 && f->udp_sport >= 0)
		return rec->wire_udp_sport == f->udp_sport;
	if (rec->sport_follows_label && rec->params.flow_label >= 0 &&
	    f->flow_label >= 0)
		return rec->params.flow_label == f->flow_label;
	return true;
}

/* The pair of addresses of rec's ends; add: made when new. NULL: an
 * address is not known, no such pair, or out of memory when adding. */
static struct pair_paths *pair_of(struct model *m,
				  const struct result_ends *ends, bool add)
{
	uint64_t key = (uint64_t)ends->src_id << 32 | ends->dst_id;
	size_t *slot;

	if (!ends->have_src || !ends->have_dst)
		return NULL;
	if (!add) {
		size_t v = u64map_get(&m->pair_index, key);

		return v ? &m->pairs[v - 1] : NULL;
	}
	slot = u64map_slot(&m->pair_index, key);
	if (!slot)
		return NULL;
	if (!*slot) {
		if (m->pair_count == m->pair_capacity) {
			size_t cap = m->pair_capacity ? 2 * m->pair_capacity
						      : 64;
			struct pair_paths *x =
				realloc(m->pairs, cap * sizeof(*x));

			if (!x)
				return NULL;
			m->pairs = x;
			m->pair_capacity = cap;
		}
		m->pairs[m->pair_count] = (struct pair_paths){ 0 };
		*slot = ++m->pair_count;
	}
	return &m->pairs[*slot - 1];
}

/* The paths traces show between two edge routers (model_pairs): how
 * many paths between its two ends, hosts' access links left out, the
 * flows that reached their destination took, per pair of edge routers
 * (the source's first router, the destination's last: model_access). */
struct edge_paths {
	uint32_t *inner;	/* per trace flow: its path's number between
				 * its edge routers (flow_paths.h) */
	struct u64map edges;	/* the two routers -> edge number + 1 */
	struct u64map seen;	/* edge number and path -> 1 */
	size_t *paths;		/* per edge number: how many */
	size_t count, capacity;
};

static int edge_paths_make(const struct model *m, struct edge_paths *ep)
{
	const struct report_traces *t = m->t;
	bool *access = calloc(t->element_count + 1, sizeof(*access));
	int rc = -1;

	ep->inner = malloc((t->count + 1) * sizeof(*ep->inner));
	if (!access || !ep->inner || t->element_count >= UINT32_MAX)
		goto out;
	/* (not the hosts' access links: another pair's are others) */
	for (size_t i = 0; i < t->element_count; i++) {
		const struct report_path_element *e = &t->elements[i];

		access[i] = e->kind == REPORT_PATH_LINK &&
			    (loc_node_element(t, e->from) == SIZE_MAX ||
			     loc_node_element(t, e->to) == SIZE_MAX);
	}
	rc = flow_path_numbers(t, access, ep->inner);
out:
	free(access);
	return rc;
}

static void edge_paths_free(struct edge_paths *ep)
{
	free(ep->inner);
	u64map_free(&ep->edges);
	u64map_free(&ep->seen);
	free(ep->paths);
}

/* Counts f's path between the edge routers of ends among the paths
 * traces show between them, when it is new; f reached its destination. */
static int count_inner_path(const struct model *m, struct edge_paths *ep,
			    const struct result_ends *ends,
			    const struct report_trace_flow *f)
{
	size_t *edge = u64map_slot(&ep->edges, (uint64_t)ends->src_edge << 32 |
						       ends->dst_edge);
	size_t *seen;

	if (!edge)
		return -1;
	if (!*edge) {
		if (ep->count == ep->capacity) {
			size_t cap = ep->capacity ? 2 * ep->capacity : 64;
			size_t *x = realloc(ep->paths, cap * sizeof(*x));

			if (!x)
				return -1;
			ep->paths = x;
			ep->capacity = cap;
		}
		ep->paths[ep->count] = 0;
		*edge = ++ep->count;
	}
	seen = u64map_slot(&ep->seen, (uint64_t)(*edge - 1) << 32 |
					      ep->inner[f - m->t->flows]);
	if (!seen)
		return -1;
	if (!*seen) {
		*seen = 1;
		ep->paths[*edge - 1]++;
	}
	return 0;
}

/* How many paths traces show between the edge routers of ends. */
static size_t inner_paths(const struct edge_paths *ep,
			  const struct result_ends *ends)
{
	size_t edge;

	if (ends->src_edge == SIZE_MAX || ends->dst_edge == SIZE_MAX)
		return 0;
	edge = u64map_get(&ep->edges,
			  (uint64_t)ends->src_edge << 32 | ends->dst_edge);
	return edge ? ep->paths[edge - 1] : 0;
}

/* What an untraced result of p crosses: each element of p's k paths
 * with the share of them it is on, among the paths between its edge
 * routers that traces show (paths, when more than k: those of its own
 * pair that were traced may be fewer than its flows take). */
static int pair_spread(struct model *m, struct pair_paths *p, size_t paths)
{
	struct idlist *spread = &m->spread, *hits = &m->hits;
	size_t most = 0;
	double *share;

	if (p->too_many || !p->count)
		return 0;
	for (unsigned j = 0; j < p->count; j++)
		most += p->flow[j]->element_count;
	spread->count = hits->count = 0;
	if (list_reserve(spread, most) || list_reserve(hits, most))
		return -1;
	for (unsigned j = 0; j < p->count; j++) {
		const struct report_trace_flow *f = p->flow[j];

		for (size_t i = 0; i < f->element_count; i++) {
			size_t e = f->elements[i], at = 0;

			while (at < spread->count && spread->ids[at] != e)
				at++;
			if (at == spread->count) {
				spread->ids[spread->count++] = e;
				hits->ids[hits->count++] = 0;
			}
			hits->ids[at]++;
		}
	}
	if (paths < p->count)
		paths = p->count;
	share = arena_alloc(&m->lists, spread->count * sizeof(*share));
	p->spread = arena_copy(&m->lists, spread->ids,
			       spread->count * sizeof(*spread->ids));
	if (!share || !p->spread)
		return -1;
	for (size_t i = 0; i < spread->count; i++)
		share[i] = (double)hits->ids[i] / paths;
	p->share = share;
	p->spread_count = (uint32_t)spread->count;
	return 0;
}

/* The paths each pair's own traces show (own[k]: placed[k] is record
 * k's own trace). */
static int model_pairs(struct model *m,
		       const struct report_trace_flow *const *placed,
		       const bool *own)
{
	const struct report *r = m->r;
	const struct report_traces *t = m->t;
	struct edge_paths ep = { 0 };
	int rc = -1;

	if (edge_paths_make(m, &ep))
		goto out;
	for (size_t k = 0; k < r->record_count; k++) {
		const struct report_trace_flow *f = placed[k];
		struct result_ends *ends;
		struct pair_paths *p;
		uint32_t path;
		unsigned j = 0;

		if (!f || !own[k])
			continue;
		ends = result_ends(m, r->records[k]);
		if (!ends)
			goto out;
		if (!ends->have_src || !ends->have_dst)
			continue;
		if (reached(t, f) && ends->src_edge != SIZE_MAX &&
		    ends->dst_edge != SIZE_MAX &&
		    count_inner_path(m, &ep, ends, f))
			goto out;
		p = pair_of(m, ends, true);
		if (!p)
			goto out;
		path = m->path_of[f - t->flows];
		while (j < p->count && m->path_of[p->flow[j] - t->flows] != path)
			j++;
		if (j < p->count)
			continue;
		if (p->count == PAIR_PATHS_MAX) {
			p->too_many = true;
			continue;
		}
		p->flow[p->count++] = f;
	}
	for (size_t k = 0; k < r->record_count; k++) {
		struct result_ends *ends;
		struct pair_paths *p;

		if (!placed[k] || !own[k])
			continue;
		ends = result_ends(m, r->records[k]);
		if (!ends)
			goto out;
		p = pair_of(m, ends, false);
		if (!p || p->spread || p->too_many)
			continue;
		if (pair_spread(m, p, inner_paths(&ep, ends)))
			goto out;
	}
	rc = 0;
out:
	edge_paths_free(&ep);
	return rc;
}

/* The pair whose paths an untraced result rec is spread over (NULL:
 * none); -1 when memory ran out. */
static int spread_pair(struct model *m, const struct report_record *rec,
		       const struct pair_paths **out)
{
	struct result_ends *ends = result_ends(m, rec);
	const struct pair_paths *p;

	if (!ends)
		return -1;
	p = pair_of(m, ends, false);
	*out = p && p->spread_count ? p : NULL;
	return 0;
}

int loc_model_results(struct model *m, struct localise *l)
{
	const struct report *r = m->r;
	const struct report_traces *t = m->t;
	struct report_trace_join local;
	const struct report_trace_join *join =
		report_traces_joined(t, r, &local);
	const struct report_trace_flow *const *placed =
		join ? join->trace : NULL;
	size_t all[2] = { 0 }, traced[2] = { 0 }, spread[2] = { 0 };
	double weight[2];
	bool *own = NULL;
	int rc = -1;

	m->obs = calloc(r->record_count + 1, sizeof(*m->obs));
	m->flow_of = calloc(r->record_count + 1, sizeof(*m->flow_of));
	m->path_of = malloc((t->count + 1) * sizeof(*m->path_of));
	own = calloc(r->record_count + 1, sizeof(*own));
	if (!placed || !m->obs || !m->flow_of || !m->path_of || !own ||
	    flow_path_numbers(t, NULL, m->path_of))
		goto out;
	for (size_t k = 0; k < r->record_count; k++)
		own[k] = placed[k] && own_trace(r->records[k], placed[k]);
	if (model_pairs(m, placed, own))
		goto out;
	for (size_t k = 0; k < r->record_count; k++) {
		const struct report_record *rec = r->records[k];
		bool failing = rec->status != REPORT_REACHABLE;
		const struct pair_paths *pair = NULL;

		all[failing]++;
		traced[failing] += own[k];
		if (!own[k] && spread_pair(m, rec, &pair))
			goto out;
		spread[failing] += pair != NULL;
	}
	/* A traced result stands for the untraced ones of its kind that
	 * are not spread over their pair's paths: the admins trace the
	 * failing flows and a sample of the others. */
	for (int i = 0; i < 2; i++)
		weight[i] = traced[i] ? (double)(all[i] - spread[i]) / traced[i]
				      : 0;
	for (size_t k = 0; k < r->record_count; k++) {
		const struct report_record *rec = r->records[k];
		const struct pair_paths *pair = NULL;

		if (rec->status == REPORT_ERROR || !rec->sent ||
		    r->runs[rec->run].dropped ||
		    (rec->sgid && rec->dgid && strcmp(rec->sgid, rec->dgid) == 0))
			continue;
		/* (a trace of another flow of its pair is none of its own:
		 * the result is spread over its pair's paths instead) */
		if ((!own[k] && spread_pair(m, rec, &pair)) ||
		    model_result(m, rec, own[k] ? placed[k] : NULL, pair,
				 weight[rec->status != REPORT_REACHABLE],
				 &m->obs[m->n]))
			goto out;
		l->results++;
		l->traced += placed[k] != NULL;
		m->flow_of[m->n++] = own[k] ? placed[k] : NULL;
	}
	rc = 0;
out:
	free(own);
	report_trace_join_free(&local);
	return rc;
}

static size_t router_named(const struct report_traces *t, const char *name)
{
	return name ? loc_node_element(t, name) : SIZE_MAX;
}

/* The routers each link and unseen hop touch (loc_relations.touch). */
int loc_model_touch(struct model *m)
{
	const struct report_traces *t = m->t;

	m->touch = calloc(m->count + 1, sizeof(*m->touch));
	if (!m->touch)
		return -1;
	for (size_t e = 0; e < m->count; e++) {
		m->touch[e][0] = m->touch[e][1] = SIZE_MAX;
		if (m->el[e].after != SIZE_MAX) {
			m->touch[e][0] = m->el[e].after;
		} else if (m->el[e].before != SIZE_MAX) {
			m->touch[e][0] = m->el[e].before;
		} else if (e < t->element_count &&
			   t->elements[e].kind == REPORT_PATH_LINK) {
			m->touch[e][0] = router_named(t, t->elements[e].from);
			m->touch[e][1] = router_named(t, t->elements[e].to);
		}
	}
	return 0;
}

/* The routers seen next to each router (loc_relations.near): a pick of
 * a router explains the results that lost replies coming in over them. */
int loc_model_near(struct model *m)
{
	const struct report_traces *t = m->t;
	size_t count = 0, capacity = 0, buf[64];

	m->near_first = calloc(m->count + 1, sizeof(*m->near_first));
	if (!m->near_first)
		return -1;
	for (size_t e = 0; e < m->count; e++) {
		size_t n = 0;

		m->near_first[e] = count;
		if (e < t->element_count &&
		    t->elements[e].kind != REPORT_PATH_LINK)
			n = trace_neighbours(t, t->elements[e].name, buf, 64);
		if (count + n > capacity) {
			size_t *x;

			capacity = 2 * (count + n);
			x = realloc(m->near, capacity * sizeof(*x));
			if (!x)
				return -1;
			m->near = x;
		}
		if (n)
			memcpy(m->near + count, buf, n * sizeof(*buf));
		count += n;
	}
	m->near_first[m->count] = count;
	return 0;
}

/* A host's edge router: the router at the other end of a link from or
 * to its address in any trace (its access link). What a pick stands for
 * (loc_relations): a router, itself; the unseen hop after router R, R
 * when R is an edge router and no trace shows a router after R (its
 * onward hops are its hosts, and it forwards to none of them); after a
 * router with other routers beyond, one of its links (a dead uplink) is
 * as likely, and the rack's flows are left to name it. */
int loc_model_edges(struct model *m)
{
	const struct report_traces *t = m->t;

	/* per trace element: some trace shows a router after it */
	bool *inner = calloc(t->element_count + 1, sizeof(*inner));

	m->edge_of = malloc((m->count + 1) * sizeof(*m->edge_of));
	m->stands_for = malloc((m->count + 1) * sizeof(*m->stands_for));
	m->edge_router = calloc(t->element_count + 1, sizeof(*m->edge_router));
	if (!inner || !m->edge_of || !m->stands_for || !m->edge_router) {
		free(inner);
		return -1;
	}
	for (size_t i = 0; i < t->element_count; i++) {
		const struct report_path_element *l = &t->elements[i];
		size_t from;

		if (l->kind != REPORT_PATH_LINK || !l->from || !l->to ||
		    loc_node_element(t, l->to) == SIZE_MAX)
			continue;
		from = loc_node_element(t, l->from);
		if (from != SIZE_MAX)
			inner[from] = true;
	}
	for (size_t e = 0; e < m->count; e++)
		m->edge_of[e] = SIZE_MAX;
	for (size_t i = 0; i < t->element_count; i++) {
		const struct report_path_element *l = &t->elements[i];
		const char *ends[2] = { l->from, l->to };

		if (l->kind != REPORT_PATH_LINK)
			continue;
		for (int k = 0; k < 2; k++) {
			char key[80];
			void *host;
			size_t router;

			if (!ends[k] || !ends[1 - k])
				continue;
			snprintf(key, sizeof(key), "h:%s", ends[k]);
			host = strmap_get(&m->index, key);
			router = loc_node_element(t, ends[1 - k]);
			if (host && router != SIZE_MAX)
				m->edge_of[(size_t)(uintptr_t)host - 1] = router;
		}
	}
	for (size_t e = 0; e < m->count; e++)
		if (m->edge_of[e] != SIZE_MAX && !inner[m->edge_of[e]])
			m->edge_router[m->edge_of[e]] = true;
	for (size_t e = 0; e < m->count; e++) {
		m->stands_for[e] = SIZE_MAX;
		if (m->el[e].after != SIZE_MAX && m->edge_router[m->el[e].after])
			m->stands_for[e] = m->el[e].after;
		if (e < t->element_count &&
		    t->elements[e].kind != REPORT_PATH_LINK)
			m->stands_for[e] = e;
	}
	free(inner);
	return 0;
}

void loc_model_free(struct model *m)
{
	for (size_t k = 0; k < m->count; k++) {
		free(m->el[k].name);
		free(m->el[k].address);
	}
	free(m->el);
	free(m->prefer);
	free(m->touch);
	free(m->near_first);
	free(m->near);
	free(m->edge_of);
	free(m->stands_for);
	free(m->edge_router);
	free(m->excluded);
	free(m->behind);
	free(m->withdrawn);
	free(m->kept);
	free(m->kept_group);
	free(m->group_named);
	free(m->obs);
	free(m->flow_of);
	free(m->path_of);
	arena_free(&m->lists);
	free(m->ends.ids);
	free(m->fwd.ids);
	free(m->back.ids);
	free(m->edges.ids);
	free(m->spread.ids);
	free(m->hits.ids);
	free(m->out_next);
	free(m->may_be_gap);
	free(m->silent_before);
	free(m->silent_first);
	strmap_free(&m->out_first);
	strmap_free(&m->access_in);
	strmap_free(&m->index);
	strmap_free(&m->hosts);
	strmap_free(&m->sources);
	strmap_free(&m->address_ids);
	free(m->pairs);
	u64map_free(&m->pair_index);
}
