/* Unit tests of naming a lossy link among the links its failing flows
 * all cross (localise.c where_answers_drop): hosts a0-a3 behind leaf L
 * (10.1.0.1) reach b0-b3 behind leaf L2 (10.1.0.2) over spine S
 * (10.2.0.1), core C (10.3.0.1) and spine S2 (10.2.0.2); hosts g0-g3
 * behind leaf M (10.1.0.3) reach them over spine S3 (10.2.0.3) and C.
 * S -> C loses half of what it carries: the flows of a fail, those of g
 * pass, every flow traced with three queries a hop; two flows of a0 pass
 * over L -> S to another core, so the fit tells L -> S apart from S -> C
 * (its rival). S answers one query in three on every trace (rate
 * limited), so the answers drop most past L on the failing traces;
 * against how each router answers the traces of passing results, they
 * drop past S: S -> C is named, not L -> S. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "localise_world.h"
#include "tap.h"

#define L "10.1.0.1"
#define L2 "10.1.0.2"
#define M "10.1.0.3"
#define S "10.2.0.1"
#define S3 "10.2.0.3"
#define C "10.3.0.1"
#define S2 "10.2.0.2"
#define FLOWS 4		/* per pair */

/* Hop i of a trace answered from from on answered of three queries. */
static void hop(FILE *f, int i, const char *from, int answered,
		const char *kind)
{
	fprintf(f, "%s{\"hop_limit\":%d,\"answers\":[", i > 1 ? "," : "", i);
	for (int q = 0; q < 3; q++) {
		if (q < answered)
			fprintf(f, "%s{\"from\":\"%s\",\"kind\":\"%s\","
				"\"rtt_us\":1.0}", q ? "," : "", from, kind);
		else
			fprintf(f, "%s{\"kind\":\"silent\",\"from\":null,"
				"\"rtt_us\":null}", q ? "," : "");
	}
	fprintf(f, "]}");
}

static void write_world(FILE *rf, FILE *tf, const void *arg)
{
	(void)arg;
	for (int g = 0; g < 2; g++)	/* 0: the a hosts, 1: the g hosts */
		for (int h = 0; h < 4; h++)
			for (int d = 0; d < 4; d++)
				for (int fl = 1; fl <= FLOWS; fl++) {
					char src[32], dest[32], host[16];
					int past = g ? 3 : 1;	/* past S -> C */

					snprintf(src, sizeof(src), "10.0.%d.%d",
						 g ? 3 : 1, h + 1);
					snprintf(dest, sizeof(dest),
						 "10.0.2.%d", d + 1);
					snprintf(host, sizeof(host), "%c%d",
						 g ? 'g' : 'a', h);
					world_result(rf, host, src, dest, fl,
						     g ? 0 : 10, 5);
					world_trace_start(tf, host, src, dest,
							  fl, "reached");
					hop(tf, 1, g ? M : L, 3,
					    "time_exceeded");
					hop(tf, 2, g ? S3 : S, g ? 3 : 1,
					    "time_exceeded");
					hop(tf, 3, C, past, "time_exceeded");
					hop(tf, 4, S2, past, "time_exceeded");
					hop(tf, 5, L2, past, "time_exceeded");
					hop(tf, 6, dest, past, "responder");
					world_trace_end(tf);
				}
	/* Two flows of a0 that pass over L -> S and S -> C3 (10.3.0.3)
	 * to e0 (10.0.4.1): the fit tells L -> S apart from S -> C, but
	 * only just. */
	for (int fl = 1; fl <= 2; fl++) {
		world_result(rf, "a0", "10.0.1.1", "10.0.4.1", fl, 0, 5);
		world_trace_start(tf, "a0", "10.0.1.1", "10.0.4.1", fl,
				  "reached");
		hop(tf, 1, L, 3, "time_exceeded");
		hop(tf, 2, S, 1, "time_exceeded");
		hop(tf, 3, "10.3.0.3", 3, "time_exceeded");
		hop(tf, 4, "10.2.0.4", 3, "time_exceeded");
		hop(tf, 5, "10.1.0.4", 3, "time_exceeded");
		hop(tf, 6, "10.0.4.1", 3, "responder");
		world_trace_end(tf);
	}
}

static void test_rate_limited_spine(void)
{
	const struct localise_suspect *s;
	struct world w;

	if (world_make(&w, "limited spine", write_world, NULL))
		return;
	s = w.l.count ? &w.l.items[0] : NULL;
	ok(s && s->cause == LOCALISE_LOSS && strcmp(s->kind, "link") == 0 &&
		   strcmp(s->name, S " -> " C) == 0,
	   "limited spine: S -> C named, where the answers drop against "
	   "each router's rate (%s %s)", s ? s->kind : "",
	   s ? s->name : "none");
	world_free(&w);
}

int main(void)
{
	test_rate_limited_spine();
	return tap_done();
}
