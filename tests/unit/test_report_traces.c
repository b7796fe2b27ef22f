/* Unit tests of report --traces on made-up documents: trace -j flows read
 * into routers and links (a silent hop breaking the chain, the responder
 * no router), InfiniBand rows into switches and port-to-port links, the
 * join with probe results by flow label where the provider sends its UDP
 * source port (mlx5) and by the one path of a destination where it does
 * not (rxe), failing results without a trace counted, segment names by
 * their ends, the one join all of report's readers share, hop addresses
 * keyed as inet_ntop writes them, bad trace input refused with the input
 * and trace named, and
 * the scanner's reading of a trace the same as json-c's in every field. */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_input.h"
#include "report/report_matrix.h"
#include "report/report_traces.h"
#include "report/result_scan.h"
#include "tap.h"

/* Results and traces by the UDP source port on the wire (probe's
 * wire_udp_sport, trace --udp-sport: 50000 + the label's number) rather
 * than by flow label. */
static bool by_wire_port;

/* One probe result of host a to d-ecmp (198.18.10.4) with flow label fl. */
static void result(FILE *f, const char *provider, int fl, bool failing)
{
	fprintf(f, "{\"dest\":\"d-ecmp\",\"source\":{\"host\":\"a\","
		"\"device\":\"rxe0\",\"port_num\":1,\"provider\":\"%s\","
		"\"lid\":0,\"sgid\":\"::ffff:198.18.1.2\"},\"params\":"
		"{\"hop_limit\":64,\"traffic_class\":0,\"flow_label\":%d,",
		provider, fl);
	if (by_wire_port)
		fprintf(f, "\"wire_udp_sport\":%d,", 50000 + fl);
	fprintf(f, "\"sl\":null},\"status\":\"%s\",\"sent\":10,\"received\":%d,"
		"\"hops\":3,\"verdicts\":[],\"findings\":[],\"rtt_us\":"
		"{\"median\":40.0,\"max\":50.0},\"ah_attr\":{\"is_global\":1,"
		"\"grh\":{\"dgid\":\"::ffff:198.18.10.4\"}}}\n",
		failing ? "partial_loss" : "reachable", failing ? 5 : 10);
}

/* Its trace: R1, then R3 (odd labels) or R4, then R2 answering from the
 * link it came in on, then the responder; silent: hop 2 unanswered. */
static void trace(FILE *f, int fl, bool silent)
{
	const char *mid[2][2] = { { "198.18.14.4", "198.18.24.2" },
				  { "198.18.13.3", "198.18.23.2" } };
	const char *hops[4] = { "198.18.1.1", mid[fl % 2][0], mid[fl % 2][1],
				"198.18.10.4" };

	fprintf(f, "{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\","
		"\"device\":\"rxe0\",\"sgid\":\"::ffff:198.18.1.2\","
		"\"source_address\":\"198.18.1.2\",\"dest\":\"d-ecmp\","
		"\"dest_address\":\"198.18.10.4\",\"qpn\":17,");
	if (by_wire_port)
		fprintf(f, "\"flow_label\":null,\"udp_sport\":%d,",
			50000 + fl);
	else
		fprintf(f, "\"flow_label\":%d,\"udp_sport\":1,", fl);
	fprintf(f, "\"traffic_class\":0,"
		"\"status\":\"reached\",\"error\":null,\"hops\":[");
	for (int h = 0; h < 4; h++) {
		fprintf(f, "%s{\"hop_limit\":%d,\"answers\":[", h ? "," : "",
			h + 1);
		if (silent && h == 1)
			fprintf(f, "{\"kind\":\"silent\",\"from\":null,"
				"\"rtt_us\":null}");
		else
			fprintf(f, "{\"from\":\"%s\",\"kind\":\"%s\","
				"\"rtt_us\":100.0}", hops[h],
				h == 3 ? "responder" : "time_exceeded");
		fprintf(f, "]}");
	}
	fprintf(f, "]}");
}

struct fixture {
	struct report r;
	struct report_traces t;
	struct report_path_suspects ps;
	char err[512];
};

/* Results of labels 1..n (odd ones failing) from provider; traces of
 * labels 1..traced. */
static int build(struct fixture *x, const char *provider, int n, int traced,
		 bool silent)
{
	char *buf = NULL, *tbuf = NULL;
	size_t len = 0, tlen = 0;
	FILE *f = open_memstream(&buf, &len), *tf = open_memstream(&tbuf, &tlen);
	int rc;

	for (int fl = 1; fl <= n; fl++)
		result(f, provider, fl, fl % 2);
	fputc('[', tf);
	for (int fl = 1; fl <= traced; fl++) {
		if (fl > 1)
			fputc(',', tf);
		trace(tf, fl, silent);
	}
	fputc(']', tf);
	fclose(f);
	fclose(tf);
	report_init(&x->r);
	memset(&x->t, 0, sizeof(x->t));
	rc = report_read_buffer(&x->r, "probe", buf, len, NULL, x->err,
				sizeof(x->err)) ||
	     report_build(&x->r, x->err, sizeof(x->err)) ||
	     report_traces_read_buffer(&x->t, "traces", tbuf, tlen, x->err,
				       sizeof(x->err)) ||
	     report_path_suspects_find(&x->ps, &x->r, &x->t);
	if (rc)
		printf("# %s\n", x->err);
	free(buf);
	free(tbuf);
	return rc ? -1 : 0;
}

static void fixture_free(struct fixture *x)
{
	report_path_suspects_free(&x->ps);
	report_traces_free(&x->t);
	report_free(&x->r);
}

static void test_mlx5_by_label(void)
{
	struct fixture x;
	char *via = NULL, *name;

	is_int(build(&x, "mlx5", 8, 8, false), 0, "mlx5: builds");
	is_int(x.t.count, 8, "mlx5: 8 traced flows");
	is_int(x.ps.flows, 8, "mlx5: 8 results");
	is_int(x.ps.tomo.failing, 4, "mlx5: 4 failing");
	is_int(x.ps.tomo.count, 1, "mlx5: one suspect");
	if (x.ps.tomo.count == 1) {
		const struct tomo_suspect *s = &x.ps.tomo.items[0];

		is_str(report_path_suspect_kind(&x.ps, s), "segment",
		       "mlx5: a segment");
		name = report_path_suspect_name(&x.ps, s, &via);
		is_str(name, "198.18.1.1 -> 198.18.10.4",
		       "mlx5: named by its ends");
		is_str(via, "198.18.13.3, 198.18.23.2", "mlx5: via R3 and R2");
		is_int(s->explained, 4, "mlx5: explains 4");
		is_int(s->passing, 0, "mlx5: no passing result through it");
		free(name);
		free(via);
	}
	is_int(x.ps.failing_no_trace + x.ps.failing_ecmp_unknown, 0,
	       "mlx5: every failing result placed");
	fixture_free(&x);
}

static void test_rxe(void)
{
	struct fixture x;

	is_int(build(&x, "rxe", 8, 8, false), 0, "rxe: builds");
	is_int(x.ps.tomo.count, 0, "rxe: no suspect: the probes' path unknown");
	is_int(x.ps.failing_ecmp_unknown, 4, "rxe: 4 failing on unknown ECMP paths");
	fixture_free(&x);
	/* Traced with one label only: one path, so the results are placed
	 * on it (the passing ones too: no suspect then). */
	is_int(build(&x, "rxe", 4, 1, false), 0, "rxe one path: builds");
	is_int(x.ps.failing_ecmp_unknown, 0, "rxe one path: placed");
	is_int(x.ps.tomo.failing_untraced, 0, "rxe one path: all traced");
	is_int(x.ps.tomo.count, 0,
	       "rxe one path: failing and passing alike: no suspect");
	fixture_free(&x);
}

/* rxe with the port on the wire known (each run its QP's): every result
 * joins the trace of its own port, whatever its flow label says. */
static void test_rxe_by_wire_port(void)
{
	struct fixture x;
	char *via = NULL, *name;

	by_wire_port = true;
	is_int(build(&x, "rxe", 8, 8, false), 0, "rxe by port: builds");
	is_int(x.ps.failing_ecmp_unknown + x.ps.failing_no_trace, 0,
	       "rxe by port: every failing result placed");
	is_int(x.ps.tomo.count, 1, "rxe by port: one suspect");
	if (x.ps.tomo.count == 1) {
		name = report_path_suspect_name(&x.ps, &x.ps.tomo.items[0],
						&via);
		is_str(via, "198.18.13.3, 198.18.23.2",
		       "rxe by port: the R3 branch");
		is_int(x.ps.tomo.items[0].explained, 4,
		       "rxe by port: explains the 4 failing");
		free(name);
		free(via);
	}
	fixture_free(&x);
	/* Traces of flow labels, results by port: the traces' ports are
	 * not the probes', and the traces take two paths: not placed. */
	by_wire_port = false;
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		by_wire_port = true;
		for (int fl = 1; fl <= 8; fl++)
			result(f, "rxe", fl, fl % 2);
		fclose(f);
		by_wire_port = false;
		report_init(&x.r);
		memset(&x.t, 0, sizeof(x.t));
		ok(report_read_buffer(&x.r, "probe", buf, len, NULL, x.err,
				      sizeof(x.err)) == 0 &&
			   report_build(&x.r, x.err, sizeof(x.err)) == 0,
		   "rxe by port, traces by label: results read");
		free(buf);
		buf = NULL;
		len = 0;
		f = open_memstream(&buf, &len);
		fputc('[', f);
		for (int fl = 1; fl <= 8; fl++) {
			if (fl > 1)
				fputc(',', f);
			trace(f, fl, false);
		}
		fputc(']', f);
		fclose(f);
		ok(report_traces_read_buffer(&x.t, "traces", buf, len, x.err,
					     sizeof(x.err)) == 0 &&
			   report_path_suspects_find(&x.ps, &x.r, &x.t) == 0,
		   "rxe by port, traces by label: traces joined");
		free(buf);
		is_int(x.ps.failing_ecmp_unknown, 4,
		       "rxe by port, no trace of its ports: 4 on unknown paths");
		is_int(x.ps.tomo.count, 0, "no suspect from them");
		fixture_free(&x);
	}
}

static void test_untraced_and_silent(void)
{
	struct fixture x;

	/* Labels 1..8 probed, 1..4 traced: failing 5 and 7 have none. */
	is_int(build(&x, "mlx5", 8, 4, true), 0, "silent: builds");
	is_int(x.ps.failing_no_trace, 2, "silent: 2 failing without a trace");
	/* R3 silent: S -> R1 and R1 stand, R1 -> ? does not; R2 -> D does. */
	ok(report_traces_element_find(&x.t, REPORT_PATH_LINK,
					"198.18.1.2 -> 198.18.1.1") != SIZE_MAX,
	   "silent: the link from the source");
	ok(report_traces_element_find(&x.t, REPORT_PATH_ROUTER,
					"198.18.1.1") != SIZE_MAX,
	   "silent: R1 a router");
	ok(report_traces_element_find(&x.t, REPORT_PATH_LINK,
					"198.18.23.2 -> 198.18.10.4") != SIZE_MAX,
	   "silent: the link into the destination");
	ok(report_traces_element_find(&x.t, REPORT_PATH_ROUTER,
					"198.18.10.4") == SIZE_MAX,
	   "silent: the responder is no router");
	/* S -> R1, R1, and per branch R2 and R2 -> D: nothing across. */
	is_int(x.t.element_count, 6, "silent: no link across the silent hop");
	is_int(x.ps.tomo.count, 1, "silent: R2's side of the R3 branch named");
	if (x.ps.tomo.count == 1)
		is_int(x.ps.tomo.items[0].explained, 2, "silent: explains 2");
	fixture_free(&x);
}

static void test_infiniband(void)
{
	struct report_traces t = { 0 };
	char err[256];
	const char *doc =
		"{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\","
		"\"sgid\":\"fe80::1\",\"dest\":\"lid:7\",\"status\":\"complete\","
		"\"slid\":1,\"dlid\":7,\"hops\":["
		"{\"hop\":0,\"node_guid\":\"0x01\",\"node_type\":\"ca\","
		"\"in_port\":null,\"out_port\":1},"
		"{\"hop\":1,\"node_guid\":\"0x02\",\"node_type\":\"switch\","
		"\"in_port\":3,\"out_port\":5},"
		"{\"hop\":2,\"node_guid\":\"0x07\",\"node_type\":\"ca\","
		"\"in_port\":1,\"out_port\":null}]}";

	is_int(report_traces_read_buffer(&t, "ib", doc, strlen(doc), err,
					 sizeof(err)), 0, "ib: reads");
	is_int(t.count, 1, "ib: one row");
	if (t.count == 1) {
		is_int(t.flows[0].element_count, 3, "ib: link, switch, link");
		is_int(t.flows[0].flow_label, -1, "ib: no flow label");
	}
	ok(report_traces_element_find(&t, REPORT_PATH_LINK,
					"0x01:1 -> 0x02:3") != SIZE_MAX,
	   "ib: the link into the switch, port to port");
	ok(report_traces_element_find(&t, REPORT_PATH_SWITCH, "0x02") !=
		   SIZE_MAX, "ib: the switch");
	ok(report_traces_element_find(&t, REPORT_PATH_LINK,
					"0x02:5 -> 0x07:1") != SIZE_MAX,
	   "ib: the link out of it");
	report_traces_free(&t);
}

/* A hop that answered from the text "198.18.1.2 -> 198.18.1.1" (no
 * address: kept as it is) is a router of that name, not the link from
 * the source to R1 that has the same name. */
static void test_kinds_apart(void)
{
	struct report_traces t = { 0 };
	char err[256];
	const char *doc =
		"{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\","
		"\"source_address\":\"198.18.1.2\",\"dest\":\"d\","
		"\"flow_label\":1,\"status\":\"reached\",\"hops\":["
		"{\"answers\":[{\"from\":\"198.18.1.1\","
		"\"kind\":\"time_exceeded\"}]},"
		"{\"answers\":[{\"from\":\"198.18.1.2 -> 198.18.1.1\","
		"\"kind\":\"time_exceeded\"}]}]}";
	size_t link, router;

	is_int(report_traces_read_buffer(&t, "kinds", doc, strlen(doc), err,
					 sizeof(err)), 0, "kinds: reads");
	link = report_traces_element_find(&t, REPORT_PATH_LINK,
					  "198.18.1.2 -> 198.18.1.1");
	router = report_traces_element_find(&t, REPORT_PATH_ROUTER,
					    "198.18.1.2 -> 198.18.1.1");
	ok(link != SIZE_MAX && router != SIZE_MAX && link != router,
	   "kinds: the link and the router of one name are two elements");
	is_int(t.element_count, 4, "kinds: link, R1, link, router");
	if (t.count == 1 && t.flows[0].element_count == 4) {
		is_int(t.flows[0].elements[0], link, "kinds: the path starts "
		       "with the link");
		is_int(t.flows[0].elements[3], router, "kinds: and ends at "
		       "the router named like it");
	}
	if (router != SIZE_MAX && router < t.element_count)
		is_int(t.elements[router].kind, REPORT_PATH_ROUTER,
		       "kinds: the router's kind kept");
	report_traces_free(&t);
}

/* The one join every consumer reads: made by report_traces_join for
 * its report (report_traces_joined then hands out t->join), made anew
 * for another; each result on the trace of its label (mlx5), every trace
 * crossing R1, R3 or R4, and R2; none where the probes' path is unknown
 * (rxe, two paths) or nothing was traced. */
static void test_one_join(void)
{
	struct report_trace_join local;
	const struct report_trace_join *j;
	struct fixture x;
	size_t placed = 0, right_label = 0;

	is_int(build(&x, "mlx5", 10, 8, false), 0, "join: builds");
	is_int(report_traces_join(&x.t, &x.r), 0, "join: joins");
	j = report_traces_joined(&x.t, &x.r, &local);
	ok(j == &x.t.join, "join: the report's own join handed out");
	for (size_t k = 0; j && k < x.r.record_count; k++) {
		const struct report_record *rec = x.r.records[k];
		bool traced = rec->params.flow_label <= 8;

		placed += j->placement[k] == REPORT_TRACE_PLACED;
		right_label += traced && j->trace[k] &&
			       j->trace[k]->flow_label ==
				       rec->params.flow_label;
		right_label += !traced && !j->trace[k] &&
			       j->placement[k] == REPORT_TRACE_NONE;
	}
	is_int(placed, 8, "join: the 8 traced labels placed");
	is_int(right_label, 10, "join: each on its own label's trace, "
	       "labels 9 and 10 on none");
	ok(j && x.t.count == 8, "join: 8 traces");
	for (size_t k = 0; j && k < x.t.count; k++)
		is_int(j->trace_hops[k], 3, "join: trace %zu crosses 3 routers",
		       k + 1);
	report_trace_join_free(&local);
	fixture_free(&x);

	/* Not joined: one made for the caller, the same as the entry's. */
	is_int(build(&x, "rxe", 4, 4, false), 0, "join rxe: builds");
	j = report_traces_joined(&x.t, &x.r, &local);
	ok(j == &local, "join rxe: made for the caller");
	for (size_t k = 0; j && k < x.r.record_count; k++)
		is_int(j->placement[k], REPORT_TRACE_ECMP_UNKNOWN,
		       "join rxe: result %zu on an unknown ECMP path", k + 1);
	report_trace_join_free(&local);
	is_int(local.trace == NULL && local.placement == NULL, 1,
	       "join rxe: freed");
	fixture_free(&x);
}

/* A hop's address as report keys it: a dotted IPv4 address as inet_ntop
 * writes it, taken as it is; anything else through inet_pton and
 * inet_ntop (report_addr_normalize for IPv6), or kept when no address. */
static void test_hop_address_keys(void)
{
	static const char *const texts[] = {
		"10.0.0.1", "0.0.0.0", "255.255.255.255", "010.0.0.1",
		"1.2.3.04", "1.2.3.256", "1.2.3", "1.2.3.4.5", "1.2.3.4 ",
		"1..3.4", "::ffff:198.18.1.1", "fe80::1", "router-7",
		"1234.1.1.1",
	};

	for (size_t k = 0; k < sizeof(texts) / sizeof(*texts); k++) {
		struct report_traces t = { 0 };
		char doc[512], err[256], want[64], norm[64];
		struct in_addr a4;

		snprintf(doc, sizeof(doc),
			 "{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\","
			 "\"dest\":\"d\",\"flow_label\":1,\"status\":"
			 "\"reached\",\"hops\":[{\"answers\":[{\"from\":"
			 "\"%s\",\"kind\":\"time_exceeded\"}]}]}", texts[k]);
		if (report_addr_normalize(texts[k], norm, sizeof(norm)) == 0)
			snprintf(want, sizeof(want), "%s", norm);
		else if (inet_pton(AF_INET, texts[k], &a4) == 1)
			inet_ntop(AF_INET, &a4, want, sizeof(want));
		else
			snprintf(want, sizeof(want), "%s", texts[k]);
		is_int(report_traces_read_buffer(&t, "keys", doc, strlen(doc),
						 err, sizeof(err)), 0,
		       "address key %s: reads", texts[k]);
		ok(report_traces_element_find(&t, REPORT_PATH_ROUTER, want) !=
			   SIZE_MAX,
		   "address key \"%s\": the router \"%s\"", texts[k], want);
		report_traces_free(&t);
	}
}

/* Each hop's share of answered queries (answered << 4 | asked, at most
 * 15 each) from one walk of its answers: the first with an address is
 * the hop's, and only answers up to it must be objects. */
static void test_answered_share(void)
{
	struct report_traces t = { 0 };
	char doc[4096], err[256];
	size_t n;

	n = (size_t)snprintf(doc, sizeof(doc),
		"{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\","
		"\"source_address\":\"198.18.1.2\",\"dest\":\"d\","
		"\"flow_label\":1,\"status\":\"reached\",\"hops\":["
		"{\"answers\":[{\"from\":null,\"kind\":\"silent\"},"
		"{\"from\":\"198.18.1.1\",\"kind\":\"time_exceeded\"},7,"
		"{\"from\":\"198.18.1.1\",\"kind\":\"time_exceeded\"}]},"
		"{\"answers\":[");
	for (int k = 0; k < 20; k++)
		n += (size_t)snprintf(doc + n, sizeof(doc) - n,
			"%s{\"from\":%s,\"kind\":\"time_exceeded\"}",
			k ? "," : "", k % 2 ? "\"198.18.2.1\"" : "null");
	snprintf(doc + n, sizeof(doc) - n, "]}]}");
	is_int(report_traces_read_buffer(&t, "share", doc, strlen(doc), err,
					 sizeof(err)), 0,
	       "share: a non-object answer after the hop's first one is no "
	       "error");
	if (t.count == 1 && t.flows[0].element_count == 4) {
		is_int(t.flows[0].answered[0], 2 << 4 | 4,
		       "share: 2 of 4 answered (the link into hop 1)");
		is_int(t.flows[0].answered[1], 2 << 4 | 4,
		       "share: 2 of 4 answered (router 1)");
		is_int(t.flows[0].answered[3], 7 << 4 | 15,
		       "share: 10 of 20 as 7 of 15");
	} else {
		ok(false, "share: two hops of link and router");
	}
	report_traces_free(&t);
}

/* The hop the first element answered at: 1 when the first hop did, 3
 * after two that did not (how many hops before it are unseen). */
static void test_first_hop(void)
{
	static const char *const docs[2] = {
		"{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\","
		"\"source_address\":\"198.18.1.2\",\"dest\":\"d\","
		"\"flow_label\":1,\"status\":\"reached\",\"hops\":["
		"{\"answers\":[{\"from\":\"198.18.1.1\","
		"\"kind\":\"time_exceeded\"}]}]}",
		"{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\","
		"\"source_address\":\"198.18.1.2\",\"dest\":\"d\","
		"\"flow_label\":1,\"status\":\"reached\",\"hops\":["
		"{\"answers\":[{\"from\":null,\"kind\":\"silent\"}]},"
		"{\"answers\":[{\"from\":null,\"kind\":\"silent\"}]},"
		"{\"answers\":[{\"from\":\"198.18.3.1\","
		"\"kind\":\"time_exceeded\"}]},"
		"{\"answers\":[{\"from\":\"198.18.4.1\","
		"\"kind\":\"time_exceeded\"}]}]}",
	};
	static const int want[2] = { 1, 3 };

	for (int k = 0; k < 2; k++) {
		struct report_traces t = { 0 };
		char err[256];

		is_int(report_traces_read_buffer(&t, "first", docs[k],
						 strlen(docs[k]), err,
						 sizeof(err)), 0,
		       "first hop %d: read", want[k]);
		is_int(t.count == 1 ? t.flows[0].first_hop : 0, want[k],
		       "first hop %d: its first element answered there",
		       want[k]);
		report_traces_free(&t);
	}
}

static void bad(const char *doc, const char *want, const char *what)
{
	struct report_traces t = { 0 };
	char err[512] = "";

	is_int(report_traces_read_buffer(&t, "in.json", doc, strlen(doc), err,
					 sizeof(err)), -1, "bad %s: refused", what);
	ok(strstr(err, want) != NULL, "bad %s: says '%s'", what, want);
	if (!strstr(err, want))
		printf("#   got \"%s\"\n", err);
	report_traces_free(&t);
}

static void test_bad_input(void)
{
	bad("", "in.json: no trace in it", "empty");
	bad("[]", "no trace in it", "empty array");
	bad("{\"schema\":\"ibahprobe.probe.v1\"}", "in.json: trace 1: "
	    "\"schema\" is no ibahprobe.trace.v1", "a probe result");
	bad("[{\"schema\":\"ibahprobe.trace.v1\",\"dest\":\"x\","
	    "\"status\":\"reached\",\"hops\":[]}]", "no \"host\"",
	    "an older trace");
	bad("{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\",\"dest\":"
	    "\"x\",\"status\":\"reached\",\"flow_label\":2000000,\"hops\":[]}",
	    "\"flow_label\" is 2000000, out of range", "a flow label");
	bad("{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\",\"dest\":"
	    "\"x\",\"status\":\"reached\",\"flow_label\":1,\"hops\":[]} {",
	    "trace 2: the input ends inside a JSON value", "cut short");
	bad("{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\\u0000b\"}",
	    "\"host\" holds a NUL", "a NUL");
	bad("{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\",\"dest\":"
	    "\"x\",\"status\":\"reached\",\"flow_label\":1,\"hops\":[3]}",
	    "hop 1 is no object", "a hop");
	bad("nonsense", "no JSON", "not JSON");
	bad("[{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\",\"dest\":"
	    "\"x\",\"status\":\"reached\",\"flow_label\":1,\"hops\":[]},]",
	    "in.json: trace 2: no JSON", "a comma before ]");
}

/* What a reading of doc made of it, as one text: the flows and elements,
 * or the message. */
static char *reading(const char *doc)
{
	struct report_traces t = { 0 };
	char err[512] = "", *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int rc = report_traces_read_buffer(&t, "in", doc, strlen(doc), err,
					   sizeof(err));

	fprintf(f, "rc %d err %s\n", rc, err);
	for (size_t k = 0; k < t.count; k++) {
		const struct report_trace_flow *fl = &t.flows[k];

		fprintf(f, "flow %s %s %s %s %ld %ld %ld %s %s:", fl->host,
			fl->source ? fl->source : "-", fl->dest,
			fl->dest_address ? fl->dest_address : "-",
			fl->flow_label, fl->traffic_class, fl->udp_sport,
			fl->remark_after ? fl->remark_after : "-",
			fl->remark_before ? fl->remark_before : "-");
		for (size_t e = 0; e < fl->element_count; e++)
			fprintf(f, " %zu/%u", fl->elements[e],
				(unsigned)fl->answered[e]);
		fputc('\n', f);
	}
	for (size_t e = 0; e < t.element_count; e++)
		fprintf(f, "element %d %s\n", (int)t.elements[e].kind,
			t.elements[e].name);
	fclose(f);
	report_traces_free(&t);
	return out;
}

/* doc with a member report does not read, holding an escape, before its
 * first: what the scanner declines, so that json-c reads it. */
static char *escaped(const char *doc)
{
	char *out;

	if (asprintf(&out, "{\"zz\":\"\\n\"%s%s", doc[1] == '}' ? "" : ",",
		     doc + 1) < 0)
		abort();
	return out;
}

/* Each document read by the scanner and by json-c (the same document with
 * an escape in a member nobody reads): the same flows, elements and
 * messages. */
static void test_scanner_as_json_c(void)
{
	static const char *const docs[] = {
		/* RoCE, every member, a remark, a silent hop, a repeated
		 * answer, members nested beyond what report reads */
		"{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\","
		"\"device\":\"rxe0\",\"sgid\":\"::ffff:198.18.1.2\","
		"\"source_address\":\"198.18.1.2\",\"dest\":\"d\","
		"\"dest_address\":\"::ffff:198.18.10.4\",\"qpn\":17,"
		"\"flow_label\":7,\"udp_sport\":50007,\"traffic_class\":104,"
		"\"not_reproduced\":[],\"x\":{\"y\":[1,2.5e3,-0,true,false,"
		"null,{\"z\":[[]]}]},\"hops\":[{\"hop_limit\":1,\"answers\":["
		"{\"from\":\"198.18.1.1\",\"kind\":\"time_exceeded\","
		"\"rtt_us\":100.0,\"reply_ttl\":63},{\"from\":\"198.18.1.1\","
		"\"kind\":\"time_exceeded\"},{}]},{\"answers\":[{},{}]},"
		"{\"answers\":[{\"from\":\"198.18.23.2\",\"kind\":"
		"\"time_exceeded\"}]},{\"answers\":[{\"from\":"
		"\"198.18.10.4\",\"kind\":\"responder\"}]}],"
		"\"traffic_class_changes\":[{\"after\":\"198.18.1.1\","
		"\"before\":\"198.18.23.2\",\"from\":104,\"to\":0}],"
		"\"path\":[\"198.18.1.1\"]}",
		/* a key given twice (the last counts), UTF-8, nulls */
		"{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\",\"host\":"
		"\"h\xc3\xa9\",\"dest\":\"d\",\"status\":\"reached\","
		"\"source_address\":null,\"dest_address\":null,"
		"\"flow_label\":null,\"udp_sport\":9,\"traffic_class\":null,"
		"\"hops\":[{\"answers\":[{\"from\":\"r\xe2\x82\xac\","
		"\"kind\":null}]}],\"traffic_class_changes\":[]}",
		/* InfiniBand, "slid" null still one */
		"{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\","
		"\"sgid\":\"fe80::1\",\"dest\":\"lid:7\",\"status\":"
		"\"complete\",\"slid\":null,\"hops\":[{\"node_guid\":\"0x01\","
		"\"node_type\":\"ca\",\"in_port\":null,\"out_port\":1},"
		"{\"node_guid\":\"0x02\",\"node_type\":\"switch\",\"in_port\":3,"
		"\"out_port\":5},{\"node_guid\":\"0x07\",\"in_port\":1}]}",
		/* what is wrong, said the same way */
		"{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\",\"dest\":"
		"\"d\",\"status\":\"reached\",\"flow_label\":1.0,\"hops\":[]}",
		"{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\",\"dest\":"
		"\"d\",\"status\":\"reached\",\"flow_label\":\"1\",\"hops\":[]}",
		"{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\",\"dest\":"
		"\"d\",\"status\":\"reached\",\"traffic_class\":-1,\"hops\":[]}",
		"{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\",\"dest\":"
		"\"d\",\"status\":\"reached\",\"flow_label\":1,\"hops\":{}}",
		"{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\",\"dest\":"
		"\"d\",\"status\":\"reached\",\"hops\":[]}",
		"{\"schema\":\"ibahprobe.trace.v1\",\"host\":7}",
		"{\"schema\":\"ibahprobe.trace.v2\"}",
		"{}",
		"{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\",\"dest\":"
		"\"d\",\"status\":\"reached\",\"flow_label\":1,\"hops\":"
		"[{\"answers\":[1]}]}",
		"{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\",\"dest\":"
		"\"d\",\"status\":\"reached\",\"flow_label\":1,\"hops\":"
		"[{\"answers\":{}}]}",
		"{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\",\"dest\":"
		"\"d\",\"status\":\"reached\",\"flow_label\":1,\"hops\":"
		"[{\"answers\":[{\"from\":5}]}]}",
		"{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\",\"dest\":"
		"\"d\",\"status\":\"reached\",\"flow_label\":1,\"hops\":[],"
		"\"traffic_class_changes\":[7]}",
		"{\"schema\":\"ibahprobe.trace.v1\",\"host\":\"a\",\"sgid\":"
		"\"fe80::1\",\"dest\":\"lid:7\",\"status\":\"complete\","
		"\"slid\":1,\"hops\":[{\"node_guid\":\"0x01\",\"in_port\":"
		"256}]}",
	};

	for (size_t k = 0; k < sizeof(docs) / sizeof(docs[0]); k++) {
		char *json_c_doc = escaped(docs[k]);
		char *by_scanner = reading(docs[k]);
		char *by_json_c = reading(json_c_doc);

		ok(result_scan_plain(docs[k], strlen(docs[k])) > 0 &&
			   result_scan_plain(json_c_doc, strlen(json_c_doc)) ==
				   0,
		   "scanner: document %zu is the scanner's, its twin json-c's",
		   k + 1);
		is_str(by_scanner, by_json_c, "scanner: document %zu read as "
		       "json-c reads it", k + 1);
		free(json_c_doc);
		free(by_scanner);
		free(by_json_c);
	}
}

int main(void)
{
	test_mlx5_by_label();
	test_rxe();
	test_rxe_by_wire_port();
	test_untraced_and_silent();
	test_infiniband();
	test_kinds_apart();
	test_one_join();
	test_hop_address_keys();
	test_answered_share();
	test_first_hop();
	test_bad_input();
	test_scanner_as_json_c();
	return tap_done();
}
