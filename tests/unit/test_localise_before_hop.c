/* Unit tests of the hop before a router that did not answer
 * (localise_model.c unseen_before_elem): a core that never answers
 * traces loses on its link into one spine. The flows over it reach
 * that spine from every other pod's spine, each of which sends only a
 * share of its flows there: the loss is named once, as the hop before
 * the spine, not as the spine's links on to its ToRs. A core that
 * answers, its link into one spine lossy and some of the trace queries
 * to that spine lost with the rest: the hops left unanswered after that
 * one core are no hop before the ToRs after the spine. A ToR that
 * answers no trace, its uplink lossy: its hosts' traces reach the spine
 * first, over one hop that did not answer, and that hop before the
 * spine is named (localise_model.c silent_first), not the spine's links
 * on; a ToR that does not answer and loses nothing is no suspect. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "localise_world.h"
#include "tap.h"

/* Four pods of two ToRs, 10.1.0.(2 * pod + k + 1), with two hosts each
 * (host h: 10.0.0.(h + 1)), and one spine, 10.2.0.(pod + 1). Every
 * spine meets core 10.3.0.1, which answers traces, and core 10.3.0.2,
 * which answers none. Flow label fl takes core fl % 2. */
#define HOSTS 16
#define LABELS 4

#define SILENT_CORE "10.3.0.2"
#define LOSSY_INTO "10.2.0.2"	/* pod 1's spine: SILENT_CORE -> it loses */
#define LOST 8			/* of 20 datagrams */

/* SILENT_CORE_INTO: as above. LOSSY_DOWNLINK: every router answers;
 * the link from core 10.3.0.1 to pod 1's spine loses, and so do the
 * trace queries to that spine of one in five of the flows over it:
 * their traces reach pod 1's ToRs over a hop that did not answer, after
 * the core only. */
enum fault { SILENT_CORE_INTO, LOSSY_DOWNLINK, SILENT_TOR_UPLINK, SILENT_TOR };

/* SILENT_TOR_UPLINK: pod 1's first ToR answers no trace and its uplink
 * to pod 1's spine loses; SILENT_TOR: it answers none, and loses
 * nothing. */
#define SILENT_TOR_ADDR "10.1.0.3"
#define TOR_SPINE "10.2.0.2"

#define DOWNLINK_FROM "10.3.0.1"
#define DOWNLINK_TO "10.2.0.2"
/* LOSSY_DOWNLINK: pod 2's spine answers one hop in four (an ICMP rate
 * limit), so the core's passing flows skip a hop too. */
#define RATE_LIMITED "10.2.0.3"

static int pod(int h)
{
	return h / 4;
}

static int tor(int h)
{
	return h / 2;
}

/* The routers of h's flow to d with label fl, as addresses; their
 * count. */
static int route(int h, int d, int fl, char out[5][24])
{
	int n = 0;

	snprintf(out[n++], sizeof out[0], "10.1.0.%d", tor(h) + 1);
	if (tor(h) == tor(d))
		return n;
	snprintf(out[n++], sizeof out[0], "10.2.0.%d", pod(h) + 1);
	if (pod(h) != pod(d)) {
		snprintf(out[n++], sizeof out[0], "10.3.0.%d", fl % 2 + 1);
		snprintf(out[n++], sizeof out[0], "10.2.0.%d", pod(d) + 1);
	}
	snprintf(out[n++], sizeof out[0], "10.1.0.%d", tor(d) + 1);
	return n;
}

static bool over_lossy_link(enum fault fault, const char r[5][24], int n)
{
	const char *a = fault == SILENT_CORE_INTO ? SILENT_CORE : DOWNLINK_FROM;
	const char *b = fault == SILENT_CORE_INTO ? LOSSY_INTO : DOWNLINK_TO;

	if (fault == SILENT_TOR)
		return false;
	if (fault == SILENT_TOR_UPLINK) {
		a = SILENT_TOR_ADDR;
		b = TOR_SPINE;
	}

	for (int i = 0; i + 1 < n; i++)
		if (strcmp(r[i], a) == 0 && strcmp(r[i + 1], b) == 0)
			return true;
	return false;
}

/* Whether hop i of a flow (routers r) goes unanswered. */
static bool unanswered(enum fault fault, const char r[5][24], int n, int i,
		       int flow)
{
	if (fault == SILENT_CORE_INTO)
		return strcmp(r[i], SILENT_CORE) == 0;
	if (fault == SILENT_TOR_UPLINK || fault == SILENT_TOR)
		return strcmp(r[i], SILENT_TOR_ADDR) == 0;
	if (strcmp(r[i], RATE_LIMITED) == 0)
		return flow % 4 != 0;
	return strcmp(r[i], DOWNLINK_TO) == 0 && flow % 5 == 0 &&
	       over_lossy_link(fault, r, n);
}

/* Every host to every other over each flow label, every flow traced;
 * the traces reach their destinations, the silent core's hop
 * unanswered. */
static void write_world(FILE *rf, FILE *tf, const void *arg)
{
	enum fault fault = *(const enum fault *)arg;

	for (int h = 0; h < HOSTS; h++)
		for (int d = 0; d < HOSTS; d++)
			for (int fl = 1; h != d && fl <= LABELS; fl++) {
				char r[5][24], src[24], dst[24], host[16];
				int n = route(h, d, fl, r);

				snprintf(src, sizeof(src), "10.0.0.%d", h + 1);
				snprintf(dst, sizeof(dst), "10.0.0.%d", d + 1);
				snprintf(host, sizeof(host), "h%d", h);
				world_result(rf, host, src, dst, fl,
					     over_lossy_link(fault, r, n) ? LOST
									: 0,
					     n);
				world_trace_start(tf, host, src, dst, fl,
						  "reached");
				for (int i = 0; i < n; i++)
					world_hop(tf, i + 1,
						  unanswered(fault, r, n, i,
							     h * HOSTS + d)
							  ? NULL
							  : r[i],
						  "time_exceeded");
				world_hop(tf, n + 1, dst, "responder");
				world_trace_end(tf);
			}
}

static void test_before_hop(void)
{
	struct world w;
	const struct localise_suspect *s;

	if (world_make(&w, "before hop", write_world, &(enum fault){ SILENT_CORE_INTO }))
		return;
	is_int(w.l.count, 1, "before hop: one suspect");
	if (w.l.count < 1) {
		world_free(&w);
		return;
	}
	s = &w.l.items[0];
	ok(strcmp(s->kind, "hop") == 0 &&
		   strcmp(s->name, "before " LOSSY_INTO) == 0,
	   "before hop: the hop before the spine named (%s %s)", s->kind,
	   s->name);
	ok(s->failing >= 24,
	   "before hop: with the failing results of every pod over it (%zu)",
	   s->failing);
	world_free(&w);
}

static void test_one_router_before(void)
{
	struct world w;
	bool before = false;

	if (world_make(&w, "one router before", write_world, &(enum fault){ LOSSY_DOWNLINK }))
		return;
	for (size_t i = 0; i < w.l.count; i++)
		before |= strncmp(w.l.items[i].name, "before ", 7) == 0;
	ok(w.l.count >= 1 &&
		   strcmp(w.l.items[0].name, DOWNLINK_FROM " -> " DOWNLINK_TO) == 0,
	   "one router before: the lossy link named first (%s)",
	   w.l.count ? w.l.items[0].name : "none");
	ok(!before, "one router before: no hop before a ToR named");
	world_free(&w);
}

static void test_silent_tor(enum fault fault)
{
	const char *label = fault == SILENT_TOR ? "silent ToR" :
						  "silent ToR uplink";
	struct world w;

	if (world_make(&w, label, write_world, &fault))
		return;
	if (fault == SILENT_TOR) {
		is_int(w.l.count, 0, "%s: no suspect", label);
		world_free(&w);
		return;
	}
	is_int(w.l.count, 1, "%s: one suspect", label);
	ok(w.l.count >= 1 && strcmp(w.l.items[0].kind, "hop") == 0 &&
		   strcmp(w.l.items[0].name, "before " TOR_SPINE) == 0,
	   "%s: the hop before the spine named (%s)", label,
	   w.l.count ? w.l.items[0].name : "none");
	ok(w.l.count >= 1 && w.l.items[0].failing >= 40,
	   "%s: with the failing results of the ToR's two hosts (%zu)", label,
	   w.l.count ? w.l.items[0].failing : 0);
	world_free(&w);
}

int main(void)
{
	test_before_hop();
	test_one_router_before();
	test_silent_tor(SILENT_TOR_UPLINK);
	test_silent_tor(SILENT_TOR);
	return tap_done();
}
