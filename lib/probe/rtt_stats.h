/* Round-trip time samples and their summary (min, median, p99, max), in
 * microseconds from CLOCK_MONOTONIC nanoseconds: no RTT/2, no truncation
 * to whole units. */
#ifndef IBAHPROBE_RTT_STATS_H
#define IBAHPROBE_RTT_STATS_H

#include <stddef.h>
#include <stdint.h>

struct rtt_samples {
	uint64_t *ns;
	size_t count, capacity;
	/* 0: keep every sample; else keep the latest limit samples (a run
	 * until interrupted must not grow without bound). */
	size_t limit, next;
};

/* Samples a continuous run keeps per destination and parameter set: the
 * quantiles are those of the latest this many (18 h at one per second). */
#define RTT_CONTINUOUS_LIMIT 65536

struct rtt_summary {
	size_t count;
	double min_us, median_us, p99_us, max_us, mean_us;
};

int rtt_add(struct rtt_samples *samples, uint64_t ns);
/* Returns 0 and fills summary, or -1 when there is no sample. The p99 is
 * the nearest-rank percentile; the median of an even count is the mean of
 * the two middle samples. */
int rtt_summarize(const struct rtt_samples *samples,
		  struct rtt_summary *summary);
/* The same over the latest `latest` samples only (all of them when there
 * are fewer): a continuous run's round, whose replies are the newest. */
int rtt_summarize_latest(const struct rtt_samples *samples, size_t latest,
			 struct rtt_summary *summary);
void rtt_free(struct rtt_samples *samples);

#endif
