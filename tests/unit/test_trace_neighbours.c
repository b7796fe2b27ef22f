/* Unit tests of the routers' seen adjacency (trace_neighbours.h) over
 * three made-up traces of a two-tier fabric, ToRs T1-T3 and spines
 * S1-S2, where no trace crosses T1 - S1 (a dead link's shape). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_traces.h"
#include "report/trace_neighbours.h"
#include "tap.h"

#define T1 "10.1.0.1"
#define T2 "10.1.0.2"
#define T3 "10.1.0.3"
#define S1 "10.2.0.1"
#define S2 "10.2.0.2"

/* A trace from src over the routers a, b, c to dst, every hop answering. */
static void trace(FILE *f, const char *src, const char *a, const char *b,
		  const char *c, const char *dst)
{
	const char *hops[4] = { a, b, c, dst };

	fprintf(f, "{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"h\","
		"\"device\":\"mlx5_0\",\"sgid\":\"::ffff:%s\","
		"\"source_address\":\"%s\",\"dest\":\"%s\","
		"\"dest_address\":\"%s\",\"qpn\":17,\"flow_label\":1,"
		"\"udp_sport\":1,\"traffic_class\":104,\"status\":\"reached\","
		"\"error\":null,\"hops\":[", src, src, dst, dst);
	for (int i = 0; i < 4; i++)
		fprintf(f, "%s{\"hop_limit\":%d,\"answers\":[{\"from\":\"%s\","
			"\"kind\":\"%s\",\"rtt_us\":1.0}]}", i ? "," : "",
			i + 1, hops[i], i == 3 ? "responder" : "time_exceeded");
	fprintf(f, "],\"traffic_class_changes\":[]}\n");
}

int main(void)
{
	struct report_traces t;
	char *buf = NULL, err[256];
	size_t len = 0, out[8];
	FILE *f = open_memstream(&buf, &len);

	trace(f, "10.0.0.1", T1, S2, T2, "10.0.0.5");
	trace(f, "10.0.0.5", T2, S1, T3, "10.0.0.9");
	trace(f, "10.0.0.9", T3, S2, T1, "10.0.0.1");
	fclose(f);
	memset(&t, 0, sizeof(t));
	is_int(report_traces_read_buffer(&t, "traces", buf, len, err,
					 sizeof(err)), 0, "traces read");
	is_int(trace_neighbours(&t, T1, out, 8), 1,
	       "T1: one router next to it (S2; its host is none)");
	is_int(trace_neighbours(&t, S2, out, 8), 3, "S2: T1, T2 and T3");
	is_int(trace_neighbours(&t, S2, out, 2), 2, "S2: cut at max");
	ok(trace_may_adjoin(&t, T1, S1),
	   "T1 - S1 would close T1 - S2 - T2 - S1: a dead link fits there");
	ok(trace_may_adjoin(&t, S1, T1), "either way round");
	ok(!trace_may_adjoin(&t, S1, S2),
	   "S1 - S2: two spines (their neighbours are never linked)");
	ok(!trace_may_adjoin(&t, T1, T2), "T1 - T2: two ToRs");
	ok(!trace_may_adjoin(&t, T1, S2), "T1 - S2: seen, not missing");
	ok(!trace_may_adjoin(&t, T1, "10.9.9.9"), "a router no trace shows");
	ok(!trace_may_adjoin(&t, T1, T1), "a router and itself");
	report_traces_free(&t);
	free(buf);
	return tap_done();
}
