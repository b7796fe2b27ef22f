/* Escaping of untrusted text for terminals and JSON; rules in
 * text_escape.h. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/text_escape.h"

size_t text_utf8_decode(const char *str, size_t len, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	if (!len)
		return 0;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		*cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		*cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		*cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n > len)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && *cp < 0x800) || (n == 4 && *cp < 0x10000) ||
	    (*cp >= 0xd800 && *cp <= 0xdfff) || *cp > 0x10ffff)
		return 0;
	return n;
}

bool text_is_hidden_control(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200e ||
	       cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

size_t text_escape_prefix(const char *s, size_t len, char *out,
			  size_t outlen)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t at = 0, o = 0;

	if (!outlen)
		return 0;
	while (at < len && u[at]) {
		char piece[16];
		size_t plen, n;
		uint32_t cp;

		n = text_utf8_decode(s + at, len - at, &cp);
		if (n == 0 || cp < 0x20 || cp == 0x7f) {
			plen = (size_t)snprintf(piece, sizeof(piece), "\\x%02x",
						u[at]);
			n = 1;
		} else if (text_is_hidden_control(cp)) {
			plen = (size_t)snprintf(piece, sizeof(piece),
						"\\u{%x}", cp);
		} else if (cp == '\\') {
			plen = 2;
			memcpy(piece, "\\\\", 2);
		} else {
			plen = n;
			memcpy(piece, s + at, n);
		}
		if (o + plen >= outlen)
			break;
		memcpy(out + o, piece, plen);
		o += plen;
		at += n;
	}
	out[o] = '\0';
	return at;
}

char *text_escape(const char *s, size_t len, char *out, size_t outlen)
{
	text_escape_prefix(s, len, out, outlen);
	return out;
}
