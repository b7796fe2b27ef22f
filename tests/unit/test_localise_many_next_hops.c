/* Unit tests of withdrawing the unseen hop after a router whose many
 * next hops the data clear (localise_unseen.c loc_name_unseen): the
 * world of test_localise_next_hops (a0-a3 behind leaf L, 10.1.0.1, reach
 * the hosts behind five routers N1-N5, 10.3.0.1-5, over spine H,
 * 10.2.0.1; two of a0's ten flows toward each fail, their traces
 * stopping after H), and hosts e0-e3 behind leaf L2 (10.1.0.2) whose
 * every flow toward each fails, its trace going on past H and the next
 * hop to the destination (lost before L2): most flows toward each next
 * hop fail, but N1-N5 forwarded them. Nothing after H stands out: neither a next hop nor
 * the hop after H is named. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "localise_world.h"
#include "tap.h"

#define NEXT_HOPS 5
#define FLOWS 10	/* per source and next hop */
#define FAILING 2	/* of them, per next hop, from source a0 */

/* Flow fl (1..FLOWS) of source a toward the host behind next hop n:
 * a0-a3 behind L, e0-e3 (a 4-7) behind L2; failing, and its trace
 * stopping after H (stop) or not. */
static bool fails(int a, int fl, bool *stop)
{
	*stop = a == 0 && fl <= FAILING;
	return *stop || a >= 4;
}

static void flow(FILE *rf, FILE *tf, int a, int n, int fl)
{
	bool stop, failing = fails(a, fl, &stop);
	char host[16], src[32], next[32], dest[32];

	snprintf(host, sizeof(host), "%c%d", a < 4 ? 'a' : 'e', a % 4);
	snprintf(src, sizeof(src), "10.0.%d.%d", a < 4 ? 0 : 100, a % 4 + 1);
	snprintf(next, sizeof(next), "10.3.0.%d", n + 1);
	snprintf(dest, sizeof(dest), "10.0.%d.1", n + 1);
	world_result(rf, host, src, dest, fl, failing ? 10 : 0, 3);
	world_trace_start(tf, host, src, dest, fl, stop ? "silent" : "reached");
	world_hop(tf, 1, a < 4 ? "10.1.0.1" : "10.1.0.2", "time_exceeded");
	world_hop(tf, 2, "10.2.0.1", "time_exceeded");
	world_hop(tf, 3, stop ? NULL : next, "time_exceeded");
	world_hop(tf, 4, stop ? NULL : dest, "responder");
	world_trace_end(tf);
}

static void write_world(FILE *rf, FILE *tf, const void *arg)
{
	(void)arg;
	for (int a = 0; a < 8; a++)
		for (int n = 0; n < NEXT_HOPS; n++)
			for (int fl = 1; fl <= FLOWS; fl++)
				flow(rf, tf, a, n, fl);
}

static void test_cleared_next_hops_withdrawn(void)
{
	struct world w;
	bool after_h = false, next_hop = false;

	if (world_make(&w, "cleared next hops", write_world, NULL))
		return;
	for (size_t k = 0; k < w.l.count; k++) {
		next_hop |= strncmp(w.l.items[k].name, "10.3.0.", 7) == 0;
		after_h |= strcmp(w.l.items[k].name, "after 10.2.0.1") == 0;
	}
	ok(!next_hop, "no next hop of H named for the stops after it");
	ok(!after_h, "nor the hop after H");
	world_free(&w);
}

int main(void)
{
	test_cleared_next_hops_withdrawn();
	return tap_done();
}
