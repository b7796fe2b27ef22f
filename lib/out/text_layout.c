/* Text layout helpers: see text_layout.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "out/text_layout.h"

void text_append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used = *used + (size_t)n < len ? *used + (size_t)n : len - 1;
}

int text_digits(unsigned long long value)
{
	int n = 1;

	while (value >= 10) {
		value /= 10;
		n++;
	}
	return n;
}

void text_wrap_append(char *buf, size_t len, size_t *used, const char *text,
		      int indent, int cont_indent, int width)
{
	const char *p = text;
	int column = 0;

	while (*p == ' ')
		p++;
	while (*p) {
		size_t word = strcspn(p, " ");

		if (column == 0) {
			text_append(buf, len, used, "%*s%.*s", indent, "",
			       (int)word, p);
			column = indent + (int)word;
		} else if (column + 1 + (int)word <= width) {
			text_append(buf, len, used, " %.*s", (int)word, p);
			column += 1 + (int)word;
		} else {
			text_append(buf, len, used, "\n%*s%.*s", cont_indent, "",
			       (int)word, p);
			column = cont_indent + (int)word;
		}
		p += word;
		while (*p == ' ')
			p++;
	}
	if (column)
		text_append(buf, len, used, "\n");
}
