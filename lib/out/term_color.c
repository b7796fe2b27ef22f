/* Colour decision and padded coloured words: see term_color.h. */
#include <stdio.h>
#include <string.h>

#include "out/term_color.h"

int color_mode_parse(const char *text, enum color_mode *mode, char *err,
		     size_t len)
{
	static const struct { const char *name; enum color_mode mode; } names[] = {
		{ "auto", COLOR_AUTO }, { "tty", COLOR_AUTO },
		{ "if-tty", COLOR_AUTO }, { "always", COLOR_ALWAYS },
		{ "yes", COLOR_ALWAYS }, { "force", COLOR_ALWAYS },
		{ "never", COLOR_NEVER }, { "no", COLOR_NEVER },
		{ "none", COLOR_NEVER },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(text, names[i].name) == 0) {
			*mode = names[i].mode;
			return 0;
		}
	snprintf(err, len, "colour '%s' is not auto, always or never", text);
	return -1;
}

bool color_wanted(enum color_mode mode, bool is_tty, const char *no_color,
		  const char *term)
{
	switch (mode) {
	case COLOR_ALWAYS:
		return true;
	case COLOR_NEVER:
		return false;
	case COLOR_AUTO:
		break;
	}
	if (!is_tty || (no_color && no_color[0]))
		return false;
	return !term || strcmp(term, "dumb") != 0;
}

static const char *sgr(enum color color)
{
	switch (color) {
	case COLOR_GOOD: return "\033[32m";
	case COLOR_WARN: return "\033[33m";
	case COLOR_BAD: return "\033[31m";
	case COLOR_FAIL: return "\033[1;31m";
	case COLOR_NONE: break;
	}
	return "";
}

int color_pad(char *out, size_t len, const char *text, int width, bool right,
	      enum color color, bool on)
{
	int pad = width - (int)strlen(text);
	const char *start = on ? sgr(color) : "";
	const char *end = on && color != COLOR_NONE ? "\033[0m" : "";

	if (pad < 0)
		pad = 0;
	return right ? snprintf(out, len, "%*s%s%s%s", pad, "", start, text,
				end)
		     : snprintf(out, len, "%s%s%s%*s", start, text, end, pad,
				"");
}
