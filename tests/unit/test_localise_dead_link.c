/* Unit tests of localisation of dead links in a rail-like fabric, where
 * each spine has a single uplink (to the core of its plane) so that a
 * dead link closes no cycle of four seen links: a dead spine - core link
 * seen from both ends named as that link, not as a router that "answers
 * but does not forward"; with the spine silent, two ToRs that traces stop
 * after, or a ToR and the core past the silent spine, not named as the
 * ends of a link; a dead ToR uplink seen from the spine's side only named
 * as that link. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "localise_pods.h"
#include "localise_world.h"
#include "tap.h"

/* The two-pod world of localise_pods.h; a flow takes plane fl % 2. */

enum fault { SPINE_CORE, TOR_QUIET_SPINE, TOR_UNTRACED };

/* The hop index (0: the first router) from which h's flow to d stops
 * over the dead link; -1 when it does not cross it. */
static int dead_at(enum fault fault, int h, int d, int fl)
{
	char r[5][24];
	int n = route(h, d, fl % 2, r);
	/* SPINE_CORE: 10.2.0.4 (pod 1, plane 1) - 10.3.0.2; the others:
	 * T3 10.1.0.4 - 10.2.0.4 */
	const char *a = fault == SPINE_CORE ? "10.2.0.4" : "10.1.0.4";
	const char *b = fault == SPINE_CORE ? "10.3.0.2" : "10.2.0.4";

	for (int i = 0; i + 1 < n; i++)
		if ((strcmp(r[i], a) == 0 && strcmp(r[i + 1], b) == 0) ||
		    (strcmp(r[i], b) == 0 && strcmp(r[i + 1], a) == 0))
			return i + 1;
	return -1;
}

/* Every host to every other, flow labels 1 to 4, every flow traced. A
 * flow over the dead link loses all it sends, of unknown direction. */
static int build(struct world *w, enum fault fault)
{
	char *rbuf = NULL, *tbuf = NULL;
	size_t rlen = 0, tlen = 0;
	FILE *rf = open_memstream(&rbuf, &rlen), *tf = open_memstream(&tbuf, &tlen);

	for (int h = 0; h < HOSTS; h++)
		for (int d = 0; d < HOSTS; d++)
			for (int fl = 1; h != d && fl <= 4; fl++) {
				int stop = dead_at(fault, h, d, fl);
				int there = stop >= 0 ? -1 : 0;

				result(rf, h, d, fl, there, 0);
				/* (TOR_UNTRACED: T3's hosts trace nothing) */
				if (fault == TOR_UNTRACED && tor(h) == 3)
					continue;
				trace(tf, h, d, fl, fl % 2, stop,
				      fault == TOR_QUIET_SPINE ? "10.2.0.4"
							       : NULL);
			}
	fclose(rf);
	fclose(tf);
	return world_localise(w, rbuf, rlen, tbuf, tlen);
}

static bool named_link(const struct localise *l, const char *a,
		       const char *b)
{
	char ab[64], ba[64];

	snprintf(ab, sizeof(ab), "%s -> %s", a, b);
	snprintf(ba, sizeof(ba), "%s -> %s", b, a);
	return l->count >= 1 && strcmp(l->items[0].kind, "link") == 0 &&
	       (strcmp(l->items[0].name, ab) == 0 ||
		strcmp(l->items[0].name, ba) == 0);
}

/* The pod-1 spine of plane 1 and its core: pod 0's flows over plane 1
 * to pod 1 stop after the core, pod 1's to pod 0 after the spine; the
 * spine's only other neighbours are its pod's ToRs, which meet no
 * router the core meets (no cycle of four), but the traces stopping
 * after the core go to hosts behind the spine. */
static void test_spine_core(void)
{
	struct world w;

	is_int(build(&w, SPINE_CORE), 0, "spine-core: builds");
	print_suspects(&w.l);
	ok(named_link(&w.l, "10.2.0.4", "10.3.0.2"),
	   "spine-core: the dead link named first (%s)",
	   w.l.count ? w.l.items[0].name : "none");
	ok(w.l.count >= 1 && w.l.items[0].cause == LOCALISE_UNSEEN &&
		   w.l.items[0].reason &&
		   strstr(w.l.items[0].reason, "no trace crosses"),
	   "spine-core: as unseen, with the reason (%s)",
	   w.l.count ? w.l.items[0].reason : "");
	is_int(w.l.count, 1, "spine-core: nothing else");
	world_free(&w);
}

/* T3 and its plane-1 spine, the spine answering no trace: T3's flows
 * over plane 1 stop after T3, T2's to T3 after T2 and pod 0's to T3
 * after core 10.3.0.2 (the spine silent after them). T2 and T3 meet the
 * same spine (two ToRs, which no link joins); the core is two hops from
 * T3, the silent spine between them (counted so, the core's stops are
 * not one hop before where T3 is seen): no link between any of them,
 * though no trace crosses between them either. */
static void test_quiet_spine(void)
{
	struct world w;
	bool link = false;

	is_int(build(&w, TOR_QUIET_SPINE), 0, "quiet spine: builds");
	print_suspects(&w.l);
	for (size_t i = 0; i < w.l.count; i++)
		link |= strcmp(w.l.items[i].kind, "link") == 0;
	ok(!link, "quiet spine: no link named where the traces show none");
	ok(w.l.count >= 1, "quiet spine: where the traces stop is named");
	world_free(&w);
}

/* T3 and its plane-1 spine, T3's hosts tracing nothing: only the flows
 * toward T3's hosts over plane 1 are seen to stop (after the spine, or
 * the core before it). The spine's stops go to hosts behind T3, which
 * the other spine of its pod meets, the spine never: the link between
 * them. */
static void test_one_end(void)
{
	struct world w;

	is_int(build(&w, TOR_UNTRACED), 0, "one end: builds");
	print_suspects(&w.l);
	ok(named_link(&w.l, "10.2.0.4", "10.1.0.4"),
	   "one end: the dead link named first (%s)",
	   w.l.count ? w.l.items[0].name : "none");
	ok(w.l.count >= 1 && w.l.items[0].reason &&
		   strstr(w.l.items[0].reason, "toward hosts behind 10.1.0.4"),
	   "one end: the reason says where the stops go (%s)",
	   w.l.count ? w.l.items[0].reason : "");
	world_free(&w);
}

int main(void)
{
	test_spine_core();
	test_quiet_spine();
	test_one_end();
	return tap_done();
}
