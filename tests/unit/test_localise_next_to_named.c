/* Unit tests of a hop that did not answer next to a router named for
 * loss (localise_unseen.c): router R (10.3.0.1) loses half of what it
 * carries and half of the trace queries it is sent. Hosts b0-b3 (behind
 * leaf M, 10.1.0.2) reach the hosts behind D (10.4.0.1) and F
 * (10.4.0.3) over R, which answers their traces; hosts a0-a3 (behind L, 10.1.0.1) reach them over
 * spine H (10.2.0.1) and R, and R's answers to their traces were lost
 * but one, so their traces show no hop after H and go on past it. Hosts
 * g0-g3 (behind M2, 10.1.0.3) reach the hosts behind E (10.4.0.2) over H
 * and S (10.3.0.2), hosts k0-k3 (behind K, 10.1.0.4) the hosts behind
 * D over T (10.3.0.3), and pass. R is named; the hop after H, which the
 * traces show to be R once, is R losing the queries as it loses the
 * rest: no suspect of its own. (Group a's results are then explained by
 * what else they crossed that no passing flow did, the link from L to
 * H: their traces never put R on their path.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "localise_world.h"
#include "tap.h"

#define R "10.3.0.1"
#define H "10.2.0.1"

enum group { GROUP_A, GROUP_B, GROUP_G, GROUP_K };

#define FLOWS_A 4	/* per source and destination */
#define FLOWS_B 12

static const char *leaf(enum group g)
{
	static const char *const leaves[] = { "10.1.0.1", "10.1.0.2",
					      "10.1.0.3", "10.1.0.4" };

	return leaves[g];
}

/* Destination d of group g: the hosts behind D (subnet 4), E (5, group
 * g's) or F (6: group b's d 4-7). */
static int subnet_of(enum group g, int d)
{
	return g == GROUP_G ? 5 : d >= 4 ? 6 : 4;
}

/* Host s of group g: its name and address. */
static void source(enum group g, int s, char *host, size_t host_len,
		   char *src, size_t src_len)
{
	snprintf(host, host_len, "%c%d", "abgk"[g], s);
	snprintf(src, src_len, "10.0.%d.%d", g + 1, s + 1);
}

static void result(FILE *f, enum group g, int s, int d, int fl)
{
	char host[16], src[32], dest[32];

	source(g, s, host, sizeof(host), src, sizeof(src));
	snprintf(dest, sizeof(dest), "10.0.%d.%d", subnet_of(g, d), d % 4 + 1);
	world_result(f, host, src, dest, fl,
		     g == GROUP_G || g == GROUP_K ? 0 : 10, 4);
}

/* R's answer lost on every trace of group a but the first. */
static void trace(FILE *f, enum group g, int s, int d, int fl)
{
	int subnet = subnet_of(g, d), i = 1;
	char host[16], src[32], dest[32];
	bool r_answers = g != GROUP_A || (s == 0 && d == 0 && fl == 1);

	source(g, s, host, sizeof(host), src, sizeof(src));
	snprintf(dest, sizeof(dest), "10.0.%d.%d", subnet, d % 4 + 1);
	world_trace_start(f, host, src, dest, fl, "reached");
	world_hop(f, i++, leaf(g), "time_exceeded");
	if (g == GROUP_A || g == GROUP_G)
		world_hop(f, i++, H, "time_exceeded");
	if (g == GROUP_G) {
		world_hop(f, i++, "10.3.0.2", "time_exceeded");
		world_hop(f, i++, "10.4.0.2", "time_exceeded");
	} else if (g == GROUP_K) {
		world_hop(f, i++, "10.3.0.3", "time_exceeded");
		world_hop(f, i++, "10.4.0.1", "time_exceeded");
	} else {
		world_hop(f, i++, r_answers ? R : NULL, "time_exceeded");
		world_hop(f, i++, subnet == 6 ? "10.4.0.3" : "10.4.0.1",
			  "time_exceeded");
	}
	world_hop(f, i, dest, "responder");
	world_trace_end(f);
}

static void write_world(FILE *rf, FILE *tf, const void *arg)
{
	(void)arg;
	for (int g = GROUP_A; g <= GROUP_K; g++)
		for (int s = 0; s < 4; s++)
			for (int d = 0; d < (g == GROUP_B ? 8 : 4); d++)
				for (int fl = 1;
				     fl <= (g == GROUP_A ? FLOWS_A : FLOWS_B);
				     fl++) {
					result(rf, g, s, d, fl);
					trace(tf, g, s, d, fl);
				}
}

static void test_hop_next_to_named(void)
{
	struct world w;
	bool hop_after_h = false;

	if (world_make(&w, "next to named", write_world, NULL))
		return;
	ok(w.l.count >= 1 && strcmp(w.l.items[0].kind, "router") == 0 &&
	   strcmp(w.l.items[0].name, R) == 0, "R named first");
	for (size_t k = 0; k < w.l.count; k++)
		hop_after_h = hop_after_h ||
			      (strcmp(w.l.items[k].kind, "hop") == 0 &&
			       strcmp(w.l.items[k].name, "after " H) == 0);
	ok(!hop_after_h, "the hop after H is no suspect of its own");
	world_free(&w);
}

int main(void)
{
	test_hop_next_to_named();
	return tap_done();
}
