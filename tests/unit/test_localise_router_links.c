/* Unit tests of localisation where a router's links are picked one by
 * one: spine H (10.2.0.1) forwards the flows of hosts a0-a3 (each behind
 * its own leaf, 10.1.1.1-4) to routers A (10.3.0.1, hosts b0-b3) and B
 * (10.3.0.2, hosts c0-c3), and to its own hosts e0-e7; hosts g0-g3
 * (behind leaf M, 10.1.0.2) reach b and c over A and B without H. H's
 * links to A and B lose half of what they carry, everything else
 * passes: the fit takes the two links, and the fit without them
 * (router_behind_links) does not take H, whose flows to its own hosts
 * pass at any rate that would explain the others; so the links are
 * named, not H, and nothing is left unexplained. (A router that loses
 * toward each next hop alike, named with its links as alternatives, is
 * tests/cli/fabric_model.bats' 2,048-host scenario.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "localise_world.h"
#include "tap.h"

#define H "10.2.0.1"

/* Destination d: 0-3 b (behind A), 4-7 c (behind B), 8-15 e (H's). */
/* a0-a3 each behind its own leaf, 10.1.1.1-4. */
static const char *leaf_of(int a)
{
	static const char *const leaves[] = { "10.1.1.1", "10.1.1.2",
					      "10.1.1.3", "10.1.1.4" };

	return leaves[a];
}

static const char *next_router(int d)
{
	return d < 4 ? "10.3.0.1" : d < 8 ? "10.3.0.2" : NULL;
}

static void dest_address(int d, char *out, size_t len)
{
	snprintf(out, len, "10.0.%d.%d", d < 4 ? 1 : d < 8 ? 2 : 3,
		 d < 8 ? d % 4 + 1 : d - 7);
}

/* Source a: 0-3 the a hosts (10.0.0.x, behind L), 4-7 the g hosts
 * (10.0.4.x, behind M). */
static void source_address(int a, char *out, size_t len)
{
	snprintf(out, len, "10.0.%d.%d", a < 4 ? 0 : 4, a % 4 + 1);
}

static void result(FILE *f, int a, int d, int fl, int lost)
{
	char dest[32], src[32], host[16];

	dest_address(d, dest, sizeof(dest));
	source_address(a, src, sizeof(src));
	snprintf(host, sizeof(host), "a%d", a);
	world_result(f, host, src, dest, fl, lost,
		     a >= 4 ? 2 : next_router(d) ? 3 : 2);
}

static void trace(FILE *f, int a, int d, int fl)
{
	char dest[32], src[32], host[16];
	int n = 1;

	dest_address(d, dest, sizeof(dest));
	source_address(a, src, sizeof(src));
	snprintf(host, sizeof(host), "a%d", a);
	world_trace_start(f, host, src, dest, fl, "reached");
	if (a >= 4) {
		world_hop(f, n++, "10.1.0.2", "time_exceeded");
	} else {
		world_hop(f, n++, leaf_of(a), "time_exceeded");
		world_hop(f, n++, H, "time_exceeded");
	}
	if (next_router(d))
		world_hop(f, n++, next_router(d), "time_exceeded");
	world_hop(f, n, dest, "responder");
	world_trace_end(f);
}

static void write_world(FILE *rf, FILE *tf, const void *arg)
{
	(void)arg;
	for (int a = 0; a < 8; a++)
		for (int d = 0; d < (a < 4 ? 16 : 8); d++)
			for (int fl = 1; fl <= (a < 4 && d < 8 ? 2 : 4);
			     fl++) {
				result(rf, a, d, fl, a < 4 && d < 8 ? 10 : 0);
				trace(tf, a, d, fl);
			}
}

static void test_links_of_a_router_that_passes(void)
{
	struct world w;
	const struct localise_suspect *s;

	if (world_make(&w, "router links", write_world, NULL))
		return;
	s = w.l.count ? &w.l.items[0] : NULL;
	ok(w.l.count == 2, "two suspects (%zu)", w.l.count);
	ok(s && s->cause == LOCALISE_LOSS && strcmp(s->kind, "link") == 0 &&
	   strncmp(s->name, H " -> 10.3.0.", strlen(H " -> 10.3.0.")) == 0 &&
	   w.l.count == 2 && strcmp(w.l.items[1].kind, "link") == 0 &&
	   strncmp(w.l.items[1].name, H " -> 10.3.0.",
		   strlen(H " -> 10.3.0.")) == 0,
	   "the links from H to A and B named, H not");
	ok(w.l.explained == w.l.failing && w.l.failing == 64,
	   "every failing result explained (%zu of %zu)", w.l.explained,
	   w.l.failing);
	world_free(&w);
}

int main(void)
{
	test_links_of_a_router_that_passes();
	return tap_done();
}
