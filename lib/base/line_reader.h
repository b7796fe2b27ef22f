/* Bounded reading of text files line by line (destination lists,
 * checklists): a line longer than a maximum, a NUL byte inside a line, or
 * more lines than a maximum is an error with FILE:LINE[:COL], so /dev/zero
 * or an endless stdin ends with a message, never with unbounded memory or
 * a line silently cut at its NUL. */
#ifndef IBAHPROBE_LINE_READER_H
#define IBAHPROBE_LINE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct line_reader {
	FILE *in;
	const char *label;	/* FILE in messages */
	size_t max_len;		/* characters, without the newline */
	size_t max_lines;
	unsigned long line;	/* number of the line last read */
	char *buf;		/* max_len + 1 bytes */
};

int line_reader_init(struct line_reader *r, FILE *in, const char *label,
		     size_t max_len, size_t max_lines);
void line_reader_free(struct line_reader *r);

/* Reads the next line into r->buf (newline removed, NUL-terminated).
 * Returns 1 with a line, 0 at the end, -1 with err set (too long, a NUL,
 * too many lines, a read error). */
int line_reader_next(struct line_reader *r, char *err, size_t errlen);

#endif
