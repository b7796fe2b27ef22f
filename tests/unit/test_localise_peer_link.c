/* Unit tests of a dead link placed from one end by the routers of that
 * end's tier (localise_unseen.c peer_link): a 3-tier Clos in which the
 * flows over a dead spine - core link are seen to stop after the spine
 * only, toward hosts of every other pod; the spine's passing flows never
 * show that core, which the spines of its plane in the other pods meet.
 * Named as the link spine -> core, not as the spine's next hops. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "localise_world.h"
#include "tap.h"

/* Three pods of two ToRs, 10.1.0.(2 * pod + k + 1), with two hosts each
 * (host h: 10.0.0.(h + 1)), and two spines, 10.2.0.(2 * pod + plane +
 * 1). The spines of plane p meet cores 10.3.0.(2 * p + 1) and
 * 10.3.0.(2 * p + 2). Flow label fl takes plane fl % 2 and that
 * plane's core (fl / 2) % 2. */
#define HOSTS 12
#define LABELS 4

#define DEAD_SPINE "10.2.0.1"	/* pod 0, plane 0 */
#define DEAD_CORE "10.3.0.2"	/* plane 0, its second core */

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
	int n = 0, plane = fl % 2, core = (fl / 2) % 2;

	snprintf(out[n++], sizeof out[0], "10.1.0.%d", tor(h) + 1);
	if (tor(h) == tor(d))
		return n;
	snprintf(out[n++], sizeof out[0], "10.2.0.%d", 2 * pod(h) + plane + 1);
	if (pod(h) != pod(d)) {
		snprintf(out[n++], sizeof out[0], "10.3.0.%d",
			 2 * plane + core + 1);
		snprintf(out[n++], sizeof out[0], "10.2.0.%d",
			 2 * pod(d) + plane + 1);
	}
	snprintf(out[n++], sizeof out[0], "10.1.0.%d", tor(d) + 1);
	return n;
}

/* The index of the last router that h's flow to d answers from before
 * the dead link; -1 when it does not cross it. */
static int stops_after(const char r[5][24], int n)
{
	for (int i = 0; i + 1 < n; i++)
		if ((strcmp(r[i], DEAD_SPINE) == 0 &&
		     strcmp(r[i + 1], DEAD_CORE) == 0) ||
		    (strcmp(r[i], DEAD_CORE) == 0 &&
		     strcmp(r[i + 1], DEAD_SPINE) == 0))
			return i;
	return -1;
}

/* Every host to every other over each flow label, every flow traced;
 * the flows of the other pods toward pod 0 over the dead core were not
 * probed (that end's stops are not seen). A flow over the dead link
 * loses all it sends. */
static void write_world(FILE *rf, FILE *tf, const void *arg)
{
	(void)arg;

	for (int h = 0; h < HOSTS; h++)
		for (int d = 0; d < HOSTS; d++)
			for (int fl = 1; h != d && fl <= LABELS; fl++) {
				char r[5][24], src[24], dst[24], host[16];
				int n = route(h, d, fl, r), last = stops_after(r, n);

				if (pod(d) == 0 && pod(h) != 0 && last >= 0)
					continue;
				snprintf(src, sizeof(src), "10.0.0.%d", h + 1);
				snprintf(dst, sizeof(dst), "10.0.0.%d", d + 1);
				snprintf(host, sizeof(host), "h%d", h);
				world_result(rf, host, src, dst, fl,
					     last >= 0 ? 20 : 0, n);
				world_trace_start(tf, host, src, dst, fl,
						  last >= 0 ? "silent" : "reached");
				for (int i = 0; i < n; i++)
					world_hop(tf, i + 1,
						  last >= 0 && i > last ? NULL : r[i],
						  "time_exceeded");
				world_hop(tf, n + 1, last >= 0 ? NULL : dst,
					  "responder");
				world_trace_end(tf);
			}
}

static void test_peer_link(void)
{
	struct world w;
	const struct localise_suspect *s;

	if (world_make(&w, "peer link", write_world, NULL))
		return;
	ok(w.l.count >= 1, "peer link: a suspect");
	if (w.l.count < 1) {
		world_free(&w);
		return;
	}
	s = &w.l.items[0];
	ok(strcmp(s->kind, "link") == 0 &&
		   strcmp(s->name, DEAD_SPINE " -> " DEAD_CORE) == 0,
	   "peer link: the dead link named first from its spine (%s %s)",
	   s->kind, s->name);
	ok(s->cause == LOCALISE_UNSEEN && s->reason &&
		   strstr(s->reason, "no trace crosses from it to " DEAD_CORE),
	   "peer link: as unseen, with the reason (%s)",
	   s->reason ? s->reason : "");
	is_int(s->alternative_count, 0,
	       "peer link: no alternatives (the other cores are of another "
	       "plane, its own core carries its passing flows)");
	is_int(w.l.count, 1, "peer link: nothing else");
	world_free(&w);
}

int main(void)
{
	test_peer_link();
	return tap_done();
}
