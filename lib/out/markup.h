/* Text into XML, SVG and HTML: every string that comes from input (host
 * names, destination texts, findings) goes through here on its way into
 * a document. */
#ifndef IBAHPROBE_MARKUP_H
#define IBAHPROBE_MARKUP_H

#include <stdio.h>

/* Writes s with & < > " ' as character references, so it is safe in
 * element content and in quoted attributes alike. The document stays
 * well-formed XML whatever s holds: each byte that is no part of a
 * well-formed UTF-8 character (overlong forms, surrogates, past U+10FFFF,
 * cut short) becomes U+FFFD, and so does each character that XML 1.0
 * cannot carry or HTML calls a parse error (C0 controls but tab, newline
 * and carriage return; DEL; C1 controls; the noncharacters U+FDD0..U+FDEF
 * and U+nFFFE, U+nFFFF) or that reorders the text around it unseen (the
 * bidi controls of text_escape.h). */
void markup_escape(FILE *f, const char *s);

/* Writes s with printf-style fmt, every %s argument escaped; the other
 * conversions (%d, %u, %zu, %.1f, ...) as printf would. */
void markup_printf(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
