/* One pass over a probe result's JSON text into a result_view; see
 * result_scan.h for what it declines and why. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/result_scan.h"

/* Numbers json-c reads to the same value as this scanner: see
 * result_scan.h. */
#define NUMBER_CHARS_MAX 32
#define INT_DIGITS_MAX 18
#define EXPONENT_DIGITS_MAX 3

struct scan {
	const unsigned char *p, *end;
	struct result_view *v;
	unsigned depth;
	/* The members below each parent (RM_TOP included), in table order. */
	const enum result_member *children[RM_COUNT + 1];
	size_t child_count[RM_COUNT + 1];
	const size_t *key_len;	/* of each member's key */
	bool plain;		/* no escape in any string */
};

/* Bytes a string holds as they are: printable ASCII but the quote and
 * the backslash. */
static const bool plain_byte[256] = {
	[0x20 ... 0x21] = true,		/* '"' is 0x22 */
	[0x23 ... 0x5b] = true,		/* '\\' is 0x5c */
	[0x5d ... 0x7f] = true,
};

static bool is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Past blanks; false at the end of the text (a value is cut off). */
static bool skip_blanks(struct scan *s)
{
	while (s->p < s->end && is_blank(*s->p))
		s->p++;
	return s->p < s->end;
}

/* The length of the UTF-8 character at p (RFC 3629: no overlong form, no
 * surrogate, nothing past U+10FFFF), 0 if it is none. */
static size_t utf8_char(const unsigned char *p, const unsigned char *end)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	size_t n;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if ((size_t)(end - p) < n || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t k = 2; k < n; k++)
		if ((p[k] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* The string at s->p (its '"'): its bytes between the quotes. Escapes
 * only when allowed, and never \u. */
static bool scan_string(struct scan *s, bool escapes, const char **str,
			size_t *len)
{
	const unsigned char *p = s->p + 1, *start = p;

	for (;;) {
		size_t n;

		while (p < s->end && plain_byte[*p])
			p++;
		if (p >= s->end || *p < 0x20)
			return false;
		if (*p == '"')
			break;
		if (*p == '\\') {
			if (!escapes || s->plain || p + 1 >= s->end ||
			    !strchr("\"\\/bfnrt", p[1]) || !p[1])
				return false;
			p += 2;
			continue;
		}
		if (!(n = utf8_char(p, s->end)))
			return false;
		p += n;
	}
	*str = (const char *)start;
	*len = (size_t)(p - start);
	s->p = p + 1;
	return true;
}

static size_t digits(const unsigned char *p, const unsigned char *end)
{
	const unsigned char *q = p;

	while (q < end && *q >= '0' && *q <= '9')
		q++;
	return (size_t)(q - p);
}

/* A number by RFC 8259's grammar, within the bounds of result_scan.h:
 * an int when it has neither fraction nor exponent, as json-c types it. */
static bool scan_number(struct scan *s, struct jv *out, bool read)
{
	const unsigned char *p = s->p, *start = p;
	char text[NUMBER_CHARS_MAX + 1];
	bool is_double = false;
	size_t n, int_digits;

	if (*p == '-')
		p++;
	if (p >= s->end || *p < '0' || *p > '9')
		return false;
	int_digits = *p == '0' ? 1 : digits(p, s->end);
	p += int_digits;
	if (p < s->end && *p == '.') {
		is_double = true;
		if (!(n = digits(++p, s->end)))
			return false;
		p += n;
	}
	if (p < s->end && (*p == 'e' || *p == 'E')) {
		is_double = true;
		p++;
		if (p < s->end && (*p == '+' || *p == '-'))
			p++;
		n = digits(p, s->end);
		if (!n || n > EXPONENT_DIGITS_MAX)
			return false;
		p += n;
	}
	/* A number ends only where something else starts: in an object,
	 * always before its end. */
	n = (size_t)(p - start);
	if (p >= s->end || n > NUMBER_CHARS_MAX ||
	    (!is_double && int_digits > INT_DIGITS_MAX))
		return false;
	s->p = p;
	out->kind = is_double ? JV_DOUBLE : JV_INT;
	if (!read)
		return true;
	if (is_double) {
		memcpy(text, start, n);
		text[n] = '\0';
		out->d = strtod(text, NULL);
		return true;
	}
	/* At most 18 digits: no overflow. */
	out->i = 0;
	for (const unsigned char *q = *start == '-' ? start + 1 : start;
	     q < p; q++)
		out->i = out->i * 10 + (*q - '0');
	if (*start == '-')
		out->i = -out->i;
	return true;
}

static bool scan_literal(struct scan *s, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
		return false;
	s->p += n;
	return true;
}

static bool scan_value(struct scan *s, int member, struct jv *out);

/* Past an object's or an array's opening bracket; *more false when its
 * closing bracket follows at once (passed too). */
static bool container_open(struct scan *s, unsigned char close, bool *more)
{
	if (++s->depth > RESULT_SCAN_DEPTH)
		return false;
	s->p++;
	if (!skip_blanks(s))
		return false;
	*more = *s->p != close;
	if (!*more) {
		s->p++;
		s->depth--;
	}
	return true;
}

/* After an element: *more when a ',' leads to another (the blanks after
 * it passed), else the closing bracket, passed. */
static bool container_next(struct scan *s, unsigned char close, bool *more)
{
	if (!skip_blanks(s))
		return false;
	if (*s->p == close) {
		s->p++;
		s->depth--;
		*more = false;
		return true;
	}
	if (*s->p != ',')
		return false;
	s->p++;
	*more = true;
	return skip_blanks(s);
}

/* An object at s->p, checked and passed over: the members of an object
 * below a member report reads (parent) go into the view. */
static bool scan_object(struct scan *s, int parent)
{
	bool known = parent >= 0, more;

	if (!container_open(s, '}', &more))
		return false;
	while (more) {
		const char *key;
		size_t len;
		int member = -1;

		if (*s->p != '"' || !scan_string(s, !known, &key, &len))
			return false;
		for (size_t k = 0; known && k < s->child_count[parent]; k++) {
			enum result_member m = s->children[parent][k];

			if (s->key_len[m] == len &&
			    memcmp(result_members[m].key, key, len) == 0) {
				member = (int)m;
				break;
			}
		}
		if (member >= 0 && s->v->m[member].kind != JV_ABSENT)
			return false;
		if (!skip_blanks(s) || *s->p != ':')
			return false;
		s->p++;
		if (!skip_blanks(s) ||
		    !scan_value(s, member,
				member >= 0 ? &s->v->m[member] : NULL) ||
		    !container_next(s, '}', &more))
			return false;
	}
	return true;
}

/* An array at s->p; one report reads (strings) holds only strings
 * without escapes. */
static bool scan_array(struct scan *s, bool strings)
{
	struct jv item;
	bool more;

	if (!container_open(s, ']', &more))
		return false;
	while (more)
		if ((strings ? *s->p != '"' || !scan_value(s, RM_COUNT, &item)
			     : !scan_value(s, -1, NULL)) ||
		    !container_next(s, ']', &more))
			return false;
	return true;
}

/* A value at s->p. member: the one it is (out receives it), -1 for a
 * value report does not read (out NULL), RM_COUNT for an element of an
 * array report reads. */
static bool scan_value(struct scan *s, int member, struct jv *out)
{
	const unsigned char *start = s->p;
	bool read = member >= 0;
	struct jv ignored;
	const char *str;
	size_t len;

	if (!out)
		out = &ignored;
	switch (*s->p) {
	case '"':
		if (!scan_string(s, !read, &str, &len))
			return false;
		out->kind = JV_STRING;
		out->s = str;
		out->len = len;
		return true;
	case '{':
		out->kind = JV_OBJECT;
		if (!scan_object(s, member >= 0 && member < RM_COUNT &&
						    s->child_count[member]
					    ? member
					    : -1))
			return false;
		break;
	case '[':
		out->kind = JV_ARRAY;
		if (!scan_array(s, member >= 0 && member < RM_COUNT))
			return false;
		break;
	case 't':
		out->kind = JV_BOOL;
		out->b = true;
		return scan_literal(s, "true");
	case 'f':
		out->kind = JV_BOOL;
		out->b = false;
		return scan_literal(s, "false");
	case 'n':
		out->kind = JV_NULL;
		return scan_literal(s, "null");
	default:
		return scan_number(s, out, read);
	}
	out->s = (const char *)start;
	out->len = (size_t)(s->p - start);
	return true;
}

/* Each parent's children, from the member table (built once). */
static void index_children(struct scan *s)
{
	static enum result_member list[RM_COUNT];
	static size_t start[RM_COUNT + 2], count[RM_COUNT + 1];
	static size_t key_len[RM_COUNT];
	static bool done;

	if (!done) {
		size_t n = 0;

		for (int m = 0; m < RM_COUNT; m++)
			key_len[m] = strlen(result_members[m].key);
		for (int parent = 0; parent <= RM_TOP; parent++) {
			start[parent] = n;
			for (int m = 0; m < RM_COUNT; m++)
				if ((int)result_members[m].parent == parent)
					list[n++] = (enum result_member)m;
			count[parent] = n - start[parent];
		}
		done = true;
	}
	for (int parent = 0; parent <= RM_TOP; parent++) {
		s->children[parent] = list + start[parent];
		s->child_count[parent] = count[parent];
	}
	s->key_len = key_len;
}

size_t result_scan(const char *text, size_t len, struct result_view *v)
{
	struct scan s = {
		.p = (const unsigned char *)text,
		.end = (const unsigned char *)text + len,
		.v = v,
	};

	if (!len || *text != '{')
		return 0;
	memset(v, 0, sizeof(*v));
	index_children(&s);
	if (!scan_object(&s, RM_TOP))
		return 0;
	return (size_t)(s.p - (const unsigned char *)text);
}

size_t result_scan_plain(const char *text, size_t len)
{
	struct scan s = {
		.p = (const unsigned char *)text,
		.end = (const unsigned char *)text + len,
		.plain = true,
	};

	/* Its members are not read here: no member table, no view. */
	if (!len || (*text != '{' && *text != '['))
		return 0;
	if (!scan_value(&s, -1, NULL))
		return 0;
	return (size_t)(s.p - (const unsigned char *)text);
}

/* Past the string whose opening quote is at p, in checked text: its
 * closing quote is the first one after an even run of backslashes. */
static const char *string_end(const char *p, const char *end)
{
	for (p++;;) {
		const char *q = memchr(p, '"', (size_t)(end - p)), *b = q;

		while (b > p && b[-1] == '\\')
			b--;
		if ((q - b) % 2 == 0)
			return q + 1;
		p = q + 1;
	}
}

/* The bytes that open or close a container or a string. */
static const bool structural_byte[256] = {
	['"'] = true, ['{'] = true, ['}'] = true, ['['] = true, [']'] = true,
};

/* The value at p of text a scanner checked, into *out: past it. */
static const char *checked_value(const char *p, const char *end,
				 struct jv *out)
{
	const char *start = p;
	struct scan s;
	unsigned depth = 0;

	memset(out, 0, sizeof(*out));
	switch (*p) {
	case '"':
		p = string_end(p, end);
		out->kind = JV_STRING;
		out->s = start + 1;
		out->len = (size_t)(p - start - 2);
		return p;
	case '{':
	case '[':
		out->kind = *p == '{' ? JV_OBJECT : JV_ARRAY;
		do {
			while (!structural_byte[(unsigned char)*p])
				p++;
			if (*p == '"') {
				p = string_end(p, end);
				continue;
			}
			depth += *p == '{' || *p == '[';
			depth -= *p == '}' || *p == ']';
			p++;
		} while (depth);
		out->s = start;
		out->len = (size_t)(p - start);
		return p;
	case 't':
		out->kind = JV_BOOL;
		out->b = true;
		return p + 4;
	case 'f':
		out->kind = JV_BOOL;
		return p + 5;
	case 'n':
		out->kind = JV_NULL;
		return p + 4;
	}
	s = (struct scan){ .p = (const unsigned char *)p,
			   .end = (const unsigned char *)end };
	scan_number(&s, out, true);
	return (const char *)s.p;
}

/* Past the value at p of text a scanner checked, reading nothing: a
 * number or literal ends at the first byte that cannot be in one. */
static const char *checked_skip(const char *p, const char *end)
{
	struct jv ignored;

	if (*p == '"' || *p == '{' || *p == '[')
		return checked_value(p, end, &ignored);
	while (p < end && *p != ',' && *p != '}' && *p != ']' &&
	       !is_blank((unsigned char)*p))
		p++;
	return p;
}

/* Past blanks and one separator (',' or ':') of checked text. */
static const char *checked_gap(const char *p, const char *end)
{
	while (p < end && (is_blank((unsigned char)*p) || *p == ',' ||
			   *p == ':'))
		p++;
	return p;
}

bool result_scan_next_element(const char **pos, const char *end,
			      struct jv *item)
{
	const char *p = checked_gap(*pos, end);

	if (p >= end || *p == ']')
		return false;
	*pos = checked_value(p, end, item);
	return true;
}

void result_scan_members(const char *text, size_t len,
			 const char *const *keys, size_t n, struct jv *out)
{
	const char *p = text + 1, *end = text + len;
	size_t k;

	for (k = 0; k < n; k++)
		memset(&out[k], 0, sizeof(out[k]));
	for (;;) {
		const char *key;
		size_t key_len;
		struct jv value;

		p = checked_gap(p, end);
		if (p >= end || *p != '"')
			return;
		key = p + 1;
		p = string_end(p, end);
		key_len = (size_t)(p - key - 1);
		p = checked_gap(p, end);
		/* A key given twice: the last, as json-c keeps it. Only
		 * the values asked for are read (a trace's hop holds many
		 * numbers report never looks at). */
		for (k = 0; k < n; k++)
			if (keys[k][0] == key[0] &&
			    strncmp(keys[k], key, key_len) == 0 &&
			    keys[k][key_len] == '\0')
				break;
		if (k == n) {
			p = checked_skip(p, end);
			continue;
		}
		p = checked_value(p, end, &value);
		for (; k < n; k++)
			if (keys[k][0] == key[0] &&
			    strncmp(keys[k], key, key_len) == 0 &&
			    keys[k][key_len] == '\0')
				out[k] = value;
	}
}
