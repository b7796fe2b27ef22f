/* Unit tests of bounded line reading: lines, the last one without a
 * newline, a NUL named with its column, over-long lines and too many
 * lines refused, an endless stream of NULs stopped at the first. */
#include <stdlib.h>
#include <string.h>

#include "base/line_reader.h"
#include "tap.h"

static FILE *stream(const char *bytes, size_t len)
{
	return fmemopen((void *)bytes, len, "r");
}

int main(void)
{
	struct line_reader r;
	char err[256];
	FILE *in;

	in = stream("a\n\nbc", 5);
	line_reader_init(&r, in, "f", 8, 10);
	is_int(line_reader_next(&r, err, sizeof(err)), 1, "a line");
	is_str(r.buf, "a", "without its newline");
	is_int(line_reader_next(&r, err, sizeof(err)), 1, "an empty line");
	is_str(r.buf, "", "empty");
	is_int(line_reader_next(&r, err, sizeof(err)), 1, "the last line "
	       "without a newline");
	is_str(r.buf, "bc", "bc");
	is_int(r.line, 3, "three lines");
	is_int(line_reader_next(&r, err, sizeof(err)), 0, "then the end");
	line_reader_free(&r);
	fclose(in);

	in = stream("ok\nab\0cd\n", 9);
	line_reader_init(&r, in, "f", 8, 10);
	line_reader_next(&r, err, sizeof(err));
	is_int(line_reader_next(&r, err, sizeof(err)), -1, "a NUL refused");
	is_str(err, "f:2:3: a NUL byte in a text line", "with line and column");
	line_reader_free(&r);
	fclose(in);

	in = stream("123456789\n", 10);
	line_reader_init(&r, in, "f", 8, 10);
	is_int(line_reader_next(&r, err, sizeof(err)), -1, "9 > 8 refused");
	is_str(err, "f:1: line is longer than 8 characters", "named");
	line_reader_free(&r);
	fclose(in);

	in = stream("1\n2\n3\n", 6);
	line_reader_init(&r, in, "f", 8, 2);
	line_reader_next(&r, err, sizeof(err));
	line_reader_next(&r, err, sizeof(err));
	is_int(line_reader_next(&r, err, sizeof(err)), -1, "a third line of 2");
	is_str(err, "f: more than 2 lines", "named");
	line_reader_free(&r);
	fclose(in);

	in = fopen("/dev/zero", "r");
	if (in) {
		line_reader_init(&r, in, "/dev/zero", 256, 1000000);
		is_int(line_reader_next(&r, err, sizeof(err)), -1,
		       "/dev/zero: stopped at once");
		is_str(err, "/dev/zero:1:1: a NUL byte in a text line", "named");
		line_reader_free(&r);
		fclose(in);
	}
	return tap_done();
}
