/* Unit tests of report --baseline's decisions: when a median RTT has
 * regressed (ratio and floor), and how a pair's change is classified. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_baseline.h"
#include "report/report_input.h"
#include "report/report_matrix.h"
#include "tap.h"

static void test_rtt_regressed(void)
{
	const double pct = REPORT_RTT_REGRESSION_PCT;
	const double floor_us = REPORT_RTT_FLOOR_US;

	ok(report_rtt_regressed(20, 60, pct, floor_us),
	   "20 -> 60 us: +200%% and +40 us");
	ok(!report_rtt_regressed(2, 12, pct, floor_us),
	   "2 -> 12 us: +500%% but 10 us only, under the floor");
	ok(!report_rtt_regressed(20, 40, pct, floor_us),
	   "20 -> 40 us: exactly the floor is no regression");
	ok(report_rtt_regressed(20, 40.5, pct, floor_us),
	   "20 -> 40.5 us: past both");
	ok(!report_rtt_regressed(100, 150, pct, floor_us),
	   "100 -> 150 us: exactly +50%% is no regression");
	ok(report_rtt_regressed(100, 151, pct, floor_us), "100 -> 151 us");
	ok(!report_rtt_regressed(1000, 1400, pct, floor_us),
	   "1 -> 1.4 ms: +400 us, but +40%% only");
	ok(report_rtt_regressed(1000, 1400, 30, floor_us),
	   "the same at a threshold of 30%%");
	ok(!report_rtt_regressed(60, 20, pct, floor_us), "faster is no regression");
}

/* One result of host a toward host b on a shared segment. */
static void line(FILE *f, char a, char b, const char *status,
		 unsigned received, double median, int hops, bool remarked)
{
	fprintf(f, "{\"dest\":\"host%c\",\"source\":{\"host\":\"host%c\","
		"\"device\":\"d\",\"port_num\":1,\"sgid\":\"::ffff:10.0.0.%d\"},"
		"\"params\":{\"traffic_class\":40},\"status\":\"%s\","
		"\"sent\":10,\"received\":%u,\"rtt_us\":", b, a, a, status,
		received);
	if (received)
		fprintf(f, "{\"median\":%g,\"max\":%g}", median, median);
	else
		fprintf(f, "null");
	fprintf(f, ",\"hops\":%d,\"verdicts\":[\"%s\"%s],\"findings\":[],"
		"\"observed\":{\"traffic_class\":%d},\"ah_attr\":{\"grh\":"
		"{\"dgid\":\"::ffff:10.0.0.%d\"}}}\n", hops, status,
		remarked ? ",\"tclass_remarked\"" : "", remarked ? 0 : 40, b);
}

static int build(struct report *r, const char *text)
{
	char err[256];

	report_init(r);
	if (report_read_buffer(r, "t", text, strlen(text), NULL, err,
			       sizeof(err)) ||
	    report_build(r, err, sizeof(err))) {
		printf("# %s\n", err);
		return -1;
	}
	return 0;
}

static void test_classify(void)
{
	char *before = NULL, *now = NULL;
	size_t len;
	FILE *f = open_memstream(&before, &len);
	struct report old, cur;
	struct report_diff d;
	const char *kinds;
	char got[256] = "";

	/* a->b lost, b->a recovered, a->c new loss and remarked,
	 * c->a: partial loss (3 of 10 answered) before and unreachable now is
	 * lost, b->c: hops 0 -> 1 and 10 -> 40 us, c->b untouched. */
	line(f, 'a', 'b', "reachable", 10, 10, 0, false);
	line(f, 'b', 'a', "unreachable", 0, 0, 0, false);
	line(f, 'a', 'c', "reachable", 10, 10, 0, false);
	line(f, 'c', 'a', "partial_loss", 3, 10, 0, false);
	line(f, 'b', 'c', "reachable", 10, 10, 0, false);
	line(f, 'c', 'b', "reachable", 10, 10, 0, false);
	fclose(f);
	f = open_memstream(&now, &len);
	line(f, 'a', 'b', "unreachable", 0, 0, 0, false);
	line(f, 'b', 'a', "reachable", 10, 10, 0, false);
	line(f, 'a', 'c', "partial_loss", 9, 10, 0, true);
	line(f, 'c', 'a', "unreachable", 0, 0, 0, false);
	line(f, 'b', 'c', "reachable", 10, 40, 1, false);
	line(f, 'c', 'b', "reachable", 10, 10, 0, false);
	fclose(f);
	if (build(&old, before) || build(&cur, now)) {
		ok(false, "inputs merged");
		return;
	}
	ok(report_diff_build(&old, &cur, REPORT_RTT_REGRESSION_PCT,
			     REPORT_RTT_FLOOR_US, &d) == 0, "compared");
	for (size_t k = 0; k < d.count; k++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got),
			 "%s%s %s>%s", k ? ", " : "",
			 report_change_name(d.changes[k].kind),
			 d.changes[k].source, d.changes[k].destination);
	kinds = "lost hosta>hostb, lost hostc>hosta, partial_loss hosta>hostc, "
		"remarked hosta>hostc, rtt_regression hostb>hostc, "
		"recovered hostb>hosta, hops hostb>hostc";
	is_str(got, kinds, "each change once, regressions first");
	is_int((long)d.regressions, 5L, "five regressions");
	is_int((long)d.common_pairs, 6L, "six pairs in both");
	report_diff_free(&d);
	ok(report_diff_build(&cur, &cur, 50, 20, &d) == 0 && d.count == 0,
	   "a run against itself: no change");
	report_diff_free(&d);
	report_free(&old);
	report_free(&cur);
	free(before);
	free(now);
}

int main(void)
{
	test_rtt_regressed();
	test_classify();
	return tap_done();
}
