/* Bounded line reading; see line_reader.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/line_reader.h"

int line_reader_init(struct line_reader *r, FILE *in, const char *label,
		     size_t max_len, size_t max_lines)
{
	memset(r, 0, sizeof(*r));
	r->in = in;
	r->label = label;
	r->max_len = max_len;
	r->max_lines = max_lines;
	r->buf = malloc(max_len + 1);
	return r->buf ? 0 : -1;
}

void line_reader_free(struct line_reader *r)
{
	free(r->buf);
	r->buf = NULL;
}

int line_reader_next(struct line_reader *r, char *err, size_t errlen)
{
	size_t len = 0;
	int c;

	errno = 0;
	while ((c = getc(r->in)) != EOF && c != '\n') {
		if (len == 0 && r->line >= r->max_lines) {
			snprintf(err, errlen, "%s: more than %zu lines",
				 r->label, r->max_lines);
			return -1;
		}
		if (c == '\0') {
			snprintf(err, errlen, "%s:%lu:%zu: a NUL byte in a "
				 "text line", r->label, r->line + 1, len + 1);
			return -1;
		}
		if (len == r->max_len) {
			snprintf(err, errlen, "%s:%lu: line is longer than "
				 "%zu characters", r->label, r->line + 1,
				 r->max_len);
			return -1;
		}
		r->buf[len++] = (char)c;
	}
	if (c == EOF && ferror(r->in)) {
		snprintf(err, errlen, "cannot read %s: %s", r->label,
			 strerror(errno ? errno : EIO));
		return -1;
	}
	if (c == EOF && len == 0)
		return 0;
	if (r->line >= r->max_lines) {
		snprintf(err, errlen, "%s: more than %zu lines", r->label,
			 r->max_lines);
		return -1;
	}
	r->line++;
	r->buf[len] = '\0';
	return 1;
}
