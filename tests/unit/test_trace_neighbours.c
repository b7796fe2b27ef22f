/* Unit tests of the routers' seen adjacency (trace_neighbours.h) over
 * three made-up traces of a two-tier fabric, ToRs T1-T3 and spines
 * S1-S2, where no trace crosses T1 - S1 (a dead link's shape), and of
 * a three-tier one: which missing links fit the seen adjacency, and which
 * routers meet a common one. */
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

/* A trace from src over the routers a, b, c (NULL: none) and, when d,
 * d and e to dst, every hop answering. */
static void trace5(FILE *f, const char *src, const char *a, const char *b,
		   const char *c, const char *d, const char *e,
		   const char *dst)
{
	const char *hops[6] = { a, b, c, d, e, dst };
	int n = d ? 6 : 4;

	if (!d)
		hops[3] = dst;

	fprintf(f, "{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"h\","
		"\"device\":\"mlx5_0\",\"sgid\":\"::ffff:%s\","
		"\"source_address\":\"%s\",\"dest\":\"%s\","
		"\"dest_address\":\"%s\",\"qpn\":17,\"flow_label\":1,"
		"\"udp_sport\":1,\"traffic_class\":104,\"status\":\"reached\","
		"\"error\":null,\"hops\":[", src, src, dst, dst);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s{\"hop_limit\":%d,\"answers\":[{\"from\":\"%s\","
			"\"kind\":\"%s\",\"rtt_us\":1.0}]}", i ? "," : "",
			i + 1, hops[i], i == n - 1 ? "responder" : "time_exceeded");
	fprintf(f, "],\"traffic_class_changes\":[]}\n");
}

static void trace(FILE *f, const char *src, const char *a, const char *b,
		  const char *c, const char *dst)
{
	trace5(f, src, a, b, c, NULL, NULL, dst);
}

/* Three tiers: pods A (ToRs TA1, TA2) and B (ToR TB1), each with a
 * spine of group 1 and of group 2, which meet core C1 or C2 of their
 * group; no trace crosses TA2 - SA2. */
#define TA1 "10.1.1.1"
#define TA2 "10.1.1.2"
#define TB1 "10.1.2.1"
#define SA1 "10.2.1.1"
#define SA2 "10.2.1.2"
#define SB1 "10.2.2.1"
#define SB2 "10.2.2.2"
#define C1 "10.3.0.1"
#define C2 "10.3.0.2"

static void test_three_tiers(void)
{
	struct report_traces t;
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	trace5(f, "10.0.1.1", TA1, SA1, C1, SB1, TB1, "10.0.2.1");
	trace5(f, "10.0.1.1", TA1, SA2, C2, SB2, TB1, "10.0.2.1");
	trace5(f, "10.0.2.1", TB1, SB1, C1, SA1, TA2, "10.0.1.2");
	trace(f, "10.0.1.2", TA2, SA1, TA1, "10.0.1.1");
	fclose(f);
	memset(&t, 0, sizeof(t));
	is_int(report_traces_read_buffer(&t, "traces", buf, len, err,
					 sizeof(err)), 0, "three tiers: read");
	ok(trace_may_adjoin(&t, TA2, SA2),
	   "three tiers: TA2 - SA2, a ToR and a spine of its pod");
	ok(!trace_may_adjoin(&t, TA1, SB1),
	   "three tiers: not TA1 - SB1, a spine of another pod (one cycle, "
	   "through SA1 and C1)");
	ok(!trace_may_adjoin(&t, SA1, SA2), "three tiers: not two spines");
	ok(!trace_may_adjoin(&t, C1, C2), "three tiers: not two cores");
	ok(trace_share_neighbour(&t, SA1, SA2),
	   "three tiers: SA1 and SA2 share TA1 (a triangle with a link)");
	ok(trace_share_neighbour(&t, TA1, C1),
	   "three tiers: TA1 and C1 share SA1 (two tiers apart)");
	ok(!trace_share_neighbour(&t, TA2, SA2),
	   "three tiers: TA2 and SA2 share none (a dead link fits)");
	ok(!trace_share_neighbour(&t, SA2, C1),
	   "three tiers: SA2 and C1 share none (a spine and a core of "
	   "another group)");
	report_traces_free(&t);
	free(buf);
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
	test_three_tiers();
	return tap_done();
}
