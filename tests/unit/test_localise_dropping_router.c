/* Unit tests of a router that answers traces but drops most of what it
 * forwards: its failing traces stop after it (the unseen hop after it),
 * a few go on. Named as the router once, the later pick of the router
 * itself (the flows that went on) absorbed into it; and where those few
 * show a link out of it losing, the stops, far more than that link can
 * make, are not added to the link's evidence (the link named with the
 * stops' evidence as one fault: localise.c stops_by_link). A router
 * that drops half and answers few queries: the unseen hop where some of
 * its traces found it silent is part of it (silent_named_router). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "localise_pods.h"
#include "localise_world.h"
#include "tap.h"

/* Whether h's datagrams to d over plane plane cross spine 10.2.0.4, the
 * one that drops. */
static bool crosses_spine(int h, int d, int plane)
{
	char r[5][24];
	int n = route(h, d, plane, r);

	for (int i = 0; i < n; i++)
		if (strcmp(r[i], "10.2.0.4") == 0)
			return true;
	return false;
}

/* The hop index of the spine on h's way to d over plane (-1: none). */
static int spine_at(int h, int d, int plane)
{
	char r[5][24];
	int n = route(h, d, plane, r);

	for (int i = 0; i < n; i++)
		if (strcmp(r[i], "10.2.0.4") == 0)
			return i;
	return -1;
}

enum world_kind {
	DROPS_ALL,	/* it drops what it forwards every way */
	PASSES_T2,	/* what it forwards toward T2 passes */
	DROPS_HALF,	/* it drops half, and some traces find it silent */
};

/* Every host to every other, flow labels 1 to 20, over plane 1 when
 * fl % 4 == 1, else plane 0. The spine loses most of what it forwards
 * (PASSES_T2: but toward T2): its flows' traces stop after it (the
 * queries past it lost too) and their results lost 19 of 20 datagrams,
 * but those of flow label 17 (PASSES_T2: toward T3 only), whose traces
 * went on and which lost 6. The failing flows are traced, of the others
 * flow label 20's (a sample; PASSES_T2: and those over the spine). */
static int build(struct world *w, enum world_kind kind)
{
	char *rbuf = NULL, *tbuf = NULL;
	size_t rlen = 0, tlen = 0;
	FILE *rf = open_memstream(&rbuf, &rlen), *tf = open_memstream(&tbuf, &tlen);

	for (int h = 0; h < HOSTS; h++)
		for (int d = 0; d < HOSTS; d++)
			for (int fl = 1; h != d && fl <= 20; fl++) {
				int plane = fl % 4 == 1;
				bool via = crosses_spine(h, d, plane);
				bool lossy = via && (kind == DROPS_ALL ||
						     tor(d) != 2);
				bool on = fl == 17 &&
					  (kind == DROPS_ALL || tor(d) == 3);
				int stop = lossy && !on ? spine_at(h, d, plane) + 1
							: -1;

				if (kind == DROPS_HALF) {
					bool quiet = fl == 9 && pod(h) == 0 &&
						     pod(d) == 1;

					result(rf, h, d, fl, via ? 10 : 0, 0);
					if (via || fl == 20)
						trace(tf, h, d, fl, plane, -1,
						      quiet ? "10.2.0.4" : NULL);
					continue;
				}
				result(rf, h, d, fl,
				       !lossy ? 0 : on ? 6 : 19, 0);
				if (lossy || fl == 20 ||
				    (kind == PASSES_T2 && via))
					trace(tf, h, d, fl, plane, stop, NULL);
			}
	fclose(rf);
	fclose(tf);
	return world_localise(w, rbuf, rlen, tbuf, tlen);
}

static void test_drops_all(void)
{
	struct world w;

	is_int(build(&w, DROPS_ALL), 0, "drops all: builds");
	print_suspects(&w.l);
	ok(w.l.count >= 1 && strcmp(w.l.items[0].kind, "router") == 0 &&
		   strcmp(w.l.items[0].name, "10.2.0.4") == 0,
	   "drops all: the router named first (%s %s)",
	   w.l.count ? w.l.items[0].kind : "",
	   w.l.count ? w.l.items[0].name : "none");
	/* (without absorb_links_out the router's own later pick, the flows
	 * whose traces went on, was named again) */
	is_int(w.l.count, 1, "drops all: the router named once");
	world_free(&w);
}

/* The spine's stops go toward the core and T3, 128 of them; T3's flow
 * label 17 went on over the link to T3 and lost 6 of 20: that link loses
 * some 17% of what crosses it (its 12 failing flows and the passing ones
 * spread over it), and could stop a few of the flows that would cross it,
 * not ten times as many. */
static void test_stops_not_link(void)
{
	struct world w;
	size_t link = SIZE_MAX, stops = SIZE_MAX;

	is_int(build(&w, PASSES_T2), 0, "stops not the link's: builds");
	print_suspects(&w.l);
	for (size_t i = 0; i < w.l.count; i++) {
		const struct localise_suspect *s = &w.l.items[i];

		if (strcmp(s->kind, "link") == 0 &&
		    strcmp(s->name, "10.2.0.4 -> 10.1.0.4") == 0)
			link = i;
		else if (s->cause == LOCALISE_UNSEEN && s->reason &&
			 strstr(s->reason, "stop after 10.2.0.4"))
			stops = i;
	}
	ok(stops != SIZE_MAX && w.l.items[stops].failing == 128,
	   "stops not the link's: the 128 stops after the spine named apart");
	/* (without stops_by_link the link was named with the stops'
	 * evidence added: 140 failing) */
	ok(link == SIZE_MAX || w.l.items[link].failing == 12,
	   "stops not the link's: the link only with its own 12 (%zu)",
	   link == SIZE_MAX ? (size_t)0 : w.l.items[link].failing);
	world_free(&w);
}

/* The spine drops half of what it forwards both ways, and the traces of
 * flow label 9 from pod 0 find it silent (it answers few queries), the
 * ToR after it answering: those 16 flows show an unseen hop after the
 * core, where the spine sits, a tenth of the spine's failing flows. */
static void test_silent_where_named(void)
{
	struct world w;

	is_int(build(&w, DROPS_HALF), 0, "silent where named: builds");
	print_suspects(&w.l);
	ok(w.l.count >= 1 && strcmp(w.l.items[0].name, "10.2.0.4") == 0,
	   "silent where named: the router named first");
	/* (without silent_named_router the hop after the core was named
	 * too) */
	is_int(w.l.count, 1, "silent where named: the router only, the "
	       "hop where its traces found it silent no suspect of its own");
	ok(w.l.count && w.l.items[0].failing == 200,
	   "silent where named: with those 16 flows' evidence (%zu "
	   "failing, 184 its own)",
	   w.l.count ? w.l.items[0].failing : (size_t)0);
	world_free(&w);
}

int main(void)
{
	test_drops_all();
	test_stops_not_link();
	test_silent_where_named();
	return tap_done();
}
