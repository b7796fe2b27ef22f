/* Synthetic probe results in the schema probe --jsonl writes
 * (ibahprobe.probe.v1, lib/probe/probe_print.c): HOSTS hosts, each probing
 * DESTS others, for the report-scale benchmark and the report tests that
 * need many records. Deterministic: the same arguments give the same
 * bytes.
 *
 *   gen_results [--ib] [--errors PCT] [--sets N] [--dests N] HOSTS
 *
 * --ib      InfiniBand without a GRH: the AH carries a DLID and no GRH,
 *           so report learns each destination from the host's own
 *           source GID (the case that used to be quadratic).
 * --errors  that percentage of the results are "error" records (failed
 *           before an AH was built), spread over the hosts.
 * --sets    parameter sets (traffic classes 0, 0x28, ...), default 1.
 * --dests   destinations per host, default HOSTS - 1 (the full mesh);
 *           host i probes hosts i+1 .. i+DESTS (mod HOSTS). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(void)
{
	fprintf(stderr, "usage: gen_results [--ib] [--errors PCT] "
			"[--sets N] [--dests N] HOSTS\n");
	exit(2);
}

/* A small deterministic generator (xorshift64*): no libc state. */
static unsigned long long rng_state = 0x9e3779b97f4a7c15ULL;

static unsigned long long rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static void source(unsigned host, int ib)
{
	if (ib)
		printf("\"source\":{\"host\":\"host%04u\",\"device\":\"mlx5_0\","
		       "\"port_num\":1,\"lid\":%u,\"sgid\":"
		       "\"fe80::2:c903:%x:%x\"}", host, host + 1,
		       host >> 16, host & 0xffff);
	else
		printf("\"source\":{\"host\":\"host%04u\",\"device\":\"mlx5_0\","
		       "\"port_num\":1,\"lid\":0,\"sgid\":"
		       "\"::ffff:10.%u.%u.%u\"}", host, host >> 16,
		       (host >> 8) & 0xff, host & 0xff);
}

static void ah(unsigned dst, unsigned tclass, int ib)
{
	if (ib)
		printf("\"ah_attr\":{\"is_global\":0,\"dlid\":%u,\"sl\":0,"
		       "\"src_path_bits\":0,\"static_rate\":0,\"port_num\":1,"
		       "\"grh\":null}", dst + 1);
	else
		printf("\"ah_attr\":{\"is_global\":1,\"dlid\":0,\"sl\":0,"
		       "\"src_path_bits\":0,\"static_rate\":0,\"port_num\":1,"
		       "\"grh\":{\"dgid\":\"::ffff:10.%u.%u.%u\","
		       "\"flow_label\":0,\"sgid_index\":3,\"hop_limit\":64,"
		       "\"traffic_class\":%u}}", dst >> 16, (dst >> 8) & 0xff,
		       dst & 0xff, tclass);
}

int main(int argc, char **argv)
{
	unsigned hosts = 0, dests = 0, sets = 1;
	double errors = 0;
	int ib = 0, have_dests = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--ib") == 0)
			ib = 1;
		else if (strcmp(argv[i], "--errors") == 0 && i + 1 < argc)
			errors = atof(argv[++i]);
		else if (strcmp(argv[i], "--sets") == 0 && i + 1 < argc)
			sets = (unsigned)atoi(argv[++i]);
		else if (strcmp(argv[i], "--dests") == 0 && i + 1 < argc)
			dests = (unsigned)atoi(argv[++i]), have_dests = 1;
		else if (argv[i][0] != '-' && !hosts)
			hosts = (unsigned)atoi(argv[i]);
		else
			usage();
	}
	if (hosts < 2 || sets < 1 || sets > 8 || errors < 0 || errors > 100)
		usage();
	if (!have_dests || dests > hosts - 1)
		dests = hosts - 1;
	for (unsigned h = 0; h < hosts; h++) {
		char run[40];

		snprintf(run, sizeof(run), "00000000-0000-4000-8000-%012x", h);
		for (unsigned k = 1; k <= dests; k++) {
			unsigned d = (h + k) % hosts;

			for (unsigned s = 0; s < sets; s++) {
				unsigned tclass = s * 40;
				unsigned long long x = rng();
				int error = (double)(x % 1000000) <
					    errors * 10000.0;
				unsigned received = 10 - (x >> 40) % 101 / 100;
				double median = 5.0 + (double)((x >> 20) % 400) / 100;

				printf("{\"schema\":\"ibahprobe.probe.v1\","
				       "\"record\":\"result\",\"run_id\":\"%s\","
				       "\"start_time\":\"2026-11-23T18:12:27Z\","
				       "\"dest\":\"host%04u\",", run, d);
				source(h, ib);
				printf(",\"params\":{\"hop_limit\":64,"
				       "\"traffic_class\":%u,\"flow_label\":0,"
				       "\"sl\":0},", tclass);
				if (error) {
					printf("\"status\":\"error\",\"error\":"
					       "\"host%04u: rendezvous on port "
					       "18515: Connection refused\"}\n", d);
					continue;
				}
				printf("\"status\":\"%s\",\"sent\":10,"
				       "\"received\":%u,\"lost\":%u,\"late\":0,"
				       "\"rtt_us\":{\"min\":%.2f,\"median\":%.2f,"
				       "\"p99\":%.2f,\"max\":%.2f},\"observed\":"
				       "{\"grh_present\":%s,\"traffic_class\":%u},"
				       "\"hops\":%u,\"verdicts\":[\"%s\"],"
				       "\"findings\":[],",
				       received == 10 ? "reachable" : "partial_loss",
				       received, 10 - received, median - 1, median,
				       median + 3, median + 4, ib ? "false" : "true",
				       tclass, (h ^ d) & 1 ? 1 : 0,
				       received == 10 ? "reachable" : "partial_loss");
				ah(d, tclass, ib);
				printf("}\n");
			}
		}
	}
	return fflush(stdout) ? 3 : 0;
}
