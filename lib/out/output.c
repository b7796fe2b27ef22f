/* Text and JSON output through one set of calls, both collected in a
 * memory stream (JSON written into it by json_writer, member by member)
 * and written out only at the end. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "out/json_writer.h"
#include "out/output.h"

#define OUT_DEPTH_MAX 16

static struct {
	enum out_format format;
	bool pretty;
	/* JSON: the document under construction, written into the text
	 * stream; has_root once a value was written at the root. A value
	 * at the root replaces the one before (each JSON Lines record).
	 * is_array: which containers are open, root's at [0]. */
	struct json_writer json;
	bool has_root;
	bool is_array[OUT_DEPTH_MAX];
	int depth;
	/* Text, or the JSON document: everything written so far. */
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
	text_reset();
	out.has_root = false;
	out.depth = 0;
}

void out_init(enum out_format format, bool pretty)
{
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

/* The writer's layout: json-c's PRETTY|SPACED for --pretty documents,
 * compact for the rest and for every JSON Lines record. */
static void json_writer_start(void)
{
	json_writer_init(&out.json, text_stream(),
			 out.pretty && out.format == OUT_JSON);
	out.json.empty_split = true;
}

/* Before a value: at the root, it replaces what was written (JSON Lines:
 * each root-level record is its own document; a null root is none);
 * in an object, its key ("?" when the caller gave none); in an array,
 * no key. Returns the key to give the writer. */
static const char *json_member(const char *key, bool is_null)
{
	if (out.depth == 0) {
		json_reset();
		if (!is_null) {
			json_writer_start();
			out.has_root = true;
		}
		return NULL;
	}
	if (out.is_array[out.depth - 1])
		return NULL;
	return key ? key : "?";
}

static void json_null(const char *key)
{
	key = json_member(key, true);
	if (out.has_root)
		jw_null(&out.json, key);
}

static void json_push(const char *key, bool is_array)
{
	json_abort_on(out.depth >= OUT_DEPTH_MAX);
	key = json_member(key, false);
	if (is_array)
		jw_open_array(&out.json, key);
	else
		jw_open_object(&out.json, key);
	out.is_array[out.depth++] = is_array;
}

/* Closes the innermost container, whichever kind the caller names. */
static void json_pop(void)
{
	if (out.is_array[--out.depth])
		jw_close_array(&out.json);
	else
		jw_close_object(&out.json);
}

void out_open_object(const char *key)
{
	if (out_is_json())
		json_push(key, false);
}

void out_close_object(void)
{
	if (out_is_json() && out.depth > 0)
		json_pop();
}

void out_open_array(const char *key)
{
	if (out_is_json())
		json_push(key, true);
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
			jw_uint(&out.json, json_member(key, false), value);
		return;
	}
	TEXT_FIELD(text_fmt, value);
}

void out_int(const char *key, const char *text_fmt, int64_t value)
{
	if (out_is_json()) {
		if (key)
			jw_int(&out.json, json_member(key, false), value);
		return;
	}
	TEXT_FIELD(text_fmt, value);
}

void out_double(const char *key, const char *text_fmt, double value)
{
	if (out_is_json()) {
		if (!key)
			return;
		/* A non-finite double is null, and a null root is none. */
		if (!isfinite(value))
			json_null(key);
		else
			jw_double(&out.json, json_member(key, false), value);
		return;
	}
	TEXT_FIELD(text_fmt, value);
}

void out_bool(const char *key, const char *text_fmt, bool value)
{
	if (out_is_json()) {
		if (key)
			jw_bool(&out.json, json_member(key, false), value);
		return;
	}
	TEXT_FIELD(text_fmt, value ? "yes" : "no");
}

void out_string(const char *key, const char *text_fmt, const char *value)
{
	if (out_is_json()) {
		if (key && value)
			jw_string(&out.json, json_member(key, false), value);
		else if (key)
			json_null(key);
		return;
	}
	TEXT_FIELD(text_fmt, value ? value : "-");
}

void out_element_string(const char *text_fmt, const char *value)
{
	if (out_is_json()) {
		jw_string(&out.json, json_member(NULL, false),
			  value ? value : "");
		return;
	}
	TEXT_FIELD(text_fmt, value ? value : "-");
}

void out_element_null(const char *text_fmt)
{
	if (out_is_json()) {
		json_null(NULL);
		return;
	}
	TEXT_FIELD(text_fmt, "-");
}

void out_element_int(const char *text_fmt, int64_t value)
{
	if (out_is_json()) {
		jw_int(&out.json, json_member(NULL, false), value);
		return;
	}
	TEXT_FIELD(text_fmt, value);
}

void out_null(const char *key, const char *text_fmt)
{
	if (out_is_json()) {
		if (key)
			json_null(key);
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

/* Closes what the caller left open, as a tree written whole would have
 * been, and writes the document with its line end. */
static int json_write_root(void)
{
	if (!out.has_root)
		return 0;
	while (out.depth > 0)
		json_pop();
	json_abort_on(json_writer_finish(&out.json) != 0);
	out.has_root = false;
	return text_write();
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

static void fail_context_members(void)
{
	jw_string(&out.json, "schema", out.fail_schema);
	jw_string(&out.json, "record", "error");
	jw_string(&out.json, "run_id", out.fail_run_id);
	jw_string(&out.json, "start_time", out.fail_start);
	jw_open_object(&out.json, "source");
	jw_string(&out.json, "host", out.fail_host);
	jw_close_object(&out.json);
}

int out_fail(int exit_status, const char *message)
{
	json_reset();
	if (out_is_json()) {
		json_push(NULL, false);
		/* Bad input (exit 2) is no run: the object stays two keys. */
		if (out.has_fail_context && exit_status != 2)
			fail_context_members();
		jw_string(&out.json, "error", message);
		jw_int(&out.json, "exit_status", exit_status);
		json_write_root();
	}
	return exit_status;
}
