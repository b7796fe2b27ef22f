/* Splitting a stream of JSON text into its values (report_trace_split.h):
 * a byte at a time, so that the stream may come in any pieces; strings
 * are followed for their quotes and escapes, brackets only counted (what
 * is inside a value is json-c's to judge, one value at a time). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_trace_split.h"

void trace_split_init(struct trace_split *s, size_t max)
{
	memset(s, 0, sizeof(*s));
	s->max = max;
}

void trace_split_set_measure(struct trace_split *s,
			     trace_split_measure_fn measure, void *ctx)
{
	s->measure = measure;
	s->measure_ctx = ctx;
}

void trace_split_free(struct trace_split *s)
{
	free(s->value);
	memset(s, 0, sizeof(*s));
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* What ends a bare value (a number, true, false, null, or junk). */
static bool delimiter(char c)
{
	return blank(c) || strchr(",[]{}\"", c);
}

/* Room for n more bytes and the NUL after the value, which the bound
 * (max) allows; false when it does not or memory ran out. */
static bool reserve(struct trace_split *s, size_t n)
{
	if (s->len + n > s->max)
		return false;
	while (s->len + n + 1 > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 4096;
		char *v;

		if (cap > s->max + 1)
			cap = s->max + 1;
		v = realloc(s->value, cap);
		if (!v)
			return false;
		s->value = v;
		s->cap = cap;
	}
	return true;
}

static bool append(struct trace_split *s, char c)
{
	if (!reserve(s, 1))
		return false;
	s->value[s->len++] = c;
	return true;
}

static enum trace_split_status emit(struct trace_split *s, trace_split_fn fn,
				    void *ctx)
{
	s->value[s->len] = '\0';
	s->in_value = false;
	s->after_element = s->in_array;
	s->after_comma = false;
	return fn(ctx, s->value, s->len) ? TRACE_SPLIT_STOPPED : TRACE_SPLIT_OK;
}

static enum trace_split_status start(struct trace_split *s, char c)
{
	if (c == ',' || c == ']' || c == '}')
		return TRACE_SPLIT_SYNTAX;
	s->in_value = true;
	s->len = 0;
	s->depth = c == '{' || c == '[';
	s->in_string = c == '"';
	s->escape = false;
	s->bare = !s->depth && !s->in_string;
	return append(s, c) ? TRACE_SPLIT_OK : TRACE_SPLIT_TOO_BIG;
}

/* The bytes that change what the splitter is in: inside a string its
 * quote and a backslash; elsewhere in a value a quote and brackets. */
static const bool string_special[256] = { ['"'] = true, ['\\'] = true };
static const bool value_special[256] = {
	['"'] = true, ['{'] = true, ['}'] = true, ['['] = true, [']'] = true,
};

/* Inside a bracketed or quoted value, the bytes up to the next one that
 * changes its state (or the end of buf) taken at once: most of a trace
 * is strings, numbers and punctuation. The count taken; 0 when the next
 * byte needs a look of its own, SIZE_MAX when the value grew past its
 * bound. */
static size_t plain_run(struct trace_split *s, const char *buf, size_t len)
{
	const bool *special;
	size_t n = 0;

	if (!s->in_value || s->bare || s->escape)
		return 0;
	special = s->in_string ? string_special : value_special;
	while (n < len && !special[(unsigned char)buf[n]])
		n++;
	if (!n)
		return 0;
	if (!reserve(s, n))
		return SIZE_MAX;
	memcpy(s->value + s->len, buf, n);
	s->len += n;
	return n;
}

/* One byte inside a bracketed or quoted value. */
static enum trace_split_status inside(struct trace_split *s, char c,
				      trace_split_fn fn, void *ctx)
{
	if (!append(s, c))
		return TRACE_SPLIT_TOO_BIG;
	if (s->in_string) {
		if (s->escape)
			s->escape = false;
		else if (c == '\\')
			s->escape = true;
		else if (c == '"') {
			s->in_string = false;
			if (!s->depth)
				return emit(s, fn, ctx);
		}
		return TRACE_SPLIT_OK;
	}
	if (c == '"')
		s->in_string = true;
	else if (c == '{' || c == '[')
		s->depth++;
	else if ((c == '}' || c == ']') && --s->depth == 0)
		return emit(s, fn, ctx);
	return TRACE_SPLIT_OK;
}

/* One byte between values. */
static enum trace_split_status between(struct trace_split *s, char c)
{
	if (blank(c))
		return TRACE_SPLIT_OK;
	if (!s->in_array) {
		if (c != '[')
			return start(s, c);
		s->in_array = true;
		s->after_element = s->after_comma = false;
		return TRACE_SPLIT_OK;
	}
	if (s->after_element) {
		if (c != ',' && c != ']')
			return TRACE_SPLIT_SYNTAX;
		s->after_element = false;
		s->after_comma = c == ',';
		s->in_array = c == ',';
		return TRACE_SPLIT_OK;
	}
	if (c == ']') {
		if (s->after_comma)
			return TRACE_SPLIT_SYNTAX;	/* [1,] */
		s->in_array = false;
		return TRACE_SPLIT_OK;
	}
	return start(s, c);
}

/* An object that starts at buf and that the measure takes whole from
 * buf[0..len): gathered at once and handed out. Its length, 0 when the
 * measure did not take it (then it is walked a byte at a time). */
static size_t measured(struct trace_split *s, const char *buf, size_t len,
		       trace_split_fn fn, void *ctx,
		       enum trace_split_status *rc)
{
	size_t n;

	/* Where between() would start a value with this '{'. */
	if (!s->measure || s->in_value || buf[0] != '{' ||
	    (s->in_array && s->after_element))
		return 0;
	n = s->measure(s->measure_ctx, buf, len);
	if (!n || n > len || n > s->max)
		return 0;
	*rc = start(s, '{');
	if (*rc != TRACE_SPLIT_OK)
		return n;
	if (!reserve(s, n - 1)) {
		*rc = TRACE_SPLIT_TOO_BIG;
		return n;
	}
	memcpy(s->value + 1, buf + 1, n - 1);
	s->len = n;
	s->depth = 0;
	*rc = emit(s, fn, ctx);
	return n;
}

enum trace_split_status trace_split_feed(struct trace_split *s,
					 const char *buf, size_t len,
					 trace_split_fn fn, void *ctx)
{
	enum trace_split_status rc = TRACE_SPLIT_OK;

	for (size_t i = 0; rc == TRACE_SPLIT_OK && i < len; i++) {
		size_t run = plain_run(s, buf + i, len - i);
		char c;

		if (run == SIZE_MAX)
			return TRACE_SPLIT_TOO_BIG;
		if (!run)
			run = measured(s, buf + i, len - i, fn, ctx, &rc);
		if (run) {
			i += run - 1;
			continue;
		}
		c = buf[i];

		if (s->in_value && s->bare) {
			if (!delimiter(c)) {
				if (!append(s, c))
					return TRACE_SPLIT_TOO_BIG;
				continue;
			}
			rc = emit(s, fn, ctx);
			if (rc != TRACE_SPLIT_OK)
				break;
		}
		rc = s->in_value ? inside(s, c, fn, ctx) : between(s, c);
	}
	return rc;
}

enum trace_split_status trace_split_end(struct trace_split *s,
					trace_split_fn fn, void *ctx)
{
	if (s->in_value && s->bare)
		return emit(s, fn, ctx);
	if (s->in_value || s->in_array)
		return TRACE_SPLIT_CUT;
	return TRACE_SPLIT_OK;
}
