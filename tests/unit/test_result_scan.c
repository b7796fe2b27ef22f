/* The scanner that reads the common shape of a probe result without
 * json-c (lib/report/result_scan.c): what it keeps and what it declines, and,
 * above all, that report reads every input to the same records, runs and
 * messages with the scanner as with json-c alone: the base records of
 * each kind, then every one of them with each byte replaced by each of a
 * set of troublemakers (quotes, escapes, digits, signs, brackets, blanks,
 * bytes that are no UTF-8), cut at every length, and doubled keys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_input.h"
#include "report/report_matrix.h"
#include "report/result_scan.h"
#include "tap.h"

/* One record of each kind probe writes (lib/probe/probe_print.c). */
static const char *const bases[] = {
	/* RoCE, answered, with run_params and a GRH. */
	"{\"schema\":\"ibahprobe.probe.v1\",\"record\":\"result\",\"run_id\":"
	"\"3f1c2a4e-8b1d-4c6e-9a7f-0d2b5e8c1a01\",\"start_time\":"
	"\"2026-11-23T18:12:27Z\",\"run_params\":{\"count\":10,\"interval_ms\":"
	"10,\"size\":64,\"window\":8,\"timeout_ms\":1000,\"hop_limits\":[64],"
	"\"traffic_classes\":[0,40],\"flow_labels\":[0],\"sls\":null},\"dest\":"
	"\"node02\",\"source\":{\"host\":\"node01\",\"device\":\"mlx5_0\","
	"\"port_num\":1,\"lid\":0,\"sgid\":\"::ffff:10.1.0.11\"},\"params\":"
	"{\"hop_limit\":64,\"traffic_class\":0,\"flow_label\":0,\"sl\":0},"
	"\"status\":\"reachable\",\"sent\":10,\"received\":10,\"lost\":0,"
	"\"late\":0,\"rtt_us\":{\"min\":10.0,\"median\":12.5,\"p99\":2e1,"
	"\"max\":21},\"observed\":{\"grh_present\":true,\"traffic_class\":0},"
	"\"hops\":0,\"verdicts\":[\"reachable\"],\"findings\":[],\"ah_attr\":"
	"{\"is_global\":1,\"grh\":{\"dgid\":\"::ffff:10.1.0.12\",\"flow_label\":"
	"0,\"sgid_index\":3,\"hop_limit\":64,\"traffic_class\":0}}}",
	/* Traffic class remarked, partial loss, blanks between tokens. */
	"{ \"schema\" : \"ibahprobe.probe.v1\", \"record\": \"result\",\n"
	"  \"dest\": \"node03\", \"source\": {\"host\": \"node01\", "
	"\"device\": \"rxe0\", \"port_num\": 1, \"sgid\": \"fe80::1\"},\r\n"
	"  \"params\": {\"hop_limit\": 1, \"traffic_class\": 184, "
	"\"flow_label\": 1048575, \"sl\": null}, \"status\": \"partial_loss\",\t"
	"\"sent\": 4, \"received\": 3, \"rtt_us\": {\"median\": -0.5, "
	"\"max\": 1.25E+2}, \"observed\": {\"traffic_class\": 32}, "
	"\"hops\": 2, \"verdicts\": [\"partial loss\", \"tclass_remarked\"], "
	"\"findings\": [\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"], "
	"\"ah_attr\": {\"grh\": null}, \"interrupted\": true,"
	"\"extra\": {\"a\\\"b\": [1, {\"c\": [true, false, null]}, \"\\n\"]}}",
	/* InfiniBand, failed before an AH. */
	"{\"schema\":\"ibahprobe.probe.v1\",\"record\":\"result\",\"run_id\":"
	"\"r2\",\"dest\":\"lid:7\",\"source\":{\"host\":\"n9\",\"device\":"
	"\"mlx4_0\",\"port_num\":2,\"lid\":12,\"sgid\":null},\"params\":{},"
	"\"status\":\"error\",\"error\":\"no path record: SA said \\\"no\\\"\"}",
	/* A summary, an error record, and the old failed run. */
	"{\"schema\":\"ibahprobe.probe.v1\",\"record\":\"summary\",\"run_id\":"
	"\"r2\",\"source\":{\"host\":\"n9\",\"device\":\"mlx4_0\"},"
	"\"interrupted\":true}",
	"{\"schema\":\"ibahprobe.probe.v1\",\"record\":\"error\",\"run_id\":"
	"\"r3\",\"source\":{\"host\":\"n8\"},\"error\":\"no device\","
	"\"exit_status\":3}",
	"{\"error\":\"cannot open\",\"exit_status\":99999999999}",
};

#define BASES (sizeof(bases) / sizeof(*bases))

/* Everything report keeps of what it read, as text. */
static char *dump(const struct report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	for (size_t i = 0; i < r->record_count; i++) {
		const struct report_record *c = r->records[i];

		fprintf(f, "rec %s|%s|%u|%u|%s|%d|%s|%s|%d|%s|%u|%u|%d|%.17g|%.17g|"
			"%d|%d|%u|%u|%d|%d|%d|%ld|%zu|",
			c->host, c->device, c->port_num, c->lid,
			c->sgid ? c->sgid : "-", c->has_ah, c->dest_text,
			c->dgid ? c->dgid : "-", (int)c->status,
			c->error ? c->error : "-", c->sent, c->received,
			c->has_rtt, c->rtt_median_us, c->rtt_max_us, c->hops,
			c->tclass_remarked, c->tclass_sent, c->tclass_seen,
			c->params.hop_limit, c->params.traffic_class,
			c->params.sl, c->params.flow_label, c->run);
		for (size_t k = 0; k < c->verdicts.count; k++)
			fprintf(f, "v=%s,", c->verdicts.items[k]);
		for (size_t k = 0; k < c->findings.count; k++)
			fprintf(f, "f=%s,", c->findings.items[k]);
		fputc('\n', f);
	}
	for (size_t i = 0; i < r->run_count; i++)
		fprintf(f, "run %s|%s|%.17g|%d\n",
			r->runs[i].start_time ? r->runs[i].start_time : "-",
			r->runs[i].params_text ? r->runs[i].params_text : "-",
			r->runs[i].start, r->runs[i].interrupted);
	for (size_t i = 0; i < r->failed_count; i++)
		fprintf(f, "failed %s|%s|%d|%s|%zu\n", r->failed[i].where,
			r->failed[i].error, r->failed[i].exit_status,
			r->failed[i].host ? r->failed[i].host : "-",
			r->failed[i].run);
	fclose(f);
	return text;
}

/* What report makes of input: its message, or what it keeps. */
static char *read_as(const char *input, size_t len, bool scanner)
{
	struct report r;
	char err[512], *out;

	report_init(&r);
	report_input_use_scanner(scanner);
	if (report_read_buffer(&r, "t.jsonl", input, len, NULL, err,
			       sizeof(err)))
		out = strdup(err);
	else
		out = dump(&r);
	report_input_use_scanner(true);
	report_free(&r);
	return out;
}

static size_t mismatches, compared;
static char first_mismatch[2048];

/* Holds the two readers to the same outcome on one input. */
static void same(const char *input, size_t len)
{
	char *fast = read_as(input, len, true), *exact = read_as(input, len,
								 false);

	compared++;
	if (strcmp(fast, exact) != 0 && !mismatches++)
		snprintf(first_mismatch, sizeof(first_mismatch),
			 "input '%.*s': scanner '%s', json-c '%s'",
			 (int)(len > 400 ? 400 : len), input, fast, exact);
	free(fast);
	free(exact);
}

static void test_keeps(void)
{
	struct result_view v;
	size_t n = result_scan(bases[0], strlen(bases[0]), &v);

	is_int(n, strlen(bases[0]), "a whole result is read to its '}'");
	ok(jv_is(&v.m[RM_SOURCE_HOST], "node01") &&
		   jv_is(&v.m[RM_AH_GRH_DGID], "::ffff:10.1.0.12") &&
		   v.m[RM_SOURCE_PORT_NUM].kind == JV_INT &&
		   v.m[RM_SOURCE_PORT_NUM].i == 1 &&
		   v.m[RM_RTT_MEDIAN].kind == JV_DOUBLE &&
		   v.m[RM_RTT_MEDIAN].d == 12.5 &&
		   v.m[RM_RTT_MAX].kind == JV_INT && v.m[RM_RTT_MAX].i == 21 &&
		   v.m[RM_RUN_PARAMS].kind == JV_OBJECT &&
		   v.m[RM_RUN_PARAMS].s[0] == '{' &&
		   v.m[RM_INTERRUPTED].kind == JV_ABSENT,
	   "its members are kept: strings, ints, doubles, objects' text");
	n = result_scan(bases[1], strlen(bases[1]), &v);
	ok(n == strlen(bases[1]) && v.m[RM_PARAMS_SL].kind == JV_NULL &&
		   v.m[RM_AH_GRH].kind == JV_NULL &&
		   v.m[RM_AH_GRH_DGID].kind == JV_ABSENT &&
		   v.m[RM_INTERRUPTED].b && v.m[RM_RTT_MAX].d == 125.0,
	   "blanks, UTF-8, escapes in members not read, null and absent");
	n = result_scan("{\"dest\":\"a\"} {\"x\":1}", 21, &v);
	is_int(n, 12, "the value ends at its '}', what follows is not read");
}

static void test_declines(void)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
		{ "[1]", "no object" },
		{ " {}", "a blank before it (the reader passes those)" },
		{ "{\"dest\":\"a\"", "cut off" },
		{ "{\"dest\":\"a\\\"b\"}", "an escape in a member read" },
		{ "{\"x\":\"\\u0041\"}", "a \\u escape anywhere" },
		{ "{\"de\\nst\":1}", "an escape in a key of an object read" },
		{ "{\"dest\":\"a\",\"dest\":\"b\"}", "a member given twice" },
		{ "{\"source\":{\"host\":\"a\",\"host\":\"b\"}}",
		  "a nested member given twice" },
		{ "{\"sent\":1234567890123456789}", "19 digits" },
		{ "{\"x\":1e1000}", "4 exponent digits" },
		{ "{\"x\":0.0000000000000000000000000000001}", "33 characters" },
		{ "{\"x\":01}", "a leading zero" },
		{ "{\"x\":1.}", "a fraction without digits" },
		{ "{\"verdicts\":[\"a\",1]}", "a non-string in an array read" },
		{ "{\"x\":\"\xc0\xaf\"}", "an overlong form" },
		{ "{\"x\":\"\xed\xa0\x80\"}", "a surrogate" },
		{ "{\"x\":\"\xf4\x90\x80\x80\"}", "past U+10FFFF" },
		{ "{\"x\":\"\x01\"}", "a control character" },
		{ "{\"x\":tru}", "a literal cut short" },
		{ "{\"x\":1,}", "a trailing comma" },
		{ "{\"x\"\v:1}", "a blank JSON does not know" },
		{ "{\"x\":[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]}", "nesting past 16" },
	};
	struct result_view v;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		is_int(result_scan(cases[i].text, strlen(cases[i].text), &v), 0,
		       "declined: %s", cases[i].why);
	is_int(result_scan("{\"x\":[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]}", 37, &v),
	       37, "nesting of 16 is read");
	ok(result_scan("{\"sent\":-0}", 11, &v) == 11 &&
		   v.m[RM_SENT].kind == JV_INT && v.m[RM_SENT].i == 0,
	   "-0 is the int 0, as json-c reads it");
}

static void test_bases_same(void)
{
	char all[8192] = "";

	for (size_t i = 0; i < BASES; i++) {
		same(bases[i], strlen(bases[i]));
		strcat(all, bases[i]);
		strcat(all, "\n");
	}
	same(all, strlen(all));
	is_int(mismatches, 0, "each kind of record, and all in one input, "
	       "read alike (%s)", first_mismatch);
}

/* Each byte of each base replaced by each troublemaker; the base cut at
 * each length; each member doubled. */
static void test_mutations_same(void)
{
	static const char troublemakers[] = "\"\\0-1.eE{}[],: xnt\x80\xc3\xff";
	size_t before = compared;

	mismatches = 0;
	for (size_t i = 0; i < BASES; i++) {
		size_t len = strlen(bases[i]);
		char *m = malloc(len + 1);

		for (size_t at = 0; at < len; at++) {
			for (const char *t = troublemakers; *t; t++) {
				memcpy(m, bases[i], len + 1);
				m[at] = *t;
				same(m, len);
			}
			same(bases[i], at);
		}
		free(m);
	}
	is_int(mismatches, 0, "%zu mutated inputs read alike (%s)",
	       compared - before, first_mismatch);
}

static void test_doubled_same(void)
{
	char input[4096];

	mismatches = 0;
	for (int m = 0; m < RM_COUNT; m++) {
		const char *key = result_members[m].key;

		/* The base with the key given again at the end of the object
		 * that holds it, as a string, a number and null. */
		static const char *const values[] = { "\"z\"", "7", "null" };

		for (size_t k = 0; k < 3; k++) {
			size_t len = strlen(bases[0]);

			if (result_members[m].parent != RM_TOP)
				continue;
			snprintf(input, sizeof(input), "%.*s,\"%s\":%s}",
				 (int)(len - 1), bases[0], key, values[k]);
			same(input, strlen(input));
		}
	}
	is_int(mismatches, 0, "a member given twice: json-c's last one, "
	       "either way (%s)", first_mismatch);
}

/* result_scan_members reads only the members asked for and steps over
 * the others, whatever they hold (numbers of every form, literals,
 * nested containers, strings with brackets), to the
 * same values as when each is asked for. */
static void test_members_skipped(void)
{
	static const char doc[] =
		"{\"n\":-1.5e+3,\"z\":0,\"t\":true,\"f\":false,"
		"\"u\":null,\"o\":{\"a\":[1,{\"b\":\"]}\"}]},"
		"\"s\":\"x]}\",\"i\":42, \"last\":\"end\"}";
	static const char *const all[] = { "n", "z", "t", "f", "u", "o", "s",
					   "i", "last" };
	const size_t n = sizeof(all) / sizeof(*all);
	struct jv every[9], one;

	is_int(result_scan_plain(doc, strlen(doc)), strlen(doc),
	       "members: a document the scanner takes");
	result_scan_members(doc, strlen(doc), all, n, every);
	for (size_t k = 0; k < n; k++) {
		const char *key[1] = { all[k] };

		result_scan_members(doc, strlen(doc), key, 1, &one);
		ok(one.kind == every[k].kind && one.len == every[k].len &&
			   (one.kind != JV_INT || one.i == every[k].i) &&
			   (one.kind != JV_BOOL || one.b == every[k].b),
		   "members: \"%s\" alone as among all", all[k]);
	}
	is_int(every[7].kind, JV_INT, "members: i an integer");
	is_int(every[7].i, 42, "members: i 42 past the skipped ones");
	is_int(every[8].kind, JV_STRING, "members: last a string");
	ok(every[8].len == 3 && memcmp(every[8].s, "end", 3) == 0,
	   "members: last \"end\"");
	is_int(every[0].kind, JV_DOUBLE, "members: n a double");
}

int main(void)
{
	test_keeps();
	test_declines();
	test_bases_same();
	test_mutations_same();
	test_doubled_same();
	test_members_skipped();
	return tap_done();
}
