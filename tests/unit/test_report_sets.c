/* Unit tests of ibahprobe report's runs and expectations: RFC 3339 start
 * times, runs told apart by run_id (or by input without one), --latest,
 * summary and error records, --expect's order, silent hosts and pairs
 * never probed, and a pair's status from its sets' outcomes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_input.h"
#include "report/report_matrix.h"
#include "tap.h"

/* A result of schema v1 (run NULL: the fields before it only). */
static char *result(const char *src, const char *dst, int tclass,
		    unsigned sent, unsigned received, const char *run,
		    const char *start)
{
	char *s, head[256] = "";
	const char *status = received == sent ? "reachable"
			     : received	      ? "partial_loss"
					      : "unreachable";
	int n;

	if (run)
		snprintf(head, sizeof(head), "\"schema\":\"ibahprobe.probe.v1\","
			 "\"record\":\"result\",\"run_id\":\"%s\","
			 "\"start_time\":\"%s\",", run, start);
	n = asprintf(&s, "{%s\"dest\":\"%s\",\"source\":{\"host\":\"%s\","
		     "\"device\":\"mlx5_0\",\"port_num\":1,\"sgid\":null},"
		     "\"params\":{\"hop_limit\":64,\"traffic_class\":%d,"
		     "\"flow_label\":0,\"sl\":0},\"status\":\"%s\",\"sent\":%u,"
		     "\"received\":%u,\"rtt_us\":null,\"hops\":null,"
		     "\"verdicts\":[\"%s\"],\"findings\":[],"
		     "\"ah_attr\":{\"grh\":null}}\n", head, dst, src, tclass,
		     status, sent, received, status);
	if (n < 0)
		abort();
	return s;
}

/* Reads each text as its own input ("in0", "in1", ...), then builds; r
 * is initialised (and maybe given --expect or --latest) by the caller. */
static int load(struct report *r, char **texts, size_t n, char *err,
		size_t errlen)
{
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		char label[16];

		snprintf(label, sizeof(label), "in%zu", i);
		if (rc == 0)
			rc = report_read_buffer(r, label, texts[i],
						strlen(texts[i]), NULL, err,
						errlen);
		free(texts[i]);
	}
	return rc ? rc : report_build(r, err, errlen);
}

static char *join(char *a, char *b)
{
	char *s;

	if (asprintf(&s, "%s%s", a, b) < 0)
		abort();
	free(a);
	free(b);
	return s;
}

static void test_time(void)
{
	ok(report_parse_time("1970-01-01T00:00:00Z") == 0, "the epoch");
	ok(report_parse_time("2026-11-23T18:12:27Z") == 1795457547.0,
	   "a probe's start_time (%.0f)",
	   report_parse_time("2026-11-23T18:12:27Z"));
	ok(report_parse_time("2026-11-23T19:12:27+01:00") == 1795457547.0,
	   "an offset is taken off");
	ok(report_parse_time("2026-11-23t18:12:27.5z") == 1795457547.5,
	   "lower case and a fraction");
	ok(report_parse_time("2026-11-23 18:12:27Z") < 0, "a blank for T: no");
	ok(report_parse_time("2026-11-23T18:12:27") < 0, "no offset: no");
	ok(report_parse_time("2026-13-23T18:12:27Z") < 0, "month 13: no");
	ok(report_parse_time("2026-11-23T18:12:27.Z") < 0,
	   "a dot without digits: no");
	ok(report_parse_time("2026-11-23T18:12:27+0100") < 0,
	   "an offset without colon: no");
}

#define R1 "11111111-1111-4111-8111-111111111111"
#define R2 "22222222-2222-4222-8222-222222222222"
#define T1 "2026-11-23T18:12:27Z"
#define T2 "2026-11-23T18:40:05Z"

static void test_sets(void)
{
	struct report r;
	struct report_cell *c;
	char err[512] = "";
	char *in[] = {
		join(result("a", "b", 0x28, 10, 0, R1, T1),
		     result("a", "b", 0, 10, 10, R1, T1)),
	};

	report_init(&r);
	is_int(load(&r, in, 1, err, sizeof(err)), 0, "mixed sets (%s)", err);
	c = report_cell(&r, 0, 0);
	is_int(c->status, REPORT_PARTIAL, "0 of 10 and 10 of 10: partial loss");
	is_str(c->set_labels[0], "tclass 0x28", "the worst set first, by what "
	       "varies");
	is_str(c->set_labels[1], "tclass 0", "tclass 0 without 0x");
	is_str(c->findings.items[0], "tclass 0x28: 0 of 10 answered; "
	       "tclass 0: 10 of 10", "how each set fared");
	ok(!report_all_fine(&r), "not fine");
	report_free(&r);
}

static void test_runs(void)
{
	struct report r;
	char err[512] = "";
	char *in[] = {
		result("a", "b", 0, 10, 2, R1, T1),
		result("a", "b", 0, 10, 10, R2, T2),
	};
	char *again[] = {
		result("a", "b", 0, 10, 2, R2, T2),
		result("a", "b", 0, 10, 10, R1, T1),
	};
	char *old[] = {
		result("a", "b", 0, 10, 10, NULL, NULL),
		result("a", "b", 0, 10, 10, NULL, NULL),
	};
	char *summary[] = {
		join(result("a", "b", 0, 10, 10, R1, T1),
		     strdup("{\"schema\":\"ibahprobe.probe.v1\",\"record\":"
			    "\"summary\",\"run_id\":\"" R1 "\",\"start_time\":"
			    "\"" T1 "\",\"source\":{\"host\":\"a\",\"device\":"
			    "\"mlx5_0\"},\"interrupted\":true}\n")),
	};

	report_init(&r);
	is_int(load(&r, in, 2, err, sizeof(err)), 0, "two runs (%s)", err);
	is_int(r.run_count, 2, "told apart by run_id");
	is_int(r.warnings.count, 1, "mixed: one warning");
	is_str(r.warnings.items[0], "a: 2 runs mixed, newest " T2 "; --latest "
	       "keeps only it", "naming the newest");
	is_int(report_cell(&r, 0, 0)->sets, 2, "both in the cell");
	report_free(&r);

	report_init(&r);
	r.latest = true;
	is_int(load(&r, again, 2, err, sizeof(err)), 0, "--latest (%s)", err);
	is_int(r.record_count, 1, "one run's results stay");
	ok(r.runs[0].dropped == false && r.runs[1].dropped == true,
	   "the newer by start_time, read first");
	is_int(report_cell(&r, 0, 0)->received, 2, "its results");
	is_int(r.warnings.count, 0, "no warning");
	report_free(&r);

	report_init(&r);
	is_int(load(&r, old, 2, err, sizeof(err)), 0, "old inputs (%s)", err);
	is_int(r.run_count, 2, "without run_id: one run per input");
	ok(r.runs[0].run_id == NULL && r.runs[0].start < 0, "unknown id, time");
	report_free(&r);

	report_init(&r);
	is_int(load(&r, summary, 1, err, sizeof(err)), 0, "a summary (%s)",
	       err);
	is_int(r.record_count, 1, "is no result");
	ok(r.runs[0].interrupted && report_cell(&r, 0, 0)->interrupted,
	   "interrupted: its run and its results");
	is_int(r.notes.count, 1, "and a note");
	report_free(&r);
}

static void test_expect(void)
{
	struct report r;
	char err[512] = "";
	char *in[] = {
		join(result("b", "a", 0, 10, 10, R1, T1),
		     result("b", "c", 0, 10, 10, R1, T1)),
		strdup("{\"schema\":\"ibahprobe.probe.v1\",\"record\":\"error\","
		       "\"run_id\":\"" R2 "\",\"start_time\":\"" T1 "\","
		       "\"source\":{\"host\":\"c\"},\"error\":\"no device\","
		       "\"exit_status\":3}\n"),
	};

	report_init(&r);
	strvec_add(&r.expect, "d");
	strvec_add(&r.expect, "c");
	strvec_add(&r.expect, "b");
	strvec_add(&r.expect, "a");
	is_int(load(&r, in, 2, err, sizeof(err)), 0, "expected (%s)", err);
	is_int(r.row_count, 4, "a row for each expected host");
	ok(r.row_count == 4 && strcmp(r.rows[0]->source_name, "d") == 0 &&
	   strcmp(r.rows[1]->source_name, "c") == 0 &&
	   strcmp(r.rows[2]->source_name, "b") == 0 &&
	   strcmp(r.rows[3]->source_name, "a") == 0, "in --expect's order");
	ok(r.col_count == 4 && strcmp(r.cols[0]->dest_name, "d") == 0 &&
	   strcmp(r.cols[3]->dest_name, "a") == 0, "columns too");
	is_int(r.silent_hosts.count, 2, "d and a sent nothing");
	ok(r.silent_hosts.count == 2 && !strcmp(r.silent_hosts.items[0], "d") &&
	   !strcmp(r.silent_hosts.items[1], "a"), "named in order");
	is_int(r.rows[1]->failed_runs, 1, "c's failed run is in c's row");
	ok(report_cell(&r, 1, 2)->run_failed && !report_cell(&r, 1, 1)->run_failed,
	   "its cells say so, but c -> c");
	is_int(r.never_probed_count, 1, "b never probed d");
	ok(r.never_probed_count == 1 && !strcmp(r.never_probed[0].source, "b") &&
	   !strcmp(r.never_probed[0].destination, "d"), "b -> d");
	ok(!report_all_fine(&r), "not fine");
	report_free(&r);
}

int main(void)
{
	test_time();
	test_sets();
	test_runs();
	test_expect();
	return tap_done();
}
