/* The columns of the text forms: input text escaped for a terminal and
 * measured in characters, long lines wrapped under 100 columns; all
 * through lib/out/output.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text_escape.h"
#include "out/output.h"
#include "out/text_layout.h"
#include "report/render/report_render.h"
#include "report/render/report_render_text_layout.h"

/* Written in pieces, so that nothing is cut. */
size_t report_text_shown(const char *s, bool print)
{
	size_t len = strlen(s), w = 0;
	char piece[256];

	while (len) {
		size_t took = text_escape_prefix(s, len, piece, sizeof(piece));

		if (print)
			out_text("%s", piece);
		w += report_text_width(piece);
		s += took;
		len -= took;
	}
	return w;
}

void report_text_pad(const char *s, size_t to)
{
	size_t w = report_text_shown(s, true);

	out_text("%*s", (int)(to > w ? to - w : 0), "");
}

#define TEXT_COLUMNS 99

/* Whether the len bytes at s take more than room columns: looks at no
 * more than room + 1 characters, so that wrapping a long text is linear
 * in its length (text_columns() of each remainder was quadratic). */
static bool wider_than(const char *s, size_t len, size_t room)
{
	size_t columns = 0;

	while (len) {
		size_t n;

		columns += (size_t)text_char_columns(s, len, &n);
		if (columns > room)
			return true;
		s += n;
		len -= n;
	}
	return false;
}

void report_text_wrapped(size_t indent, const char *s)
{
	char *text = NULL, *p;
	size_t room = TEXT_COLUMNS - indent, len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	/* Escaped first, so that what is measured is what is shown. */
	for (size_t left = strlen(s); left;) {
		char piece[256];
		size_t took = text_escape_prefix(s, left, piece, sizeof(piece));

		fputs(piece, f);
		s += took;
		left -= took;
	}
	if (fclose(f))
		return;
	len = strlen(text);
	out_text("%*s", (int)indent, "");
	for (p = text; wider_than(p, len, room);) {
		size_t cut = 0, columns = 0, best, sep = 0, blank = 0;
		size_t left = len;

		/* By characters and the columns they take, so that a word
		 * longer than the line is cut between two characters. */
		while (cut < left) {
			size_t bytes;
			int w = text_char_columns(p + cut, left - cut,
						  &bytes);

			if (columns + (size_t)w > room)
				break;
			if (p[cut] == ' ' && cut &&
			    (p[cut - 1] == ';' || p[cut - 1] == ','))
				sep = cut;
			else if (p[cut] == ' ')
				blank = cut;
			columns += (size_t)w;
			cut += bytes;
		}
		/* A list breaks between its items, unless that leaves
		 * most of the line empty. */
		best = sep > cut / 2 || !blank ? sep : blank;
		if (!best)	/* one word longer than the line */
			best = cut;
		out_text("%.*s\n%*s", (int)best, p, (int)indent + 2, "");
		best += p[best] == ' ';
		p += best;
		len -= best;
		room = TEXT_COLUMNS - indent - 2;
	}
	out_text("%s\n", p);
	free(text);
}
