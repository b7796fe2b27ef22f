/* See json_writer.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "output.h"

void json_writer_init(struct json_writer *w, FILE *f, bool pretty)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->pretty = pretty;
}

static void indent(struct json_writer *w)
{
	putc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
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
	putc('"', w->f);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '"': fputs("\\\"", w->f); break;
		case '\\': fputs("\\\\", w->f); break;
		case '\b': fputs("\\b", w->f); break;
		case '\f': fputs("\\f", w->f); break;
		case '\n': fputs("\\n", w->f); break;
		case '\r': fputs("\\r", w->f); break;
		case '\t': fputs("\\t", w->f); break;
		default:
			if (c < 0x20)
				fprintf(w->f, "\\u%04x", c);
			else
				putc(c, w->f);
		}
	}
	putc('"', w->f);
	free(fixed);
}

/* The separator and the key of the next member. */
static void member(struct json_writer *w, const char *key)
{
	if (w->depth > 0) {
		if (w->has_members[w->depth])
			putc(',', w->f);
		w->has_members[w->depth] = true;
		if (w->pretty)
			indent(w);
	}
	if (key) {
		string(w, key);
		fputs(w->pretty ? ": " : ":", w->f);
	}
}

static void open_container(struct json_writer *w, const char *key, char bracket)
{
	member(w, key);
	putc(bracket, w->f);
	if (w->depth + 1 >= JSON_WRITER_DEPTH_MAX) {
		w->failed = true;
		return;
	}
	w->has_members[++w->depth] = false;
}

static void close_container(struct json_writer *w, char bracket)
{
	if (w->depth == 0) {
		w->failed = true;
		return;
	}
	if (w->has_members[w->depth--] && w->pretty)
		indent(w);
	putc(bracket, w->f);
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
		fputs("null", w->f);
}

void jw_uint(struct json_writer *w, const char *key, uint64_t value)
{
	member(w, key);
	fprintf(w->f, "%llu", (unsigned long long)value);
}

void jw_int(struct json_writer *w, const char *key, int64_t value)
{
	member(w, key);
	fprintf(w->f, "%lld", (long long)value);
}

void jw_double(struct json_writer *w, const char *key, double value)
{
	member(w, key);
	if (isfinite(value))
		fprintf(w->f, "%.10g", value);
	else
		fputs("null", w->f);
}

void jw_bool(struct json_writer *w, const char *key, bool value)
{
	member(w, key);
	fputs(value ? "true" : "false", w->f);
}

void jw_null(struct json_writer *w, const char *key)
{
	member(w, key);
	fputs("null", w->f);
}

int json_writer_finish(struct json_writer *w)
{
	putc('\n', w->f);
	if (fflush(w->f) != 0 || ferror(w->f))
		return -1;
	return w->failed || w->depth != 0 ? -1 : 0;
}
