/* Unit tests of localisation on two ECMP branches, the VM fabric's shape
 * (tests/vm/localise.bats) by hand: A reaches D over R1, then R3 or R4
 * by each run's UDP source port, then R2. R4 drops everything and
 * answers no trace: the failing flows' traces stop after R1, D is still
 * reached over R3, so R4 is named (before R3, which carries the passing
 * flows) with the candidates' reason, and D is not named a dead host. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "localise_world.h"
#include "tap.h"

#define R1 "198.18.1.254"
#define R3 "198.18.13.3"
#define R4 "198.18.14.4"
#define R2 "198.18.12.2"
#define D "198.18.10.4"

/* Runs with UDP source port 50000 + k: k = 1 mod every via R3 (every
 * 2: odd k), the others via R4 (the hash need not split them evenly). */
#define RUNS 8

static bool via_r4(int k, int every)
{
	return k % every != 1 % every;
}

/* One probe run of 20 datagrams from A to D (rxe: its trace joined by
 * wire_udp_sport); all lost on the way there when it crosses R4. */
static void result(FILE *f, int k, int every)
{
	bool lost = via_r4(k, every);

	fprintf(f, "{\"dest\":\"d-ecmp:18861\",\"source\":{\"host\":\"a\","
		"\"device\":\"rxe_a\",\"port_num\":1,\"provider\":\"rxe\","
		"\"lid\":0,\"sgid\":\"::ffff:198.18.1.1\"},\"params\":"
		"{\"hop_limit\":64,\"traffic_class\":48,\"flow_label\":0,"
		"\"wire_udp_sport\":%d,\"sl\":0},\"status\":\"%s\","
		"\"sent\":20,\"received\":%d,\"hops\":%s,\"verdicts\":[],"
		"\"findings\":[],\"rtt_us\":{\"median\":40.0,\"max\":50.0},"
		"\"ah_attr\":{\"is_global\":1,\"grh\":"
		"{\"dgid\":\"::ffff:" D "\"}},\"loss_direction\":\"%s\","
		"\"lost_there\":%d,\"lost_back\":0}\n",
		50000 + k, lost ? "unreachable" : "reachable", lost ? 0 : 20,
		lost ? "null" : "3", lost ? "there" : "none", lost ? 20 : 0);
}

/* The trace of port 50000 + k, or before R4 broke of port 50100 + k
 * (which no result has: only the path is known); broken: R4 drops it
 * (nothing answers after R1). */
static void trace(FILE *f, int k, bool broken, int every)
{
	const char *path[4] = { R1, via_r4(k, every) ? R4 : R3, R2, D };
	bool stop = broken && via_r4(k, every);

	fprintf(f, "{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\","
		"\"device\":\"rxe_a\",\"sgid\":\"::ffff:198.18.1.1\","
		"\"source_address\":\"198.18.1.1\",\"dest\":\"d-ecmp:18861\","
		"\"dest_address\":\"" D "\",\"qpn\":17,\"flow_label\":null,"
		"\"udp_sport\":%d,\"traffic_class\":48,\"status\":\"%s\","
		"\"error\":null,\"hops\":[", (broken ? 50000 : 50100) + k,
		stop ? "answers_lost" : "reached");
	for (int i = 0; i < 4; i++) {
		bool silent = stop && i > 0;

		fprintf(f, "%s{\"hop_limit\":%d,\"answers\":[", i ? "," : "",
			i + 1);
		if (silent)
			fprintf(f, "{\"kind\":\"silent\",\"from\":null,"
				"\"rtt_us\":null}");
		else
			fprintf(f, "{\"from\":\"%s\",\"kind\":\"%s\","
				"\"rtt_us\":1.0}", path[i],
				i == 3 ? "responder" : "time_exceeded");
		fprintf(f, "]}");
	}
	fprintf(f, "],\"traffic_class_changes\":[]}\n");
}

/* A world of runs runs with R4 broken, each traced; before: the traces
 * of the same ports from before R4 broke (no results), both branches
 * seen passing. */
struct runs {
	bool before;
	int runs, every;
};

static void write_world(FILE *rf, FILE *tf, const void *arg)
{
	const struct runs *r = arg;

	for (int k = 1; k <= r->runs; k++) {
		result(rf, k, r->every);
		trace(tf, k, true, r->every);
		if (r->before)
			trace(tf, k, false, r->every);
	}
}

static void test_silent_branch(void)
{
	struct world w;
	const struct localise_suspect *s;

	if (world_make(&w, "silent branch", write_world,
		       &(struct runs){ .before = true, .runs = RUNS, .every = 2 }))
		return;
	s = w.l.count ? &w.l.items[0] : NULL;
	is_int(w.l.failing, RUNS / 2, "silent branch: the runs via R4 fail");
	ok(s && s->cause == LOCALISE_UNSEEN && strcmp(s->kind, "router") == 0,
	   "silent branch: a router the traces do not see");
	ok(s && strcmp(s->name, R4) == 0 && s->alternative_count == 1 &&
		   strcmp(s->alternatives[0], R3) == 0,
	   "silent branch: R4 first (R3 carries the passing flows), R3 the "
	   "other candidate (%s)", s ? s->name : "none");
	ok(s && s->reason &&
		   strstr(s->reason, "stop after " R1 "; the next hop of its "
				     "passing flows is " R4 " or " R3),
	   "silent branch: the candidates' reason (%s)",
	   s && s->reason ? s->reason : "");
	is_int(w.l.count, 1, "silent branch: D, reached over R3, not named");
	world_free(&w);
}

/* Without the earlier traces R4 never appears: still not D. */
static void test_silent_branch_unseen(void)
{
	struct world w;

	if (world_make(&w, "never seen", write_world,
		       &(struct runs){ .before = false, .runs = RUNS, .every = 2 }))
		return;
	ok(w.l.count >= 1 && strcmp(w.l.items[0].kind, "host") != 0,
	   "never seen: D, reached over R3, is no dead host (%s)",
	   w.l.count ? w.l.items[0].name : "none");
	world_free(&w);
}

/* The hash put 12 of 15 runs on R4 (a VM run did): D is reached by
 * only 3, a fifth of what fails toward it, but their traces go on past
 * R1 to R3 and R2: R1 is no edge of D's, and D no dead host. */
static void test_silent_branch_skewed(void)
{
	struct world w;
	const struct localise_suspect *s;

	if (world_make(&w, "skewed", write_world,
		       &(struct runs){ .before = true, .runs = 15, .every = 5 }))
		return;
	s = w.l.count ? &w.l.items[0] : NULL;
	is_int(w.l.failing, 12, "skewed: 12 runs via R4 fail");
	ok(s && strcmp(s->kind, "host") != 0 && strcmp(s->name, R4) == 0,
	   "skewed: R4 named first, not D (%s %s)", s ? s->kind : "",
	   s ? s->name : "none");
	world_free(&w);
}

int main(void)
{
	test_silent_branch();
	test_silent_branch_unseen();
	test_silent_branch_skewed();
	return tap_done();
}
