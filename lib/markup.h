/* Text into XML, SVG and HTML: every string that comes from input (host
 * names, destination texts, findings) goes through here on its way into
 * a document. */
#ifndef IBAHPROBE_MARKUP_H
#define IBAHPROBE_MARKUP_H

#include <stdio.h>

/* Writes s with & < > " ' as character references, so it is safe in
 * element content and in quoted attributes alike. Control characters
 * that XML 1.0 cannot carry at all (even as references) become U+FFFD;
 * tab, newline and carriage return are kept. */
void markup_escape(FILE *f, const char *s);

/* Writes s with printf-style fmt, every %s argument escaped; the other
 * conversions (%d, %u, %zu, %.1f, ...) as printf would. */
void markup_printf(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
