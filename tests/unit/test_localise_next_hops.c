/* Unit tests of naming the unseen hop after a router from its next hops
 * (localise_unseen.c): hosts a0-a3 (behind leaf L, 10.1.0.1) reach the
 * hosts behind five routers N1-N5 (10.3.0.1-5) over spine H (10.2.0.1),
 * ten flows toward each, every flow traced. Two of each ten fail, and
 * their traces stop after H: the hop after H is where they stop, but
 * toward each of H's next hops most flows pass. With more next hops than
 * a candidate set names and none failing most of its flows, nothing
 * after H stands out: no next hop is named (with its siblings as
 * alternatives) for the stops. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "localise_world.h"
#include "tap.h"

#define NEXT_HOPS 5
#define FLOWS 10	/* per source and next hop */
#define FAILING 2	/* of them, per next hop, from source a0 */

/* Flow fl (1..FLOWS) of source a toward the host behind next hop n. */
static bool fails(int a, int n, int fl)
{
	(void)n;
	return a == 0 && fl <= FAILING;
}

static void result(FILE *f, int a, int n, int fl)
{
	char host[16], src[32], dest[32];

	snprintf(host, sizeof(host), "a%d", a);
	snprintf(src, sizeof(src), "10.0.0.%d", a + 1);
	snprintf(dest, sizeof(dest), "10.0.%d.1", n + 1);
	world_result(f, host, src, dest, fl, fails(a, n, fl) ? 10 : 0, 3);
}

static void trace(FILE *f, int a, int n, int fl)
{
	bool stop = fails(a, n, fl);
	char host[16], src[32], next[32], dest[32];

	snprintf(host, sizeof(host), "a%d", a);
	snprintf(src, sizeof(src), "10.0.0.%d", a + 1);
	snprintf(next, sizeof(next), "10.3.0.%d", n + 1);
	snprintf(dest, sizeof(dest), "10.0.%d.1", n + 1);
	world_trace_start(f, host, src, dest, fl, stop ? "silent" : "reached");
	world_hop(f, 1, "10.1.0.1", "time_exceeded");
	world_hop(f, 2, "10.2.0.1", "time_exceeded");
	world_hop(f, 3, stop ? NULL : next, "time_exceeded");
	world_hop(f, 4, stop ? NULL : dest, "responder");
	world_trace_end(f);
}

static void write_world(FILE *rf, FILE *tf, const void *arg)
{
	(void)arg;
	for (int a = 0; a < 4; a++)
		for (int n = 0; n < NEXT_HOPS; n++)
			for (int fl = 1; fl <= FLOWS; fl++) {
				result(rf, a, n, fl);
				trace(tf, a, n, fl);
			}
}

static void test_no_next_hop_stands_out(void)
{
	struct world w;
	bool next_hop = false;

	if (world_make(&w, "next hops", write_world, NULL))
		return;
	for (size_t k = 0; k < w.l.count; k++)
		next_hop = next_hop ||
			   strncmp(w.l.items[k].name, "10.3.0.", 7) == 0;
	ok(!next_hop, "no next hop of H named for the stops after it");
	world_free(&w);
}

int main(void)
{
	test_no_next_hop_stands_out();
	return tap_done();
}
