/* Unit tests of the output layer: one set of calls gives the text form and
 * JSON (parsed back with json-c), nothing reaches stdout before
 * out_finish(), out_fail() replaces a half-built document, JSON Lines
 * writes one object per record, and bytes that are no UTF-8 reach JSON as
 * U+FFFD (byte vectors, Unicode's Table 3-8). */
#include <stdlib.h>
#include <unistd.h>

#include <json-c/json.h>

#include "out/output.h"
#include "capture.h"
#include "tap.h"

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
	out_element_null(" [%s]");
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

/* Byte vectors for out_utf8_repair: what goes in, what must come out. */
#define FFFD "\xef\xbf\xbd"
static const struct {
	const char *what, *in;
	size_t len;
	const char *want;
	size_t want_len;
} utf8_cases[] = {
#define CASE(what, in, want) \
	{ what, in, sizeof(in) - 1, want, sizeof(want) - 1 }
	CASE("empty", "", ""),
	CASE("ASCII", "lid:4", "lid:4"),
	CASE("two, three and four bytes",
	     "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
	     "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"),
	CASE("the edges: U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFF, "
	     "U+10000, U+10FFFF",
	     "\xc2\x80\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80"
	     "\xef\xbf\xbf\xf0\x90\x80\x80\xf4\x8f\xbf\xbf",
	     "\xc2\x80\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80"
	     "\xef\xbf\xbf\xf0\x90\x80\x80\xf4\x8f\xbf\xbf"),
	CASE("U+FFFD itself stays", FFFD, FFFD),
	CASE("a NUL is kept, not a cut", "a\0b", "a\0b"),
	CASE("a stray continuation byte", "a\x80" "b", "a" FFFD "b"),
	CASE("FE and FF start nothing", "\xfe\xff", FFFD FFFD),
	CASE("overlong two-byte '/' (C0 AF)", "\xc0\xaf", FFFD FFFD),
	CASE("overlong two-byte (C1 BF)", "\xc1\xbf", FFFD FFFD),
	CASE("overlong three-byte (E0 80 AF)", "\xe0\x80\xaf", FFFD FFFD FFFD),
	CASE("overlong four-byte (F0 80 80 AF)", "\xf0\x80\x80\xaf",
	     FFFD FFFD FFFD FFFD),
	CASE("surrogate U+D800 (ED A0 80)", "\xed\xa0\x80", FFFD FFFD FFFD),
	CASE("surrogate U+DFFF (ED BF BF)", "\xed\xbf\xbf", FFFD FFFD FFFD),
	CASE("U+110000 (F4 90 80 80)", "\xf4\x90\x80\x80",
	     FFFD FFFD FFFD FFFD),
	CASE("F5 and above (F5 80 80 80)", "\xf5\x80\x80\x80",
	     FFFD FFFD FFFD FFFD),
	CASE("a three-byte sequence cut at the end: one U+FFFD",
	     "x\xe2\x82", "x" FFFD),
	CASE("a four-byte sequence cut at the end: one U+FFFD",
	     "x\xf0\x9f\x98", "x" FFFD),
	CASE("a sequence cut by ASCII keeps the ASCII", "\xe2\x82" "A",
	     FFFD "A"),
	CASE("a sequence cut by a NUL keeps the NUL", "\xc3\0", FFFD "\0"),
	CASE("a cut sequence before a whole one", "\xe2\xe2\x82\xac",
	     FFFD "\xe2\x82\xac"),
	/* Unicode 15.0, Table 3-8: maximal subparts, one U+FFFD each. */
	CASE("Unicode Table 3-8",
	     "\x61\xf1\x80\x80\xe1\x80\xc2\x62\x80\x63\x80\xbf\x64",
	     "a" FFFD FFFD FFFD "b" FFFD "c" FFFD FFFD "d"),
#undef CASE
};

static void utf8_repair_cases(void)
{
	for (size_t i = 0; i < sizeof(utf8_cases) / sizeof(utf8_cases[0]); i++) {
		size_t len = 12345;
		char *got = out_utf8_repair(utf8_cases[i].in, utf8_cases[i].len,
					    &len);

		ok(got && len == utf8_cases[i].want_len &&
		   memcmp(got, utf8_cases[i].want, len) == 0 && got[len] == '\0',
		   "UTF-8 repair: %s", utf8_cases[i].what);
		if (got && len != utf8_cases[i].want_len)
			printf("#   got %zu bytes, expected %zu\n", len,
			       utf8_cases[i].want_len);
		free(got);
	}
}

/* Every single byte, and every pair, alone: the output is always
 * well-formed (its repair changes nothing) and never longer than 3x. */
static void utf8_repair_is_idempotent(void)
{
	unsigned char in[3];
	size_t bad = 0;

	for (unsigned v = 0; v < 0x10000; v++) {
		size_t len, len2;
		char *once, *twice;

		in[0] = (unsigned char)(v >> 8);
		in[1] = (unsigned char)v;
		once = out_utf8_repair((const char *)in, 2, &len);
		twice = once ? out_utf8_repair(once, len, &len2) : NULL;
		if (!twice || len2 != len || memcmp(once, twice, len) != 0 ||
		    len > 6)
			bad++;
		free(once);
		free(twice);
	}
	is_int(bad, 0, "UTF-8 repair of all 65536 byte pairs is well-formed "
		       "(repairing it again changes nothing)");
}

static const char *bad_bytes = "lid:\xff\xc0\xaf\xed\xa0\x80\xe2\x82";

static void bad_string_run(void)
{
	out_init(OUT_JSON, false);
	out_open_object(NULL);
	out_string("dest", NULL, bad_bytes);
	out_open_array("names");
	out_element_string(NULL, bad_bytes);
	out_close_array();
	out_string("k\xff", NULL, "v");
	out_close_object();
	out_finish();
}

static void bad_error_run(void)
{
	out_init(OUT_JSON, false);
	out_fail(2, bad_bytes);
}

static void bad_error_text_run(void)
{
	out_init(OUT_TEXT, false);
	out_string("dest", "%s\n", bad_bytes);
	out_finish();
}

int main(void)
{
	struct json_object *doc, *rec, *v;
	char *text;

	text = capture(text_run);
	is_str(text, "lid:4: ok dlid 4 delta -2 rate 56.2 reversible yes error - "
		     "(text only) dgid fe80::10:3 [reachable] [-] hops 1,2\n",
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
	   json_object_array_length(v) == 2 &&
	   strcmp(json_object_get_string(json_object_array_get_idx(v, 0)),
		  "reachable") == 0 && !json_object_array_get_idx(v, 1),
	   "array of a string and a null");
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
	utf8_repair_cases();
	utf8_repair_is_idempotent();

	text = capture(bad_string_run);
	is_str(text, "{\"dest\":\"lid:" FFFD FFFD FFFD FFFD FFFD FFFD FFFD
		     "\",\"names\":[\"lid:" FFFD FFFD FFFD FFFD FFFD FFFD FFFD
		     "\"],\"k" FFFD "\":\"v\"}\n",
	       "JSON strings, array members and keys: bytes that are no "
	       "UTF-8 become U+FFFD");
	text = capture(bad_error_run);
	is_str(text, "{\"error\":\"lid:" FFFD FFFD FFFD FFFD FFFD FFFD FFFD
		     "\",\"exit_status\":2}\n",
	       "the error object too");
	text = capture(bad_error_text_run);
	ok(strcmp(text, "lid:\xff\xc0\xaf\xed\xa0\x80\xe2\x82\n") == 0,
	   "text output is left as it is (escaping for terminals is "
	   "another rule)");
	return tap_done();
}
