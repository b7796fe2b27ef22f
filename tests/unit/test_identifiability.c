/* Unit tests of what the traces cannot tell apart: a flow's path makes
 * all its elements one group; a second flow label over another spine
 * splits off the spines' segments; a third source splits the rest;
 * a loop counts its element once; no traces, no groups. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/identifiability.h"
#include "tap.h"

/* The trace of host h (10.0.0.h) to 10.0.9.9 over its ToR (10.1.0.h),
 * the spine of the flow label's parity and the far ToR 10.1.0.9; loop:
 * the spine answers twice. */
static void trace(FILE *f, int h, int fl, int loop)
{
	const char *path[6];
	char tor[32];
	int n = 0;

	snprintf(tor, sizeof(tor), "10.1.0.%d", h);
	path[n++] = tor;
	path[n++] = fl % 2 ? "10.2.0.1" : "10.2.0.2";
	if (loop) {
		path[n] = path[n - 1];
		n++;
	}
	path[n++] = "10.1.0.9";
	path[n++] = "10.0.9.9";
	fprintf(f, "{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"h%d\","
		"\"device\":\"mlx5_0\",\"sgid\":\"::ffff:10.0.0.%d\","
		"\"source_address\":\"10.0.0.%d\",\"dest\":\"10.0.9.9\","
		"\"dest_address\":\"10.0.9.9\",\"qpn\":17,\"flow_label\":%d,"
		"\"udp_sport\":1,\"traffic_class\":0,\"status\":\"reached\","
		"\"error\":null,\"hops\":[", h, h, h, fl);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s{\"hop_limit\":%d,\"answers\":[{\"from\":\"%s\","
			"\"kind\":\"%s\",\"rtt_us\":1.0}]}", i ? "," : "", i + 1,
			path[i], i + 1 == n ? "responder" : "time_exceeded");
	fprintf(f, "],\"traffic_class_changes\":[]}\n");
}

struct flow_spec {
	int host, label, loop;
};

static int load(struct report_traces *t, const struct flow_spec *flows,
		size_t count)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	for (size_t i = 0; i < count; i++)
		trace(f, flows[i].host, flows[i].label, flows[i].loop);
	fclose(f);
	memset(t, 0, sizeof(*t));
	rc = report_traces_read_buffer(t, "traces", buf, len, err, sizeof(err));
	if (rc)
		printf("# %s\n", err);
	free(buf);
	return rc;
}

/* "a, b | c, d": the groups by element names. */
static char *groups_text(const struct report_traces *t,
			 const struct identifiability *id)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	for (size_t g = 0; g < id->group_count; g++) {
		fprintf(f, "%s", g ? " | " : "");
		for (size_t k = 0; k < id->groups[g].count; k++)
			fprintf(f, "%s%s", k ? ", " : "",
				t->elements[id->groups[g].elements[k]].name);
	}
	fclose(f);
	return text;
}

static void check(const char *what, const struct flow_spec *flows,
		  size_t count, size_t elements, size_t separable,
		  const char *want)
{
	struct report_traces t;
	struct identifiability id;
	char *got;

	if (load(&t, flows, count) || identifiability_find(&id, NULL, &t)) {
		ok(0, "%s: loaded and found", what);
		return;
	}
	got = groups_text(&t, &id);
	is_str(got, want, "%s: the groups", what);
	is_int(id.elements, elements, "%s: %zu elements", what, elements);
	is_int(id.separable, separable, "%s: %zu separable", what,
	       separable);
	is_int(id.flows, count, "%s: %zu flows", what, count);
	free(got);
	identifiability_free(&id);
	report_traces_free(&t);
}

int main(void)
{
	static const struct flow_spec one[] = { { 1, 1, 0 } };
	static const struct flow_spec two[] = { { 1, 1, 0 }, { 1, 2, 0 } };
	static const struct flow_spec three[] = { { 1, 1, 0 }, { 1, 2, 0 },
						  { 2, 1, 0 } };
	static const struct flow_spec loop[] = { { 1, 1, 1 }, { 1, 2, 0 } };
	struct report_traces t = { 0 };
	struct identifiability id;

	check("one flow", one, 1, 7, 0,
	      "10.0.0.1 -> 10.1.0.1, 10.1.0.1, 10.1.0.1 -> 10.2.0.1, "
	      "10.2.0.1, 10.2.0.1 -> 10.1.0.9, 10.1.0.9, "
	      "10.1.0.9 -> 10.0.9.9");
	check("two labels", two, 2, 10, 0,
	      "10.0.0.1 -> 10.1.0.1, 10.1.0.1, 10.1.0.9, "
	      "10.1.0.9 -> 10.0.9.9 | 10.1.0.1 -> 10.2.0.1, 10.2.0.1, "
	      "10.2.0.1 -> 10.1.0.9 | 10.1.0.1 -> 10.2.0.2, 10.2.0.2, "
	      "10.2.0.2 -> 10.1.0.9");
	/* h2's flow over S1 shares S1 onwards: h1's link to S1 stands
	 * alone, S1 and its link down pair off, the far ToR joins its link
	 * to the destination. */
	check("a second source", three, 3, 13, 1,
	      "10.0.0.1 -> 10.1.0.1, 10.1.0.1 | 10.2.0.1, "
	      "10.2.0.1 -> 10.1.0.9 | 10.1.0.9, 10.1.0.9 -> 10.0.9.9 | "
	      "10.1.0.1 -> 10.2.0.2, 10.2.0.2, 10.2.0.2 -> 10.1.0.9 | "
	      "10.0.0.2 -> 10.1.0.2, 10.1.0.2, 10.1.0.2 -> 10.2.0.1");
	/* S1 twice on one path is in that flow once: with its links. */
	check("a loop", loop, 2, 11, 0,
	      "10.0.0.1 -> 10.1.0.1, 10.1.0.1, 10.1.0.9, "
	      "10.1.0.9 -> 10.0.9.9 | 10.1.0.1 -> 10.2.0.1, 10.2.0.1, "
	      "10.2.0.1 -> 10.2.0.1, 10.2.0.1 -> 10.1.0.9 | "
	      "10.1.0.1 -> 10.2.0.2, 10.2.0.2, 10.2.0.2 -> 10.1.0.9");
	ok(identifiability_find(&id, NULL, &t) == 0 && id.group_count == 0 &&
	   id.elements == 0 && id.flows == 0, "no traces: nothing");
	identifiability_free(&id);
	return tap_done();
}
