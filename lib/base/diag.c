/* Diagnostics on stderr, with one prefix and one verbosity knob. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/text_escape.h"

int diag_verbosity;

/* Messages quote input (a file's line, a name from the fabric): what
 * would steer a terminal is shown instead, C0 controls but newline and
 * tab and bytes that are no UTF-8 as \xNN, C1 and bidi controls as
 * \u{NNNN}. Backslashes stay as they are: names escaped already
 * (text_escape) read the same here. */
static size_t shown(const char *s, size_t len, char *out)
{
	size_t o = 0;

	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)s[i];
		uint32_t cp;
		size_t n;

		if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)) {
			out[o++] = (char)c;
			i++;
			continue;
		}
		n = c < 0x80 ? 0 : text_utf8_decode(s + i, len - i, &cp);
		if (n == 0) {
			o += (size_t)sprintf(out + o, "\\x%02x", c);
			i++;
		} else if (text_is_hidden_control(cp)) {
			o += (size_t)sprintf(out + o, "\\u{%04x}", cp);
			i += n;
		} else {
			memcpy(out + o, s + i, n);
			o += n;
			i += n;
		}
	}
	return o;
}

/* One write per message: lines from threads working in parallel never
 * interleave mid-line. */
static void diag_vprint(const char *kind, const char *fmt, va_list ap)
{
	char *text = NULL, *line;
	size_t len, o;
	int n = vasprintf(&text, fmt, ap);

	if (n < 0) {
		fputs("ibahprobe: out of memory\n", stderr);
		return;
	}
	len = (size_t)n;
	/* \u{10ffff} is the longest form: 10 bytes for a 4-byte character,
	 * \xNN 4 for 1; the prefix and the newline on top. */
	line = malloc(len * 4 + 64);
	if (!line) {
		free(text);
		fputs("ibahprobe: out of memory\n", stderr);
		return;
	}
	o = (size_t)sprintf(line, "ibahprobe: %s%s", kind ? kind : "",
			    kind ? ": " : "");
	o += shown(text, len, line + o);
	line[o++] = '\n';
	fwrite(line, 1, o, stderr);
	free(line);
	free(text);
}

void diag_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vprint("error", fmt, ap);
	va_end(ap);
}

void diag_warn(const char *fmt, ...)
{
	va_list ap;

	if (diag_verbosity < 0)
		return;
	va_start(ap, fmt);
	diag_vprint("warning", fmt, ap);
	va_end(ap);
}

void diag_verbose(int level, const char *fmt, ...)
{
	va_list ap;

	if (diag_verbosity < level)
		return;
	va_start(ap, fmt);
	diag_vprint(NULL, fmt, ap);
	va_end(ap);
}
