/* Colour in text output, as ls(1) and ip(8) decide it: --color=auto
 * colours only a terminal, and then not when NO_COLOR is set to
 * something (no-color.org) or TERM is "dumb"; always and never are what
 * they say. Colour marks words only; columns are aligned on what is
 * visible. */
#ifndef IBAHPROBE_TERM_COLOR_H
#define IBAHPROBE_TERM_COLOR_H

#include <stdbool.h>
#include <stddef.h>

enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

enum color {
	COLOR_NONE,
	COLOR_GOOD,	/* green */
	COLOR_WARN,	/* yellow */
	COLOR_BAD,	/* red */
	COLOR_FAIL,	/* bold red */
};

/* "auto", "always", "never" (also "yes"/"force", "no"/"none", as GNU
 * ls takes them). Returns 0, or -1 with err. */
int color_mode_parse(const char *text, enum color_mode *mode, char *err,
		     size_t len);

/* The decision from plain inputs: the mode, whether the output is a
 * terminal, and the values of NO_COLOR and TERM (NULL: unset). */
bool color_wanted(enum color_mode mode, bool is_tty, const char *no_color,
		  const char *term);

/* Writes text padded with spaces to width visible columns (left-aligned;
 * right-aligned when right), wrapped in the colour's SGR sequence when
 * on. Returns the bytes written (snprintf's rule: more than len means
 * cut). */
int color_pad(char *out, size_t len, const char *text, int width, bool right,
	      enum color color, bool on);

#endif
