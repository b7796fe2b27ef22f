/* Unit test of localisation of a dead ToR uplink whose replies are
 * hashed apart from the requests (asymmetric ECMP): the results whose
 * replies died on it, untraced (the admins trace most failing flows, not
 * every one), explained by the dead link as the traced ones are (their
 * hosts' edge routers, loc_obs edges), not left to name a host's access
 * link that they all cross. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "localise_pods.h"
#include "localise_world.h"
#include "tap.h"

/* The hop index (0: the first router) from which a datagram of h to d
 * over plane plane dies on the dead link T3 10.1.0.4 - spine 10.2.0.4;
 * -1 when it does not cross it. */
static int dead_at(int h, int d, int plane)
{
	char r[5][24];
	int n = route(h, d, plane, r);

	for (int i = 0; i + 1 < n; i++)
		if ((strcmp(r[i], "10.1.0.4") == 0 &&
		     strcmp(r[i + 1], "10.2.0.4") == 0) ||
		    (strcmp(r[i], "10.2.0.4") == 0 &&
		     strcmp(r[i + 1], "10.1.0.4") == 0))
			return i + 1;
	return -1;
}

/* Every host to every other, flow labels 1 to 8. A request takes plane
 * fl % 2 (T3's hosts' own hash: d % 2, one plane a pair), its reply
 * plane (fl + h + d) % 2. A flow whose request or reply dies loses all
 * it sends, of unknown direction; its trace follows the request. Every
 * flow is traced but the failing ones of T3's hosts (h6, h7) whose
 * requests went through over plane 0: their replies died, no trace
 * says which way they came back, and their pairs' traced flows all
 * took T3's other uplink. */
static int build(struct world *w)
{
	char *rbuf = NULL, *tbuf = NULL;
	size_t rlen = 0, tlen = 0;
	FILE *rf = open_memstream(&rbuf, &rlen), *tf = open_memstream(&tbuf, &tlen);

	for (int h = 0; h < HOSTS; h++)
		for (int d = 0; d < HOSTS; d++)
			for (int fl = 1; h != d && fl <= 8; fl++) {
				int plane = tor(h) == 3 ? d % 2 : fl % 2;
				int stop = dead_at(h, d, plane);
				bool reply_dies = stop < 0 &&
						  dead_at(d, h, (fl + h + d) % 2) >= 0;

				result(rf, h, d, fl,
				       stop >= 0 || reply_dies ? -1 : 0, 0);
				if (reply_dies && tor(h) == 3)
					continue;
				trace(tf, h, d, fl, plane, stop, NULL);
			}
	fclose(rf);
	fclose(tf);
	return world_localise(w, rbuf, rlen, tbuf, tlen);
}

static void test_untraced_replies(void)
{
	struct world w;

	is_int(build(&w), 0, "untraced replies: builds");
	print_suspects(&w.l);
	ok(w.l.count >= 1 && strcmp(w.l.items[0].kind, "link") == 0 &&
		   (strcmp(w.l.items[0].name, "10.1.0.4 -> 10.2.0.4") == 0 ||
		    strcmp(w.l.items[0].name, "10.2.0.4 -> 10.1.0.4") == 0),
	   "untraced replies: the dead link named first (%s)",
	   w.l.count ? w.l.items[0].name : "none");
	/* (without the untraced results' edges, T3's other uplink
	 * 10.1.0.4 -> 10.2.0.3, which their pairs' traces took, was named
	 * second) */
	is_int(w.l.count, 1,
	       "untraced replies: nothing else named, not T3's other uplink");
	world_free(&w);
}

int main(void)
{
	test_untraced_replies();
	return tap_done();
}
