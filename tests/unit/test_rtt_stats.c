/* Unit tests of RTT statistics: exact median/p99 by nearest rank, and
 * microseconds kept fractional (ibping once divided by 10000). */
#include "probe/rtt_stats.h"
#include "tap.h"

#define NEAR(a, b) ((a) - (b) < 1e-9 && (b) - (a) < 1e-9)

int main(void)
{
	struct rtt_samples s = { 0 };
	struct rtt_summary sum;

	is_int(rtt_summarize(&s, &sum), -1, "no samples: no summary");
	rtt_add(&s, 1500);
	is_int(rtt_summarize(&s, &sum), 0, "one sample");
	ok(NEAR(sum.min_us, 1.5) && NEAR(sum.median_us, 1.5) &&
		   NEAR(sum.p99_us, 1.5) && NEAR(sum.max_us, 1.5),
	   "one sample of 1500 ns is 1.5 us everywhere");
	rtt_add(&s, 2500);
	rtt_summarize(&s, &sum);
	ok(NEAR(sum.median_us, 2.0), "even count: median is the middle mean "
	   "(%g)", sum.median_us);
	rtt_free(&s);
	/* 1..100 us in reverse order: p99 by nearest rank is 99 us. */
	for (int i = 100; i >= 1; i--)
		rtt_add(&s, (uint64_t)i * 1000);
	rtt_summarize(&s, &sum);
	ok(NEAR(sum.min_us, 1) && NEAR(sum.max_us, 100), "min and max");
	ok(NEAR(sum.median_us, 50.5), "median of 1..100 is 50.5 (%g)",
	   sum.median_us);
	ok(NEAR(sum.p99_us, 99), "p99 of 1..100 is 99 (%g)", sum.p99_us);
	ok(NEAR(sum.mean_us, 50.5), "mean 50.5");
	is_int(sum.count, 100, "count");
	is_int(s.ns[0], 100000, "samples kept in arrival order");
	rtt_free(&s);
	/* 1000 samples, one outlier: p99 ignores it, max shows it. */
	for (int i = 0; i < 999; i++)
		rtt_add(&s, 10000);
	rtt_add(&s, 5000000);
	rtt_summarize(&s, &sum);
	ok(NEAR(sum.p99_us, 10) && NEAR(sum.max_us, 5000), "outlier only in "
	   "max (p99 %g, max %g)", sum.p99_us, sum.max_us);
	rtt_free(&s);
	/* A bounded store keeps the latest samples only: 1..10 us into a
	 * store of 4 leaves 7..10 us, and never more memory than 4. */
	s.limit = 4;
	for (int i = 1; i <= 10; i++)
		rtt_add(&s, (uint64_t)i * 1000);
	rtt_summarize(&s, &sum);
	is_int(sum.count, 4, "bounded store holds its limit");
	ok(s.capacity <= 4, "bounded store allocates no more (%zu)",
	   s.capacity);
	ok(NEAR(sum.min_us, 7) && NEAR(sum.max_us, 10), "the latest four "
	   "samples are kept (min %g, max %g)", sum.min_us, sum.max_us);
	/* A round's quantiles: the newest samples, across the ring's wrap
	 * (10 and 9 us were written after 7 and 8 in the store of four). */
	rtt_summarize_latest(&s, 2, &sum);
	ok(sum.count == 2 && NEAR(sum.min_us, 9) && NEAR(sum.max_us, 10),
	   "latest 2 of a wrapped ring are 9 and 10 us (min %g, max %g)",
	   sum.min_us, sum.max_us);
	rtt_summarize_latest(&s, 99, &sum);
	is_int(sum.count, 4, "asking for more than is kept gives what is kept");
	is_int(rtt_summarize_latest(&s, 0, &sum), -1, "a round without "
	       "replies has no summary");
	rtt_free(&s);
	for (int i = 1; i <= 5; i++)
		rtt_add(&s, (uint64_t)i * 1000);
	rtt_summarize_latest(&s, 3, &sum);
	ok(NEAR(sum.min_us, 3) && NEAR(sum.median_us, 4) && NEAR(sum.max_us, 5),
	   "latest 3 of an unbounded store are 3..5 us");
	rtt_free(&s);
	return tap_done();
}
