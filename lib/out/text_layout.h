/* Laying out text for people in bounded buffers: appending formatted
 * text, the width of a number, and words to lines of at most a given
 * width (for findings and messages under a result row: a line breaks at
 * a space, never inside a word; a word longer than the line, a GID or a
 * path, stands alone on its line, whole), measured in the columns a
 * terminal gives each character and cut only between characters. */
#ifndef IBAHPROBE_TEXT_LAYOUT_H
#define IBAHPROBE_TEXT_LAYOUT_H

#include <stddef.h>

/* snprintf at buf + *used, advancing *used; what does not fit is cut
 * (buf stays NUL-terminated). */
void text_append(char *buf, size_t len, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Columns a decimal number takes. */
int text_digits(unsigned long long value);

/* Columns a terminal gives the UTF-8 character at s (at most len bytes,
 * len > 0), after Unicode's East Asian Width and general category (what
 * glibc's wcwidth() says in a UTF-8 locale, without depending on one):
 * 0 for a combining mark or a zero-width character, 2 for a wide or
 * full-width one, else 1. Its length in bytes goes to *bytes: 1 for a
 * byte that starts no character, which counts 1 column. */
int text_char_columns(const char *s, size_t len, size_t *bytes);

/* Columns of the text s. */
size_t text_columns(const char *s);

/* Bytes of the longest prefix of s that ends between two characters and
 * takes at most columns columns; its columns go to *taken (may be NULL).
 * A combining mark stays with the character before it. */
size_t text_fit(const char *s, size_t columns, size_t *taken);

/* Cuts s in place to at most columns columns (columns >= 3), between
 * characters, ending in "..." when anything was cut. */
void text_cut_ellipsis(char *s, size_t columns);

/* Appends text to buf (at *used, which it advances), each line starting
 * with indent spaces (the first) or cont_indent (the rest), ending in
 * '\n', at most width columns where words allow. The result is cut (but
 * NUL-terminated) when buf is too small. */
void text_wrap_append(char *buf, size_t len, size_t *used, const char *text,
		      int indent, int cont_indent, int width);

#endif
