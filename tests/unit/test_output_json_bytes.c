/* The output layer's JSON, byte for byte, against json-c: its documents
 * were json-c trees written by json_object_to_json_string_ext() with
 * NOSLASHESCAPE and PLAIN (compact, JSON Lines) or PRETTY|SPACED
 * (--pretty), and lib/out/json_writer.c, which writes them now, must keep
 * every byte. Fixed cases name each rule (layout of empty and nested
 * containers, every control character, DEL, invalid UTF-8, the integer
 * and double forms); generated documents (a fixed seed) then check them
 * together, each built once through out_*() and once as a json-c tree. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include <json-c/json.h>

#include "out/output.h"
#include "tap.h"

/* Runs fn(arg) with stdout going to a file; returns what it wrote
 * (malloc'ed). */
static char *capture(void (*fn)(void *), void *arg)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDOUT_FILENO);
	char *text;
	long n;

	fflush(stdout);
	dup2(fileno(tmp), STDOUT_FILENO);
	fn(arg);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	n = ftell(tmp);
	text = calloc(1, (size_t)n + 1);
	rewind(tmp);
	if (fread(text, 1, (size_t)n, tmp) != (size_t)n)
		text[0] = '\0';
	fclose(tmp);
	return text;
}

/* What json-c wrote for a tree, with output.c's line end. */
static char *jsonc_doc(json_object *root, bool pretty)
{
	int flags = JSON_C_TO_STRING_NOSLASHESCAPE |
		    (pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED
			    : JSON_C_TO_STRING_PLAIN);
	const char *s = json_object_to_json_string_ext(root, flags);
	char *doc = malloc(strlen(s) + 2);

	sprintf(doc, "%s\n", s);
	return doc;
}

/* A string as output.c gave it to json-c: repaired to UTF-8. */
static json_object *jsonc_string(const char *s)
{
	size_t len;
	char *fixed = out_utf8_repair(s, strlen(s), &len);
	json_object *o = json_object_new_string_len(fixed, (int)len);

	free(fixed);
	return o;
}

static json_object *jsonc_double(double v)
{
	char repr[64];

	if (!isfinite(v))
		return NULL;
	snprintf(repr, sizeof(repr), "%.10g", v);
	return json_object_new_double_s(v, repr);
}

static void compare(const char *got, const char *want, const char *what, ...)
	__attribute__((format(printf, 3, 4)));
static void compare(const char *got, const char *want, const char *what, ...)
{
	char name[256];
	va_list ap;

	va_start(ap, what);
	vsnprintf(name, sizeof(name), what, ap);
	va_end(ap);
	if (!ok(strcmp(got, want) == 0, "%s", name))
		printf("#   got      \"%s\"\n#   expected \"%s\"\n", got, want);
}

/* Fixed cases: each writes through out_*() and states its bytes. */

static void empty_containers(void *arg)
{
	out_init(OUT_JSON, *(bool *)arg);
	out_open_object(NULL);
	out_open_object("o");
	out_close_object();
	out_open_array("a");
	out_close_array();
	out_open_array("nested");
	out_open_array(NULL);
	out_close_array();
	out_open_object(NULL);
	out_close_object();
	out_open_array(NULL);
	out_open_array(NULL);
	out_close_array();
	out_close_array();
	out_close_array();
	out_close_object();
	out_finish();
}

static void empty_root_array(void *arg)
{
	out_init(OUT_JSON, *(bool *)arg);
	out_open_array(NULL);
	out_close_array();
	out_finish();
}

static void empty_root_object(void *arg)
{
	out_init(OUT_JSON, *(bool *)arg);
	out_open_object(NULL);
	out_close_object();
	out_finish();
}

static void layout_cases(void)
{
	bool pretty = false;
	char *got;

	got = capture(empty_containers, &pretty);
	compare(got, "{\"o\":{},\"a\":[],\"nested\":[[],{},[[]]]}\n",
		"compact: empty and nested containers");
	free(got);
	pretty = true;
	got = capture(empty_containers, &pretty);
	compare(got,
		"{\n"
		"  \"o\": {\n"
		"  },\n"
		"  \"a\": [\n"
		"  ],\n"
		"  \"nested\": [\n"
		"    [\n"
		"    ],\n"
		"    {\n"
		"    },\n"
		"    [\n"
		"      [\n"
		"      ]\n"
		"    ]\n"
		"  ]\n"
		"}\n",
		"pretty: json-c 0.16's layout, an empty object or array on two "
		"lines, its closing bracket at its own indent");
	free(got);
	got = capture(empty_root_array, &pretty);
	compare(got, "[\n]\n", "pretty: an empty root array");
	free(got);
	got = capture(empty_root_object, &pretty);
	compare(got, "{\n}\n", "pretty: an empty root object");
	free(got);
	pretty = false;
	got = capture(empty_root_array, &pretty);
	compare(got, "[]\n", "compact: an empty root array");
	free(got);
}

/* Every byte from 0x01 to 0x7f in a string and in a key, compact. */
static void ascii_string(void *arg)
{
	char s[128];

	(void)arg;
	for (int c = 1; c < 128; c++)
		s[c - 1] = (char)c;
	s[127] = '\0';
	out_init(OUT_JSON, false);
	out_open_object(NULL);
	out_string(s, NULL, s);
	out_close_object();
	out_finish();
}

static void escape_cases(void)
{
	char want[2048], *o = want, *got;
	char s[512];

	/* json-c 0.16, json_escape_str(): short forms for \b \t \n \f \r,
	 * \u00xx (lower-case hex) for the other controls, '"' and '\\'
	 * escaped, '/' (NOSLASHESCAPE) and DEL as they are. */
	for (int c = 1; c < 128; c++) {
		switch (c) {
		case '\b': o += sprintf(o, "\\b"); break;
		case '\t': o += sprintf(o, "\\t"); break;
		case '\n': o += sprintf(o, "\\n"); break;
		case '\f': o += sprintf(o, "\\f"); break;
		case '\r': o += sprintf(o, "\\r"); break;
		case '"': o += sprintf(o, "\\\""); break;
		case '\\': o += sprintf(o, "\\\\"); break;
		default:
			if (c < 0x20)
				o += sprintf(o, "\\u00%02x", c);
			else
				*o++ = (char)c;
		}
	}
	*o = '\0';
	memcpy(s, want, (size_t)(o - want) + 1);
	snprintf(want, sizeof(want), "{\"%s\":\"%s\"}\n", s, s);
	got = capture(ascii_string, NULL);
	compare(got, want, "every byte 0x01..0x7f in a key and a string: "
			   "the escapes json-c wrote");
	free(got);
	{
		json_object *root = json_object_new_object();
		char *jc;

		for (int c = 1; c < 128; c++)
			s[c - 1] = (char)c;
		s[127] = '\0';
		json_object_object_add(root, s, json_object_new_string(s));
		jc = jsonc_doc(root, false);
		got = capture(ascii_string, NULL);
		compare(got, jc, "and what json-c %s writes", json_c_version());
		free(jc);
		free(got);
		json_object_put(root);
	}
}

static void numbers(void *arg)
{
	(void)arg;
	out_init(OUT_JSON, false);
	out_open_array(NULL);
	out_uint("u", NULL, 0);
	out_uint("u", NULL, UINT64_MAX);
	out_int("i", NULL, INT64_MIN);
	out_int("i", NULL, INT64_MAX);
	out_int("i", NULL, -1);
	out_element_int(NULL, -42);
	out_double("d", NULL, 0.0);
	out_double("d", NULL, -0.0);
	out_double("d", NULL, 1e-7);
	out_double("d", NULL, 1e21);
	out_double("d", NULL, 0.1);
	out_double("d", NULL, 12.5);
	out_double("d", NULL, 1.0 / 3);
	out_double("d", NULL, NAN);
	out_double("d", NULL, INFINITY);
	out_double("d", NULL, -INFINITY);
	out_bool("b", NULL, true);
	out_bool("b", NULL, false);
	out_null("n", NULL);
	out_element_null(NULL);
	out_string("s", NULL, NULL);
	out_element_string(NULL, NULL);
	out_close_array();
	out_finish();
}

static void number_cases(void)
{
	char *got = capture(numbers, NULL);

	compare(got,
		"[0,18446744073709551615,-9223372036854775808,"
		"9223372036854775807,-1,-42,0,-0,1e-07,1e+21,0.1,12.5,"
		"0.3333333333,null,null,null,true,false,null,null,null,\"\"]\n",
		"integers in decimal (uint64 and int64 ends), doubles as "
		"\"%%.10g\" (0, -0, 1e-07, 1e+21), non-finite ones null, "
		"a NULL string null, a NULL element \"\"");
	free(got);
}

static void bad_utf8_and_nul(void *arg)
{
	(void)arg;
	out_init(OUT_JSON, false);
	out_open_object(NULL);
	/* A C string ends at its NUL: nothing after it reaches JSON. */
	out_string("nul", NULL, "a\0b");
	out_string("bad", NULL, "\xc3\x28 \xe2\x82 \xed\xa0\x80 \x7f");
	out_close_object();
	out_finish();
}

static void utf8_cases(void)
{
	char *got = capture(bad_utf8_and_nul, NULL);

	compare(got,
		"{\"nul\":\"a\",\"bad\":\"\xef\xbf\xbd( \xef\xbf\xbd "
		"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd \x7f\"}\n",
		"a string ends at its NUL; ill-formed UTF-8 becomes U+FFFD "
		"before escaping; DEL as it is");
	free(got);
}

/* What output.c did beyond plain documents, as its json-c tree did it. */

static void root_replaced(void *arg)
{
	(void)arg;
	out_init(OUT_JSON, false);
	out_open_object(NULL);
	out_uint("first", NULL, 1);
	out_close_object();
	out_open_array(NULL);
	out_uint("second", NULL, 2);
	out_close_array();
	out_finish();
}

static void null_root(void *arg)
{
	(void)arg;
	out_init(OUT_JSON, false);
	out_open_object(NULL);
	out_close_object();
	out_null("gone", NULL);
	out_finish();
}

static void scalar_root(void *arg)
{
	(void)arg;
	out_init(OUT_JSON, false);
	out_uint("key", NULL, 7);
	out_finish();
}

static void left_open(void *arg)
{
	(void)arg;
	out_init(OUT_JSON, true);
	out_open_object(NULL);
	out_open_array("a");
	out_open_object(NULL);
	out_uint("x", NULL, 1);
	out_finish();
}

static void mismatched_close(void *arg)
{
	(void)arg;
	out_init(OUT_JSON, false);
	out_open_object(NULL);
	out_open_object("o");
	out_close_array();
	out_open_array("a");
	out_close_object();
	out_close_object();
	out_close_object();
	out_finish();
}

static void keys_where_none_belong(void *arg)
{
	(void)arg;
	out_init(OUT_JSON, false);
	out_open_object(NULL);
	out_element_string(NULL, "no key");
	out_open_array("a");
	out_string("ignored", NULL, "x");
	out_open_object("ignored too");
	out_close_object();
	out_close_array();
	out_close_object();
	out_finish();
}

static void jsonl_records(void *arg)
{
	(void)arg;
	out_init(OUT_JSONL, true);
	out_open_object(NULL);
	out_open_array("a");
	out_close_array();
	out_close_object();
	out_open_object(NULL);
	out_uint("not yet", NULL, 1);
	out_flush_record();
	out_close_object();
	out_flush_record();
	out_open_object(NULL);
	out_bool("b", NULL, true);
	out_close_object();
	out_flush_record();
	out_finish();
}

static void fail_pretty(void *arg)
{
	static const struct out_fail_context ctx = {
		"ibahprobe.probe.v1", "run-1", "2026-01-01T00:00:00Z", "h\x01",
	};

	out_init(OUT_JSON, true);
	out_set_fail_context(*(bool *)arg ? &ctx : NULL);
	out_open_array(NULL);
	out_uint("half", NULL, 1);
	out_fail(3, "no SM\n");
	out_set_fail_context(NULL);
}

static void structure_cases(void)
{
	bool context = false;
	char *got;

	got = capture(root_replaced, NULL);
	compare(got, "[2]\n", "a second value at the root replaces the first");
	free(got);
	got = capture(null_root, NULL);
	compare(got, "", "a null at the root leaves no document");
	free(got);
	got = capture(scalar_root, NULL);
	compare(got, "7\n", "a scalar at the root: its key is dropped");
	free(got);
	got = capture(left_open, NULL);
	compare(got,
		"{\n  \"a\": [\n    {\n      \"x\": 1\n    }\n  ]\n}\n",
		"containers left open at out_finish() are closed");
	free(got);
	got = capture(mismatched_close, NULL);
	compare(got, "{\"o\":{},\"a\":[]}\n",
		"out_close_array() on an object closes the object, and the "
		"other way round; a close at the root is ignored");
	free(got);
	got = capture(keys_where_none_belong, NULL);
	compare(got, "{\"?\":\"no key\",\"a\":[\"x\",{}]}\n",
		"a keyless member of an object is \"?\"; keys in an array "
		"are dropped");
	free(got);
	got = capture(jsonl_records, NULL);
	compare(got, "{\"not yet\":1}\n{\"b\":true}\n",
		"JSON Lines: compact even with --pretty, one line a record, "
		"out_flush_record() inside a record waits for its end, a "
		"record not flushed is replaced by the next");
	free(got);
	got = capture(fail_pretty, &context);
	compare(got,
		"{\n  \"error\": \"no SM\\n\",\n  \"exit_status\": 3\n}\n",
		"out_fail(): pretty, the half-built document gone");
	free(got);
	context = true;
	got = capture(fail_pretty, &context);
	compare(got,
		"{\n  \"schema\": \"ibahprobe.probe.v1\",\n"
		"  \"record\": \"error\",\n  \"run_id\": \"run-1\",\n"
		"  \"start_time\": \"2026-01-01T00:00:00Z\",\n"
		"  \"source\": {\n    \"host\": \"h\\u0001\"\n  },\n"
		"  \"error\": \"no SM\\n\",\n  \"exit_status\": 3\n}\n",
		"out_fail() with its context members, in json-c's order");
	free(got);
}

/* Generated documents: a seeded generator draws each document and
 * writes it twice as it goes, through out_*() and into a json-c tree. */

struct gen {
	uint64_t state;
	json_object *root;	/* the json-c tree */
};

static uint32_t draw(struct gen *g, uint32_t n)
{
	/* xorshift64*: fixed and portable, enough to pick shapes. */
	g->state ^= g->state >> 12;
	g->state ^= g->state << 25;
	g->state ^= g->state >> 27;
	return (uint32_t)((g->state * 0x2545f4914f6cdd1dULL) >> 32) % n;
}

/* Strings of bytes that need escaping or repair, or none. */
static void draw_string(struct gen *g, char *s, size_t size)
{
	static const char *const pieces[] = {
		"lid:4", "mlx5_0", "/", "\"", "\\", "\x7f", "\t", "\n", "\r",
		"\b", "\f", "\x01", "\x1f", "\xc3\xa9", "\xe2\x82\xac",
		"\xf0\x9f\x98\x80", "\xff", "\xc0\xaf", "\xed\xa0\x80",
		"\xe2\x82", " ", "\xef\xbf\xbd", "a",
	};
	size_t n = draw(g, 6), len = 0;

	s[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		const char *p = pieces[draw(g, sizeof(pieces) / sizeof(*pieces))];

		if (len + strlen(p) + 1 > size)
			break;
		strcpy(s + len, p);
		len += strlen(p);
	}
}

static double draw_double(struct gen *g)
{
	static const double fixed[] = {
		0.0, -0.0, 1e-7, 1e21, 0.1, 12.5, -3.75, 1e300, 5e-324,
		123456789.123, NAN, INFINITY, -INFINITY,
	};
	uint32_t i = draw(g, sizeof(fixed) / sizeof(*fixed) + 1);

	if (i < sizeof(fixed) / sizeof(*fixed))
		return fixed[i];
	return (double)draw(g, 2000000) / 1000.0 - 1000.0;
}

static void tree_add(struct gen *g, json_object *parent, const char *key,
		     json_object *v)
{
	size_t len;
	char *fixed;

	if (!parent) {
		g->root = v;
	} else if (json_object_is_type(parent, json_type_array)) {
		json_object_array_add(parent, v);
	} else {
		fixed = out_utf8_repair(key, strlen(key), &len);
		json_object_object_add(parent, fixed, v);
		free(fixed);
	}
}

static void gen_value(struct gen *g, json_object *parent, const char *key,
		      int depth)
{
	bool in_array = parent && json_object_is_type(parent, json_type_array);
	/* An array's members are drawn with a key (which it drops) or
	 * through out_element_*(). */
	bool element = in_array && draw(g, 2);
	/* 0..6 scalars, 7..9 containers; none below depth 5, for
	 * output.h's depth limit. */
	uint32_t kind = draw(g, depth == 0 ? 2 : depth < 5 ? 10 : 7);
	char s[128];
	uint64_t u;
	int64_t i;
	double d;

	switch (depth == 0 ? 8 + kind : kind) {
	case 0:
		u = draw(g, 3) == 0 ? UINT64_MAX : draw(g, 100000);
		out_uint(key, NULL, u);
		tree_add(g, parent, key, json_object_new_uint64(u));
		break;
	case 1:
		u = draw(g, 3);
		i = u == 0 ? INT64_MIN : u == 1 ? -(int64_t)draw(g, 100000)
						: INT64_MAX;
		if (element)
			out_element_int(NULL, i);
		else
			out_int(key, NULL, i);
		tree_add(g, parent, key, json_object_new_int64(i));
		break;
	case 2:
		d = draw_double(g);
		out_double(key, NULL, d);
		tree_add(g, parent, key, jsonc_double(d));
		break;
	case 3:
		u = draw(g, 2);
		out_bool(key, NULL, u);
		tree_add(g, parent, key, json_object_new_boolean(u));
		break;
	case 4:
		if (element)
			out_element_null(NULL);
		else
			out_null(key, NULL);
		tree_add(g, parent, key, NULL);
		break;
	case 5:
	case 6:
		draw_string(g, s, sizeof(s));
		if (element)
			out_element_string(NULL, s);
		else
			out_string(key, NULL, s);
		tree_add(g, parent, key, jsonc_string(s));
		break;
	default: {
		bool is_array = kind % 2;
		uint32_t members = draw(g, 5);
		json_object *self = is_array ? json_object_new_array()
					     : json_object_new_object();

		tree_add(g, parent, key, self);
		if (is_array)
			out_open_array(key);
		else
			out_open_object(key);
		for (uint32_t m = 0; m < members; m++) {
			char suffix[64], child_key[96];

			/* Unique keys: a repeated one is another rule. */
			draw_string(g, suffix, sizeof(suffix));
			snprintf(child_key, sizeof(child_key), "k%u%s", m,
				 suffix);
			gen_value(g, self, child_key, depth + 1);
		}
		if (is_array)
			out_close_array();
		else
			out_close_object();
	}
	}
}

struct gen_run {
	uint64_t seed;
	enum out_format format;
	bool pretty;
	int records;
	char *want;		/* json-c's bytes of the same documents */
};

static void generated(void *arg)
{
	struct gen_run *r = arg;
	struct gen g = { .state = r->seed * 2654435761u + 1 };
	size_t want_len = 0;
	FILE *want = open_memstream(&r->want, &want_len);

	out_init(r->format, r->pretty);
	for (int k = 0; k < r->records; k++) {
		char *doc;

		g.root = NULL;
		gen_value(&g, NULL, NULL, 0);
		if (r->format == OUT_JSONL)
			out_flush_record();
		doc = jsonc_doc(g.root, r->pretty && r->format == OUT_JSON);
		fputs(doc, want);
		free(doc);
		json_object_put(g.root);
	}
	out_finish();
	fclose(want);
}

static void generated_cases(enum out_format format, bool pretty, int records,
			    const char *what)
{
	int runs = 300, differ = 0;

	for (int i = 1; i <= runs; i++) {
		struct gen_run r = { i, format, pretty, records, NULL };
		char *got = capture(generated, &r);

		if (strcmp(got, r.want) != 0 && differ++ == 0)
			printf("# seed %d\n#   got      \"%s\"\n"
			       "#   expected \"%s\"\n", i, got, r.want);
		free(got);
		free(r.want);
	}
	is_int(differ, 0, "%d generated %s: json-c's bytes", runs, what);
}

int main(void)
{
	layout_cases();
	escape_cases();
	number_cases();
	utf8_cases();
	structure_cases();
	/* The bytes to keep are 0.16's (Debian 12); another json-c may lay
	 * out differently, and the fixed cases above still hold them. */
	if (json_c_version_num() != 0x001000) {
		printf("# json-c %s is not 0.16: generated documents not "
		       "compared\n", json_c_version());
		return tap_done();
	}
	generated_cases(OUT_JSON, false, 1, "compact documents");
	generated_cases(OUT_JSON, true, 1, "pretty documents");
	generated_cases(OUT_JSONL, false, 3, "JSON Lines runs of 3 records");
	generated_cases(OUT_JSONL, true, 3,
			"JSON Lines runs of 3 records with --pretty");
	return tap_done();
}
