/* Unit tests of a trace's hop count as report compares it with its
 * results': routers counted on a trace that answered hop by hop up to
 * its destination; -1 for a silent hop, a trace that never reached the
 * destination, or no path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/hop_changes.h"
#include "tap.h"

/* A trace from 10.0.0.1 to 10.0.9.9 whose hops answered from path[] in
 * turn (NULL: silent); the last is the responder. */
static void trace(FILE *f, int fl, const char *const *path, int n)
{
	fprintf(f, "{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"h1\","
		"\"device\":\"mlx5_0\",\"sgid\":\"::ffff:10.0.0.1\","
		"\"source_address\":\"10.0.0.1\",\"dest\":\"10.0.9.9\","
		"\"dest_address\":\"10.0.9.9\",\"qpn\":17,\"flow_label\":%d,"
		"\"udp_sport\":1,\"traffic_class\":0,\"status\":\"reached\","
		"\"error\":null,\"hops\":[", fl);
	for (int i = 0; i < n; i++) {
		fprintf(f, "%s{\"hop_limit\":%d,\"answers\":[", i ? "," : "",
			i + 1);
		if (path[i])
			fprintf(f, "{\"from\":\"%s\",\"kind\":\"%s\","
				"\"rtt_us\":1.0}", path[i],
				strcmp(path[i], "10.0.9.9") == 0
					? "responder" : "time_exceeded");
		else
			fprintf(f, "{\"kind\":\"silent\",\"from\":null,"
				"\"rtt_us\":null}");
		fprintf(f, "]}");
	}
	fprintf(f, "],\"traffic_class_changes\":[]}\n");
}

int main(void)
{
	static const char *const reached[] = { "10.1.0.1", "10.2.0.1",
					       "10.1.0.9", "10.0.9.9" };
	static const char *const silent[] = { "10.1.0.1", NULL, "10.1.0.9",
					      "10.0.9.9" };
	static const char *const stopped[] = { "10.1.0.1", "10.2.0.1" };
	static const char *const direct[] = { "10.0.9.9" };
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct report_traces t = { 0 };

	trace(f, 1, reached, 4);
	trace(f, 2, silent, 4);
	trace(f, 3, stopped, 2);
	trace(f, 4, direct, 1);
	fclose(f);
	if (report_traces_read_buffer(&t, "traces", buf, len, err,
				      sizeof(err))) {
		printf("# %s\n", err);
		ok(0, "traces read");
		return tap_done();
	}
	is_int(t.count, 4, "four traces");
	is_int(hop_changes_trace_hops(&t.flows[0], &t), 3,
	       "answered to the destination: 3 routers");
	is_int(hop_changes_trace_hops(&t.flows[1], &t), -1,
	       "a silent hop: unknown");
	is_int(hop_changes_trace_hops(&t.flows[2], &t), -1,
	       "never reached the destination: unknown");
	is_int(hop_changes_trace_hops(&t.flows[3], &t), 0,
	       "the destination at the first hop: 0 routers");
	report_traces_free(&t);
	free(buf);
	return tap_done();
}
