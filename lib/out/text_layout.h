/* Laying out text for people in bounded buffers: appending formatted
 * text, the width of a number, and words to lines of at most a given
 * width (for findings and messages under a result row: a line breaks at
 * a space, never inside a word; a word longer than the line, a GID or a
 * path, stands alone on its line, whole). */
#ifndef IBAHPROBE_TEXT_LAYOUT_H
#define IBAHPROBE_TEXT_LAYOUT_H

#include <stddef.h>

/* snprintf at buf + *used, advancing *used; what does not fit is cut
 * (buf stays NUL-terminated). */
void text_append(char *buf, size_t len, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Columns a decimal number takes. */
int text_digits(unsigned long long value);

/* Appends text to buf (at *used, which it advances), each line starting
 * with indent spaces (the first) or cont_indent (the rest), ending in
 * '\n', at most width columns where words allow. The result is cut (but
 * NUL-terminated) when buf is too small. */
void text_wrap_append(char *buf, size_t len, size_t *used, const char *text,
		      int indent, int cont_indent, int width);

#endif
