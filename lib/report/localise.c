/* Localisation over a report's results and traces (localise.h): the
 * element model built from them, the fit (localise_fit.h), the unseen
 * elements named from where traces stop, and remarking routers. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/u64map.h"
#include "report/flow_paths.h"
#include "report/localise.h"
#include "report/localise_fit.h"
#include "report/trace_neighbours.h"

/* Tie-breaks of equal evidence (localise_fit.h prefer): a host before
 * the link to it; where traces stop before the links that lead there
 * (a link into a router carries flows that go on elsewhere too, only
 * the sampled passing ones are seen); a link before a router. */
enum prefer { PREFER_HOST, PREFER_UNSEEN, PREFER_LINK, PREFER_ROUTER };

/* A link past which a tenth more of the trace queries go unanswered
 * than before it shows where loss starts (name_pick). */
#define ANSWER_DROP_MIN 0.1

/* Fits at most: the first, and again after a pick was withdrawn. */
#define LOCALISE_REFITS_MAX 3

/* A remark names a router only with at least this many remarked traces. */
#define REMARK_MIN_FLOWS 2

/* An unseen suspect named by more candidates than this is no place. */
#define UNSEEN_CANDIDATES_MAX 3

/* Silence by policy is told from silence by fault only with at least
 * this many passing traces past the router. */
#define POLICY_PASSING_MIN 4

/* A pair whose traced flows show more forward paths than this spreads
 * its untraced results over none of them (each share too thin to tell). */
#define PAIR_PATHS_MAX 8

struct elem {
	const char *kind;
	char *name, *address;
	size_t after;		/* unseen: the router (trace element) it
				 * follows; SIZE_MAX otherwise */
	/* Routers: the hops (1: the first, up to 64; a hop that did not
	 * answer counts, hop_at) it was seen at; unseen: those of its
	 * router where traces stopped. */
	uint64_t at;
	size_t gaps;		/* unseen: failing traces that go on past it */
};

/* The forward paths a pair of addresses' own traces show (each once),
 * and what its untraced results are spread over (loc_obs spread). */
struct pair_paths {
	const struct report_trace_flow *flow[PAIR_PATHS_MAX];
	unsigned count;
	bool too_many;
	const size_t *spread;	/* in the model's lists */
	const double *share;
	uint32_t spread_count;
};

/* A list of elements being built (list_add), its room kept for the
 * next. */
struct idlist {
	size_t *ids;
	size_t count, capacity;
};

/* A list kept in the model's lists (list_keep_again). */
struct kept_list {
	const size_t *ids;
	uint32_t count;
};

/* A result's two ends as the model sees them (result_ends): the
 * addresses (the sgid's; the dgid's, else the destination text's), their
 * ids, their edge routers, and the lists made of them for the results
 * that share them. A source's results come together, one destination's
 * flow labels one after another, all with the same strings: those are
 * looked up, normalised and listed once for the run of them. */
struct result_ends {
	const char *sgid, *dgid, *dest_text;	/* the record's, as last seen */
	bool have_src, have_dst;
	char src[64], dst[64];
	uint32_t src_id, dst_id;	/* address ids (model.address_ids) */
	/* The source's first router and the destination's last
	 * (model_access); SIZE_MAX: not known. */
	size_t src_edge, dst_edge;
	/* model_result's lists of these ends, NULL until made: the two
	 * hosts; the access lists, the destination reached [1] or not. */
	const size_t *ends;
	uint32_t end_count;
	const size_t *access[2];
	uint32_t access_count[2], access_there[2];
};

struct model {
	const struct report *r;
	const struct report_traces *t;
	struct elem *el;
	size_t count, capacity;
	unsigned char *prefer;
	size_t (*touch)[2];	/* localise_fit.h loc_relations */
	size_t *edge_of, *stands_for;	/* the same */
	size_t *near_first, *near;	/* the same */
	/* per trace element: a router some host's access link ends at,
	 * after which no trace shows a router (its onward hops are its
	 * hosts) */
	bool *edge_router;
	/* per element: a pick the naming withdrew (its evidence is
	 * another's), left out of the next fit; withdrew: one was */
	bool *excluded;
	/* per element: a router whose links the fit took one by one, left
	 * out for it (router_behind_links) */
	bool *behind;
	bool withdrew;
	struct strmap index;	/* "h:ADDR", "u:N" -> element + 1 */
	struct strmap hosts;	/* address -> host name (borrowed) */
	struct strmap sources;	/* host name -> source number + 1 */
	size_t source_count;
	/* per trace flow: the number of its path (flow_paths.h) */
	uint32_t *path_of;
	struct loc_obs *obs;
	/* The obs' lists of elements (but a trace's own path, which they
	 * borrow) and the pairs' spreads, each where it is made; the lists
	 * being made. */
	struct arena lists;
	struct idlist ends, fwd, back, edges, spread, hits;
	struct result_ends last;
	struct kept_list last_back, last_edges;	/* list_keep_again */
	/* normalised address -> id + 1 (result_ends) */
	struct strmap address_ids;
	size_t address_count;
	const struct report_trace_flow **flow_of;	/* per result */
	size_t n;
	/* Links by where they start: the first's number + 1 in out_first
	 * (by node name), the next in out_next[link], SIZE_MAX the last. */
	struct strmap out_first;
	size_t *out_next;
	/* Per trace element (router): whether a hop that did not answer
	 * may be it (fill_gap), from how often it leaves queries
	 * unanswered (model_answer_rates). */
	bool *may_be_gap;
	/* Access links into a host, by its address: the link's number + 1,
	 * ACCESS_SEVERAL when traces show more than one (access_link). */
	struct strmap access_in;
	/* the two address ids of a pair -> pair number + 1 (model_pairs) */
	struct u64map pair_index;
	struct pair_paths *pairs;
	size_t pair_count, pair_capacity;
};

#define ACCESS_SEVERAL ((void *)UINTPTR_MAX)

const char *localise_cause_name(enum localise_cause cause)
{
	switch (cause) {
	case LOCALISE_LOSS: return "loss";
	case LOCALISE_UNSEEN: return "unseen";
	case LOCALISE_REMARK: return "remark";
	}
	return "?";
}

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
			    .after = after };
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

static size_t unseen_elem(struct model *m, size_t router)
{
	char key[32], *name;
	size_t e;

	snprintf(key, sizeof(key), "u:%zu", router);
	if (asprintf(&name, "after %s", m->t->elements[router].name) < 0)
		return SIZE_MAX;
	e = add_elem(m, key, "hop", name, NULL, router, PREFER_UNSEEN);
	free(name);
	return e;
}

/* The router or switch named so in the traces (SIZE_MAX: none); the
 * traces key elements by kind, so a link's name never passes for one. */
static size_t node_element(const struct report_traces *t, const char *name)
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

static bool link_seen(const struct report_traces *t, const char *a,
		      const char *b)
{
	return link_element(t, a, b) != SIZE_MAX;
}

/* The hop (1: the first) at which element i of f answered: one per
 * router, one more for each hop that did not answer before it (two
 * routers without the link between them: one hop is taken to be
 * missing). 0 for a link. */
static unsigned hop_at(const struct report_traces *t,
		       const struct report_trace_flow *f, size_t i,
		       unsigned prev)
{
	if (t->elements[f->elements[i]].kind == REPORT_PATH_LINK)
		return 0;
	return prev + (i > 0 && t->elements[f->elements[i - 1]].kind ==
					      REPORT_PATH_LINK
			       ? 1
			       : 2);
}

static int model_elements(struct model *m)
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
		    node_element(t, l->to) != SIZE_MAX ||
		    node_element(t, l->from) == SIZE_MAX)
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
			unsigned at = hop_at(t, f, i, hop);

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
		unsigned at = hop_at(t, f, i, hop);

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
	       link_seen(t, t->elements[last].name, dest);
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

static size_t first_router(const struct report_traces *t,
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
		size_t router = node_element(t, mid), link;

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

/* Which routers a hop that did not answer may be. fill_gap finds the one
 * router other traces show between the routers around the hop, but a
 * router that never answers is in no trace, and the one that is may be
 * its neighbour on another branch. A hop is all unanswered by a router
 * that leaves a share m of its queries unanswered with probability m^k
 * (k queries a hop): about n m^k / (1 - m^k) of such hops beside its n
 * answered ones. A router to which far more hops would be attributed is
 * not what those hops are (the ones it answers all but never). */
static int model_answer_rates(struct model *m)
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
	rc = 0;
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

		if (gap && fill_gap(m, prev, e->from, &ab, &b, &bc) &&
		    (!m->may_be_gap || m->may_be_gap[b])) {
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
		if (node_element(t, t->elements[i].to) == SIZE_MAX)
			continue;
		if (found != SIZE_MAX)
			return SIZE_MAX;
		found = i;
	}
	return found;
}

/* The router at the far end of a host's access link (out: the link
 * from the host), SIZE_MAX when none. */
static size_t access_router(const struct model *m, size_t link, bool out)
{
	const struct report_path_element *e;

	if (link == SIZE_MAX)
		return SIZE_MAX;
	e = &m->t->elements[link];
	return node_element(m->t, out ? e->to : e->from);
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
	} else {
		size_t edge, last = first_router(t, f, true);
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
		edge = first_router(t, f, false);
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
			    (node_element(t, e->from) == SIZE_MAX ||
			     node_element(t, e->to) == SIZE_MAX);
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

static int model_results(struct model *m, struct localise *l)
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

static int add_name(char ***list, size_t *count, const char *name)
{
	char **x = realloc(*list, (*count + 1) * sizeof(*x));

	if (!x)
		return -1;
	*list = x;
	if (!(x[*count] = strdup(name)))
		return -1;
	(*count)++;
	return 0;
}

static struct localise_suspect *new_suspect(struct localise *l)
{
	struct localise_suspect *x = realloc(l->items, (l->count + 1) *
							       sizeof(*x));

	if (!x)
		return NULL;
	l->items = x;
	x = &x[l->count++];
	memset(x, 0, sizeof(*x));
	return x;
}


/* Pick k of the fit is the same fault as suspect s (its failing results
 * stop where s's do): its evidence added to s's, and it is named no
 * more. */
static void absorb(struct localise_suspect *s, const struct loc_fit *fit,
		   size_t k, bool *used)
{
	const struct loc_pick *q = &fit->picks[k];

	used[k] = true;
	s->failing += q->stats.failing;
	s->explained += q->explained;
	s->llr += q->stats.llr;
}

/* The routers after router h in the traces, the most failing first
 * and, of equal shares, the least seen carrying results first (one that
 * carries passing flows forwards them; the one a silent fault hides may
 * carry none): where its flows go next. */
static size_t next_hops(const struct model *m, size_t h, size_t *out,
			double *fail_share, size_t max)
{
	const struct report_traces *t = m->t;
	const char *name = t->elements[h].name;
	double carried[16];	/* the weight of results on each link */
	size_t n = 0;

	if (max > 16)
		max = 16;
	for (size_t i = 0; i < t->element_count && n < max; i++) {
		const struct report_path_element *e = &t->elements[i];

		if (e->kind == REPORT_PATH_LINK && strcmp(e->from, name) == 0 &&
		    node_element(t, e->to) != SIZE_MAX) {
			out[n] = i;
			fail_share[n] = 0;
			n++;
		}
	}
	/* Each link's share of failing flows among the traced ones. */
	for (size_t k = 0; k < n; k++) {
		double f = 0, all = 0;

		/* weighted: the passing flows traced are a sample */
		for (size_t o = 0; o < m->n; o++)
			for (size_t i = 0; i < m->obs[o].fwd_count; i++)
				if (m->obs[o].fwd[i] == out[k]) {
					all += m->obs[o].weight;
					f += m->obs[o].failing ? m->obs[o].weight
							       : 0;
				}
		fail_share[k] = all > 0 ? f / all : 0;
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

			out[b] = out[b - 1];
			out[b - 1] = x;
			fail_share[b] = fail_share[b - 1];
			fail_share[b - 1] = y;
			carried[b] = carried[b - 1];
			carried[b - 1] = z;
		}
	return n;
}

static void fill_evidence(struct localise_suspect *s, const struct loc_pick *p)
{
	const struct loc_stats *st = &p->stats;

	s->failing = st->failing;
	s->passing = st->passing;
	s->explained = p->explained;
	s->loss_rate = st->exposed > 0 ? st->lost / st->exposed : 0;
	s->expected_rate = st->exposed > 0 ? st->expected / st->exposed : 0;
	s->llr = st->llr;
	s->confidence = p->confidence;
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
		from = first_router(t, f, false);
		to = route_end(m, o);
		if (!through || from == SIZE_MAX)
			continue;
		for (size_t i = 0; i < f->element_count; i++) {
			unsigned at = hop_at(t, f, i, hop);

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
		from = first_router(t, f, false);
		to = route_end(m, o);
		route_key(key, sizeof(key), from, to, 0);
		if (from == SIZE_MAX || !strmap_get(&routes, key))
			continue;
		++*toward;
		for (size_t i = 0; i < f->element_count; i++) {
			size_t x = f->elements[i], c;
			unsigned at = hop_at(t, f, i, hop);

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
	for (size_t a = 1; a < n; a++)
		for (size_t b = a; b > 0 && votes[b] > votes[b - 1]; b--) {
			size_t x = out[b], v = votes[b];

			out[b] = out[b - 1];
			votes[b] = votes[b - 1];
			out[b - 1] = x;
			votes[b - 1] = v;
		}
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

/* Traces stopping after several routers whose passing flows all go on
 * to one router r: r, which neither forwards nor answers (a router that
 * drops all or nearly all). 1 when so (s named, the other picks used),
 * 0 when not, -1 when memory ran out. */
static int shared_next_hop(const struct model *m, struct localise_suspect *s,
			   const struct loc_pick *p, const struct loc_fit *fit,
			   bool *used, const size_t *hops, size_t n)
{
	const struct report_traces *t = m->t;
	size_t other[16], on, stops = 1;
	double share[16];
	const char *r = NULL;
	char *list = NULL;
	size_t len = 0;
	FILE *f;

	/* The candidate that the most picks lead to, weighed by the share
	 * of failing flows on the way to it. */
	double best = 0;
	/* It is where p's failing flows go next: the passing traces toward
	 * their destinations show it one hop past h (when there are any). */
	size_t toward[16], votes[16], toward_n, toward_traces;

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
			on = next_hops(m, o->after, other, share, 16);
			for (size_t j = 0; j < on; j++)
				if (strcmp(t->elements[other[j]].to, c) == 0) {
					score += share[j];
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
	f = open_memstream(&list, &len);
	if (!f)
		return -1;
	fputs(t->elements[m->el[p->element].after].name, f);
	for (size_t k = 0; k < fit->count; k++) {
		const struct loc_pick *q = &fit->picks[k];
		const struct elem *o = &m->el[q->element];

		if (used[k] || o->after == SIZE_MAX)
			continue;
		on = next_hops(m, o->after, other, share, 16);
		if (!hop_in(t, other, on, r))
			continue;
		absorb(s, fit, k, used);
		stops++;
		fprintf(f, ", %s", t->elements[o->after].name);
	}
	if (fclose(f))
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
	return link_seen(t, t->elements[a].name, t->elements[b].name) ||
	       link_seen(t, t->elements[b].name, t->elements[a].name);
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
		absorb(s, fit, k, used);
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
			    node_element(m->t, next->to) != SIZE_MAX) {
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
	size_t len = 0, stops = 1;
	FILE *f;

	if (!toward_unseen_edges(m, p->element))
		return 0;
	f = open_memstream(&list, &len);
	if (!f)
		return -1;
	fputs(t->elements[h].name, f);
	for (size_t k = 0; k < fit->count; k++) {
		const struct loc_pick *q = &fit->picks[k];
		const struct elem *o = &m->el[q->element];

		if (used[k] || o->after == SIZE_MAX ||
		    !toward_unseen_edges(m, q->element))
			continue;
		absorb(s, fit, k, used);
		stops++;
		fprintf(f, ", %s", t->elements[o->after].name);
	}
	if (fclose(f))
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
		    link_seen(t, t->elements[h].name, t->elements[r].name))
			return true;
	}
	return false;
}

/* s is no suspect (kind NULL, dropped by drop_withdrawn), and its
 * element is left out of the next fit: the results it took are then
 * explained by what else they crossed, or stay unexplained. */
static void withdraw(struct model *m, struct localise_suspect *s, size_t e)
{
	s->kind = NULL;
	if (m->excluded && !m->excluded[e]) {
		m->excluded[e] = true;
		m->withdrew = true;
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

/* An unseen element after router h: paired with another unseen pick
 * after x when no trace crosses h -> x either way (a dead link, seen
 * from both ends); else the next hops of h's flows as candidates. */
static int name_unseen(struct model *m, struct localise *l,
		       const struct loc_pick *p, const struct loc_fit *fit,
		       bool *used)
{
	const struct report_traces *t = m->t;
	struct localise_suspect *s = &l->items[l->count - 1];
	size_t h = m->el[p->element].after, hops[16];
	const char *hn = t->elements[h].name;
	double share[16];
	size_t n, spread = 0, named;
	char *list = NULL;
	size_t len = 0;
	FILE *f;

	s->cause = LOCALISE_UNSEEN;
	/* Most failing traces go on past it: a router that never answers,
	 * whose address no trace gives; when its passing flows skip it as
	 * often, that is its policy, and no suspect (s withdrawn: kind
	 * NULL). */
	if (2 * m->el[p->element].gaps > p->stats.failing &&
	    (silent_by_policy(m, h) || next_to_named(m, fit, used, h))) {
		withdraw(m, s, p->element);
		return 0;
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
	n = next_hops(m, h, hops, share, 16);
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
	 * toward each of them pass mostly: nothing after h stands out (a
	 * fault there would fail most flows toward its next hop); the
	 * stops are answers lost on their way back, across a fault named
	 * elsewhere. No suspect (s withdrawn). */
	if (n > UNSEEN_CANDIDATES_MAX && share[0] < 0.5) {
		free(list);
		withdraw(m, s, p->element);
		return 0;
	}
	if (n) {
		s->kind = "router";
		s->name = strdup(t->elements[hops[0]].to);
		s->address = strdup(t->elements[hops[0]].to);
		for (size_t k = 1; k < n; k++)
			if (add_name(&s->alternatives, &s->alternative_count,
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

/* How much fewer of the trace queries are answered past link e than
 * before it, over the failing traces through it: where loss starts, the
 * hops after it answer less (a link tied with the next one on the same
 * flows is told apart so). */
static double answer_drop(const struct model *m, size_t e)
{
	double sum = 0;
	size_t n = 0;

	for (size_t k = 0; k < m->n; k++) {
		const struct report_trace_flow *f = m->flow_of[k];

		if (!f || !m->obs[k].failing || !f->answered)
			continue;
		for (size_t i = 1; i < f->element_count; i++) {
			unsigned a = f->answered[i - 1], b = f->answered[i];

			if (f->elements[i] != e || !(a & 15) || !(b & 15))
				continue;
			sum += (double)(a >> 4) / (a & 15) -
			       (double)(b >> 4) / (b & 15);
			n++;
		}
	}
	return n ? sum / n : 0;
}

/* Of a link pick and its link rivals, the one where the answers drop
 * most, when clearly more than the pick's. */
static size_t where_answers_drop(const struct model *m,
				 const struct loc_pick *p)
{
	size_t best = p->element;
	double top;

	if (strcmp(m->el[best].kind, "link") != 0)
		return best;
	top = answer_drop(m, best) + 0.1;
	/* The links before and after it on its failing flows (the most
	 * common of each), rivals or not: a link's LLR may trail only for
	 * hops that did not answer, and the links past a lossy one carry
	 * the same failing flows. */
	for (int after = 0; after < 2; after++) {
		size_t next = SIZE_MAX, votes = 0, pick = p->element;

		for (size_t k = 0; k < m->n; k++) {
			const struct report_trace_flow *f = m->flow_of[k];

			if (!f || !m->obs[k].failing)
				continue;
			for (size_t i = 0; i + 2 < f->element_count; i++) {
				size_t x = f->elements[after ? i + 2 : i];

				if (f->elements[after ? i : i + 2] != pick ||
				    strcmp(m->el[x].kind, "link") != 0)
					continue;
				if (!votes)
					next = x;
				votes += x == next ? 1 : (size_t)-1;
			}
		}
		if (next != SIZE_MAX && answer_drop(m, next) > top) {
			top = answer_drop(m, next);
			best = next;
		}
	}
	for (size_t i = 0; i < p->rival_count; i++) {
		double d;

		if (strcmp(m->el[p->rivals[i]].kind, "link") != 0)
			continue;
		d = answer_drop(m, p->rivals[i]);
		if (d > top) {
			top = d;
			best = p->rivals[i];
		}
	}
	return best;
}

/* The element after e on o's forward path (SIZE_MAX: none). */
static size_t next_on_path(const struct loc_obs *o, size_t e)
{
	for (size_t i = 0; i + 1 < o->fwd_count; i++)
		if (o->fwd[i] == e)
			return o->fwd[i + 1];
	return SIZE_MAX;
}

/* A router picked for loss whose failing results all leave it one way,
 * over one link out of it or the unseen hop after it (the same way, its
 * far end unanswered), while its results over its other links pass: one
 * of its ports loses, not the router. That link, with the failing
 * results that took it and the passing ones that left r elsewhere; r
 * when not so. */
static size_t way_out(const struct model *m, size_t r, size_t *failing,
		      size_t *elsewhere)
{
	size_t link = SIZE_MAX, unseen = SIZE_MAX, one_way = 0;
	char key[32];
	void *u;

	*failing = *elsewhere = 0;
	if (r >= m->t->element_count ||
	    m->t->elements[r].kind == REPORT_PATH_LINK)
		return r;
	snprintf(key, sizeof(key), "u:%zu", r);
	u = strmap_get(&m->index, key);
	if (u)
		unseen = (size_t)(uintptr_t)u - 1;
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < m->n; k++) {
			const struct loc_obs *o = &m->obs[k];
			size_t next = next_on_path(o, r);

			if (next == SIZE_MAX)
				continue;
			if (!pass) {
				if (o->failing && link == SIZE_MAX &&
				    next != unseen &&
				    next < m->t->element_count)
					link = next;
				continue;
			}
			if (!o->failing) {
				*elsewhere += next != link && next != unseen;
				continue;
			}
			++*failing;
			one_way += next == link || next == unseen;
		}
	if (link == SIZE_MAX || *failing < LOC_FAILING_MIN ||
	    10 * one_way < 9 * *failing || !*elsewhere)
		return r;
	return link;
}

/* The router a trace link leaves (SIZE_MAX: none, or no link). */
static size_t link_from(const struct model *m, size_t e)
{
	const struct report_traces *t = m->t;

	if (e >= t->element_count || t->elements[e].kind != REPORT_PATH_LINK)
		return SIZE_MAX;
	return node_element(t, t->elements[e].from);
}

/* Of pick k (the unseen hop after router h, or a link out of h) the
 * unused pick of the other kind at h: a link that loses datagrams loses
 * the trace queries to its far end too, whose hop then looks unanswered
 * (or the traces stop there): one fault, picked twice. SIZE_MAX: none. */
static size_t same_fault(const struct model *m, const struct loc_fit *fit,
			 const bool *used, size_t k)
{
	size_t e = fit->picks[k].element, h = m->el[e].after;
	bool unseen = h != SIZE_MAX;

	if (!unseen)
		h = link_from(m, e);
	if (h == SIZE_MAX)
		return SIZE_MAX;
	for (size_t j = 0; j < fit->count; j++) {
		size_t x = fit->picks[j].element;

		if (j == k || used[j])
			continue;
		if (unseen ? link_from(m, x) == h : m->el[x].after == h)
			return j;
	}
	return SIZE_MAX;
}

/* The router link pick k leaves toward another router (SIZE_MAX: none,
 * or a link to or from a host). */
static size_t router_link_from(const struct model *m,
			       const struct loc_fit *fit, size_t k)
{
	size_t e = fit->picks[k].element, h = link_from(m, e);

	if (h == SIZE_MAX || node_element(m->t, m->t->elements[e].to) ==
				     SIZE_MAX)
		return SIZE_MAX;
	return h;
}

/* The fit of m's results over its elements as they stand. 0, or -1
 * when memory ran out. */
static int model_fit(const struct model *m, struct loc_fit *fit)
{
	return loc_fit_run(fit, m->obs, m->n, m->count,
			   &(struct loc_relations){
				   .prefer = m->prefer,
				   .touch = (const size_t(*)[2])m->touch,
				   .edge_of = m->edge_of,
				   .stands_for = m->stands_for,
				   .excluded = m->excluded,
				   .near_first = m->near_first,
				   .near = m->near },
			   -1);
}

/* Whether router h is a pick of fit. */
static bool picked(const struct loc_fit *fit, size_t h)
{
	for (size_t k = 0; k < fit->count; k++)
		if (fit->picks[k].element == h)
			return true;
	return false;
}

/* Two or more picks are links from one router H to others, and H is no
 * pick: H may lose what it forwards, toward each next hop alike, the fit
 * having taken its links one by one because each carries fewer of H's
 * passing flows than H does. The fit again without those links (and
 * the unseen hop after H) weighs H with all their failing flows: when
 * it picks H, that fit stands (H named, the links its alternatives:
 * behind_alternatives); else the links stay. Links to hosts are left
 * alone (two bad cables or NICs in a rack are no ToR fault). 0, or -1
 * when memory ran out. */
static int router_behind_links(struct model *m, struct loc_fit *fit)
{
	for (size_t k = 0; k < fit->count; k++) {
		size_t h = router_link_from(m, fit, k), links = 0;
		bool *left = NULL;
		struct loc_fit trial = { 0 };

		if (h == SIZE_MAX || m->excluded[h] || m->behind[h] ||
		    picked(fit, h))
			continue;
		for (size_t j = 0; j < fit->count; j++)
			links += router_link_from(m, fit, j) == h;
		if (links < 2)
			continue;
		m->behind[h] = true;
		left = calloc(fit->count + 1, sizeof(*left));
		if (!left)
			return -1;
		for (size_t j = 0; j < fit->count; j++) {
			size_t x = fit->picks[j].element;

			left[j] = !m->excluded[x] &&
				  (router_link_from(m, fit, j) == h ||
				   m->el[x].after == h);
			m->excluded[x] = m->excluded[x] || left[j];
		}
		if (model_fit(m, &trial)) {
			free(left);
			return -1;
		}
		if (picked(&trial, h)) {
			loc_fit_free(fit);
			*fit = trial;
			free(left);
			return 0;
		}
		for (size_t j = 0; j < fit->count; j++)
			if (left[j])
				m->excluded[fit->picks[j].element] = false;
		loc_fit_free(&trial);
		free(left);
	}
	return 0;
}

/* A hop's share of queries answered (answered << 4 | asked). */
static double answered_share(unsigned a)
{
	return (double)(a >> 4) / (a & 15);
}

/* The answers past link e on its failing flows, less those before it,
 * each against how its router answers on every trace (so that a
 * rate-limited router, answering less whatever is lost, weighs
 * nothing); rate[x]: router x's share answered over all traces. */
static double tied_drop(const struct model *m, size_t e, const double *rate)
{
	double sum = 0;
	size_t n = 0;

	for (size_t k = 0; k < m->n; k++) {
		const struct report_trace_flow *f = m->flow_of[k];

		if (!f || !m->obs[k].failing || !f->answered)
			continue;
		for (size_t i = 1; i + 1 < f->element_count; i++) {
			unsigned a = f->answered[i - 1], b = f->answered[i];
			size_t from = f->elements[i - 1], to = f->elements[i + 1];

			if (f->elements[i] != e || !(a & 15) || !(b & 15) ||
			    rate[from] <= 0 || rate[to] <= 0)
				continue;
			sum += answered_share(a) / rate[from] -
			       answered_share(b) / rate[to];
			n++;
		}
	}
	return n ? sum / n : 0;
}

/* Of a link pick and the links tied with it (the same evidence, the
 * pick only the tie-break's), the one past which the answers drop most
 * (where loss starts, the hops after it answer less), however little.
 * SIZE_MAX: out of memory. */
static size_t tied_answers_drop(const struct model *m,
				const struct loc_pick *p)
{
	const struct report_traces *t = m->t;
	size_t best = p->element, count = t->element_count;
	double *asked, *answered, top;

	if (!p->ties || strcmp(m->el[best].kind, "link") != 0)
		return best;
	asked = calloc(count + 1, sizeof(*asked));
	answered = calloc(count + 1, sizeof(*answered));
	if (!asked || !answered) {
		free(asked);
		free(answered);
		return SIZE_MAX;
	}
	for (size_t k = 0; k < t->count; k++) {
		const struct report_trace_flow *f = &t->flows[k];

		for (size_t i = 0; f->answered && i < f->element_count; i++) {
			asked[f->elements[i]] += f->answered[i] & 15;
			answered[f->elements[i]] += f->answered[i] >> 4;
		}
	}
	for (size_t x = 0; x < count; x++)
		answered[x] = asked[x] > 0 ? answered[x] / asked[x] : 0;
	top = tied_drop(m, best, answered);
	for (size_t i = 0; i < p->ties; i++) {
		size_t e = p->rivals[i];
		double d;

		if (strcmp(m->el[e].kind, "link") != 0)
			continue;
		d = tied_drop(m, e, answered);
		if (d > top) {
			top = d;
			best = e;
		}
	}
	free(asked);
	free(answered);
	return best;
}

static int name_pick(struct model *m, struct localise *l,
		     const struct loc_fit *fit, size_t k, bool *used)
{
	const struct loc_pick *p = &fit->picks[k], *other = NULL;
	size_t named, twin, out_failing, out_elsewhere;
	const struct elem *e;
	struct localise_suspect *s;

	if (used[k])
		return 0;
	used[k] = true;
	/* An unseen hop after h and a lossy link out of h: the link,
	 * named where the stronger of the two ranks, with both's
	 * evidence. */
	twin = same_fault(m, fit, used, k);
	if (twin != SIZE_MAX) {
		used[twin] = true;
		other = p;
		if (m->el[p->element].after != SIZE_MAX) {
			p = &fit->picks[twin];
		} else {
			other = &fit->picks[twin];
		}
	}
	named = tied_answers_drop(m, p);
	if (named == SIZE_MAX)
		return -1;
	if (named == p->element)
		named = where_answers_drop(m, p);
	/* (where answers drop tells apart links the loss does not; one
	 * the fit tells apart from the pick is named only when its answers
	 * do drop: past a rate-limited router they merely rise) */
	if (named != p->element && answer_drop(m, named) <= ANSWER_DROP_MIN) {
		bool rival = false;

		for (size_t i = 0; i < p->rival_count; i++)
			rival |= p->rivals[i] == named;
		if (!rival)
			named = p->element;
	}
	named = way_out(m, named, &out_failing, &out_elsewhere);
	e = &m->el[named];
	s = new_suspect(l);
	if (!s)
		return -1;
	fill_evidence(s, p);
	if (other) {
		s->failing += other->stats.failing;
		s->explained += other->explained;
		s->llr += other->stats.llr;
	}
	if (e->after != SIZE_MAX) {
		if (name_unseen(m, l, p, fit, used))
			return -1;
	} else if (named != p->element &&
		   strcmp(m->el[p->element].kind, "router") == 0) {
		s->cause = LOCALISE_LOSS;
		s->kind = e->kind;
		s->name = strdup(e->name);
		if (!s->name ||
		    asprintf(&s->reason, "the %zu failing results through %s "
			     "leave it over this link (or a hop that did not "
			     "answer after it); %zu passing ones leave it over "
			     "its other links; it would lose %.1f%% of their "
			     "datagrams, the background %.2f%%", out_failing,
			     m->el[p->element].name, out_elsewhere,
			     100 * s->loss_rate, 100 * s->expected_rate) < 0)
			return -1;
	} else {
		s->cause = LOCALISE_LOSS;
		s->kind = e->kind;
		s->name = strdup(e->name);
		if (e->address && !(s->address = strdup(e->address)))
			return -1;
		if (!s->name ||
		    asprintf(&s->reason, "%zu failing and %zu passing results "
			     "cross it; it would lose %.1f%% of their "
			     "datagrams, the background %.2f%%", s->failing,
			     s->passing, 100 * s->loss_rate,
			     100 * s->expected_rate) < 0)
			return -1;
	}
	bool listed = named == p->element;

	for (size_t i = 0; i < p->rival_count; i++) {
		const char *alt = m->el[p->rivals[i] == named
					       ? p->element
					       : p->rivals[i]].name;

		listed |= p->rivals[i] == named;
		/* (an unseen hop named as its router is no alternative to
		 * itself) */
		if (s->name && strcmp(alt, s->name) == 0)
			continue;
		if (add_name(&s->alternatives, &s->alternative_count, alt))
			return -1;
	}
	if (!listed && add_name(&s->alternatives, &s->alternative_count,
				m->el[p->element].name))
		return -1;
	s->cannot_localise = p->one_path && p->rival_count > 0;
	return 0;
}

/* name is a router some trace answered from (a responder is none). */
static bool is_router(const struct report_traces *t, const char *name)
{
	return node_element(t, name) != SIZE_MAX;
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
		    link_seen(t, a, s->address) && link_seen(t, s->address, b))
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
	       is_router(t, f->remark_after) && is_router(t, f->remark_before) &&
	       !link_seen(t, f->remark_after, f->remark_before) &&
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
	s = new_suspect(l);
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
static int find_remarks(const struct model *m, struct localise *l)
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
		s = new_suspect(l);
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
		if (rival && add_name(&s->alternatives, &s->alternative_count,
				      rival))
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

/* The suspects name_unseen withdrew (kind NULL: a hop silent by
 * policy) taken out, the order of the others kept. */
static void drop_withdrawn(struct localise *l)
{
	size_t kept = 0;

	for (size_t k = 0; k < l->count; k++) {
		struct localise_suspect *s = &l->items[k];

		if (s->kind) {
			l->items[kept++] = *s;
			continue;
		}
		free(s->name);
		free(s->address);
		free(s->reason);
		for (size_t i = 0; i < s->alternative_count; i++)
			free(s->alternatives[i]);
		free(s->alternatives);
	}
	l->count = kept;
}

static size_t router_named(const struct report_traces *t, const char *name)
{
	return name ? node_element(t, name) : SIZE_MAX;
}

/* The routers each link and unseen hop touch (loc_relations.touch). */
static int model_touch(struct model *m)
{
	const struct report_traces *t = m->t;

	m->touch = calloc(m->count + 1, sizeof(*m->touch));
	if (!m->touch)
		return -1;
	for (size_t e = 0; e < m->count; e++) {
		m->touch[e][0] = m->touch[e][1] = SIZE_MAX;
		if (m->el[e].after != SIZE_MAX) {
			m->touch[e][0] = m->el[e].after;
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
static int model_near(struct model *m)
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
static int model_edges(struct model *m)
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
		    node_element(t, l->to) == SIZE_MAX)
			continue;
		from = node_element(t, l->from);
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
			router = node_element(t, ends[1 - k]);
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

static void model_free(struct model *m)
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
	strmap_free(&m->out_first);
	strmap_free(&m->access_in);
	strmap_free(&m->index);
	strmap_free(&m->hosts);
	strmap_free(&m->sources);
	strmap_free(&m->address_ids);
	free(m->pairs);
	u64map_free(&m->pair_index);
}

/* The suspects freed, the counts of the model kept. */
/* A router named for loss after the fit took its links one by one
 * (router_behind_links): those links are its alternatives, the data
 * alone cannot tell one router that loses toward each next hop from
 * lossy links out of it. */
static int behind_alternatives(const struct model *m, struct localise *l)
{
	const struct report_traces *t = m->t;

	for (size_t k = 0; k < l->count; k++) {
		struct localise_suspect *s = &l->items[k];
		size_t h;

		if (s->cause != LOCALISE_LOSS || strcmp(s->kind, "router") != 0)
			continue;
		h = node_element(t, s->name);
		if (h == SIZE_MAX || !m->behind[h])
			continue;
		for (size_t e = 0; e < t->element_count; e++)
			if (m->excluded[e] && t->elements[e].kind ==
						      REPORT_PATH_LINK &&
			    link_from(m, e) == h &&
			    add_name(&s->alternatives, &s->alternative_count,
				     t->elements[e].name))
				return -1;
	}
	return 0;
}

/* Each router or link suspect's other names in the traces (a router
 * answering from the address of each interface: trace_aliases.h). */
static int suspect_aliases(const struct report_traces *t, struct localise *l)
{
	for (size_t k = 0; k < l->count; k++) {
		struct localise_suspect *s = &l->items[k];
		enum report_path_kind kind = REPORT_PATH_ROUTER;
		size_t e;

		if (strcmp(s->kind, "link") == 0)
			kind = REPORT_PATH_LINK;
		else if (strcmp(s->kind, "router") != 0)
			continue;
		e = report_traces_element_find(t, kind, s->name);
		for (size_t i = 0; e != SIZE_MAX &&
				   i < t->elements[e].alias_count; i++)
			if (add_name(&s->aliases, &s->alias_count,
				     t->elements[e].aliases[i]))
				return -1;
	}
	return 0;
}

static void suspects_free(struct localise *l)
{
	for (size_t k = 0; k < l->count; k++) {
		struct localise_suspect *s = &l->items[k];

		free(s->name);
		free(s->address);
		free(s->reason);
		for (size_t i = 0; i < s->alternative_count; i++)
			free(s->alternatives[i]);
		free(s->alternatives);
		for (size_t i = 0; i < s->alias_count; i++)
			free(s->aliases[i]);
		free(s->aliases);
	}
	free(l->items);
	l->items = NULL;
	l->count = 0;
}

int localise_run(struct localise *l, const struct report *r,
		 const struct report_traces *t)
{
	struct model m = { .r = r, .t = t };
	struct loc_fit fit = { 0 };
	bool *used = NULL;
	int rc = -1;

	memset(l, 0, sizeof(*l));
	if (model_elements(&m) || model_answer_rates(&m) ||
	    model_results(&m, l) ||
	    model_touch(&m) || model_near(&m) || model_edges(&m))
		goto out;
	m.excluded = calloc(m.count + 1, sizeof(*m.excluded));
	m.behind = calloc(m.count + 1, sizeof(*m.behind));
	if (!m.excluded || !m.behind)
		goto out;
	/* A pick the naming withdraws took results that something else
	 * may explain: fit again without it (each round leaves out at
	 * least one more element). */
	for (unsigned round = 0; round < LOCALISE_REFITS_MAX; round++) {
		m.withdrew = false;
		if (model_fit(&m, &fit) || router_behind_links(&m, &fit))
			goto out;
		used = calloc(fit.count + 1, sizeof(*used));
		if (!used)
			goto out;
		for (size_t k = 0; k < fit.count; k++)
			if (name_pick(&m, l, &fit, k, used))
				goto out;
		drop_withdrawn(l);
		if (!m.withdrew || round + 1 == LOCALISE_REFITS_MAX)
			break;
		suspects_free(l);
		free(used);
		used = NULL;
		loc_fit_free(&fit);
	}
	l->background = fit.background;
	l->failing = fit.failing;
	l->explained = fit.explained;
	if (behind_alternatives(&m, l) || find_remarks(&m, l) ||
	    suspect_aliases(t, l))
		goto out;
	l->folded_routers = t->folded_routers;
	l->folded_addresses = t->folded_addresses;
	rc = 0;
out:
	free(used);
	loc_fit_free(&fit);
	model_free(&m);
	if (rc)
		localise_free(l);
	return rc;
}

void localise_free(struct localise *l)
{
	suspects_free(l);
	memset(l, 0, sizeof(*l));
}
