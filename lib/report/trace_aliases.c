/* Routers answering traces per interface, folded (trace_aliases.h).
 *
 * A router's ICMP time exceeded comes from the address of its route back
 * to the sender unless told otherwise (Linux: __icmp_send() in
 * net/ipv4/icmp.c leaves the source to the route lookup unless
 * icmp_errors_use_inbound_ifaddr is set; icmp6_send() likewise), which
 * with symmetric routing is the interface the datagram came in by. Each
 * address of such a router is then one interface, and the hop after it
 * answers from its own interface toward it, whichever of the router's
 * interfaces the datagram had entered by: addresses seen right before a
 * common next hop are one router's (the "common successor" reading of
 * alias resolution). Routers answering from one address per router
 * (a loopback, or the VM fabric's single upstream subnets) show the
 * same pattern for routers in parallel between two others, so each
 * reading is checked against what aliases cannot show: two addresses
 * of one router with a common previous hop (that previous hop would
 * have two interfaces into one router), or both on one trace (a route
 * visits a router once). Where more than a tenth of the readings
 * disagree, the traces are not of routers answering per interface, and
 * nothing is folded. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/trace_aliases.h"

/* Readings that may disagree before the traces count as those of routers
 * answering from one address each: one in ten. */
#define DISAGREE_SHARE_MAX 10
/* Traces that read as per interface this clearly (at least so many
 * readings, at most one in fifty disagreeing) show every router's
 * interfaces: a next hop's address is then its interface towards the
 * router before it, one link, so one next hop in common is enough. */
#define CLEAR_READINGS_MIN 16
#define CLEAR_DISAGREE_SHARE_MAX 50

/* The nodes the traces' links join (routers, hosts, switch ports), by
 * number, with the links as previous-hop lists. */
struct graph {
	struct strmap ids;	/* name -> node + 1 */
	const char **name;	/* node -> name (the element's) */
	size_t *router;		/* node -> router element, SIZE_MAX: none */
	size_t nodes, capacity;
	/* node -> its previous hops: prev[prev_start[v] .. prev_start[v+1]) */
	size_t *prev_start, *prev;
	/* union-find over nodes; size: members of a root's set */
	size_t *parent, *size;
	/* per node: a stamp and an owner, reset by stamping anew */
	size_t *stamp, *owner;
};

static size_t node_of(struct graph *g, const char *name)
{
	void **slot = strmap_slot(&g->ids, name);

	if (!slot)
		return SIZE_MAX;
	if (*slot)
		return (size_t)(uintptr_t)*slot - 1;
	if (g->nodes == g->capacity) {
		size_t cap = g->capacity ? 2 * g->capacity : 64;
		const char **n = realloc(g->name, cap * sizeof(*n));
		size_t *r;

		if (!n)
			return SIZE_MAX;
		g->name = n;
		r = realloc(g->router, cap * sizeof(*r));
		if (!r)
			return SIZE_MAX;
		g->router = r;
		g->capacity = cap;
	}
	g->name[g->nodes] = name;
	g->router[g->nodes] = SIZE_MAX;
	*slot = (void *)(uintptr_t)(g->nodes + 1);
	return g->nodes++;
}

static size_t root(struct graph *g, size_t v)
{
	while (g->parent[v] != v) {
		g->parent[v] = g->parent[g->parent[v]];
		v = g->parent[v];
	}
	return v;
}

static void join(struct graph *g, size_t a, size_t b)
{
	a = root(g, a);
	b = root(g, b);
	if (a == b)
		return;
	if (g->size[a] < g->size[b]) {
		size_t x = a;

		a = b;
		b = x;
	}
	g->parent[b] = a;
	g->size[a] += g->size[b];
}

static void graph_free(struct graph *g)
{
	strmap_free(&g->ids);
	free(g->name);
	free(g->router);
	free(g->prev_start);
	free(g->prev);
	free(g->parent);
	free(g->size);
	free(g->stamp);
	free(g->owner);
}

/* The nodes of t's routers and links, and each node's previous hops. */
static int graph_build(struct graph *g, const struct report_traces *t)
{
	size_t links = 0, *fill;

	for (size_t i = 0; i < t->element_count; i++) {
		const struct report_path_element *e = &t->elements[i];
		size_t v;

		if (e->kind == REPORT_PATH_ROUTER) {
			v = node_of(g, e->name);
			if (v == SIZE_MAX)
				return -1;
			g->router[v] = i;
		} else if (e->kind == REPORT_PATH_LINK) {
			if (node_of(g, e->from) == SIZE_MAX ||
			    node_of(g, e->to) == SIZE_MAX)
				return -1;
			links++;
		}
	}
	g->prev_start = calloc(g->nodes + 1, sizeof(*g->prev_start));
	g->prev = calloc(links + 1, sizeof(*g->prev));
	fill = calloc(g->nodes + 1, sizeof(*fill));
	g->parent = calloc(g->nodes + 1, sizeof(*g->parent));
	g->size = calloc(g->nodes + 1, sizeof(*g->size));
	g->stamp = calloc(g->nodes + 1, sizeof(*g->stamp));
	g->owner = calloc(g->nodes + 1, sizeof(*g->owner));
	if (!g->prev_start || !g->prev || !fill || !g->parent || !g->size ||
	    !g->stamp || !g->owner) {
		free(fill);
		return -1;
	}
	for (size_t i = 0; i < t->element_count; i++)
		if (t->elements[i].kind == REPORT_PATH_LINK)
			g->prev_start[node_of(g, t->elements[i].to) + 1]++;
	for (size_t v = 0; v < g->nodes; v++) {
		g->prev_start[v + 1] += g->prev_start[v];
		fill[v] = g->prev_start[v];
		g->parent[v] = v;
		g->size[v] = 1;
	}
	for (size_t i = 0; i < t->element_count; i++)
		if (t->elements[i].kind == REPORT_PATH_LINK)
			g->prev[fill[node_of(g, t->elements[i].to)]++] =
				node_of(g, t->elements[i].from);
	free(fill);
	return 0;
}

/* Marks p's previous hops as p's under stamp (a mark no other check
 * used); whether one of them was another node's under it already. */
static bool mark_previous(struct graph *g, size_t p, size_t stamp)
{
	for (size_t k = g->prev_start[p]; k < g->prev_start[p + 1]; k++) {
		size_t q = g->prev[k];

		if (g->stamp[q] == stamp && g->owner[q] != p)
			return true;
		g->stamp[q] = stamp;
		g->owner[q] = p;
	}
	return false;
}

/* Whether two of the routers among v's previous hops have a previous
 * hop in common. */
static bool shared_previous(struct graph *g, size_t v, size_t stamp)
{
	for (size_t i = g->prev_start[v]; i < g->prev_start[v + 1]; i++)
		if (g->router[g->prev[i]] != SIZE_MAX &&
		    mark_previous(g, g->prev[i], stamp))
			return true;
	return false;
}

/* Whether router p follows several hosts: the address of a LAN (hosts
 * on one segment with it), or of a router answering from one address
 * for every neighbour; no address of one interface facing one
 * neighbour. */
static bool faces_hosts(const struct graph *g, size_t p)
{
	size_t hosts = 0;

	for (size_t k = g->prev_start[p]; k < g->prev_start[p + 1]; k++)
		hosts += g->router[g->prev[k]] == SIZE_MAX;
	return hosts > 1;
}

struct pair {
	size_t a, b;
};

static int by_pair(const void *x, const void *y)
{
	const struct pair *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return p->b < q->b ? -1 : p->b > q->b;
}

/* Adds the pairs of routers before next hop v to *pairs. */
static int add_pairs(const struct graph *g, size_t v, struct pair **pairs,
		     size_t *n, size_t *cap)
{
	for (size_t i = g->prev_start[v]; i < g->prev_start[v + 1]; i++)
		for (size_t k = i + 1; k < g->prev_start[v + 1]; k++) {
			size_t a = g->prev[i], b = g->prev[k];

			if (g->router[a] == SIZE_MAX || g->router[b] == SIZE_MAX)
				continue;
			if (*n == *cap) {
				size_t c = *cap ? 2 * *cap : 256;
				struct pair *p = realloc(*pairs, c * sizeof(*p));

				if (!p)
					return -1;
				*pairs = p;
				*cap = c;
			}
			(*pairs)[(*n)++] = (struct pair){ .a = a < b ? a : b,
							  .b = a < b ? b : a };
		}
	return 0;
}

/* Reads each next hop that follows several routers; where the reading
 * holds, two routers with at least two next hops in common are joined
 * (one next hop in common is as likely two routers a third answers
 * from one address), or with one when the traces read as per interface
 * clearly (CLEAR_*: a router that drops what it forwards leaves few of
 * its next hops to be seen, so its addresses would stay apart). 1 when
 * few enough readings disagree, 0 when too many do (nothing joined), -1
 * when memory ran out. */
static int read_next_hops(struct graph *g, struct trace_aliases *out)
{
	struct pair *pairs = NULL;
	size_t n = 0, cap = 0;
	bool clear;
	int rc = -1;

	for (size_t v = 0; v < g->nodes; v++) {
		size_t routers = 0;
		bool hosts = false;

		for (size_t i = g->prev_start[v]; i < g->prev_start[v + 1];
		     i++) {
			size_t p = g->prev[i];

			if (g->router[p] == SIZE_MAX)
				continue;
			routers++;
			hosts = hosts || faces_hosts(g, p);
		}
		if (routers < 2)
			continue;
		out->next_hops++;
		if (hosts || shared_previous(g, v, v + 1))
			out->disagreeing++;
		else if (add_pairs(g, v, &pairs, &n, &cap))
			goto out;
	}
	rc = 0;
	if (!out->next_hops ||
	    DISAGREE_SHARE_MAX * out->disagreeing > out->next_hops)
		goto out;
	qsort(pairs, n, sizeof(*pairs), by_pair);
	clear = out->next_hops >= CLEAR_READINGS_MIN &&
		CLEAR_DISAGREE_SHARE_MAX * out->disagreeing <= out->next_hops;
	for (size_t i = 0; i < n; i++)
		if (clear || (i + 1 < n && pairs[i].a == pairs[i + 1].a &&
			      pairs[i].b == pairs[i + 1].b))
			join(g, pairs[i].a, pairs[i].b);
	rc = 1;
out:
	free(pairs);
	return rc;
}

struct member {
	size_t set, node;
};

static int by_set(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	if (x->set != y->set)
		return x->set < y->set ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* Whether two of the members m[0..n) (one set) have a previous hop in
 * common (stamp: a mark no other check used). */
static bool set_shares_previous(struct graph *g, const struct member *m,
				size_t n, size_t stamp)
{
	for (size_t i = 0; i < n; i++)
		if (mark_previous(g, m[i].node, stamp))
			return true;
	return false;
}

/* Per router set: whether its members are aliases after all, none of
 * them on one trace with another nor with a previous hop of another's;
 * sets that are not are taken apart. False when more than a tenth of
 * the sets are not (then nothing is folded). */
static bool check_sets(struct graph *g, const struct report_traces *t,
		       const size_t *node_of_element)
{
	bool *bad = calloc(g->nodes + 1, sizeof(*bad));
	struct member *m = calloc(g->nodes + 1, sizeof(*m));
	size_t n = 0, sets = 0, bad_sets = 0;
	bool ok;

	if (!bad || !m) {
		free(bad);
		free(m);
		return false;
	}
	memset(g->stamp, 0, g->nodes * sizeof(*g->stamp));
	for (size_t k = 0; k < t->count; k++) {
		const struct report_trace_flow *f = &t->flows[k];

		for (size_t i = 0; i < f->element_count; i++) {
			size_t v = node_of_element[f->elements[i]], r;

			if (v == SIZE_MAX)
				continue;
			r = root(g, v);
			if (g->size[r] < 2)
				continue;
			if (g->stamp[r] == k + 1)
				bad[r] = true;
			g->stamp[r] = k + 1;
		}
	}
	for (size_t v = 0; v < g->nodes; v++)
		if (g->size[root(g, v)] >= 2)
			m[n++] = (struct member){ .set = root(g, v), .node = v };
	qsort(m, n, sizeof(*m), by_set);
	for (size_t i = 0, end; i < n; i = end) {
		for (end = i; end < n && m[end].set == m[i].set; end++)
			;
		sets++;
		if (bad[m[i].set] ||
		    set_shares_previous(g, m + i, end - i,
					t->count + 1 + sets)) {
			bad[m[i].set] = true;
			bad_sets++;
		}
	}
	ok = DISAGREE_SHARE_MAX * bad_sets <= sets;
	for (size_t i = 0; ok && i < n; i++)
		if (bad[m[i].set]) {
			g->parent[m[i].node] = m[i].node;
			g->size[m[i].node] = 1;
		}
	free(m);
	free(bad);
	return ok;
}

/* The name a node (a link's end, a router) goes by once folded: its
 * set's (the address of it that most traces show); a host's or a
 * switch port's own. */
static const char *node_name(struct graph *g, const size_t *canon,
			     const char *name)
{
	size_t v = (size_t)(uintptr_t)strmap_get(&g->ids, name) - 1;

	return g->name[canon[root(g, v)]];
}

static int add_alias(struct report_path_element *e, const char *name)
{
	char **a = realloc(e->aliases, (e->alias_count + 1) * sizeof(*a));

	if (!a)
		return -1;
	e->aliases = a;
	a[e->alias_count] = strdup(name);
	if (!a[e->alias_count])
		return -1;
	e->alias_count++;
	return 0;
}

/* t's elements under their folded names (into folded, map: old index
 * -> new), each old name that changed an alias of its new element. */
static int rename_elements(struct graph *g, const struct report_traces *t,
			   const size_t *canon, struct report_traces *folded,
			   size_t *map)
{
	for (size_t i = 0; i < t->element_count; i++) {
		const struct report_path_element *e = &t->elements[i];
		const char *from = e->name, *to = NULL;
		size_t k, before = folded->element_count;

		if (e->kind == REPORT_PATH_ROUTER) {
			from = node_name(g, canon, e->name);
		} else if (e->kind == REPORT_PATH_LINK) {
			from = node_name(g, canon, e->from);
			to = node_name(g, canon, e->to);
		}
		k = report_traces_element_add(folded, e->kind, from, to);
		if (k == SIZE_MAX)
			return -1;
		map[i] = k;
		/* A new link between folded routers keeps its far end as
		 * traces show it: the address of that router's interface on
		 * this link, which tells the link from the router's others
		 * (found under "FROM -> TO" of the folded names too). */
		if (e->kind == REPORT_PATH_LINK &&
		    folded->element_count > before && strcmp(to, e->to) != 0) {
			char *name;

			if (asprintf(&name, "%s -> %s", from, e->to) < 0)
				return -1;
			if (report_traces_element_rename(folded, k, name) < 0) {
				free(name);
				return -1;
			}
			free(name);
		}
		if (strcmp(folded->elements[k].name, e->name) != 0 &&
		    add_alias(&folded->elements[k], e->name))
			return -1;
	}
	return 0;
}

/* The member of each set most traces show (the first by name of
 * those): canon[set root] -> node. */
static int pick_names(struct graph *g, const struct report_traces *t,
		      const size_t *node_of_element, size_t *canon)
{
	size_t *seen = calloc(g->nodes + 1, sizeof(*seen));

	if (!seen)
		return -1;
	for (size_t k = 0; k < t->count; k++)
		for (size_t i = 0; i < t->flows[k].element_count; i++) {
			size_t v = node_of_element[t->flows[k].elements[i]];

			if (v != SIZE_MAX)
				seen[v]++;
		}
	for (size_t v = 0; v < g->nodes; v++)
		canon[v] = v;
	for (size_t v = 0; v < g->nodes; v++) {
		size_t r = root(g, v), c = canon[r];

		if (seen[v] > seen[c] ||
		    (seen[v] == seen[c] && strcmp(g->name[v], g->name[c]) < 0))
			canon[r] = v;
	}
	free(seen);
	return 0;
}

/* A trace's remark end (an address) under its router's folded name;
 * *out NULL when it keeps its own. */
static int remark_name(struct graph *g, const size_t *canon,
		       const char *name, char **out)
{
	void *id = name ? strmap_get(&g->ids, name) : NULL;
	const char *folded;

	*out = NULL;
	if (!id)
		return 0;
	folded = g->name[canon[root(g, (size_t)(uintptr_t)id - 1)]];
	if (strcmp(folded, name) == 0)
		return 0;
	*out = strdup(folded);
	return *out ? 0 : -1;
}

/* t's elements, its traces' paths and remark ends under the folded
 * names. */
static int fold(struct graph *g, struct report_traces *t, const size_t *canon)
{
	struct report_traces folded = { 0 };
	size_t *map = calloc(t->element_count + 1, sizeof(*map));
	char **remarks = calloc(2 * t->count + 1, sizeof(*remarks));
	int rc = -1;

	if (!map || !remarks || rename_elements(g, t, canon, &folded, map))
		goto out;
	for (size_t k = 0; k < t->count; k++)
		if (remark_name(g, canon, t->flows[k].remark_after,
				&remarks[2 * k]) ||
		    remark_name(g, canon, t->flows[k].remark_before,
				&remarks[2 * k + 1]))
			goto out;
	/* (nothing fails from here on) */
	for (size_t k = 0; k < t->count; k++) {
		struct report_trace_flow *f = &t->flows[k];

		for (size_t i = 0; i < f->element_count; i++)
			f->elements[i] = map[f->elements[i]];
		if (remarks[2 * k]) {
			free(f->remark_after);
			f->remark_after = remarks[2 * k];
			remarks[2 * k] = NULL;
		}
		if (remarks[2 * k + 1]) {
			free(f->remark_before);
			f->remark_before = remarks[2 * k + 1];
			remarks[2 * k + 1] = NULL;
		}
	}
	report_traces_elements_free(t);
	t->elements = folded.elements;
	t->element_count = folded.element_count;
	t->element_capacity = folded.element_capacity;
	t->element_index = folded.element_index;
	memset(&folded, 0, sizeof(folded));
	rc = 0;
out:
	if (remarks)
		for (size_t k = 0; k < 2 * t->count; k++)
			free(remarks[k]);
	free(remarks);
	free(map);
	report_traces_elements_free(&folded);
	return rc;
}

int trace_aliases_fold(struct report_traces *t, struct trace_aliases *out)
{
	struct graph g = { 0 };
	size_t *node_of_element = NULL, *canon = NULL;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (graph_build(&g, t))
		goto done;
	node_of_element = malloc((t->element_count + 1) *
				 sizeof(*node_of_element));
	canon = malloc((g.nodes + 1) * sizeof(*canon));
	if (!node_of_element || !canon)
		goto done;
	for (size_t i = 0; i < t->element_count; i++)
		node_of_element[i] = SIZE_MAX;
	for (size_t v = 0; v < g.nodes; v++)
		if (g.router[v] != SIZE_MAX)
			node_of_element[g.router[v]] = v;
	switch (read_next_hops(&g, out)) {
	case -1:
		goto done;
	case 0:
		rc = 0;
		goto done;
	}
	rc = 0;
	if (!check_sets(&g, t, node_of_element))
		goto done;
	for (size_t v = 0; v < g.nodes; v++)
		if (root(&g, v) == v && g.size[v] >= 2) {
			out->routers++;
			out->addresses += g.size[v];
		}
	if (!out->routers)
		goto done;
	rc = -1;
	if (pick_names(&g, t, node_of_element, canon) ||
	    fold(&g, t, canon))
		goto done;
	t->folded_routers = out->routers;
	t->folded_addresses = out->addresses;
	rc = 0;
done:
	if (rc)
		memset(out, 0, sizeof(*out));
	free(node_of_element);
	free(canon);
	graph_free(&g);
	return rc;
}
