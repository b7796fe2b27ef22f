/* Unit tests of grouping traced flows by router path: made-up hops of an
 * ECMP sweep (two paths, silent hops that must not split a path, a flow
 * that fits no path, flows of different lengths) and the flow-label
 * ranges of the summary. */
#include <stdint.h>

#include "tap.h"
#include "trace/trace_paths.h"

#define R1 "198.18.1.254"
#define R3 "198.18.13.3"
#define R4 "198.18.14.4"
#define R2 "198.18.12.2"
#define D "198.18.10.4"

static const char *via3[] = { R1, R3, R2, D };
static const char *via4[] = { R1, R4, R2, D };
static const char *gap_mid[] = { R1, NULL, R2, D };	/* fits both */
static const char *gap_r4[] = { NULL, R4, R2, D };
static const char *short_path[] = { R1, D };
static const char *all_silent[] = { NULL, NULL, NULL, NULL };

#define FLOW(h) { (h), sizeof(h) / sizeof((h)[0]) }

static void test_two_paths(void)
{
	const struct trace_path_flow f[] = {
		FLOW(via4), FLOW(via3), FLOW(via4), FLOW(via3), FLOW(via3),
	};
	unsigned index[5];
	size_t paths = 99;

	is_int(trace_paths_group(f, 5, index, &paths), 0, "grouped");
	is_int(paths, 2, "two distinct paths");
	ok(index[0] == 1 && index[1] == 2 && index[2] == 1 && index[3] == 2 &&
		   index[4] == 2,
	   "numbered by first appearance: via R4 first");
	is_str(trace_paths_address(f, 5, index, 1, 1), R4, "path 1 hop 2");
	is_str(trace_paths_address(f, 5, index, 2, 1), R3, "path 2 hop 2");
	is_str(trace_paths_address(f, 5, index, 2, 3), D, "path 2 ends at D");
	ok(trace_paths_address(f, 5, index, 3, 0) == NULL, "no path 3");
}

static void test_silent_hops(void)
{
	const struct trace_path_flow f[] = {
		FLOW(gap_r4), FLOW(via3), FLOW(gap_mid), FLOW(via4),
	};
	unsigned index[4];
	size_t paths;

	is_int(trace_paths_group(f, 4, index, &paths), 0, "grouped");
	is_int(paths, 2, "gaps open no path of their own");
	is_int(index[0], 1, "the gap at hop 1 joins R4's path, first seen");
	is_int(index[3], 1, "R4's complete flow: the same path");
	is_int(index[1], 2, "R3's path second");
	is_int(index[2], TRACE_PATH_AMBIGUOUS,
	       "a gap that fits both is ambiguous, counted for neither");
	is_str(trace_paths_address(f, 4, index, 1, 0), R1,
	       "path 1 hop 1 from a flow that answered there");
}

/* Issue 25 item 7: A=[R1,R2a,D], B=[R1,R2b,D], C=[R1,*,D]: C's silent
 * hop fits both, so it is ambiguous, not path 1. */
static void test_ambiguous_not_path_one(void)
{
	static const char *a[] = { R1, R3, D };
	static const char *b[] = { R1, R4, D };
	static const char *c[] = { R1, NULL, D };
	const struct trace_path_flow f[] = { FLOW(a), FLOW(b), FLOW(c) };
	const struct trace_path_flow g[] = { FLOW(c), FLOW(a), FLOW(b) };
	unsigned index[3];
	size_t paths;

	is_int(trace_paths_group(f, 3, index, &paths), 0, "grouped");
	is_int(paths, 2, "A and B: two paths");
	is_int(index[0], 1, "A is path 1");
	is_int(index[1], 2, "B is path 2");
	is_int(index[2], TRACE_PATH_AMBIGUOUS, "C is ambiguous");
	is_str(trace_paths_address(f, 3, index, 1, 1), R3,
	       "path 1's hop 2 from A only");
	is_int(trace_paths_group(g, 3, index, &paths), 0, "C first: grouped");
	is_int(paths, 2, "C first: still two paths");
	ok(index[0] == TRACE_PATH_AMBIGUOUS && index[1] == 1 && index[2] == 2,
	   "C first: ambiguous, A path 1, B path 2");
}

static void test_gaps_among_themselves(void)
{
	/* No complete flow: the first with gaps opens a path, the next
	 * fills its gap at hop 1, a third does not fit the filled path. */
	static const char *a[] = { NULL, R3, R2, D };
	static const char *b[] = { R1, NULL, R2, D };
	static const char *c[] = { R1, R4, NULL, D };
	const struct trace_path_flow f[] = { FLOW(a), FLOW(b), FLOW(c) };
	unsigned index[3];
	size_t paths;

	is_int(trace_paths_group(f, 3, index, &paths), 0, "grouped");
	is_int(paths, 2, "two paths");
	ok(index[0] == 1 && index[1] == 1 && index[2] == 2,
	   "b joins a; c's R4 does not fit a's R3");
	is_str(trace_paths_address(f, 3, index, 1, 0), R1, "b filled hop 1");
	is_str(trace_paths_address(f, 3, index, 1, 1), R3, "a gave hop 2");
}

static void test_lengths_and_untraced(void)
{
	const struct trace_path_flow f[] = {
		{ NULL, 0 }, FLOW(all_silent), FLOW(short_path), FLOW(via3),
	};
	unsigned index[4];
	size_t paths;

	is_int(trace_paths_group(f, 4, index, &paths), 0, "grouped");
	is_int(paths, 2, "untraced flow in no path; lengths differ");
	is_int(index[0], 0, "not traced: index 0");
	/* The silent flow appears first, so the path it joins is path 1. */
	is_int(index[1], 1, "all silent joins the 4-hop path, numbered 1");
	is_int(index[2], 2, "the 2-hop path second");
	is_int(index[3], 1, "the complete 4-hop flow");
	ok(trace_paths_group(f, 0, index, &paths) == 0 && paths == 0,
	   "no flows, no paths");
}

static void test_labels(void)
{
	const uint32_t l[] = { 7, 3, 1, 2, 9, 10, 2, 0x12345 };
	const uint32_t one[] = { 0 };
	char buf[128], small[12];

	is_int(trace_paths_format_labels(l, 8, buf, sizeof(buf)), 7,
	       "seven distinct labels");
	is_str(buf, "0x1-0x3, 0x7, 0x9-0xa, 0x12345", "sorted hex ranges");
	is_int(trace_paths_format_labels(one, 1, buf, sizeof(buf)), 1, "one");
	is_str(buf, "0x0", "label 0");
	is_int(trace_paths_format_labels(l, 8, small, sizeof(small)), 7,
	       "counted even when cut");
	is_str(small, "0x1-0x3, 0x", "cut, terminated");
}

int main(void)
{
	test_two_paths();
	test_silent_hops();
	test_ambiguous_not_path_one();
	test_gaps_among_themselves();
	test_lengths_and_untraced();
	test_labels();
	return tap_done();
}
