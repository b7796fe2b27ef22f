/* XML/HTML escaping; see markup.h. */
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>
#include <sys/types.h>

#include "markup.h"

void markup_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '\t': case '\n': case '\r': fputc(c, f); break;
		default:
			if (c < 0x20 || c == 0x7f)
				fputs("\xef\xbf\xbd", f);	/* U+FFFD */
			else
				fputc(c, f);
		}
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
