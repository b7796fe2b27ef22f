/* The streaming JSON writer of report -j and report --baseline -j
 * (lib/out/json_writer.h): the document it writes member by member is the
 * one a tree would give, compact and indented, with strings escaped and
 * repaired to UTF-8, and numbers in the forms lib/out/output.h writes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "out/json_writer.h"
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

int main(void)
{
	struct json_writer w;
	char *doc = NULL;
	size_t len;
	FILE *f;

	check(false);
	check(true);
	f = open_memstream(&doc, &len);
	json_writer_init(&w, f, false);
	jw_open_object(&w, NULL);
	ok(json_writer_finish(&w) == -1, "an object left open is a failure");
	fclose(f);
	free(doc);
	return tap_done();
}
