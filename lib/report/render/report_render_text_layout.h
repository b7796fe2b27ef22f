/* The columns of the text forms (the matrix, its findings and the
 * suspects section): input text escaped for a terminal, measured in
 * characters, and long lines wrapped under 100 columns. Not
 * lib/out/text_layout.h's wrapping: these lines hold names from the
 * input, and a list breaks between its items where it can. */
#ifndef IBAHPROBE_REPORT_RENDER_TEXT_LAYOUT_H
#define IBAHPROBE_REPORT_RENDER_TEXT_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

/* Text from the input as a terminal may show it (text_escape.h: no
 * control sequence, no bidi override), written through lib/out/output.h
 * when print is set; its width either way. */
size_t report_text_shown(const char *s, bool print);
/* Input text, escaped, padded with blanks to the width to. */
void report_text_pad(const char *s, size_t to);
/* s escaped, after indent blanks; a line past 99 columns is broken
 * after "; " or ", ", else at a blank, and goes on indented by 2 more. */
void report_text_wrapped(size_t indent, const char *s);

#endif
