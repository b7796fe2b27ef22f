/* Text and JSON output through one set of calls; JSON built with json-c,
 * text collected in a memory stream, both written out only at the end. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/diag.h"
#include "out/output.h"

#define OUT_DEPTH_MAX 16

static struct {
	enum out_format format;
	bool pretty;
	/* JSON: containers under construction, root at [0]. */
	json_object *stack[OUT_DEPTH_MAX];
	int depth;
	json_object *root;
	/* Text: everything printed so far. */
	FILE *text;
	char *text_buf;
	size_t text_len;
	/* stdout failed once (full disk, closed pipe): said once, and every
	 * later write fails too, so the exit status cannot forget it. */
	bool write_failed;
	/* Members of the JSON error object (out_set_fail_context). */
	bool has_fail_context;
	char fail_schema[64], fail_run_id[64], fail_start[32], fail_host[256];
} out;

static FILE *text_stream(void)
{
	if (!out.text) {
		out.text = open_memstream(&out.text_buf, &out.text_len);
		if (!out.text) {
			diag_error("cannot buffer output: %s", strerror(errno));
			exit(EXIT_ENVIRONMENT);
		}
	}
	return out.text;
}

static void text_reset(void)
{
	if (out.text)
		fclose(out.text);
	free(out.text_buf);
	out.text = NULL;
	out.text_buf = NULL;
	out.text_len = 0;
}

static void json_reset(void)
{
	json_object_put(out.root);
	out.root = NULL;
	out.depth = 0;
}

void out_init(enum out_format format, bool pretty)
{
	text_reset();
	json_reset();
	out.format = format;
	out.pretty = pretty;
}

enum out_format out_format(void)
{
	return out.format;
}

bool out_is_json(void)
{
	return out.format != OUT_TEXT;
}

static void json_abort_on(bool failed)
{
	if (failed) {
		diag_error("cannot build JSON output: out of memory or nesting "
			   "deeper than %d", OUT_DEPTH_MAX);
		exit(EXIT_ENVIRONMENT);
	}
}

/* Length of the well-formed UTF-8 character at s (at most len bytes; RFC
 * 3629 section 4, Unicode Table 3-7), or 0 with *bad set to the length of
 * the maximal ill-formed subsequence there: the longest start of a
 * well-formed character, at least one byte. The second byte's range
 * excludes overlong forms (E0, F0), surrogates (ED) and code points above
 * U+10FFFF (F4); C0, C1 and F5..FF start nothing. */
static size_t utf8_char_len(const unsigned char *s, size_t len, size_t *bad)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t need;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		need = 2;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 3;
		lo = s[0] == 0xe0 ? 0xa0 : 0x80;
		hi = s[0] == 0xed ? 0x9f : 0xbf;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 4;
		lo = s[0] == 0xf0 ? 0x90 : 0x80;
		hi = s[0] == 0xf4 ? 0x8f : 0xbf;
	} else {
		*bad = 1;
		return 0;
	}
	for (size_t i = 1; i < need; i++) {
		if (i >= len || s[i] < lo || s[i] > hi) {
			*bad = i;
			return 0;
		}
		lo = 0x80;
		hi = 0xbf;
	}
	return need;
}

char *out_utf8_repair(const char *s, size_t len, size_t *out_len)
{
	static const char replacement[] = "\xef\xbf\xbd"; /* U+FFFD */
	const unsigned char *u = (const unsigned char *)s;
	/* At worst every byte becomes a U+FFFD of three. */
	char *fixed = len < SIZE_MAX / 3 ? malloc(len * 3 + 1) : NULL;
	size_t at = 0, o = 0, n, bad;

	if (!fixed)
		return NULL;
	while (at < len) {
		n = utf8_char_len(u + at, len - at, &bad);
		if (n) {
			memcpy(fixed + o, s + at, n);
			o += n;
			at += n;
		} else {
			memcpy(fixed + o, replacement, 3);
			o += 3;
			at += bad;
		}
	}
	fixed[o] = '\0';
	*out_len = o;
	return fixed;
}

/* A JSON string of the C string s, repaired to UTF-8 when it is not
 * plain ASCII. */
static json_object *json_string_new(const char *s)
{
	size_t len = strlen(s), fixed_len;
	json_object *str;
	char *fixed;

	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] >= 0x80)
			goto repair;
	return json_object_new_string_len(s, (int)len);
repair:
	fixed = out_utf8_repair(s, len, &fixed_len);
	if (!fixed || fixed_len > INT_MAX) {
		free(fixed);
		return NULL;
	}
	str = json_object_new_string_len(fixed, (int)fixed_len);
	free(fixed);
	return str;
}

/* Adds value under key to the innermost container (or makes it the root). */
static void json_add_value(const char *key, json_object *value);

static void json_add(const char *key, json_object *value)
{
	json_abort_on(!value);
	json_add_value(key, value);
}

/* Keys are the program's own words, but are held to the same rule. */
static void json_add_member(json_object *parent, const char *key,
			    json_object *value)
{
	char *fixed;
	size_t len;

	fixed = out_utf8_repair(key, strlen(key), &len);
	json_abort_on(!fixed);
	json_abort_on(json_object_object_add(parent, fixed, value) != 0);
	free(fixed);
}

/* json-c represents null as a NULL object: only this path may carry it. */
static void json_add_value(const char *key, json_object *value)
{
	json_object *parent;

	if (out.depth == 0) {
		/* JSON Lines: each root-level record is its own document. */
		json_object_put(out.root);
		out.root = value;
		return;
	}
	parent = out.stack[out.depth - 1];
	if (json_object_is_type(parent, json_type_array))
		json_abort_on(json_object_array_add(parent, value) != 0);
	else
		json_add_member(parent, key ? key : "?", value);
}

static void json_push(const char *key, json_object *container)
{
	json_abort_on(out.depth >= OUT_DEPTH_MAX);
	json_add(key, container);
	out.stack[out.depth++] = container;
}

void out_open_object(const char *key)
{
	if (out_is_json())
		json_push(key, json_object_new_object());
}

void out_close_object(void)
{
	if (out_is_json() && out.depth > 0)
		out.depth--;
}

void out_open_array(const char *key)
{
	if (out_is_json())
		json_push(key, json_object_new_array());
}

void out_close_array(void)
{
	out_close_object();
}

/* The text half of every field: only when a format is given. The format
 * comes from the caller, always a literal paired with the value's type by
 * the typed out_*() function, so the non-literal warning is off here. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#define TEXT_FIELD(fmt, ...)                                                   \
	do {                                                                   \
		if (!out_is_json() && (fmt))                                   \
			fprintf(text_stream(), (fmt), __VA_ARGS__);            \
	} while (0)

void out_uint(const char *key, const char *text_fmt, uint64_t value)
{
	if (out_is_json()) {
		if (key)
			json_add(key, json_object_new_uint64(value));
		return;
	}
	TEXT_FIELD(text_fmt, value);
}

void out_int(const char *key, const char *text_fmt, int64_t value)
{
	if (out_is_json()) {
		if (key)
			json_add(key, json_object_new_int64(value));
		return;
	}
	TEXT_FIELD(text_fmt, value);
}

void out_double(const char *key, const char *text_fmt, double value)
{
	char repr[64];

	if (out_is_json()) {
		if (!key)
			return;
		if (!isfinite(value)) {
			json_add_value(key, NULL);
			return;
		}
		/* Shortest faithful form, without json-c's trailing ".0". */
		snprintf(repr, sizeof(repr), "%.10g", value);
		json_add(key, json_object_new_double_s(value, repr));
		return;
	}
	TEXT_FIELD(text_fmt, value);
}

void out_bool(const char *key, const char *text_fmt, bool value)
{
	if (out_is_json()) {
		if (key)
			json_add(key, json_object_new_boolean(value));
		return;
	}
	TEXT_FIELD(text_fmt, value ? "yes" : "no");
}

void out_string(const char *key, const char *text_fmt, const char *value)
{
	if (out_is_json()) {
		if (key && value)
			json_add(key, json_string_new(value));
		else if (key)
			json_add_value(key, NULL);
		return;
	}
	TEXT_FIELD(text_fmt, value ? value : "-");
}

void out_element_string(const char *text_fmt, const char *value)
{
	if (out_is_json()) {
		json_add(NULL, json_string_new(value ? value : ""));
		return;
	}
	TEXT_FIELD(text_fmt, value ? value : "-");
}

void out_element_null(const char *text_fmt)
{
	if (out_is_json()) {
		json_add_value(NULL, NULL);
		return;
	}
	TEXT_FIELD(text_fmt, "-");
}

void out_element_int(const char *text_fmt, int64_t value)
{
	if (out_is_json()) {
		json_add(NULL, json_object_new_int64(value));
		return;
	}
	TEXT_FIELD(text_fmt, value);
}

void out_null(const char *key, const char *text_fmt)
{
	if (out_is_json()) {
		if (key)
			json_add_value(key, NULL);
		return;
	}
	TEXT_FIELD(text_fmt, "-");
}

void out_text(const char *fmt, ...)
{
	va_list ap;

	if (out_is_json())
		return;
	va_start(ap, fmt);
	vfprintf(text_stream(), fmt, ap);
	va_end(ap);
}

void out_newline(void)
{
	if (!out_is_json())
		fputc('\n', text_stream());
}

static int write_stdout(const char *data, size_t len)
{
	if (out.write_failed)
		return -1;
	if (len && fwrite(data, 1, len, stdout) != len)
		goto fail;
	if (fflush(stdout) != 0 || ferror(stdout))
		goto fail;
	return 0;
fail:
	diag_error("cannot write output: %s", strerror(errno));
	out.write_failed = true;
	return -1;
}

static int json_flags(void)
{
	int flags = JSON_C_TO_STRING_NOSLASHESCAPE;

	if (out.pretty && out.format == OUT_JSON)
		return flags | JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED;
	return flags | JSON_C_TO_STRING_PLAIN;
}

static int json_write_root(void)
{
	const char *doc;
	int rc;

	if (!out.root)
		return 0;
	doc = json_object_to_json_string_ext(out.root, json_flags());
	json_abort_on(!doc);
	rc = write_stdout(doc, strlen(doc));
	if (rc == 0)
		rc = write_stdout("\n", 1);
	json_reset();
	return rc;
}

static int text_write(void)
{
	int rc = 0;

	if (out.text) {
		/* fflush makes text_buf/text_len current. */
		if (fflush(out.text) != 0) {
			diag_error("cannot buffer output: %s", strerror(errno));
			rc = -1;
		} else {
			rc = write_stdout(out.text_buf, out.text_len);
		}
	}
	text_reset();
	return rc;
}

int out_flush_record(void)
{
	if (out_is_json())
		return out.depth == 0 ? json_write_root() : 0;
	return text_write();
}

int out_finish(void)
{
	int rc = out_is_json() ? json_write_root() : text_write();

	/* Help and completion tables print directly: check stdout anyway. */
	if (rc == 0)
		rc = write_stdout(NULL, 0);
	return rc;
}

void out_set_fail_context(const struct out_fail_context *ctx)
{
	out.has_fail_context = ctx != NULL;
	if (!ctx)
		return;
	snprintf(out.fail_schema, sizeof(out.fail_schema), "%s", ctx->schema);
	snprintf(out.fail_run_id, sizeof(out.fail_run_id), "%s", ctx->run_id);
	snprintf(out.fail_start, sizeof(out.fail_start), "%s",
		 ctx->start_time);
	snprintf(out.fail_host, sizeof(out.fail_host), "%s", ctx->host);
}

static void fail_context_members(json_object *error)
{
	json_object *source = json_object_new_object(), *v;

	json_abort_on(!source);
	v = json_string_new(out.fail_schema);
	json_abort_on(!v);
	json_add_member(error, "schema", v);
	v = json_string_new("error");
	json_abort_on(!v);
	json_add_member(error, "record", v);
	v = json_string_new(out.fail_run_id);
	json_abort_on(!v);
	json_add_member(error, "run_id", v);
	v = json_string_new(out.fail_start);
	json_abort_on(!v);
	json_add_member(error, "start_time", v);
	v = json_string_new(out.fail_host);
	json_abort_on(!v);
	json_add_member(source, "host", v);
	json_add_member(error, "source", source);
}

int out_fail(int exit_status, const char *message)
{
	json_object *error, *text;

	text_reset();
	json_reset();
	if (out_is_json()) {
		error = json_object_new_object();
		json_abort_on(!error);
		text = json_string_new(message);
		json_abort_on(!text);
		/* Bad input (exit 2) is no run: the object stays two keys. */
		if (out.has_fail_context && exit_status != 2)
			fail_context_members(error);
		json_add_member(error, "error", text);
		json_add_member(error, "exit_status",
				json_object_new_int(exit_status));
		out.root = error;
		json_write_root();
	}
	return exit_status;
}
