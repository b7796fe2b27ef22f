/* Unit tests of trace --failed's reader (lib/trace/failed_flows.h): the
 * failing flows of probe -j and --jsonl output, each distinct (dest,
 * flow label, wire UDP source port) once, reachable results skipped, bad
 * input named by line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "trace/failed_flows.h"
#include "tap.h"

static char err[DIAG_MSG_MAX * 2];

#define RESULT(dest, status, params)                                          \
	"{\"schema\": \"ibahprobe.probe.v1\", \"record\": \"result\", "       \
	"\"dest\": \"" dest "\", \"status\": \"" status "\", "               \
	"\"params\": " params "}"

static int read_text(struct failed_flows *flows, const char *text)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int rc = failed_flows_read(flows, in, "results", err, sizeof(err));

	fclose(in);
	return rc;
}

static void test_jsonl(void)
{
	struct failed_flows f = { 0 };
	const char *text =
		RESULT("n2", "reachable", "{\"flow_label\": 1}") "\n"
		RESULT("n2", "partial_loss", "{\"flow_label\": 2, "
		       "\"udp_sport\": 49154, \"wire_udp_sport\": 50001}") "\n"
		RESULT("n3", "unreachable", "{\"flow_label\": 2, "
		       "\"wire_udp_sport\": null}") "\n"
		RESULT("n2", "unreachable", "{\"flow_label\": 2, "
		       "\"wire_udp_sport\": 50001}") "\n"
		RESULT("n2", "error", "{\"flow_label\": 2, "
		       "\"wire_udp_sport\": 50002}") "\n"
		RESULT("n3", "unreachable", "{\"flow_label\": 2}") "\n"
		"{\"schema\": \"ibahprobe.probe.v1\", \"record\": \"summary\"}\n";

	is_int(read_text(&f, text), 0, "probe --jsonl output");
	is_int(f.count, 3, "three distinct failing flows");
	is_int(f.results, 6, "of six results");
	is_int(f.reachable, 1, "one of them reachable, skipped");
	ok(f.count == 3 && strcmp(f.items[0].dest, "n2") == 0 &&
	   f.items[0].flow_label == 2 && f.items[0].udp_sport == 50001 &&
	   f.items[0].line == 2, "the first: n2, label 2, its wire port, line 2");
	ok(f.count == 3 && strcmp(f.items[1].dest, "n3") == 0 &&
	   f.items[1].udp_sport == -1, "null: no port");
	ok(f.count == 3 && f.items[2].udp_sport == 50002,
	   "another port of the same label is another flow");
	failed_flows_free(&f);
	is_int(f.count, 0, "freed");
}

static void test_array(void)
{
	struct failed_flows f = { 0 };

	is_int(read_text(&f, "[\n  " RESULT("n4", "unreachable",
					    "{\"flow_label\": 7}") ",\n  "
			 RESULT("n5", "reachable", "{\"flow_label\": 7}")
			 "\n]\n"), 0, "probe -j output: an array over lines");
	ok(f.count == 1 && strcmp(f.items[0].dest, "n4") == 0 &&
	   f.items[0].flow_label == 7, "its failing flow");
	failed_flows_free(&f);
	is_int(read_text(&f, ""), 0, "no input: no flows");
	is_int(f.count, 0, "none");
	failed_flows_free(&f);
}

static void refused(const char *text, const char *want, const char *what)
{
	struct failed_flows f = { 0 };

	is_int(read_text(&f, text), -1, "%s: refused", what);
	is_str(err, want, "%s: named", what);
	failed_flows_free(&f);
}

static void test_bad_input(void)
{
	refused("\n{\"a\": }\n", "results:2: no JSON: unexpected character",
		"not JSON");
	refused(RESULT("n2", "reachable", "{\"flow_label\": 1}") "\n{\"a\":\n",
		"results:2: the input ends inside a JSON value", "cut short");
	refused("[1]\n", "results:1: record 1 of the array: no probe record "
		"(a JSON object, as probe -j and --jsonl write)", "a number");
	refused("{\"schema\": \"ibahprobe.trace.v1\"}\n",
		"results:1: no probe record (its \"schema\" is not "
		"\"ibahprobe.probe.v1\": give probe -j or --jsonl output)",
		"a trace");
	refused(RESULT("n2", "lost", "{\"flow_label\": 1}"),
		"results:1: a result without a probe status in \"status\"",
		"an unknown status");
	refused(RESULT("", "unreachable", "{\"flow_label\": 1}"),
		"results:1: a result without its \"dest\"", "an empty dest");
	refused(RESULT("n2", "unreachable", "{\"flow_label\": 1048576}"),
		"results:1: the result for n2 has no \"flow_label\" of "
		"0-1048575 in its \"params\"", "a label too wide");
	refused(RESULT("n2", "unreachable", "{\"flow_label\": \"1\"}"),
		"results:1: the result for n2 has no \"flow_label\" of "
		"0-1048575 in its \"params\"", "a label as text");
	refused(RESULT("n2", "unreachable", "{\"flow_label\": 1, "
		       "\"wire_udp_sport\": 0}"),
		"results:1: the result for n2 has a \"wire_udp_sport\" that "
		"is no UDP port (1-65535)", "port 0");
	refused("{\"schema\": \"ibahprobe.probe.v1\"}",
		"results:1: a probe record without its \"record\"",
		"no record kind");
}

int main(void)
{
	test_jsonl();
	test_array();
	test_bad_input();
	return tap_done();
}
