/* What changed between two fabric reports (report --baseline OLD NEW):
 * pairs newly lost or recovered, new partial loss, hop counts that moved,
 * traffic class remarking that appeared or went, median RTTs that grew
 * past a threshold. Pure logic over two built reports; pairs are matched
 * by their names (source and destination, as the matrices show them), so
 * two runs of the same hosts line up whatever their run ids and order. */
#ifndef IBAHPROBE_REPORT_BASELINE_H
#define IBAHPROBE_REPORT_BASELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "report/report_matrix.h"

/* In the order a reader wants them: regressions first. */
enum report_change_kind {
	CHANGE_LOST,		/* answered before, not now (unreachable/error) */
	CHANGE_LOSS,		/* no loss before, partial loss now */
	CHANGE_REMARKED,	/* traffic class remarked now, not before */
	CHANGE_RTT,		/* median RTT grew past the threshold */
	CHANGE_RECOVERED,	/* lost before, answers now */
	CHANGE_LOSS_GONE,	/* partial loss before, none now */
	CHANGE_UNREMARKED,	/* remarked before, not now */
	CHANGE_HOPS,		/* the known hop counts differ */
	CHANGE_NEW_PAIR,	/* probed now, not before */
	CHANGE_GONE_PAIR,	/* probed before, not now */
	CHANGE_KIND_COUNT,
};

/* The default of --rtt-regression, and the floor below which a growth of
 * the median is noise whatever its ratio: UD round trips inside one
 * fabric are 2-50 us, and the median of one pair moves by a few us from
 * run to run (CPU wake-up, interrupt moderation). */
#define REPORT_RTT_REGRESSION_PCT 50.0
#define REPORT_RTT_FLOOR_US 20.0

struct report_change {
	enum report_change_kind kind;
	const char *source, *destination;	/* names, the reports' */
	/* The pair in each report; NULL where it was not probed. */
	const struct report_cell *old, *cur;
};

struct report_diff {
	struct report_change *changes;
	size_t count, capacity;
	size_t kind_count[CHANGE_KIND_COUNT];
	size_t regressions;
	size_t old_pairs, cur_pairs, common_pairs;
	double rtt_regression_pct, rtt_floor_us;
};

/* The token of a kind in JSON ("lost", "rtt_regression", ...) and the
 * word of the text form ("LOST", "RTT", ...). */
const char *report_change_name(enum report_change_kind kind);
const char *report_change_word(enum report_change_kind kind);
bool report_change_is_regression(enum report_change_kind kind);

/* Is the growth from old_us to cur_us a regression: more than pct percent
 * and more than floor_us? */
bool report_rtt_regressed(double old_us, double cur_us, double pct,
			  double floor_us);

/* Fills d (zeroed first) with every change from old to cur, pairs in
 * cur's order, then the pairs only old probed in old's order; a pair may
 * change in several ways (lost and remarking gone). -1 when out of
 * memory. */
int report_diff_build(const struct report *old, const struct report *cur,
		      double rtt_regression_pct, double rtt_floor_us,
		      struct report_diff *d);
void report_diff_free(struct report_diff *d);

#endif
