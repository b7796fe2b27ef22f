/* Unit tests of the splitter of report --traces input
 * (report_trace_split.h): an array's elements and top-level values one at
 * a time, brackets and commas inside strings no boundary, the same values
 * whether the stream comes whole or a byte at a time, a number at the end
 * handed out, and stray commas, missing commas, a value past the bound and
 * input that ends inside a value told apart; all of it the same with a
 * measure that takes objects whole (trace_split_set_measure). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "report/report_trace_split.h"

struct got {
	char text[1024];	/* the values, each followed by '|' */
};

static int collect(void *ctx, const char *value, size_t len)
{
	struct got *g = ctx;

	if (value[len] != '\0')
		return -1;
	snprintf(g->text + strlen(g->text), sizeof(g->text) - strlen(g->text),
		 "%s|", value);
	return 0;
}

/* A measure for the test: objects without strings, by their brackets;
 * counts the objects it took. */
static size_t measure_calls, measure_taken;

static size_t measure_brackets(void *ctx, const char *text, size_t len)
{
	long depth = 0;

	(void)ctx;
	measure_calls++;
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '"')
			return 0;
		depth += text[i] == '{' || text[i] == '[';
		depth -= text[i] == '}' || text[i] == ']';
		if (!depth) {
			measure_taken++;
			return i + 1;
		}
	}
	return 0;
}

static bool with_measure;

/* The values of doc, fed whole (bytewise false) or a byte at a time;
 * with_measure: objects measured (trace_split_set_measure). */
static enum trace_split_status split(const char *doc, size_t max, bool bytewise,
				     struct got *g)
{
	struct trace_split s;
	enum trace_split_status rc = TRACE_SPLIT_OK;
	size_t len = strlen(doc);

	g->text[0] = '\0';
	trace_split_init(&s, max);
	if (with_measure)
		trace_split_set_measure(&s, measure_brackets, NULL);
	if (bytewise)
		for (size_t i = 0; rc == TRACE_SPLIT_OK && i < len; i++)
			rc = trace_split_feed(&s, doc + i, 1, collect, g);
	else
		rc = trace_split_feed(&s, doc, len, collect, g);
	if (rc == TRACE_SPLIT_OK)
		rc = trace_split_end(&s, collect, g);
	trace_split_free(&s);
	return rc;
}

static void check(const char *doc, enum trace_split_status want,
		  const char *values, const char *what)
{
	struct got whole, bytes;

	is_int(split(doc, 4096, false, &whole), want, "%s: status", what);
	is_str(whole.text, values, "%s: values", what);
	is_int(split(doc, 4096, true, &bytes), want,
	       "%s: status a byte at a time", what);
	is_str(bytes.text, values, "%s: values a byte at a time", what);
}

static void checks(void)
{
	struct got g;

	check("[{\"a\":[1,2]}, {\"b\":\"],}[{\\\"\"} ]\n{\"c\":{}}",
	      TRACE_SPLIT_OK, "{\"a\":[1,2]}|{\"b\":\"],}[{\\\"\"}|{\"c\":{}}|",
	      "array then object");
	check(" [ ] [] ", TRACE_SPLIT_OK, "", "empty arrays");
	check("[1, true,\"s\"] 5", TRACE_SPLIT_OK, "1|true|\"s\"|5|",
	      "scalars, a number at the end");
	check("nonsense", TRACE_SPLIT_OK, "nonsense|", "junk handed out whole");
	check("[{},]", TRACE_SPLIT_SYNTAX, "{}|", "a comma before ]");
	check("[{} {}]", TRACE_SPLIT_SYNTAX, "{}|", "no comma");
	check("[,{}]", TRACE_SPLIT_SYNTAX, "", "a comma first");
	check("{}}", TRACE_SPLIT_SYNTAX, "{}|", "a stray }");
	check("{\"a\":1", TRACE_SPLIT_CUT, "", "ends inside a value");
	check("[{}", TRACE_SPLIT_CUT, "{}|", "ends inside the array");
	check("\"ab", TRACE_SPLIT_CUT, "", "ends inside a string");
	is_int(split("[{\"a\":\"0123456789\"}]", 10, false, &g),
	       TRACE_SPLIT_TOO_BIG, "a value past the bound");
	is_int(split("[{\"a\":\"0123\"}]", 12, false, &g), TRACE_SPLIT_OK,
	       "a value of the bound");
	check("[{}, {\"a\":1}, {\"b\":[{}]}, {\"c\":{\"d\":[1,2]}}]\n{} {}",
	      TRACE_SPLIT_OK, "{}|{\"a\":1}|{\"b\":[{}]}|{\"c\":{\"d\":[1,2]}}|"
	      "{}|{}|", "objects one after the other");
	is_int(split("[{},{}]", 4096, false, &g), TRACE_SPLIT_OK,
	       "[{},{}] splits");
	is_str(g.text, "{}|{}|", "[{},{}]: two objects");
	is_int(split("[{}{}]", 4096, false, &g), TRACE_SPLIT_SYNTAX,
	       "[{}{}]: no comma, measured or not");
	is_int(split("[{},,{}]", 4096, false, &g), TRACE_SPLIT_SYNTAX,
	       "[{},,{}]: two commas, measured or not");
	is_int(split("[{}],{}", 4096, false, &g), TRACE_SPLIT_SYNTAX,
	       "[{}],{}: a comma after the array, measured or not");
	is_int(split("[{[[[[[[[[[[[[[[]]]]]]]]]]]]]]}]", 8, false, &g),
	       TRACE_SPLIT_TOO_BIG, "an object past the bound, measured or not");
}

/* Every check with and without the measure: the same values and
 * statuses; the measure taking the objects it can when fed whole. */
int main(void)
{
	checks();
	with_measure = true;
	checks();
	ok(measure_calls > 0 && measure_taken > 0,
	   "the measure took objects (%zu of %zu calls)", measure_taken,
	   measure_calls);
	return tap_done();
}
