/* Unit tests of the output layer: one set of calls gives the text form and
 * JSON (parsed back with json-c), nothing reaches stdout before
 * out_finish(), out_fail() replaces a half-built document, and JSON Lines
 * writes one object per record. */
#include <stdlib.h>
#include <unistd.h>

#include <json-c/json.h>

#include "output.h"
#include "tap.h"

/* Runs fn with stdout going to a file; returns what it wrote. */
static char *capture(void (*fn)(void))
{
	static char text[4096];
	FILE *tmp = tmpfile();
	int saved = dup(STDOUT_FILENO);
	size_t n;

	fflush(stdout);
	dup2(fileno(tmp), STDOUT_FILENO);
	fn();
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(text, 1, sizeof(text) - 1, tmp);
	text[n] = '\0';
	fclose(tmp);
	return text;
}

/* One destination record, the way the commands write them. */
static void emit_record(void)
{
	out_open_object(NULL);
	out_string("dest", "%s", "lid:4");
	out_string("status", ": %s", "ok");
	out_uint("dlid", " dlid %llu", 4);
	out_int("delta", " delta %lld", -2);
	out_double("rate_gbps", " rate %.1f", 56.25);
	out_bool("reversible", " reversible %s", true);
	out_null("error", " error %s");
	out_string("note", NULL, "json only");
	out_text(" (text only)");
	out_open_object("grh");
	out_string("dgid", " dgid %s", "fe80::10:3");
	out_close_object();
	out_open_array("verdicts");
	out_element_string(" [%s]", "reachable");
	out_close_array();
	out_open_array("hops");
	out_element_int(" hops %lld", 1);
	out_element_int(",%lld", 2);
	out_close_array();
	out_newline();
	out_close_object();
}

static bool stdout_written_early;

static void text_run(void)
{
	out_init(OUT_TEXT, false);
	out_open_array(NULL);
	emit_record();
	out_close_array();
	out_finish();
}

static void json_run(void)
{
	out_init(OUT_JSON, false);
	out_open_array(NULL);
	emit_record();
	emit_record();
	fflush(stdout);
	stdout_written_early = lseek(STDOUT_FILENO, 0, SEEK_CUR) != 0;
	out_close_array();
	out_finish();
}

static void pretty_run(void)
{
	out_init(OUT_JSON, true);
	out_open_array(NULL);
	emit_record();
	out_close_array();
	out_finish();
}

static void fail_run(void)
{
	out_init(OUT_JSON, false);
	out_open_array(NULL);
	emit_record();
	out_fail(3, "no SM \"here\"");
}

static void fail_text_run(void)
{
	out_init(OUT_TEXT, false);
	emit_record();
	out_fail(2, "bad");
}

static void jsonl_run(void)
{
	out_init(OUT_JSONL, false);
	emit_record();
	out_flush_record();
	emit_record();
	out_flush_record();
	out_finish();
}

int main(void)
{
	struct json_object *doc, *rec, *v;
	char *text;

	text = capture(text_run);
	is_str(text, "lid:4: ok dlid 4 delta -2 rate 56.2 reversible yes error - "
		     "(text only) dgid fe80::10:3 [reachable] hops 1,2\n",
	       "text form");

	text = capture(json_run);
	ok(!stdout_written_early, "nothing on stdout before out_finish()");
	doc = json_tokener_parse(text);
	ok(doc && json_object_is_type(doc, json_type_array) &&
	   json_object_array_length(doc) == 2, "JSON: an array of two records");
	rec = doc ? json_object_array_get_idx(doc, 0) : NULL;
	ok(rec && json_object_object_length(rec) == 11,
	   "each with exactly the keyed fields (11)");
	ok(rec && json_object_object_get_ex(rec, "verdicts", &v) &&
	   json_object_array_length(v) == 1 &&
	   strcmp(json_object_get_string(json_object_array_get_idx(v, 0)),
		  "reachable") == 0, "array of strings");
	ok(rec && json_object_object_get_ex(rec, "hops", &v) &&
	   json_object_array_length(v) == 2 &&
	   json_object_is_type(json_object_array_get_idx(v, 0), json_type_int) &&
	   json_object_get_int(json_object_array_get_idx(v, 1)) == 2,
	   "array of integers");
	ok(rec && json_object_object_get_ex(rec, "dlid", &v) &&
	   json_object_get_int(v) == 4, "dlid is the number 4");
	ok(rec && json_object_object_get_ex(rec, "delta", &v) &&
	   json_object_get_int(v) == -2, "delta is -2");
	ok(rec && json_object_object_get_ex(rec, "rate_gbps", &v) &&
	   json_object_is_type(v, json_type_double) &&
	   json_object_get_double(v) == 56.25, "rate_gbps is the double 56.25");
	ok(rec && json_object_object_get_ex(rec, "reversible", &v) &&
	   json_object_is_type(v, json_type_boolean) && json_object_get_boolean(v),
	   "reversible is true");
	ok(rec && json_object_object_get_ex(rec, "error", &v) && v == NULL,
	   "error is null");
	ok(rec && json_object_object_get_ex(rec, "note", &v) &&
	   strcmp(json_object_get_string(v), "json only") == 0, "JSON-only field");
	ok(rec && json_object_object_get_ex(rec, "grh", &v) &&
	   json_object_object_get_ex(v, "dgid", &v) &&
	   strcmp(json_object_get_string(v), "fe80::10:3") == 0, "nested grh.dgid");
	ok(strstr(text, "text only") == NULL, "no text-only words in JSON");
	json_object_put(doc);

	text = capture(pretty_run);
	ok(strstr(text, "\n  ") != NULL, "--pretty indents");
	doc = json_tokener_parse(text);
	ok(doc && json_object_array_length(doc) == 1, "and is the same JSON");
	json_object_put(doc);

	text = capture(fail_run);
	doc = json_tokener_parse(text);
	ok(doc && json_object_is_type(doc, json_type_object) &&
	   json_object_object_length(doc) == 2, "out_fail: one error object only");
	ok(doc && json_object_object_get_ex(doc, "error", &v) &&
	   strcmp(json_object_get_string(v), "no SM \"here\"") == 0,
	   "the message, quotes escaped");
	ok(doc && json_object_object_get_ex(doc, "exit_status", &v) &&
	   json_object_get_int(v) == 3, "exit_status 3");
	json_object_put(doc);

	text = capture(fail_text_run);
	is_str(text, "", "out_fail in text mode: nothing on stdout");

	text = capture(jsonl_run);
	{
		char *nl = strchr(text, '\n');

		ok(nl && strchr(nl + 1, '\n') == strrchr(text, '\n') &&
		   nl[1] == '{', "JSON Lines: two lines");
		if (nl)
			*nl = '\0';
		doc = json_tokener_parse(text);
		ok(doc && json_object_is_type(doc, json_type_object) &&
		   json_object_object_get_ex(doc, "dest", &v),
		   "each line one object");
		json_object_put(doc);
	}
	return tap_done();
}
