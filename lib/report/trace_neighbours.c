/* Seen router adjacency of report --traces (trace_neighbours.h): from
 * the links the traces crossed, each named "A -> B" by its ends. */
#include <stdio.h>
#include <string.h>

#include "report/trace_neighbours.h"

/* Neighbour lists are short (a router's ports); a longer one is cut
 * (trace_may_adjoin then judges by the first ones). */
#define NEIGHBOURS_MAX 128

static size_t node_of(const struct report_traces *t, const char *name)
{
	size_t i = report_traces_element_find(t, REPORT_PATH_ROUTER, name);

	return i != SIZE_MAX ? i : report_traces_element_find(
					   t, REPORT_PATH_SWITCH, name);
}

size_t trace_neighbours(const struct report_traces *t, const char *router,
			size_t *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < t->element_count && n < max; i++) {
		const struct report_path_element *e = &t->elements[i];
		const char *other;
		size_t node;
		bool known = false;

		if (e->kind != REPORT_PATH_LINK || !e->from || !e->to)
			continue;
		if (strcmp(e->from, router) == 0)
			other = e->to;
		else if (strcmp(e->to, router) == 0)
			other = e->from;
		else
			continue;
		node = node_of(t, other);
		if (node == SIZE_MAX)
			continue;	/* a host */
		for (size_t k = 0; !known && k < n; k++)
			known = out[k] == node;
		if (!known)
			out[n++] = node;
	}
	return n;
}

static bool link_named(const struct report_traces *t, const char *from,
		       const char *to)
{
	char name[256];
	int n = snprintf(name, sizeof(name), "%s -> %s", from, to);

	/* (no element has a name longer than a trace hop's address pair) */
	return n > 0 && (size_t)n < sizeof(name) &&
	       report_traces_element_find(t, REPORT_PATH_LINK, name) !=
		       SIZE_MAX;
}

static bool seen_adjacent(const struct report_traces *t, const char *a,
			  const char *b)
{
	return link_named(t, a, b) || link_named(t, b, a);
}

/* Of the n neighbours of one end, how many are seen next to one of the
 * other end's? */
static size_t closing(const struct report_traces *t, const size_t *mine,
		      size_t n, const size_t *theirs, size_t m)
{
	size_t count = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < m; k++)
			if (mine[i] != theirs[k] &&
			    seen_adjacent(t, t->elements[mine[i]].name,
					  t->elements[theirs[k]].name)) {
				count++;
				break;
			}
	return count;
}

bool trace_may_adjoin(const struct report_traces *t, const char *a,
		      const char *b)
{
	size_t na[NEIGHBOURS_MAX], nb[NEIGHBOURS_MAX], ca, cb, from_a, from_b;

	if (strcmp(a, b) == 0 || seen_adjacent(t, a, b))
		return false;
	ca = trace_neighbours(t, a, na, NEIGHBOURS_MAX);
	cb = trace_neighbours(t, b, nb, NEIGHBOURS_MAX);
	from_a = closing(t, na, ca, nb, cb);
	from_b = closing(t, nb, cb, na, ca);
	/* Three in four of one end's neighbours: a link a - b would make b
	 * one more of the routers a's neighbours meet (or a of b's), as
	 * its peers are; a ToR and a spine of another pod close a cycle
	 * only through the one spine of their group. */
	return (ca && 4 * from_a >= 3 * ca) || (cb && 4 * from_b >= 3 * cb);
}

bool trace_share_neighbour(const struct report_traces *t, const char *a,
			   const char *b)
{
	size_t na[NEIGHBOURS_MAX], nb[NEIGHBOURS_MAX], ca, cb;

	ca = trace_neighbours(t, a, na, NEIGHBOURS_MAX);
	cb = trace_neighbours(t, b, nb, NEIGHBOURS_MAX);
	for (size_t i = 0; i < ca; i++)
		for (size_t k = 0; k < cb; k++)
			if (na[i] == nb[k])
				return true;
	return false;
}
