/* Unit tests of naming the unseen hop after a router whose next hops
 * in the traces all forward its flows (localise_unseen.c
 * loc_name_unseen, next_hops): hosts a0-a3 behind leaf L (10.1.0.1)
 * reach hosts b0-b3 behind leaf N (10.3.0.1) over spines S1, S2
 * (10.2.0.1-2, flow labels 1-8) or Q (labels 9-12), which never answers
 * traces and drops every flow: their traces stop after L. a0-a3 also
 * reach hosts c0-c3 behind leaf M (10.3.0.2) over S1 and S2, and those
 * results fail (their replies lost), but their traces go on past the
 * spines to c: S1 and S2 forwarded them. Neither spine is the hop the
 * stops after L hide: the suspect is that unseen hop, not S1 or S2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "localise_world.h"
#include "tap.h"

#define FLOWS 12 /* per source and destination toward b */
#define SEEN 8   /* of them over S1 and S2, the rest over Q */

static void toward_b(FILE *rf, FILE *tf, int a, int d, int fl)
{
	bool stop = fl > SEEN;
	char host[16], src[32], dest[32], spine[32];

	snprintf(host, sizeof(host), "a%d", a);
	snprintf(src, sizeof(src), "10.0.0.%d", a + 1);
	snprintf(dest, sizeof(dest), "10.0.1.%d", d + 1);
	snprintf(spine, sizeof(spine), "10.2.0.%d", fl <= SEEN / 2 ? 1 : 2);
	world_result(rf, host, src, dest, fl, stop ? 20 : 0, 4);
	world_trace_start(tf, host, src, dest, fl, stop ? "silent" : "reached");
	world_hop(tf, 1, "10.1.0.1", "time_exceeded");
	world_hop(tf, 2, stop ? NULL : spine, "time_exceeded");
	world_hop(tf, 3, stop ? NULL : "10.3.0.1", "time_exceeded");
	world_hop(tf, 4, stop ? NULL : dest, "responder");
	world_trace_end(tf);
}

/* A failing flow toward c whose trace reaches it over S1 or S2. */
static void toward_c(FILE *rf, FILE *tf, int a, int d, int fl)
{
	char host[16], src[32], dest[32], spine[32];

	snprintf(host, sizeof(host), "a%d", a);
	snprintf(src, sizeof(src), "10.0.0.%d", a + 1);
	snprintf(dest, sizeof(dest), "10.0.2.%d", d + 1);
	snprintf(spine, sizeof(spine), "10.2.0.%d", fl <= SEEN / 2 ? 1 : 2);
	world_result(rf, host, src, dest, fl, 20, 4);
	world_trace_start(tf, host, src, dest, fl, "reached");
	world_hop(tf, 1, "10.1.0.1", "time_exceeded");
	world_hop(tf, 2, spine, "time_exceeded");
	world_hop(tf, 3, "10.3.0.2", "time_exceeded");
	world_hop(tf, 4, dest, "responder");
	world_trace_end(tf);
}

static void write_world(FILE *rf, FILE *tf, const void *arg)
{
	(void)arg;
	for (int a = 0; a < 4; a++)
		for (int d = 0; d < 4; d++) {
			for (int fl = 1; fl <= FLOWS; fl++)
				toward_b(rf, tf, a, d, fl);
			for (int fl = 1; fl <= SEEN; fl++)
				toward_c(rf, tf, a, d, fl);
		}
}

static void test_forwarding_next_hops_cleared(void)
{
	struct world w;
	bool spine = false, hop_after_l = false;

	if (world_make(&w, "cleared next hops", write_world, NULL))
		return;
	for (size_t k = 0; k < w.l.count; k++) {
		const struct localise_suspect *s = &w.l.items[k];

		spine |= strncmp(s->name, "10.2.0.", 7) == 0;
		for (size_t i = 0; i < s->alternative_count; i++)
			spine |= strncmp(s->alternatives[i], "10.2.0.", 7) == 0;
		hop_after_l |= strcmp(s->kind, "hop") == 0 &&
			       strstr(s->name, "10.1.0.1") != NULL;
	}
	ok(!spine, "no spine that forwards L's flows is named");
	ok(hop_after_l, "the hop after L is named");
	world_free(&w);
}

int main(void)
{
	test_forwarding_next_hops_cleared();
	return tap_done();
}
