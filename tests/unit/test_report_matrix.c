/* Unit tests of ibahprobe report's merging: who is a source and who a
 * destination (GIDs, IPv4-mapped addresses, fallbacks), names, the order
 * of both axes, what a cell aggregates, and input errors with FILE:LINE. */
#include <stdarg.h>
#include <stdlib.h>

#include "report/report_input.h"
#include "report/report_matrix.h"
#include "tap.h"

#define NEAR(a, b) ((a) - (b) < 1e-9 && (b) - (a) < 1e-9)

/* One result line as probe --jsonl writes it, with the fields report
 * reads. dgid NULL: no ah_attr.grh (error results have no ah_attr). */
struct res {
	const char *host, *device, *sgid, *dest, *dgid, *status;
	unsigned sent, received;
	double median;		/* < 0: rtt_us null */
	int hops;		/* < 0: null */
	int tc_sent, tc_seen;	/* tc_seen >= 0: tclass_remarked */
};

static char *line_of(const struct res *x)
{
	char *s = NULL, sgid[80], grh[160], rtt[120], verdicts[80], tc[80];
	char hops[16];
	int n;

	snprintf(sgid, sizeof(sgid), x->sgid ? "\"%s\"" : "null",
		 x->sgid ? x->sgid : "");
	if (x->dgid)
		snprintf(grh, sizeof(grh), "{\"dgid\":\"%s\",\"flow_label\":0,"
			 "\"sgid_index\":1,\"hop_limit\":64,"
			 "\"traffic_class\":%d}", x->dgid, x->tc_sent);
	else
		snprintf(grh, sizeof(grh), "null");
	if (x->median >= 0)
		snprintf(rtt, sizeof(rtt), "{\"min\":1,\"median\":%g,"
			 "\"p99\":%g,\"max\":%g}", x->median, x->median * 2,
			 x->median * 3);
	else
		snprintf(rtt, sizeof(rtt), "null");
	snprintf(verdicts, sizeof(verdicts), "[\"%s\"%s]", x->status,
		 x->tc_seen >= 0 ? ",\"tclass_remarked\"" : "");
	snprintf(tc, sizeof(tc), "%d", x->tc_seen >= 0 ? x->tc_seen : x->tc_sent);
	snprintf(hops, sizeof(hops), x->hops < 0 ? "null" : "%d", x->hops);
	if (strcmp(x->status, "error") == 0)
		n = asprintf(&s, "{\"dest\":\"%s\",\"source\":{\"host\":\"%s\","
			     "\"device\":\"%s\",\"port_num\":1,\"lid\":0,"
			     "\"sgid\":%s},\"params\":{\"hop_limit\":64,"
			     "\"traffic_class\":%d,\"flow_label\":0,\"sl\":0},"
			     "\"status\":\"error\",\"error\":\"no route to "
			     "%s\"}\n", x->dest, x->host, x->device, sgid,
			     x->tc_sent, x->dest);
	else
		n = asprintf(&s, "{\"dest\":\"%s\",\"source\":{\"host\":\"%s\","
			     "\"device\":\"%s\",\"port_num\":1,\"lid\":0,"
			     "\"sgid\":%s},\"params\":{\"hop_limit\":64,"
			     "\"traffic_class\":%d,\"flow_label\":0,\"sl\":0},"
			     "\"status\":\"%s\",\"sent\":%u,\"received\":%u,"
			     "\"lost\":%u,\"late\":0,\"rtt_us\":%s,"
			     "\"observed\":{\"grh_present\":true,"
			     "\"traffic_class\":%s},\"hops\":%s,"
			     "\"verdicts\":%s,\"findings\":[\"finding %s\"],"
			     "\"ah_attr\":{\"is_global\":%d,\"grh\":%s},"
			     "\"reverse_ah\":null}\n",
			     x->dest, x->host, x->device, sgid, x->tc_sent,
			     x->status, x->sent, x->received,
			     x->sent - x->received, rtt, tc,
			     hops,
			     verdicts, x->status, x->dgid != NULL, grh);
	if (n < 0)
		abort();
	return s;
}

/* A report from results; each result its own line of one input. */
static int load(struct report *r, const struct res *xs, size_t n, char *err,
		size_t errlen)
{
	char *text = calloc(1, 1);
	size_t len = 0;
	int rc;

	report_init(r);
	for (size_t i = 0; i < n; i++) {
		char *l = line_of(&xs[i]);

		text = realloc(text, len + strlen(l) + 1);
		memcpy(text + len, l, strlen(l) + 1);
		len += strlen(l);
		free(l);
	}
	rc = report_read_buffer(r, "in.jsonl", text, len, NULL, err, errlen);
	free(text);
	return rc ? rc : report_build(r, err, errlen);
}

#define A4 "::ffff:10.0.0.1"
#define B4 "::ffff:10.0.0.2"
#define C4 "::ffff:10.0.0.3"
/* A reachable result of five probes, from a device. */
#define OKD(host, dev, sgid, dest, dgid, med, hops)                            \
	{ host, dev, sgid, dest, dgid, "reachable", 5, 5, med, hops, 0, -1 }
#define OK(host, sgid, dest, dgid, med, hops)                                  \
	OKD(host, "mlx5_0", sgid, dest, dgid, med, hops)

static void test_axes(void)
{
	/* c answers but does not probe; a and b do both. Input order is
	 * scrambled: the axes are not. */
	const struct res xs[] = {
		OK("b", B4, "c", C4, 30, 1),
		OK("b", B4, "a", A4, 20, 0),
		OK("a", A4, "c", C4, 31, 1),
		OK("a", A4, "b", B4, 21, 0),
	};
	struct report r;
	char err[512] = "";

	is_int(load(&r, xs, 4, err, sizeof(err)), 0, "four results merge");
	is_int(r.row_count, 2, "two sources");
	is_int(r.col_count, 3, "three destinations");
	is_str(r.rows[0]->source_name, "a", "row 0 is a");
	is_str(r.rows[1]->source_name, "b", "row 1 is b");
	is_str(r.cols[0]->dest_name, "a", "column 0 is a: same order as rows");
	is_str(r.cols[1]->dest_name, "b", "column 1 is b");
	is_str(r.cols[2]->dest_name, "c", "destination-only c comes last");
	ok(r.rows[0] == r.cols[0], "a is one node on both axes");
	is_str(r.rows[0]->addr, "10.0.0.1", "IPv4-mapped GID shown as IPv4");
	ok(!report_cell(&r, 0, 0)->probed, "a -> a was not probed");
	ok(report_cell(&r, 0, 1)->probed && report_cell(&r, 1, 0)->probed,
	   "a -> b and b -> a were");
	is_int(r.pairs, 4, "four pairs");
	is_int(r.status_count[REPORT_REACHABLE], 4, "all reachable");
	ok(report_all_fine(&r), "all fine");
	report_free(&r);
}

static void test_aggregate(void)
{
	const struct res xs[] = {
		OK("a", A4, "b", B4, 10, 1),
		{ "a", "mlx5_0", A4, "b", B4, "partial loss", 5, 2, 30, 2, 0x28, 0x30 },
		OK("a", A4, "b", B4, 20, 1),
		{ "a", "mlx5_0", A4, "c", C4, "unreachable", 5, 0, -1, -1, 0, -1 },
		OK("a", A4, "c", C4, 8, 1),
		OK("a", A4, "c", C4, 12, 1),
	};
	struct report r;
	struct report_cell *c;
	char err[512] = "";

	is_int(load(&r, xs, 6, err, sizeof(err)), 0, "six results merge");
	is_int(r.pairs, 2, "into two pairs");
	c = report_cell(&r, 0, 0);
	is_int(c->sets, 3, "a -> b: three sets");
	is_int(c->status, REPORT_PARTIAL, "worst status: partial loss");
	is_int(c->sent, 15, "sent summed");
	is_int(c->received, 12, "received summed");
	ok(c->hop_count == 2 && c->hops[0] == 1 && c->hops[1] == 2,
	   "distinct hops, ascending: 1, 2");
	ok(c->has_rtt && NEAR(c->rtt_median_us, 20),
	   "RTT: median of the medians 10, 30, 20 is 20 (%g)", c->rtt_median_us);
	ok(NEAR(c->rtt_max_us, 90), "RTT max: the largest per-set max (%g)",
	   c->rtt_max_us);
	ok(c->tclass_remarked && c->remark_count == 1 &&
	   c->remarks[0].sent == 0x28 && c->remarks[0].seen == 0x30,
	   "remarking: one set, sent 0x28, seen 0x30");
	/* How each set fared, and each finding with the sets it is from. */
	is_int(c->findings.count, 3, "findings: distinct ones only");
	is_str(c->findings.items[0], "tclass 0x28: 2 of 5 answered; tclass 0: "
	       "5 of 5; tclass 0: 5 of 5", "sets that fared differently");
	is_str(c->findings.items[1], "tclass 0x28: finding partial loss",
	       "a finding of one set names it");
	is_str(c->findings.items[2], "tclass 0: finding reachable",
	       "a set's label is named once");
	c = report_cell(&r, 0, 1);
	is_int(c->status, REPORT_PARTIAL, "a -> c: an unreachable set beside "
	       "two reachable ones is partial loss");
	ok(c->has_rtt && NEAR(c->rtt_median_us, 10),
	   "even count: median of 8 and 12 is 10 (%g)", c->rtt_median_us);
	ok(c->hop_count == 1 && c->hops[0] == 1, "unknown hops are left out");
	ok(!report_all_fine(&r), "not all fine");
	is_int(r.status_count[REPORT_PARTIAL], 2, "summary: two partial");
	is_int(r.status_count[REPORT_UNREACHABLE], 0, "summary: no unreachable");
	report_free(&r);
}

static void test_identity(void)
{
	const struct res xs[] = {
		/* An error has no AH: the DGID learnt by the other set of
		 * the same text puts it in the same column. */
		{ "a", "mlx5_0", A4, "b:18516", NULL, "error", 0, 0, -1, -1, 0, -1 },
		OK("a", A4, "b:18516", B4, 10, 0),
		/* One guest, four devices: the device tells them apart. */
		OKD("guest", "rxe_a", "::ffff:10.9.0.1", "b:18516", B4, 10, 0),
		OKD("guest", "rxe_b", "::ffff:10.9.0.2", "b:18516", B4, 10, 0),
		/* One port, IPv4 and IPv6 GIDs: the address as well. */
		OKD("h", "mlx5_0", "::ffff:10.8.0.1", "b:18516", B4, 10, 0),
		OKD("h", "mlx5_0", "2001:db8::1", "b:18516", B4, 10, 0),
		/* No source GID: host and device are the key. */
		OKD("nogid", "mlx4_0", NULL, "b:18516", B4, 10, 0),
		/* The same text for two addresses, from two hosts. */
		OK("a", A4, "srv", "::ffff:10.0.0.7", 10, 1),
		OKD("nogid", "mlx4_0", NULL, "srv", "::ffff:10.0.0.8", 10, 1),
		/* No DGID anywhere, but the text is an address. */
		{ "a", "mlx5_0", A4, "gid:fe80::0:0:0:0:0:0:0:0:0:2", NULL, "error",
		  0, 0, -1, -1, 0, -1 },
		{ "a", "mlx5_0", A4, "10.0.0.9", NULL, "error", 0, 0, -1, -1, 0, -1 },
	};
	struct report r;
	const char *names[16];
	char err[512] = "";

	is_int(load(&r, xs, sizeof(xs) / sizeof(xs[0]), err, sizeof(err)), 0,
	       "identity cases merge (%s)", err);
	for (size_t i = 0; i < r.row_count && i < 16; i++)
		names[i] = r.rows[i]->source_name;
	is_int(r.row_count, 6, "six sources");
	is_str(names[0], "a", "a alone on its host: the host name");
	is_str(names[1], "guest/rxe_a", "shared host: host/device");
	is_str(names[2], "guest/rxe_b", "and the other device");
	is_str(names[3], "h/mlx5_0 (10.8.0.1)", "same device: the address too");
	is_str(names[4], "h/mlx5_0 (2001:db8::1)", "IPv6 GID in canonical form");
	is_str(names[5], "nogid", "no source GID: still one source");
	is_int(r.col_count, 5, "five destinations (%zu)", r.col_count);
	is_str(r.cols[0]->dest_name, "10.0.0.9", "a bare address keys itself");
	is_str(r.cols[1]->dest_name, "b:18516", "error and result share a column");
	is_int(report_cell(&r, 0, 1)->sets, 2, "a -> b: both sets in one cell");
	is_int(report_cell(&r, 0, 1)->status, REPORT_PARTIAL,
	       "an error beside an answered set: partial");
	is_str(report_cell(&r, 0, 1)->errors.items[0], "set 1: no route to "
	       "b:18516", "the error text is kept, with its set");
	is_str(r.cols[2]->dest_name, "gid:fe80::0:0:0:0:0:0:0:0:0:2",
	       "a gid: text that does not parse keeps its text");
	is_str(r.cols[3]->dest_name, "srv (10.0.0.7)", "same text, other "
	       "address: the address tells them apart");
	is_str(r.cols[4]->dest_name, "srv (10.0.0.8)", "and the other one");
	report_free(&r);
}

static void test_host_fallback(void)
{
	const struct res xs[] = {
		/* z's responder answered nobody: the only address known for
		 * it is the source GID z probed from. */
		{ "a", "mlx5_0", A4, "z:18600", NULL, "error", 0, 0, -1, -1, 0, -1 },
		OK("z", "::ffff:10.0.0.26", "a", A4, 10, 1),
		/* y probed from two GIDs: its name alone is ambiguous. */
		{ "a", "mlx5_0", A4, "y", NULL, "error", 0, 0, -1, -1, 0, -1 },
		OK("y", "::ffff:10.0.0.25", "a", A4, 10, 1),
		OK("y", "2001:db8::25", "a", A4, 10, 1),
		/* z failed before it had an AH: probe names the port's
		 * first GID then, not the one z probes from. */
		{ "z", "mlx5_0", "fe80::26", "q", NULL, "error", 0, 0, -1, -1, 0, -1 },
	};
	struct report r;
	char err[512] = "";

	is_int(load(&r, xs, 6, err, sizeof(err)), 0, "fallback cases merge");
	is_int(r.row_count, 4, "a, z and y twice: z's error joins z's row");
	ok(r.col_count == 4 && strcmp(r.cols[2]->dest_name, "q") == 0 &&
	   report_cell(&r, 1, 2)->status == REPORT_ERROR,
	   "z -> q is in z's row");
	ok(strcmp(r.cols[1]->dest_name, "z:18600") == 0 &&
	   r.cols[1] == r.rows[1] &&
	   strcmp(r.cols[1]->addr, "10.0.0.26") == 0,
	   "a destination named by a source's host name is that source");
	ok(strcmp(r.cols[3]->dest_name, "y") == 0 && r.cols[3]->addr == NULL,
	   "not when the host probed from several GIDs");
	report_free(&r);
}

static void test_order(void)
{
	const struct res xs[] = {
		OK("node10", "::ffff:10.0.0.10", "node2", "::ffff:10.0.0.2", 1, 0),
		OK("node2", "::ffff:10.0.0.2", "node10", "::ffff:10.0.0.10", 1, 0),
		OK("node2", "::ffff:10.0.0.2", "node9", "::ffff:10.0.0.9", 1, 0),
		OK("node1", "::ffff:10.0.0.1", "node9", "::ffff:10.0.0.9", 1, 0),
	};
	struct report r;
	char err[512] = "";

	is_int(load(&r, xs, 4, err, sizeof(err)), 0, "order cases merge");
	ok(r.row_count == 3 && strcmp(r.rows[0]->source_name, "node2") == 0 &&
	   strcmp(r.rows[1]->source_name, "node10") == 0 &&
	   strcmp(r.rows[2]->source_name, "node1") == 0,
	   "rows: both-axis nodes in natural order (node2 before node10), "
	   "then source-only");
	ok(r.col_count == 3 && strcmp(r.cols[0]->dest_name, "node2") == 0 &&
	   strcmp(r.cols[1]->dest_name, "node10") == 0 &&
	   strcmp(r.cols[2]->dest_name, "node9") == 0,
	   "columns: the same nodes first, then destination-only");
	report_free(&r);
}

/* Reads text as one input; returns the error message ("" if none). */
static const char *read_error(const char *text)
{
	static char err[512];
	struct report r;

	report_init(&r);
	err[0] = '\0';
	if (report_read_buffer(&r, "f.jsonl", text, strlen(text), NULL,
			       err, sizeof(err)) == 0 &&
	    report_build(&r, err, sizeof(err)) == 0)
		err[0] = '\0';
	report_free(&r);
	return err;
}

/* The error of head followed by tail_len bytes of tail, which may hold
 * NUL bytes, as one input. */
static const char *read_bytes(const char *head, const char *tail,
			      size_t tail_len)
{
	static char err[512];
	size_t len = strlen(head);
	char *text = malloc(len + tail_len);
	struct report r;

	memcpy(text, head, len);
	memcpy(text + len, tail, tail_len);
	report_init(&r);
	err[0] = '\0';
	if (report_read_buffer(&r, "f", text, len + tail_len, NULL, err,
			       sizeof(err)) == 0)
		err[0] = '\0';
	report_free(&r);
	free(text);
	return err;
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void test_input(void)
{
	const struct res good = OK("a", A4, "b", B4, 10, 0);
	char *l = line_of(&good), *text, *tail;
	struct report r;
	char err[512] = "";
	int rc;

	l[strlen(l) - 1] = '\0';	/* lines are joined below */
	/* JSON Lines, then an array over several lines, in one input. */
	rc = asprintf(&text, "%s\n  [\n%s,\n%s]\n%s", l, l, l, l);
	report_init(&r);
	ok(rc > 0 && report_read_buffer(&r, "mix", text, strlen(text), NULL,
					err, sizeof(err)) == 0,
	   "JSON Lines and an array mix in one input");
	is_int(r.record_count, 4, "four results read");
	ok(report_build(&r, err, sizeof(err)) == 0 &&
	   report_cell(&r, 0, 0)->sets == 4, "all in one cell");
	report_free(&r);
	free(text);

	rc = asprintf(&text, "%s\nthis is not json\n", l);
	ok(rc > 0 && strcmp(read_error(text), "f.jsonl:2: not JSON (boolean "
			    "expected): 'this is not json'") == 0,
	   "a line that is not JSON: FILE:LINE and the line (%s)",
	   read_error(text));
	free(text);
	rc = asprintf(&text, "%s\nnode01: %s\n", l, l);
	ok(rc > 0 && starts(read_error(text), "f.jsonl:2: not JSON (null "
			    "expected): 'node01: {\"dest\":\"b\",\"source\""),
	   "a pdsh prefix: quoted, cut short (%s)", read_error(text));
	ok(rc > 0 && strlen(read_error(text)) < 120, "the quote is cut short");
	free(text);
	rc = asprintf(&text, "[\n%s,\n\n%s, 42]", l, l);
	ok(rc > 0 && starts(read_error(text),
			    "f.jsonl:4: int is not a probe result"),
	   "a bad element of an array: its own line (%s)", read_error(text));
	free(text);
	rc = asprintf(&text, "%s\n%.*s", l, (int)(strlen(l) / 2), l);
	ok(rc > 0 && starts(read_error(text), "f.jsonl:2: not JSON (unexpected "
			    "end of data): '{\"dest\":\"b\",\"source\":"),
	   "a value cut short (%s)", read_error(text));
	free(text);

	tail = strstr(l, "\"received\":5,");
	rc = asprintf(&text, "%s\n%s\n%.*s%s", l, l, (int)(tail - l), l,
		      tail + strlen("\"received\":5,"));
	ok(rc > 0 && strcmp(read_error(text), "f.jsonl:3: result lacks "
			    "\"received\" (int); is this the output of "
			    "'ibahprobe probe --jsonl'?") == 0,
	   "a missing key, named (%s)", read_error(text));
	free(text);
	rc = asprintf(&text, "%.*s\"received\":6,%s", (int)(tail - l), l,
		      tail + strlen("\"received\":5,"));
	ok(rc > 0 && strcmp(read_error(text), "f.jsonl:1: \"received\" is 6, "
			    "expected 0-5") == 0,
	   "received more than sent (%s)", read_error(text));
	free(text);
	tail = strstr(l, "\"host\":\"a\"");
	rc = asprintf(&text, "%.*s\"host\":7%s", (int)(tail - l), l,
		      tail + strlen("\"host\":\"a\""));
	ok(rc > 0 && strcmp(read_error(text), "f.jsonl:1: \"source.host\" is "
			    "int, expected string") == 0,
	   "a key of the wrong type, with its path (%s)", read_error(text));
	free(text);
	tail = strstr(l, "\"status\":\"reachable\"");
	rc = asprintf(&text, "%.*s\"status\":\"fine\"%s", (int)(tail - l), l,
		      tail + strlen("\"status\":\"reachable\""));
	ok(rc > 0 && starts(read_error(text), "f.jsonl:1: \"status\" is "
			    "\"fine\", expected"),
	   "an unknown status (%s)", read_error(text));
	free(text);

	ok(strcmp(read_error(""), "f.jsonl:1: no probe results (empty input)") == 0,
	   "empty input (%s)", read_error(""));
	ok(starts(read_error(" \n\n"), "f.jsonl:1: no probe results"),
	   "white space only");
	ok(starts(read_error("[]"), "f.jsonl:1: no probe results"),
	   "an empty array");
	ok(starts(read_error("{\"x\":1}\n{\"y\":\xff}"), "f.jsonl:1: result "
		  "lacks \"dest\""), "an object that is no result (%s)",
	   read_error("{\"x\":1}"));
	is_str(read_error("{\"dest\":\"\xff\"}"),
	       "f.jsonl:1:10: not UTF-8 (byte 0xff starts no character)",
	       "invalid UTF-8 is refused where it is");
	is_str(strstr(read_error("{\"h\xc3\xa9\":\x01 \xc0\xaf x"), "'{"),
	       "'{\"h\xc3\xa9\":\\x01 \\xc0\\xaf x'",
	       "a quoted line: well-formed UTF-8 stays, the rest escaped");
	is_str(strstr(read_error("n\x1b]0;x\x07 \xe2\x80\xae\\"), "'"),
	       "'n\\x1b]0;x\\x07 \\u{202e}\\\\'",
	       "controls and bidi overrides in a quoted line are escaped");
	ok(starts(read_error("{\"error\":\"no responder reachable\","
			     "\"exit_status\":3}"),
		  "no probe results in the input, only 1 failed run "
		  "(f.jsonl:1: no responder reachable)"),
	   "only a failed run: no results (%s)",
	   read_error("{\"error\":\"x\",\"exit_status\":3}"));

	/* A failed run among results: kept apart, and not fine. */
	rc = asprintf(&text, "%s\n{\"error\":\"no device\",\"exit_status\":3}\n",
		      l);
	report_init(&r);
	ok(rc > 0 && report_read_buffer(&r, "f", text, strlen(text), NULL,
					err, sizeof(err)) == 0 &&
	   report_build(&r, err, sizeof(err)) == 0, "a failed run is no error");
	ok(r.failed_count == 1 && strcmp(r.failed[0].where, "f:2") == 0 &&
	   r.failed[0].exit_status == 3, "it is kept with its place and status");
	ok(!report_all_fine(&r), "and makes the report not fine");
	report_free(&r);
	free(text);

	/* A NUL byte is never JSON: named where it is, between values or in
	 * one. */
	ok(strcmp(read_bytes(l, "\n\0{}", 4), "f:2:1: not JSON: a NUL byte") ==
		   0, "NUL byte (%s)", read_bytes(l, "\n\0{}", 4));
	ok(strcmp(read_bytes(l, "\n  {\"dest\":\"a\0\"}", 17),
		  "f:2:13: not JSON: a NUL byte") == 0,
	   "NUL byte in a string (%s)",
	   read_bytes(l, "\n  {\"dest\":\"a\0\"}", 17));
	free(l);

	report_init(&r);
	ok(report_build(&r, err, sizeof(err)) == -1 &&
	   starts(err, "no probe results in the input"), "no input at all");
	report_free(&r);
}

/* The strings of a result: what json-c would cut or let through. */
static void test_input_strings(void)
{
	const struct res good = OK("a", A4, "b", B4, 10, 0);
	char *l = line_of(&good), *text;
	size_t at;
	int rc;

	l[strlen(l) - 1] = '\0';
	rc = asprintf(&text, "%s\n{\"dest\":\"b\\u0000x%s", l,
		      strchr(l, ',') - 1);
	ok(rc > 0 && strcmp(read_error(text), "f.jsonl:2:11: a NUL character "
			    "(\\u0000) in a JSON string: no name or text of a "
			    "probe result holds one") == 0,
	   "\\u0000 in a value: refused at its backslash (%s)",
	   read_error(text));
	free(text);
	rc = asprintf(&text, "{\"d\\u0000\":1,%s", l + 1);
	ok(rc > 0 && starts(read_error(text), "f.jsonl:1:4: a NUL character"),
	   "\\u0000 in a key, which json-c would cut to \"d\" (%s)",
	   read_error(text));
	free(text);
	rc = asprintf(&text, "{\"dest\":\"b\\\\u0000\\u0001\\u0100%s",
		      strchr(l, ',') - 1);
	ok(rc > 0 && strcmp(read_error(text), "") == 0,
	   "an escaped backslash, then u0000, is text; \\u0001 is no NUL (%s)",
	   read_error(text));
	free(text);
	rc = asprintf(&text, "{\"dest\":\"b\x1b[2J%s", strchr(l, ',') - 1);
	ok(rc > 0 && strcmp(read_error(text), "f.jsonl:1:11: not JSON: control "
			    "character 0x1b in a string (JSON writes it "
			    "\\u001b)") == 0,
	   "a control character unescaped (%s)", read_error(text));
	free(text);

	static const struct {
		const char *bytes, *why;
	} bad[] = {
		{ "\xc0\x80", "an overlong form" },
		{ "\xc1\xbf", "an overlong form" },
		{ "\xe0\x9f\xbf", "an overlong form" },
		{ "\xf0\x8f\xbf\xbf", "an overlong form" },
		{ "\xed\xa0\x80", "a UTF-16 surrogate" },
		{ "\xed\xbf\xbf", "a UTF-16 surrogate" },
		{ "\xf4\x90\x80\x80", "past U+10FFFF" },
		{ "\xf7\xbf\xbf\xbf", "past U+10FFFF" },
		{ "\xe2\x82", "a character cut short" },
		{ "\xf0\x9f\x98", "a character cut short" },
		{ "\x80", "byte 0x80 starts no character" },
		{ "\xf8\x88\x80\x80\x80", "byte 0xf8 starts no character" },
		{ "\xff", "byte 0xff starts no character" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[128];

		rc = asprintf(&text, "{\"dest\":\"b\xc3\xa9%s%s", bad[i].bytes,
			      strchr(l, ',') - 1);
		snprintf(want, sizeof(want), "f.jsonl:1:13: not UTF-8 (%s)",
			 bad[i].why);
		ok(rc > 0 && strcmp(read_error(text), want) == 0,
		   "%s: at the first byte of the sequence (%s)", bad[i].why,
		   read_error(text));
		free(text);
	}
	rc = asprintf(&text, "{\"dest\":\"b\xef\xbf\xbe\xf4\x8f\xbf\xbf"
		      "\xed\x9f\xbf\xee\x80\x80%s", strchr(l, ',') - 1);
	ok(rc > 0 && strcmp(read_error(text), "") == 0,
	   "U+FFFE, U+10FFFF, U+D7FF, U+E000 are UTF-8 (%s)",
	   read_error(text));
	free(text);

	/* Chunks of 64 KiB: a character, an escape and a \u0000 split at
	 * every place by the edge of a chunk still read as a whole. */
	const char *host = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\\ud83d"
			   "\\ude00\\\\u0000";
	char *hosted, *pad;
	bool all = true;
	struct report r;
	char err[512];

	at = (size_t)(strstr(l, "\"host\":\"a\"") - l);
	rc = asprintf(&hosted, "%.*s\"host\":\"%s\"%s", (int)at, l, host,
		      l + at + strlen("\"host\":\"a\""));
	pad = malloc(65536 + strlen(hosted));
	for (size_t k = 0; rc > 0 && k <= strlen(hosted); k++) {
		memset(pad, ' ', 65536 - k);
		memcpy(pad + 65536 - k, hosted, strlen(hosted));
		report_init(&r);
		if (report_read_buffer(&r, "f", pad,
				       65536 - k + strlen(hosted), NULL, err,
				       sizeof(err)) ||
		    r.record_count != 1 ||
		    strcmp(r.records[0]->host,
			   "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"
			   "\xf0\x9f\x98\x80\\u0000") != 0) {
			all = false;
			printf("# split after byte %zu: %s\n", k, err);
		}
		report_free(&r);
	}
	ok(all, "a result split at any byte between chunks reads the same");
	/* A \u0000 split between chunks is found all the same. */
	at = (size_t)(strstr(hosted, "\\\\u0000") - hosted);
	hosted[at] = ' ';	/* "\ u0000" -> " \u0000" */
	all = true;
	for (size_t k = at - 2; k <= at + 8; k++) {
		memset(pad, ' ', 65536 - k);
		memcpy(pad + 65536 - k, hosted, strlen(hosted));
		report_init(&r);
		if (report_read_buffer(&r, "f", pad,
				       65536 - k + strlen(hosted), NULL, err,
				       sizeof(err)) != -1 ||
		    !strstr(err, ": a NUL character (\\u0000)")) {
			all = false;
			printf("# split after byte %zu: %s\n", k, err);
		}
		report_free(&r);
	}
	ok(all, "a \\u0000 split between chunks is refused");
	free(pad);
	free(hosted);
	free(l);
}

/* Reads text (len bytes) with the given limits into r (initialised
 * here); returns what report_read_buffer returns. */
static int read_limited(struct report *r, const char *text, size_t len,
			const struct report_limits *limits, char *err,
			size_t errlen)
{
	report_init(r);
	err[0] = '\0';
	return report_read_buffer(r, "f", text, len, limits, err, errlen);
}

static void test_input_bounds(void)
{
	const struct report_limits small = { .value_bytes = 64, .results = 3,
					     .failed_runs = 3 };
	const struct report_limits few_failed = { .value_bytes = 1024,
						  .results = 10,
						  .failed_runs = 2 };
	/* A failed run of exactly 64 bytes. */
	const char *run64 = "{\"error\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			    "x\",\"exit_status\":3}";
	char text[1024], err[256];
	struct report r;

	is_int(strlen(run64), 64, "the test value is 64 bytes");
	snprintf(text, sizeof(text), "\n%s\n", run64);
	ok(read_limited(&r, text, strlen(text), &small, err,
			sizeof(err)) == 0 && r.failed_count == 1,
	   "a value as long as the limit is read (%s)", err);
	report_free(&r);
	snprintf(text, sizeof(text), "\n\n  {\"error\":\"x%s", run64 + 10);
	ok(read_limited(&r, text, strlen(text), &small, err,
			sizeof(err)) == -1 &&
	   strcmp(err, "f:3: a JSON value longer than 64 bytes starts here: "
		  "no probe result is that long") == 0,
	   "one byte longer: its first line named (%s)", err);
	report_free(&r);
	snprintf(text, sizeof(text), "[%s,\n{\"error\":\"", run64);
	memset(text + strlen(text), 'x', 200);
	text[66 + 10 + 200] = '\0';
	ok(read_limited(&r, text, strlen(text), &small, err,
			sizeof(err)) == -1 &&
	   starts(err, "f:2: a JSON value longer than 64 bytes"),
	   "a value that never ends, in an array (%s)", err);
	report_free(&r);

	memset(text, ' ', 64);
	snprintf(text + 64, sizeof(text) - 64, "\n%s\n", run64);
	ok(read_limited(&r, text, strlen(text), &small, err,
			sizeof(err)) == 0, "64 blanks on a line: fine (%s)",
	   err);
	report_free(&r);
	memset(text, ' ', 65);
	snprintf(text + 65, sizeof(text) - 65, "%s\n", run64);
	ok(read_limited(&r, text, strlen(text), &small, err,
			sizeof(err)) == -1 &&
	   strcmp(err, "f:1: a line longer than 64 bytes holds no result") ==
		   0, "65 blanks on a line before a value (%s)", err);
	report_free(&r);
	snprintf(text, sizeof(text), "%s", "");
	for (int i = 0; i < 33; i++)
		strcat(text, "[]");
	ok(read_limited(&r, text, strlen(text), &small, err,
			sizeof(err)) == -1 &&
	   strcmp(err, "f:1: a line longer than 64 bytes holds no result") ==
		   0, "66 bytes of empty arrays on a line (%s)", err);
	report_free(&r);

	snprintf(text, sizeof(text), "%s\n%s\n[%s]\n", run64, run64, run64);
	ok(read_limited(&r, text, strlen(text), &small, err,
			sizeof(err)) == 0 && r.failed_count == 3,
	   "as many results as the limit (%s)", err);
	ok(report_read_buffer(&r, "g", run64, 64, &small, err,
			      sizeof(err)) == -1 &&
	   strcmp(err, "g:1: more than 3 results in the input: report merges "
		  "at most that many") == 0,
	   "one more, in the next input (%s)", err);
	report_free(&r);
	/* Failed runs have a limit of their own, below that of results. */
	snprintf(text, sizeof(text), "%s\n%s\n%s\n", run64, run64, run64);
	ok(read_limited(&r, text, strlen(text), &few_failed, err,
			sizeof(err)) == -1 &&
	   strcmp(err, "f:3: more than 2 failed runs in the input: report "
		  "keeps at most that many") == 0,
	   "a third failed run past a limit of 2 (%s)", err);
	report_free(&r);
}

/* The verdict on text read in chunks of chunk bytes (0: the default):
 * "" or the error. */
static const char *chunked_verdict(const char *text, size_t chunk,
				   char *err, size_t errlen)
{
	const struct report_limits limits = {
		.value_bytes = REPORT_VALUE_BYTES_MAX,
		.results = REPORT_RESULTS_MAX,
		.failed_runs = REPORT_FAILED_RUNS_MAX,
		.chunk_bytes = chunk,
	};
	struct report r;

	report_init(&r);
	err[0] = '\0';
	if (report_read_buffer(&r, "f", text, strlen(text), &limits, err,
			       errlen) == 0 &&
	    report_build(&r, err, errlen) == 0)
		snprintf(err, errlen, "read %zu", r.record_count);
	report_free(&r);
	return err;
}

/* The same bytes give the same verdict wherever a chunk ends: each line
 * below, after 0..chunk-1 blanks, puts a chunk's end before each of its
 * bytes in turn (json-c, which reads what the chunk cuts, takes a '-'
 * that starts the next chunk into the number before it). */
static void test_input_chunk_boundaries(void)
{
	static const size_t chunks[] = { 7, 64 };
	const struct res good = OK("a", A4, "b", B4, 10, 0);
	char *l = line_of(&good), *text;
	const char *edits[][2] = {
		{ "\"sent\":5,", "\"sent\":5," },
		{ "\"sent\":5,", "\"sent\":10-5," },
		{ "\"sent\":5,", "\"sent\":5-," },
		{ "\"sent\":5,", "\"sent\":5+1," },
		{ "\"sent\":5,", "\"sent\":5e," },
		{ "\"sent\":5,", "\"sent\":5.," },
		{ "\"sent\":5,", "\"sent\":-5," },
		{ "\"sent\":5,", "\"sent\":5e0," },
		{ "\"sent\":5,", "\"sent\":05," },
		{ "\"median\":10,", "\"median\":1.5e1-1," },
		{ "\"median\":10,", "\"median\":1.0e+1," },
		{ "\"median\":10,", "\"median\":10e--1," },
		{ "\"median\":10,", "\"median\":-10.5," },
	};

	l[strlen(l) - 1] = '\0';
	for (size_t e = 0; e < sizeof(edits) / sizeof(edits[0]); e++) {
		const char *at = strstr(l, edits[e][0]);
		char want[512], got[512];
		bool same = true;

		if (!at)
			abort();
		for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]);
		     c++)
			for (size_t k = 0; k < chunks[c] && same; k++) {
				if (asprintf(&text, "%*s%.*s%s%s\n", (int)k, "",
					     (int)(at - l), l, edits[e][1],
					     at + strlen(edits[e][0])) < 0)
					abort();
				chunked_verdict(text, 0, want, sizeof(want));
				chunked_verdict(text, chunks[c], got,
						sizeof(got));
				if (strcmp(want, got) != 0) {
					same = false;
					printf("# %zu blanks, chunks of %zu: "
					       "'%s', not '%s'\n", k, chunks[c],
					       got, want);
				}
				free(text);
			}
		ok(same, "%s: one verdict wherever a chunk ends",
		   edits[e][1]);
	}
	free(l);
}

static void test_names(void)
{
	enum report_status s;
	char addr[64];

	ok(report_status_parse("partial loss", &s) == 0 && s == REPORT_PARTIAL,
	   "status names parse: before schema v1");
	ok(report_status_parse("partial_loss", &s) == 0 && s == REPORT_PARTIAL,
	   "and since");
	ok(report_status_parse("partial", &s) == -1, "not a third spelling");
	is_str(report_status_name(REPORT_PARTIAL), "partial_loss",
	       "the token for JSON");
	is_str(report_status_word(REPORT_PARTIAL), "partial loss",
	       "the words for people");
	ok(report_status_parse("Reachable", &s) == -1, "exactly");
	is_str(report_status_name(REPORT_ERROR), "error", "and print");
	ok(report_addr_normalize("::FFFF:0a00:0001", addr, sizeof(addr)) == 0 &&
	   strcmp(addr, "10.0.0.1") == 0, "mapped hex form to IPv4 (%s)", addr);
	ok(report_addr_normalize("2001:0db8:0:0::1", addr, sizeof(addr)) == 0 &&
	   strcmp(addr, "2001:db8::1") == 0, "IPv6 canonical (%s)", addr);
	ok(report_addr_normalize("node1", addr, sizeof(addr)) == -1,
	   "a name is no address");
}

int main(void)
{
	test_axes();
	test_aggregate();
	test_identity();
	test_host_fallback();
	test_order();
	test_input();
	test_input_strings();
	test_input_bounds();
	test_input_chunk_boundaries();
	test_names();
	return tap_done();
}
