/* The streaming JSON writer of report -j and report --baseline -j
 * (lib/out/json_writer.h): the document it writes member by member is the
 * one a tree would give, compact and indented, with strings escaped and
 * repaired to UTF-8, and numbers in the forms lib/out/output.h writes;
 * byte for byte json-c's, but for the report's "[]" and "{}" when pretty
 * (empty_split gives json-c's, for output.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "out/json_writer.h"
#include "out/output.h"
#include "tap.h"

/* A small document through the writer; the text in *doc (free it). */
static int write_doc(bool pretty, char **doc)
{
	struct json_writer w;
	size_t len;
	FILE *f = open_memstream(doc, &len);
	int rc;

	json_writer_init(&w, f, pretty);
	jw_open_object(&w, NULL);
	jw_string(&w, "name", "a \"quoted\" \\ name\n\t\x01/");
	jw_string(&w, "bad", "caf\xc3\xa9 \xff end");
	jw_string(&w, "none", NULL);
	jw_uint(&w, "big", 18446744073709551615ULL);
	jw_int(&w, "neg", -42);
	jw_double(&w, "rtt", 12.5);
	jw_double(&w, "nan", NAN);
	jw_bool(&w, "yes", true);
	jw_null(&w, "nothing");
	jw_open_array(&w, "empty");
	jw_close_array(&w);
	jw_open_array(&w, "list");
	jw_int(&w, NULL, 1);
	jw_open_object(&w, NULL);
	jw_string(&w, "k", "v");
	jw_close_object(&w);
	jw_close_array(&w);
	jw_close_object(&w);
	rc = json_writer_finish(&w);
	fclose(f);
	return rc;
}

static void check(bool pretty)
{
	const char *form = pretty ? "pretty" : "compact";
	char *doc = NULL;
	json_object *o, *v;

	ok(write_doc(pretty, &doc) == 0, "%s: written", form);
	o = json_tokener_parse(doc);
	ok(o != NULL, "%s: json-c reads it back", form);
	if (!o) {
		free(doc);
		return;
	}
	json_object_object_get_ex(o, "name", &v);
	is_str(json_object_get_string(v), "a \"quoted\" \\ name\n\t\x01/",
	       "%s: quote, backslash and controls escaped, read back", form);
	json_object_object_get_ex(o, "bad", &v);
	is_str(json_object_get_string(v), "caf\xc3\xa9 \xef\xbf\xbd end",
	       "%s: a byte that is no UTF-8 becomes U+FFFD", form);
	ok(json_object_object_get_ex(o, "none", &v) && v == NULL,
	   "%s: a NULL string is null", form);
	json_object_object_get_ex(o, "big", &v);
	ok(json_object_get_uint64(v) == 18446744073709551615ULL,
	   "%s: the largest uint64", form);
	json_object_object_get_ex(o, "rtt", &v);
	ok(json_object_get_double(v) == 12.5, "%s: a double", form);
	ok(json_object_object_get_ex(o, "nan", &v) && v == NULL,
	   "%s: NaN is null", form);
	json_object_object_get_ex(o, "list", &v);
	ok(json_object_array_length(v) == 2, "%s: nested array", form);
	json_object_put(o);
	ok(strstr(doc, "\\u0001") && !strstr(doc, "\\/"),
	   "%s: a control as \\u0001, no escaped slash", form);
	ok(pretty ? strstr(doc, "\n  \"name\": ") != NULL
		  : strchr(doc, '\n') == doc + strlen(doc) - 1,
	   "%s: %s", form, pretty ? "two-space indent, \": \"" : "one line");
	free(doc);
}

static const char ill_formed[] =
	"\xc3\x28 \xe2\x82 \xed\xa0\x80 \xf4\x90\x80\x80";

/* The same small document, as the writer writes it. */
static char *writer_doc(bool pretty, bool empty_split)
{
	char ascii[128], *doc = NULL;
	struct json_writer w;
	size_t len;
	FILE *f = open_memstream(&doc, &len);

	for (int c = 1; c < 128; c++)
		ascii[c - 1] = (char)c;
	ascii[127] = '\0';
	json_writer_init(&w, f, pretty);
	w.empty_split = empty_split;
	jw_open_object(&w, NULL);
	jw_string(&w, ascii, ascii);
	jw_string(&w, "bad", ill_formed);
	jw_uint(&w, "u", UINT64_MAX);
	jw_int(&w, "i", INT64_MIN);
	jw_double(&w, "d", 1e21);
	jw_double(&w, "e", -0.0);
	jw_open_object(&w, "o");
	jw_close_object(&w);
	jw_open_array(&w, "a");
	jw_open_array(&w, NULL);
	jw_close_array(&w);
	jw_open_object(&w, NULL);
	jw_close_object(&w);
	jw_null(&w, NULL);
	jw_bool(&w, NULL, false);
	jw_close_array(&w);
	jw_close_object(&w);
	json_writer_finish(&w);
	fclose(f);
	return doc;
}

/* ... and as a json-c tree (strings repaired first, as output.c did). */
static char *jsonc_doc(bool pretty)
{
	char ascii[128], repr[32], *fixed, *doc;
	json_object *o = json_object_new_object(), *a;
	const char *s;
	size_t len;

	for (int c = 1; c < 128; c++)
		ascii[c - 1] = (char)c;
	ascii[127] = '\0';
	json_object_object_add(o, ascii, json_object_new_string(ascii));
	fixed = out_utf8_repair(ill_formed, strlen(ill_formed), &len);
	json_object_object_add(o, "bad", json_object_new_string(fixed));
	free(fixed);
	json_object_object_add(o, "u", json_object_new_uint64(UINT64_MAX));
	json_object_object_add(o, "i", json_object_new_int64(INT64_MIN));
	snprintf(repr, sizeof(repr), "%.10g", 1e21);
	json_object_object_add(o, "d", json_object_new_double_s(1e21, repr));
	snprintf(repr, sizeof(repr), "%.10g", -0.0);
	json_object_object_add(o, "e", json_object_new_double_s(-0.0, repr));
	json_object_object_add(o, "o", json_object_new_object());
	a = json_object_new_array();
	json_object_array_add(a, json_object_new_array());
	json_object_array_add(a, json_object_new_object());
	json_object_array_add(a, NULL);
	json_object_array_add(a, json_object_new_boolean(0));
	json_object_object_add(o, "a", a);
	s = json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_NOSLASHESCAPE |
			   (pretty ? JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_SPACED
				   : JSON_C_TO_STRING_PLAIN));
	doc = malloc(strlen(s) + 2);
	sprintf(doc, "%s\n", s);
	json_object_put(o);
	return doc;
}

static void same_bytes_as_jsonc(void)
{
	char *got, *want;

	got = writer_doc(false, false);
	want = jsonc_doc(false);
	ok(strcmp(got, want) == 0,
	   "compact: json-c's bytes (escapes, U+FFFD, numbers, empties)");
	free(got);
	free(want);
	if (json_c_version_num() != 0x001000) {
		printf("# json-c %s is not 0.16: its pretty layout not "
		       "compared\n", json_c_version());
		return;
	}
	got = writer_doc(true, true);
	want = jsonc_doc(true);
	ok(strcmp(got, want) == 0, "pretty with empty_split: json-c's bytes");
	if (strcmp(got, want) != 0)
		printf("#   got \"%s\"\n#   expected \"%s\"\n", got, want);
	free(got);
	free(want);
	got = writer_doc(true, false);
	ok(strstr(got, "\"o\": {},\n  \"a\": [\n    [],\n    {},\n    null,"
			"\n    false\n  ]\n}\n") != NULL,
	   "pretty without it: the report's \"{}\" and \"[]\"");
	free(got);
}

int main(void)
{
	struct json_writer w;
	char *doc = NULL;
	size_t len;
	FILE *f;

	check(false);
	check(true);
	same_bytes_as_jsonc();
	f = open_memstream(&doc, &len);
	json_writer_init(&w, f, false);
	jw_open_object(&w, NULL);
	ok(json_writer_finish(&w) == -1, "an object left open is a failure");
	fclose(f);
	free(doc);
	return tap_done();
}
