/* Unit tests of naming the unseen hop after routers when their failing
 * flows go toward an edge router that answers no trace
 * (localise_unseen.c shared_next_hop): hosts a0-a3 behind leaf L
 * (10.1.0.1) reach hosts b0-b3 behind leaf N (10.3.0.1, answers traces)
 * and c0-c3 behind leaf Q (10.3.0.2, never answers), over spines S1 and
 * S2 (10.2.0.1-2), flow label 1-4 over S1, 5-8 over S2. Q drops every
 * flow, in and out: the traces of those toward c stop after the
 * spines; those from c show S and N past Q. N, the only router traces
 * show after the spines, carries the passing flows toward b and is
 * cleared by them: the suspect is the hop after the spines, toward hosts
 * whose edge answers no trace, not N. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "localise_world.h"
#include "tap.h"

#define FLOWS 8 /* per source and destination */

static void flow(FILE *rf, FILE *tf, int a, char to, int d, int fl)
{
	bool stop = to == 'c';
	char host[16], src[32], dest[32], spine[32];

	snprintf(host, sizeof(host), "a%d", a);
	snprintf(src, sizeof(src), "10.0.0.%d", a + 1);
	snprintf(dest, sizeof(dest), "10.0.%d.%d", to == 'b' ? 1 : 2, d + 1);
	snprintf(spine, sizeof(spine), "10.2.0.%d", fl <= FLOWS / 2 ? 1 : 2);
	world_result(rf, host, src, dest, fl, stop ? 20 : 0, 4);
	world_trace_start(tf, host, src, dest, fl, stop ? "silent" : "reached");
	world_hop(tf, 1, "10.1.0.1", "time_exceeded");
	world_hop(tf, 2, spine, "time_exceeded");
	world_hop(tf, 3, stop ? NULL : "10.3.0.1", "time_exceeded");
	world_hop(tf, 4, stop ? NULL : dest, "responder");
	world_trace_end(tf);
}

/* Flow fl of host c (behind Q) toward b: its first hop, Q, is silent
 * and loses it; past Q its trace shows S and N like the passing flows. */
static void from_behind_q(FILE *rf, FILE *tf, int c, int d, int fl)
{
	char host[16], src[32], dest[32], spine[32];

	snprintf(host, sizeof(host), "c%d", c);
	snprintf(src, sizeof(src), "10.0.2.%d", c + 1);
	snprintf(dest, sizeof(dest), "10.0.1.%d", d + 1);
	snprintf(spine, sizeof(spine), "10.2.0.%d", fl <= FLOWS / 2 ? 1 : 2);
	world_result(rf, host, src, dest, fl, 20, 4);
	world_trace_start(tf, host, src, dest, fl, "reached");
	world_hop(tf, 1, NULL, "time_exceeded");
	world_hop(tf, 2, spine, "time_exceeded");
	world_hop(tf, 3, "10.3.0.1", "time_exceeded");
	world_hop(tf, 4, dest, "responder");
	world_trace_end(tf);
}

static void write_world(FILE *rf, FILE *tf, const void *arg)
{
	(void)arg;
	for (int a = 0; a < 4; a++)
		for (int d = 0; d < 4; d++)
			for (int fl = 1; fl <= FLOWS; fl++) {
				flow(rf, tf, a, 'b', d, fl);
				flow(rf, tf, a, 'c', d, fl);
				from_behind_q(rf, tf, a, d, fl);
			}
}

static void test_silent_edge_not_its_seen_sibling(void)
{
	struct world w;
	bool seen_sibling = false, hop_after_spine = false;

	if (world_make(&w, "silent edge", write_world, NULL))
		return;
	for (size_t k = 0; k < w.l.count; k++) {
		const struct localise_suspect *s = &w.l.items[k];

		seen_sibling |= strcmp(s->name, "10.3.0.1") == 0;
		hop_after_spine |= strcmp(s->kind, "hop") == 0 &&
				   strstr(s->name, "10.2.0.") != NULL;
	}
	ok(!seen_sibling, "N, which forwards the passing flows, is not named");
	ok(w.l.count && hop_after_spine,
	   "the hop after a spine toward the silent edge is named");
	world_free(&w);
}

int main(void)
{
	test_silent_edge_not_its_seen_sibling();
	return tap_done();
}
