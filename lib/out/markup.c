/* XML/HTML escaping; see markup.h. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "out/markup.h"
#include "base/text_escape.h"

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD */

/* Characters no document should carry: see markup.h. */
static bool unwanted(uint32_t cp)
{
	if (cp < 0x20)
		return cp != '\t' && cp != '\n' && cp != '\r';
	return cp == 0x7f || text_is_hidden_control(cp) ||
	       (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) == 0xfffe;
}

void markup_escape(FILE *f, const char *s)
{
	size_t len = s ? strlen(s) : 0;

	for (size_t at = 0; at < len;) {
		uint32_t cp;
		size_t n = text_utf8_decode(s + at, len - at, &cp);

		if (n == 0 || unwanted(cp)) {
			fputs(REPLACEMENT, f);
			at += n ? n : 1;
			continue;
		}
		switch (cp) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fwrite(s + at, 1, n, f);
		}
		at += n;
	}
}

/* The conversion is passed to vfprintf one at a time, so the format stays
 * the caller's literal in spirit: checked by the attribute above. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

void markup_printf(FILE *f, const char *fmt, ...)
{
	char spec[32];
	va_list ap;

	va_start(ap, fmt);
	while (*fmt) {
		size_t n = strcspn(fmt, "%");
		int longs = 0;
		bool size = false;

		fwrite(fmt, 1, n, f);
		fmt += n;
		if (!*fmt)
			break;
		n = 1 + strspn(fmt + 1, "-+ #0123456789.");
		while (fmt[n] == 'l' || fmt[n] == 'h' || fmt[n] == 'z') {
			longs += fmt[n] == 'l';
			size = size || fmt[n] == 'z';
			n++;
		}
		if (!fmt[n] || n + 2 > sizeof(spec))
			break;	/* a malformed format: stop, never guess */
		snprintf(spec, sizeof(spec), "%.*s", (int)n + 1, fmt);
		switch (fmt[n]) {
		case '%': fputc('%', f); break;
		case 's': markup_escape(f, va_arg(ap, const char *)); break;
		case 'c': fputc(va_arg(ap, int), f); break;
		case 'f': case 'g': case 'e':
			fprintf(f, spec, va_arg(ap, double));
			break;
		case 'd': case 'i':
			if (size)
				fprintf(f, spec, va_arg(ap, ssize_t));
			else if (longs > 1)
				fprintf(f, spec, va_arg(ap, long long));
			else if (longs)
				fprintf(f, spec, va_arg(ap, long));
			else
				fprintf(f, spec, va_arg(ap, int));
			break;
		default:	/* u x X */
			if (size)
				fprintf(f, spec, va_arg(ap, size_t));
			else if (longs > 1)
				fprintf(f, spec, va_arg(ap, unsigned long long));
			else if (longs)
				fprintf(f, spec, va_arg(ap, unsigned long));
			else
				fprintf(f, spec, va_arg(ap, unsigned));
		}
		fmt += n + 1;
	}
	va_end(ap);
}
