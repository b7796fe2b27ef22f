/* Benchmark driver (tests/bench/metrics-cardinality): the size of
 * probe --metrics' file for D destinations x S parameter sets, rendered
 * by lib/out/openmetrics as a continuous run does, with labels as long
 * as a fleet's (host names, devices, a swept traffic class):
 *
 *   metrics_cardinality D S    prints "series N bytes B families F"
 *
 * A sample line is one series to Prometheus; its HELP/TYPE lines are
 * not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/openmetrics.h"

int main(int argc, char **argv)
{
	unsigned long dests, sets;
	struct om_series *series;
	struct om_run run = {
		.source_device = "mlx5_0", .source_port = 1, .rounds = 100,
		.round_seconds = 10, .round_end_unix = 1795000000.25,
	};
	char (*names)[32], *text = NULL, *line;
	size_t len = 0, n, samples = 0, families = 0;
	FILE *f;

	if (argc != 3 || (dests = strtoul(argv[1], NULL, 10)) == 0 ||
	    (sets = strtoul(argv[2], NULL, 10)) == 0 || dests > 100000 ||
	    sets > 64) {
		fprintf(stderr, "usage: metrics_cardinality DESTS SETS\n");
		return 2;
	}
	n = dests * sets;
	series = calloc(n, sizeof(*series));
	names = calloc(dests, sizeof(*names));
	if (!series || !names)
		return 3;
	for (size_t d = 0; d < dests; d++) {
		snprintf(names[d], sizeof(names[d]), "gpu-node-%05zu", d);
		for (size_t s = 0; s < sets; s++) {
			struct om_series *m = &series[d * sets + s];

			*m = (struct om_series){
				.labels = {
					.dest = names[d],
					.dest_device = "mlx5_0",
					.source_device = "mlx5_0",
					.source_port = 1,
					.has_traffic_class = sets > 1,
					.traffic_class = (uint32_t)s * 32,
				},
				.sent_total = 1000, .received_total = 999,
				.has_loss = true, .loss_ratio = 0.001,
				.has_rtt = true, .rtt_min_s = 8e-06,
				.rtt_median_s = 1.05e-05, .rtt_p99_s = 2e-05,
				.rtt_max_s = 2.5e-05, .rtt_count = 999,
				.rtt_sum_s = 0.0105, .hops = 2,
				.has_remark = true,
				.last_success_unix = 1795000000.125,
			};
		}
	}
	f = open_memstream(&text, &len);
	if (!f || openmetrics_render(f, &run, series, n) || fclose(f))
		return 3;
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "# TYPE ", 7) == 0)
			families++;
		else if (line[0] != '#')
			samples++;
	}
	printf("series %zu bytes %zu families %zu\n", samples, len, families);
	free(text);
	free(series);
	free(names);
	return 0;
}
