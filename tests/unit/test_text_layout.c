/* Unit tests of lib/out/text_layout.h's measures: the columns a character
 * takes (narrow, wide, combining, no UTF-8), and cuts that fall between
 * characters and within a number of columns. */
#include <string.h>

#include "out/text_layout.h"
#include "tap.h"

static void test_columns(void)
{
	size_t bytes;

	is_int(text_char_columns("a", 1, &bytes), 1, "ASCII: one column");
	is_int(bytes, 1, "one byte");
	is_int(text_char_columns("\xc3\xa9", 2, &bytes), 1, "e acute: one");
	is_int(bytes, 2, "two bytes");
	is_int(text_char_columns("\xe6\xbc\xa2", 3, &bytes), 2,
	       "a CJK ideograph: two columns");
	is_int(text_char_columns("\xcc\x81", 2, &bytes), 0,
	       "a combining acute accent: none");
	is_int(text_char_columns("\xf0\x9f\x98\x80", 4, &bytes), 2,
	       "an emoji: two");
	is_int(bytes, 4, "four bytes");
	is_int(text_char_columns("\xe6\xbc", 2, &bytes), 1,
	       "a character cut short: its lead byte, one column");
	is_int(bytes, 1, "one byte at a time");
	is_int(text_columns("g1 \xe6\xa9\x9f\xe5\x99\xa8" "e\xcc\x81"), 8,
	       "a string: 3 + 2 + 2 + 1 + 0");
}

static void test_cuts(void)
{
	/* Two e acute, then two wide ideographs. */
	const char *mixed = "\xc3\xa9\xc3\xa9\xe6\xbc\xa2\xe6\xbc\xa2";
	char buf[64];
	size_t taken;

	is_int(text_fit(mixed, 3, &taken), 4,
	       "3 columns: the two narrow characters, not half a wide one");
	is_int(taken, 2, "which take 2");
	is_int(text_fit(mixed, 4, &taken), 7, "4 columns: the first wide one");
	is_int(text_fit("e\xcc\x81x", 1, NULL), 3,
	       "a combining mark stays with its character");
	is_int(text_fit("abc", 10, &taken), 3, "all of it fits");
	is_int(taken, 3, "in 3 columns");

	strcpy(buf, "g2 \xe6\xa9\x9f\xe5\x99\xa8\xe5\xae\xa4\xe6\xa9\x9f");
	text_cut_ellipsis(buf, 10);
	is_str(buf, "g2 \xe6\xa9\x9f\xe5\x99\xa8...",
	       "cut to 10 columns: 3 + 2 + 2 + \"...\", no half character");
	strcpy(buf, "g1 \xc3\xa9\xc3\xa9\xc3\xa9");
	text_cut_ellipsis(buf, 6);
	is_str(buf, "g1 \xc3\xa9\xc3\xa9\xc3\xa9", "what fits stays whole");
	text_cut_ellipsis(buf, 5);
	is_str(buf, "g1...", "else cut, between characters");
}

static void test_wrap(void)
{
	char buf[256];
	size_t used = 0;

	/* Four wide words of 4 columns each: two to a line of 10. */
	text_wrap_append(buf, sizeof(buf), &used,
			 "\xe6\xbc\xa2\xe6\xbc\xa2 \xe6\xbc\xa2\xe6\xbc\xa2 "
			 "\xe6\xbc\xa2\xe6\xbc\xa2 \xe6\xbc\xa2\xe6\xbc\xa2",
			 0, 0, 10);
	is_str(buf, "\xe6\xbc\xa2\xe6\xbc\xa2 \xe6\xbc\xa2\xe6\xbc\xa2\n"
		    "\xe6\xbc\xa2\xe6\xbc\xa2 \xe6\xbc\xa2\xe6\xbc\xa2\n",
	       "wrapping measures columns, not bytes");
}

int main(void)
{
	test_columns();
	test_cuts();
	test_wrap();
	return tap_done();
}
