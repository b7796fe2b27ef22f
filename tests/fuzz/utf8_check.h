/* Strict UTF-8 for the fuzz targets' oracles (RFC 3629): no overlong
 * forms, no surrogates, nothing above U+10FFFF, no truncated sequence.
 * For XML also only characters XML 1.0 can carry at all (its Char
 * production: tab, newline, carriage return, U+0020 and up, without
 * U+FFFE and U+FFFF). A header of static functions: each target is one
 * translation unit. */
#ifndef IBAHPROBE_FUZZ_UTF8_CHECK_H
#define IBAHPROBE_FUZZ_UTF8_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The code point at s (n bytes left) and its length, or 0 when the bytes
 * are no well-formed UTF-8 there. */
static size_t utf8_next(const uint8_t *s, size_t n, uint32_t *cp)
{
	size_t len;
	uint32_t min;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2, min = 0x80, *cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3, min = 0x800, *cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4, min = 0x10000, *cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return len;
}

static bool utf8_valid(const char *text, size_t n, bool xml)
{
	const uint8_t *s = (const uint8_t *)text;
	uint32_t cp;

	for (size_t i = 0, len; i < n; i += len) {
		len = utf8_next(s + i, n - i, &cp);
		if (!len)
			return false;
		if (xml && ((cp < 0x20 && cp != '\t' && cp != '\n' &&
			     cp != '\r') ||
			    cp == 0xfffe || cp == 0xffff))
			return false;
	}
	return true;
}

#endif
