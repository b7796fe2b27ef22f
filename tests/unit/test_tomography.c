/* Unit tests of the tomography core on made-up paths: an ECMP branch
 * that only failing flows take (one segment, in path order, not three
 * tied suspects), the shared hops on either side left out, untraced
 * failing flows counted, the passing-share bound, one failing flow no
 * suspect, two faults ranked with ties by name, greedy cover (a segment
 * whose flows a stronger one explains is not named), loops counted once,
 * an element index out of range refused, and a shared path of 200,000
 * elements put in order in linear time (it took 73 s when each element
 * was looked for among those already placed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tap.h"
#include "report/tomography.h"

/* The ECMP fabric: S -> R1 -> {R3 | R4} -> R2 -> D. */
enum {
	L_S_R1, R1, L_R1_R3, R3, L_R3_R2, R2, L_R2_D, L_R1_R4, R4, L_R4_R2,
	L_R2B_D, R2B, ELEMENTS,
};
static const size_t via_r3[] = { L_S_R1, R1, L_R1_R3, R3, L_R3_R2, R2, L_R2_D };
static const size_t via_r4[] = { L_S_R1, R1, L_R1_R4, R4, L_R4_R2, R2, L_R2_D };

static const char *names[ELEMENTS] = {
	"S-R1", "R1", "R1-R3", "R3", "R3-R2", "R2", "R2-D", "R1-R4", "R4",
	"R4-R2", "R2b-D", "R2b",
};

static const char *name_of(size_t e, const void *ctx)
{
	(void)ctx;
	return names[e];
}

static struct tomo_flow flow(bool failing, const size_t *path, size_t len)
{
	return (struct tomo_flow){ .failing = failing, .traced = path != NULL,
				   .elements = path, .element_count = len };
}

#define FLOW(failing, path) flow((failing), (path), sizeof(path) / sizeof((path)[0]))

static void test_ecmp_branch(void)
{
	struct tomo_flow f[10];
	struct tomo_result r;
	size_t n = 0;

	for (int k = 0; k < 4; k++) {
		f[n++] = FLOW(true, via_r3);
		f[n++] = FLOW(false, via_r4);
	}
	f[n++] = flow(true, NULL, 0);	/* a failing flow without a trace */
	f[n++] = flow(false, NULL, 0);
	is_int(tomo_find(&r, f, n, ELEMENTS, name_of, NULL), 0, "ecmp: runs");
	is_int(r.failing, 5, "ecmp: 5 failing flows");
	is_int(r.passing, 5, "ecmp: 5 passing flows");
	is_int(r.failing_untraced, 1, "ecmp: 1 failing flow without a trace");
	is_int(r.count, 1, "ecmp: one suspect, the R3 branch as one segment");
	if (r.count == 1) {
		const struct tomo_suspect *s = &r.items[0];

		is_int(s->element_count, 3, "ecmp: the segment has 3 elements");
		if (s->element_count == 3) {
			is_str(names[s->elements[0]], "R1-R3", "ecmp: path order 1");
			is_str(names[s->elements[1]], "R3", "ecmp: path order 2");
			is_str(names[s->elements[2]], "R3-R2", "ecmp: path order 3");
		}
		is_int(s->failing, 4, "ecmp: 4 failing flows through it");
		is_int(s->passing, 0, "ecmp: no passing flow through it");
		is_int(s->explained, 4, "ecmp: explains 4");
		is_int(s->rank, 1, "ecmp: rank 1");
	}
	is_int(r.explained, 4, "ecmp: 4 of 5 failing flows explained");
	tomo_free(&r);
}

/* An element with 4 failing and 1 passing flow is still a suspect (20%
 * passing), with 2 passing it is not. */
static void test_passing_share(void)
{
	for (int passing_r3 = 1; passing_r3 <= 2; passing_r3++) {
		struct tomo_flow f[12];
		struct tomo_result r;
		size_t n = 0;

		for (int k = 0; k < 4; k++)
			f[n++] = FLOW(true, via_r3);
		for (int k = 0; k < passing_r3; k++)
			f[n++] = FLOW(false, via_r3);
		for (int k = 0; k < 4; k++)
			f[n++] = FLOW(false, via_r4);
		is_int(tomo_find(&r, f, n, ELEMENTS, name_of, NULL), 0,
		       "share %d: runs", passing_r3);
		is_int(r.count, passing_r3 == 1 ? 1 : 0,
		       "share: %d passing of %d: %s", passing_r3,
		       4 + passing_r3, passing_r3 == 1 ? "suspect" : "none");
		if (r.count == 1)
			is_int(r.items[0].passing, 1, "share: 1 passing counted");
		tomo_free(&r);
	}
}

static void test_single_failure(void)
{
	struct tomo_flow f[] = {
		FLOW(true, via_r3), FLOW(false, via_r4), FLOW(false, via_r4),
	};
	struct tomo_result r;

	is_int(tomo_find(&r, f, 3, ELEMENTS, name_of, NULL), 0, "single: runs");
	is_int(r.count, 0, "single: one failing flow names no suspect");
	is_int(r.failing, 1, "single: counted as failing");
	is_int(r.explained, 0, "single: unexplained");
	tomo_free(&r);
}

/* Two faults: R3's branch fails 3 flows, R4's 2 (a third branch through
 * R2b passes); then two branches failing as many flows tie, by name. */
static void test_two_faults(void)
{
	static const size_t via_r2b[] = { L_S_R1, R1, R2B, L_R2B_D };
	struct tomo_flow f[12];
	struct tomo_result r;
	size_t n = 0;

	for (int k = 0; k < 3; k++)
		f[n++] = FLOW(true, via_r3);
	for (int k = 0; k < 2; k++)
		f[n++] = FLOW(true, via_r4);
	for (int k = 0; k < 4; k++)
		f[n++] = FLOW(false, via_r2b);
	is_int(tomo_find(&r, f, n, ELEMENTS, name_of, NULL), 0, "two: runs");
	/* R2 and R2-D carry all 5 failing flows and no passing one: the
	 * greedy choice names them first, as the common part. */
	is_int(r.count, 1, "two: the shared R2 segment explains all 5");
	if (r.count == 1) {
		is_int(r.items[0].explained, 5, "two: explains 5");
		is_int(r.items[0].element_count, 2, "two: R2 and R2-D");
		is_str(names[r.items[0].elements[0]], "R2", "two: R2 first");
	}
	tomo_free(&r);

	/* Without the shared tail: each branch its own segment. */
	static const size_t r3_only[] = { L_S_R1, R1, L_R1_R3, R3 };
	static const size_t r4_only[] = { L_S_R1, R1, L_R1_R4, R4 };
	n = 0;
	for (int k = 0; k < 3; k++)
		f[n++] = FLOW(true, r3_only);
	for (int k = 0; k < 2; k++)
		f[n++] = FLOW(true, r4_only);
	for (int k = 0; k < 4; k++)
		f[n++] = FLOW(false, via_r2b);
	is_int(tomo_find(&r, f, n, ELEMENTS, name_of, NULL), 0, "two': runs");
	is_int(r.count, 2, "two': two suspects");
	if (r.count == 2) {
		is_str(names[r.items[0].elements[0]], "R1-R3", "two': R3 first");
		is_int(r.items[0].explained, 3, "two': R3 explains 3");
		is_int(r.items[0].rank, 1, "two': rank 1");
		is_str(names[r.items[1].elements[0]], "R1-R4", "two': R4 second");
		is_int(r.items[1].explained, 2, "two': R4 explains 2");
		is_int(r.items[1].rank, 2, "two': rank 2");
	}
	tomo_free(&r);

	/* A tie: R4's branch fails 3 as well; same rank, R1-R3 before
	 * R1-R4 by name. */
	f[n++] = FLOW(true, r4_only);
	is_int(tomo_find(&r, f, n, ELEMENTS, name_of, NULL), 0, "tie: runs");
	is_int(r.count, 2, "tie: two suspects");
	if (r.count == 2) {
		is_str(names[r.items[0].elements[0]], "R1-R3", "tie: by name");
		is_int(r.items[0].rank, 1, "tie: rank 1");
		is_int(r.items[1].rank, 1, "tie: shared rank");
	}
	tomo_free(&r);
}

/* Greedy cover: R3's segment explains 4 flows; a longer path through R3
 * that only 2 of them also take (R3 -> R2b) is not named after it. */
static void test_greedy_cover(void)
{
	static const size_t longer[] = { L_S_R1, R1, L_R1_R3, R3, R2B, L_R2B_D };
	struct tomo_flow f[10];
	struct tomo_result r;
	size_t n = 0;

	f[n++] = FLOW(true, via_r3);
	f[n++] = FLOW(true, via_r3);
	f[n++] = FLOW(true, longer);
	f[n++] = FLOW(true, longer);
	for (int k = 0; k < 4; k++)
		f[n++] = FLOW(false, via_r4);
	is_int(tomo_find(&r, f, n, ELEMENTS, name_of, NULL), 0, "greedy: runs");
	is_int(r.count, 1, "greedy: the tail through R2b is explained already");
	if (r.count == 1)
		is_int(r.items[0].explained, 4, "greedy: R3's segment explains 4");
	tomo_free(&r);
}

static void test_loop_and_range(void)
{
	static const size_t loop[] = { L_S_R1, R1, L_R1_R3, R3, L_R1_R3, R3 };
	static const size_t bad[] = { L_S_R1, ELEMENTS };
	struct tomo_flow f[6];
	struct tomo_result r;
	size_t n = 0;

	f[n++] = FLOW(true, loop);
	f[n++] = FLOW(true, loop);
	f[n++] = FLOW(false, via_r4);
	is_int(tomo_find(&r, f, n, ELEMENTS, name_of, NULL), 0, "loop: runs");
	is_int(r.count, 1, "loop: one suspect");
	if (r.count == 1) {
		is_int(r.items[0].failing, 2, "loop: a flow counted once");
		is_int(r.items[0].element_count, 2, "loop: each element once");
	}
	tomo_free(&r);
	f[n++] = FLOW(true, bad);
	is_int(tomo_find(&r, f, n, ELEMENTS, name_of, NULL), -1,
	       "range: an element past the count is refused");
	is_int(r.count, 0, "range: nothing kept");
}

/* More flows than one word of the bit sets: 150 failing via R3 and 100
 * passing via R4. */
static void test_many_flows(void)
{
	struct tomo_flow *f = calloc(250, sizeof(*f));
	struct tomo_result r;

	for (size_t k = 0; k < 250; k++)
		f[k] = k % 5 < 3 ? FLOW(true, via_r3) : FLOW(false, via_r4);
	is_int(tomo_find(&r, f, 250, ELEMENTS, NULL, NULL), 0, "many: runs");
	is_int(r.count, 1, "many: one suspect");
	if (r.count == 1)
		is_int(r.items[0].explained, 150, "many: explains 150");
	tomo_free(&r);
	free(f);
}

static double cpu_seconds(void)
{
	return (double)clock() / CLOCKS_PER_SEC;
}

/* Two failing flows over one path of 200,000 elements, one passing flow
 * elsewhere: one segment, every element once and in path order, and
 * seconds to spare where the quadratic ordering took over a minute. */
static void test_long_shared_path(void)
{
	enum { LONG_PATH = 200000 };
	size_t *path = calloc(LONG_PATH, sizeof(*path));
	static const size_t other[] = { LONG_PATH };
	struct tomo_flow f[3];
	struct tomo_result r;
	bool in_order = true;
	double start;

	if (!path)
		abort();
	for (size_t k = 0; k < LONG_PATH; k++)
		path[k] = LONG_PATH - 1 - k;	/* not the index order */
	f[0] = flow(true, path, LONG_PATH);
	f[1] = flow(true, path, LONG_PATH);
	f[2] = FLOW(false, other);
	start = cpu_seconds();
	is_int(tomo_find(&r, f, 3, LONG_PATH + 1, NULL, NULL), 0,
	       "long path: runs");
	ok(cpu_seconds() - start < 5.0,
	   "long path: 200,000 elements ordered in under 5 s (%.2f s)",
	   cpu_seconds() - start);
	is_int(r.count, 1, "long path: one suspect");
	if (r.count == 1) {
		is_int(r.items[0].element_count, LONG_PATH,
		       "long path: every element once");
		for (size_t k = 0; k < r.items[0].element_count; k++)
			in_order = in_order && r.items[0].elements[k] == path[k];
		ok(in_order, "long path: in the order of the path");
	}
	tomo_free(&r);
	free(path);
}

int main(void)
{
	test_ecmp_branch();
	test_passing_share();
	test_single_failure();
	test_two_faults();
	test_greedy_cover();
	test_loop_and_range();
	test_many_flows();
	test_long_shared_path();
	return tap_done();
}
