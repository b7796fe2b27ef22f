/* Unit tests of serve's summary (lib/peer/responder_print.h): the text
 * names every reason a request was dropped, as JSON's "dropped" object
 * does, and JSON keeps a count for each reason. */
#include <stdlib.h>
#include <unistd.h>

#include <json-c/json.h>

#include "out/output.h"
#include "peer/responder.h"
#include "peer/responder_print.h"
#include "tap.h"

static struct responder responder;

/* The summary of responder in the given form, as stdout receives it. */
static char *summary(enum out_format format)
{
	static char text[4096];
	FILE *tmp = tmpfile();
	int saved = dup(STDOUT_FILENO);
	size_t n;

	fflush(stdout);
	dup2(fileno(tmp), STDOUT_FILENO);
	out_init(format, false);
	responder_summary_print(&responder, "SIGTERM");
	out_finish();
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(text, 1, sizeof(text) - 1, tmp);
	text[n] = '\0';
	fclose(tmp);
	return text;
}

int main(void)
{
	json_object *o, *dropped, *v;

	responder.answered = 40;
	responder.reverse.created = 3;
	is_str(summary(OUT_TEXT),
	       "summary: stopped by SIGTERM, answered 40, dropped 0, reverse "
	       "AHs created 3\n", "nothing dropped: no reasons");

	responder.dropped[DROP_REVERSE_AH] = 10;
	responder.dropped[DROP_RATE_LIMIT] = 2;
	responder.dropped[DROP_TRUNCATED] = 1;
	is_str(summary(OUT_TEXT),
	       "summary: stopped by SIGTERM, answered 40, dropped 13 "
	       "(truncated 1, reverse_ah 10, rate_limited 2), reverse AHs "
	       "created 3\n", "each reason named, with its count");

	responder.dropped[DROP_TRUNCATED] = 0;
	responder.dropped[DROP_RATE_LIMIT] = 0;
	is_str(summary(OUT_TEXT),
	       "summary: stopped by SIGTERM, answered 40, dropped 10 "
	       "(reverse_ah 10), reverse AHs created 3\n", "one reason");

	responder.dropped[DROP_RATE_LIMIT] = 2;
	o = json_tokener_parse(summary(OUT_JSONL));
	ok(o && json_object_object_get_ex(o, "dropped", &dropped) &&
	   json_object_object_length(dropped) == DROP_COUNT,
	   "JSON: a count for every reason");
	ok(json_object_object_get_ex(dropped, "reverse_ah", &v) &&
	   json_object_get_int(v) == 10 &&
	   json_object_object_get_ex(dropped, "rate_limited", &v) &&
	   json_object_get_int(v) == 2 &&
	   json_object_object_get_ex(dropped, "truncated", &v) &&
	   json_object_get_int(v) == 0, "named as the text names them");
	ok(json_object_object_get_ex(o, "dropped_total", &v) &&
	   json_object_get_int(v) == 12, "and their total");
	json_object_put(o);
	return tap_done();
}
