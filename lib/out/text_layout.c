/* Text layout helpers: see text_layout.h. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/text_escape.h"
#include "out/text_layout.h"

struct cp_range {
	uint32_t first, last;
};

/* Nonspacing and enclosing marks (Mn, Me) and format characters (Cf) of
 * the scripts most names use: they take no column of their own. */
static const struct cp_range zero_width[] = {
	{ 0x0300, 0x036f }, { 0x0483, 0x0489 }, { 0x0591, 0x05bd },
	{ 0x05bf, 0x05bf }, { 0x05c1, 0x05c2 }, { 0x05c4, 0x05c5 },
	{ 0x05c7, 0x05c7 }, { 0x0610, 0x061a }, { 0x061c, 0x061c },
	{ 0x064b, 0x065f }, { 0x0670, 0x0670 }, { 0x06d6, 0x06dc },
	{ 0x06df, 0x06e4 }, { 0x06e7, 0x06e8 }, { 0x06ea, 0x06ed },
	{ 0x0900, 0x0902 }, { 0x093a, 0x093a }, { 0x093c, 0x093c },
	{ 0x0941, 0x0948 }, { 0x094d, 0x094d }, { 0x0951, 0x0957 },
	{ 0x0e31, 0x0e31 }, { 0x0e34, 0x0e3a }, { 0x0e47, 0x0e4e },
	{ 0x1ab0, 0x1aff }, { 0x1dc0, 0x1dff }, { 0x200b, 0x200f },
	{ 0x202a, 0x202e }, { 0x2060, 0x2064 }, { 0x2066, 0x206f },
	{ 0x20d0, 0x20ff }, { 0x302a, 0x302d }, { 0x3099, 0x309a },
	{ 0xfe00, 0xfe0f }, { 0xfe20, 0xfe2f }, { 0xfeff, 0xfeff },
	{ 0x1f3fb, 0x1f3ff }, { 0xe0001, 0xe0001 }, { 0xe0020, 0xe007f },
	{ 0xe0100, 0xe01ef },
};

/* East Asian Wide and Fullwidth (W, F), emoji presentation included. */
static const struct cp_range wide[] = {
	{ 0x1100, 0x115f }, { 0x231a, 0x231b }, { 0x2329, 0x232a },
	{ 0x23e9, 0x23ec }, { 0x23f0, 0x23f0 }, { 0x23f3, 0x23f3 },
	{ 0x25fd, 0x25fe }, { 0x2614, 0x2615 }, { 0x2648, 0x2653 },
	{ 0x267f, 0x267f }, { 0x2693, 0x2693 }, { 0x26a1, 0x26a1 },
	{ 0x26aa, 0x26ab }, { 0x26bd, 0x26be }, { 0x26c4, 0x26c5 },
	{ 0x26ce, 0x26ce }, { 0x26d4, 0x26d4 }, { 0x26ea, 0x26ea },
	{ 0x26f2, 0x26f3 }, { 0x26f5, 0x26f5 }, { 0x26fa, 0x26fa },
	{ 0x26fd, 0x26fd }, { 0x2705, 0x2705 }, { 0x270a, 0x270b },
	{ 0x2728, 0x2728 }, { 0x274c, 0x274c }, { 0x274e, 0x274e },
	{ 0x2753, 0x2755 }, { 0x2757, 0x2757 }, { 0x2795, 0x2797 },
	{ 0x27b0, 0x27b0 }, { 0x27bf, 0x27bf }, { 0x2b1b, 0x2b1c },
	{ 0x2b50, 0x2b50 }, { 0x2b55, 0x2b55 }, { 0x2e80, 0x303e },
	{ 0x3041, 0x3247 }, { 0x3250, 0x4dbf }, { 0x4e00, 0xa4cf },
	{ 0xa960, 0xa97f }, { 0xac00, 0xd7a3 }, { 0xf900, 0xfaff },
	{ 0xfe10, 0xfe19 }, { 0xfe30, 0xfe6f }, { 0xff00, 0xff60 },
	{ 0xffe0, 0xffe6 }, { 0x16fe0, 0x18cff }, { 0x1b000, 0x1b2ff },
	{ 0x1f004, 0x1f004 }, { 0x1f0cf, 0x1f0cf }, { 0x1f18e, 0x1f18e },
	{ 0x1f191, 0x1f19a }, { 0x1f200, 0x1f251 }, { 0x1f300, 0x1f320 },
	{ 0x1f32d, 0x1f335 }, { 0x1f337, 0x1f37c }, { 0x1f37e, 0x1f393 },
	{ 0x1f3a0, 0x1f3ca }, { 0x1f3cf, 0x1f3d3 }, { 0x1f3e0, 0x1f3f0 },
	{ 0x1f3f4, 0x1f3f4 }, { 0x1f3f8, 0x1f3fa }, { 0x1f400, 0x1f43e },
	{ 0x1f440, 0x1f440 }, { 0x1f442, 0x1f4fc }, { 0x1f4ff, 0x1f53d },
	{ 0x1f54b, 0x1f54e }, { 0x1f550, 0x1f567 }, { 0x1f57a, 0x1f57a },
	{ 0x1f595, 0x1f596 }, { 0x1f5a4, 0x1f5a4 }, { 0x1f5fb, 0x1f64f },
	{ 0x1f680, 0x1f6c5 }, { 0x1f6cc, 0x1f6cc }, { 0x1f6d0, 0x1f6d2 },
	{ 0x1f6d5, 0x1f6d7 }, { 0x1f6eb, 0x1f6ec }, { 0x1f6f4, 0x1f6fc },
	{ 0x1f7e0, 0x1f7eb }, { 0x1f90c, 0x1f93a }, { 0x1f93c, 0x1f945 },
	{ 0x1f947, 0x1f9ff }, { 0x1fa70, 0x1faff }, { 0x20000, 0x2fffd },
	{ 0x30000, 0x3fffd },
};

static bool in_ranges(uint32_t cp, const struct cp_range *r, size_t n)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cp < r[mid].first)
			hi = mid;
		else if (cp > r[mid].last)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

int text_char_columns(const char *s, size_t len, size_t *bytes)
{
	uint32_t cp;
	size_t n = text_utf8_decode(s, len, &cp);

	if (!n) {
		*bytes = 1;
		return 1;
	}
	*bytes = n;
	if (cp < 0x300)
		return 1;
	if (in_ranges(cp, zero_width, sizeof(zero_width) / sizeof(*zero_width)))
		return 0;
	return in_ranges(cp, wide, sizeof(wide) / sizeof(*wide)) ? 2 : 1;
}

static size_t span_columns(const char *s, size_t len)
{
	size_t columns = 0;

	while (len) {
		size_t n;

		columns += (size_t)text_char_columns(s, len, &n);
		s += n;
		len -= n;
	}
	return columns;
}

size_t text_columns(const char *s)
{
	return span_columns(s, strlen(s));
}

size_t text_fit(const char *s, size_t columns, size_t *taken)
{
	size_t len = strlen(s), at = 0, used = 0;

	while (at < len) {
		size_t n;
		int w = text_char_columns(s + at, len - at, &n);

		if (used + (size_t)w > columns)
			break;
		used += (size_t)w;
		at += n;
	}
	if (taken)
		*taken = used;
	return at;
}

void text_cut_ellipsis(char *s, size_t columns)
{
	if (text_columns(s) <= columns)
		return;
	strcpy(s + text_fit(s, columns - 3, NULL), "...");
}

void text_append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used = *used + (size_t)n < len ? *used + (size_t)n : len - 1;
}

int text_digits(unsigned long long value)
{
	int n = 1;

	while (value >= 10) {
		value /= 10;
		n++;
	}
	return n;
}

void text_wrap_append(char *buf, size_t len, size_t *used, const char *text,
		      int indent, int cont_indent, int width)
{
	const char *p = text;
	int column = 0;

	while (*p == ' ')
		p++;
	while (*p) {
		size_t word = strcspn(p, " ");
		int cols = (int)span_columns(p, word);

		if (column == 0) {
			text_append(buf, len, used, "%*s%.*s", indent, "",
			       (int)word, p);
			column = indent + cols;
		} else if (column + 1 + cols <= width) {
			text_append(buf, len, used, " %.*s", (int)word, p);
			column += 1 + cols;
		} else {
			text_append(buf, len, used, "\n%*s%.*s", cont_indent, "",
			       (int)word, p);
			column = cont_indent + cols;
		}
		p += word;
		while (*p == ' ')
			p++;
	}
	if (column)
		text_append(buf, len, used, "\n");
}
