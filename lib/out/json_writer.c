/* See json_writer.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "out/json_writer.h"
#include "out/output.h"

void json_writer_init(struct json_writer *w, FILE *f, bool pretty)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->pretty = pretty;
}

static void indent(struct json_writer *w)
{
	putc_unlocked('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs_unlocked("  ", w->f);
}

/* RFC 8259, section 7: the quote, the backslash and control characters
 * escaped; anything not ASCII first made well-formed UTF-8. */
static void string(struct json_writer *w, const char *s)
{
	size_t len = strlen(s), fixed_len;
	char *fixed = NULL;

	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] >= 0x80) {
			fixed = out_utf8_repair(s, len, &fixed_len);
			if (!fixed) {
				w->failed = true;
				return;
			}
			s = fixed;
			len = fixed_len;
			break;
		}
	putc_unlocked('"', w->f);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		size_t run = i;

		/* Most of a name needs no escape: written as one run. */
		while (run < len && (unsigned char)s[run] >= 0x20 &&
		       s[run] != '"' && s[run] != '\\')
			run++;
		if (run > i) {
			fwrite_unlocked(s + i, 1, run - i, w->f);
			i = run - 1;
			continue;
		}
		switch (c) {
		case '"': fputs_unlocked("\\\"", w->f); break;
		case '\\': fputs_unlocked("\\\\", w->f); break;
		case '\b': fputs_unlocked("\\b", w->f); break;
		case '\f': fputs_unlocked("\\f", w->f); break;
		case '\n': fputs_unlocked("\\n", w->f); break;
		case '\r': fputs_unlocked("\\r", w->f); break;
		case '\t': fputs_unlocked("\\t", w->f); break;
		default:
			fprintf(w->f, "\\u%04x", c);
		}
	}
	putc_unlocked('"', w->f);
	free(fixed);
}

/* The separator and the key of the next member. */
static void member(struct json_writer *w, const char *key)
{
	if (w->depth > 0) {
		if (w->has_members[w->depth])
			putc_unlocked(',', w->f);
		w->has_members[w->depth] = true;
		if (w->pretty)
			indent(w);
	}
	if (key) {
		string(w, key);
		fputs_unlocked(w->pretty ? ": " : ":", w->f);
	}
}

static void open_container(struct json_writer *w, const char *key, char bracket)
{
	member(w, key);
	putc_unlocked(bracket, w->f);
	if (w->depth + 1 >= JSON_WRITER_DEPTH_MAX) {
		w->failed = true;
		return;
	}
	w->has_members[++w->depth] = false;
}

static void close_container(struct json_writer *w, char bracket)
{
	bool had_members;

	if (w->depth == 0) {
		w->failed = true;
		return;
	}
	had_members = w->has_members[w->depth--];
	if (w->pretty && (had_members || w->empty_split))
		indent(w);
	putc_unlocked(bracket, w->f);
}

void jw_open_object(struct json_writer *w, const char *key)
{
	open_container(w, key, '{');
}

void jw_close_object(struct json_writer *w)
{
	close_container(w, '}');
}

void jw_open_array(struct json_writer *w, const char *key)
{
	open_container(w, key, '[');
}

void jw_close_array(struct json_writer *w)
{
	close_container(w, ']');
}

void jw_string(struct json_writer *w, const char *key, const char *value)
{
	member(w, key);
	if (value)
		string(w, value);
	else
		fputs_unlocked("null", w->f);
}

/* The decimal digits of value, without printf: a report writes millions
 * of numbers. */
static void decimal(struct json_writer *w, bool negative, uint64_t value)
{
	char digits[24];
	size_t n = sizeof(digits);

	do
		digits[--n] = (char)('0' + value % 10);
	while (value /= 10);
	if (negative)
		digits[--n] = '-';
	fwrite_unlocked(digits + n, 1, sizeof(digits) - n, w->f);
}

void jw_uint(struct json_writer *w, const char *key, uint64_t value)
{
	member(w, key);
	decimal(w, false, value);
}

void jw_int(struct json_writer *w, const char *key, int64_t value)
{
	member(w, key);
	decimal(w, value < 0,
		value < 0 ? 0 - (uint64_t)value : (uint64_t)value);
}

void jw_double(struct json_writer *w, const char *key, double value)
{
	member(w, key);
	if (isfinite(value))
		fprintf(w->f, "%.10g", value);
	else
		fputs_unlocked("null", w->f);
}

void jw_bool(struct json_writer *w, const char *key, bool value)
{
	member(w, key);
	fputs_unlocked(value ? "true" : "false", w->f);
}

void jw_null(struct json_writer *w, const char *key)
{
	member(w, key);
	fputs_unlocked("null", w->f);
}

int json_writer_finish(struct json_writer *w)
{
	putc_unlocked('\n', w->f);
	if (fflush(w->f) != 0 || ferror(w->f))
		return -1;
	return w->failed || w->depth != 0 ? -1 : 0;
}
