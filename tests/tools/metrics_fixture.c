/* Test driver for the metrics file (tests/cli/metrics.bats):
 *
 *   metrics_fixture                  fixed rounds of fixed cells, the
 *                                    exposition text on stdout (for
 *                                    promtool check metrics)
 *   metrics_fixture --rounds N FILE  N rounds of the same cells published
 *                                    to FILE as probe does; prints the heap
 *                                    in use and the RSS after round N/10
 *                                    and after round N ("heap A B rss C D")
 *
 * The cells go through probe_round as probe's do: RTT stores bounded as
 * a continuous run's, counts growing, every round closed and published. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/openmetrics.h"
#include "probe/probe_round.h"

#define CELLS 6
#define RTT_LIMIT 256	/* a continuous run's bound, small enough to fill */

struct cell {
	const char *dest, *dest_device;
	uint8_t tclass;
	bool error;
	unsigned loss_every;	/* lose one probe in this many; 0: none */
	struct rtt_samples rtt;
	uint32_t resolved, received;
	uint64_t last_reply_ns;
	struct probe_round_cell round;
};

static struct cell cells[CELLS] = {
	{ .dest = "host-b", .dest_device = "mlx5_0", .tclass = 0 },
	{ .dest = "host-b", .dest_device = "mlx5_0", .tclass = 184,
	  .loss_every = 4 },
	{ .dest = "10.0.0.3:18515", .dest_device = NULL, .tclass = 0 },
	{ .dest = "10.0.0.3:18515", .dest_device = NULL, .tclass = 184,
	  .loss_every = 1 },
	{ .dest = "odd \"name\\\" here", .dest_device = "rxe0", .tclass = 0 },
	{ .dest = "gone", .tclass = 184, .error = true },
};

/* One round of ten probes per cell, RTTs 5..14 us, then its metrics. */
static void one_round(uint64_t round, struct om_series *series)
{
	uint64_t now = round * 10000000000ull;

	for (size_t i = 0; i < CELLS; i++) {
		struct cell *c = &cells[i];
		struct om_series *m = &series[i];

		for (unsigned k = 0; !c->error && k < 10; k++) {
			c->resolved++;
			if (c->loss_every && k % c->loss_every == 0)
				continue;
			c->received++;
			rtt_add(&c->rtt, (5 + k) * 1000ull);
			c->last_reply_ns = now - 1000000ull * (10 - k);
		}
		probe_round_close(&c->round, &(struct probe_round_input){
			.resolved = c->resolved, .received = c->received,
			.rtt = &c->rtt, .last_reply_ns = c->last_reply_ns,
			.now_ns = now, .now_unix = 1795000000.0 + round * 10 });
		*m = (struct om_series){
			.labels = { .dest = c->dest,
				    .dest_device = c->dest_device,
				    .source_device = "rxe0", .source_port = 1,
				    .has_traffic_class = true,
				    .traffic_class = c->tclass },
			.error = c->error,
			.sent_total = c->round.sent_total,
			.received_total = c->round.received_total,
			.has_rtt = c->round.has_rtt,
			.rtt_min_s = c->round.rtt.min_us / 1e6,
			.rtt_median_s = c->round.rtt.median_us / 1e6,
			.rtt_p99_s = c->round.rtt.p99_us / 1e6,
			.rtt_max_s = c->round.rtt.max_us / 1e6,
			.rtt_count = c->round.rtt_count,
			.rtt_sum_s = c->round.rtt_sum_s,
			.hops = c->error || !c->received ? -1 : (int)(i % 3),
			.has_remark = !c->error && c->received,
			.remarked = c->tclass != 0 && i < 2,
			.last_success_unix = c->round.last_success_unix,
		};
		m->has_loss = probe_round_loss_ratio(&c->round, &m->loss_ratio);
	}
}

static long rss_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kib = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib;
}

int main(int argc, char **argv)
{
	struct om_series series[CELLS];
	struct om_run run = { .source_device = "rxe0", .source_port = 1,
			      .round_seconds = 10 };
	unsigned long rounds;
	size_t heap[2] = { 0 };
	long rss[2] = { 0 };
	char err[512];

	for (size_t i = 0; i < CELLS; i++)
		cells[i].rtt.limit = RTT_LIMIT;
	if (argc == 1) {
		for (run.rounds = 1; run.rounds <= 3; run.rounds++)
			one_round(run.rounds, series);
		run.rounds--;
		run.round_end_unix = 1795000030.0;
		return openmetrics_render(stdout, &run, series, CELLS) ||
		       fflush(stdout) ? 1 : 0;
	}
	if (argc != 4 || strcmp(argv[1], "--rounds") ||
	    (rounds = strtoul(argv[2], NULL, 10)) < 10) {
		fprintf(stderr, "usage: metrics_fixture [--rounds N FILE] "
			"(N >= 10)\n");
		return 2;
	}
	for (run.rounds = 1; run.rounds <= rounds; run.rounds++) {
		one_round(run.rounds, series);
		run.round_end_unix = 1795000000.0 + run.rounds * 10;
		if (openmetrics_publish(argv[3], &run, series, CELLS, err,
					sizeof(err))) {
			fprintf(stderr, "metrics_fixture: %s\n", err);
			return 1;
		}
		if (run.rounds == rounds / 10 || run.rounds == rounds) {
			int at = run.rounds == rounds;

			heap[at] = mallinfo2().uordblks;
			rss[at] = rss_kib();
		}
	}
	printf("heap %zu %zu rss %ld %ld\n", heap[0], heap[1], rss[0], rss[1]);
	for (size_t i = 0; i < CELLS; i++)
		rtt_free(&cells[i].rtt);
	return 0;
}
