/* Unit tests of text_escape(): what a ServiceName or node description from
 * the SA may carry, and what reaches a terminal or JSON instead. */
#include <string.h>

#include "tap.h"
#include "base/text_escape.h"

static const char *esc(const char *s, size_t len)
{
	static char out[TEXT_ESCAPE_SIZE(80)];

	return text_escape(s, len, out, sizeof(out));
}

#define ESC(lit) esc(lit, sizeof(lit) - 1)

static void test_plain(void)
{
	is_str(ESC("ibahprobe:node01"), "ibahprobe:node01", "ASCII kept");
	is_str(ESC("n\xc5\x93ud-\xe6\x9d\xb1\xe4\xba\xac"),
	       "n\xc5\x93ud-\xe6\x9d\xb1\xe4\xba\xac",
	       "printable UTF-8 kept (2 and 3 bytes)");
	is_str(ESC("\xf0\x9f\x90\xa7"), "\xf0\x9f\x90\xa7", "4 bytes kept");
	is_str(ESC("a\\b"), "a\\\\b", "a backslash doubled");
}

static void test_controls(void)
{
	is_str(ESC("red\x1b[31mX"), "red\\x1b[31mX", "ESC (C0) as \\x1b");
	is_str(ESC("a\tb\nc\rd\x7f"), "a\\x09b\\x0ac\\x0dd\\x7f",
	       "tab, newline, CR, DEL");
	is_str(esc("a\0b", 3), "a", "stops at a NUL (a NUL-padded field)");
	is_str(ESC("\xc2\x9b" "31m"), "\\u{9b}31m",
	       "C1 CSI (U+009B) as \\u{9b}");
	is_str(ESC("\xc2\x85"), "\\u{85}", "C1 NEL");
}

static void test_bidi(void)
{
	is_str(ESC("abc\xe2\x80\xae" "fdp.exe"), "abc\\u{202e}fdp.exe",
	       "RIGHT-TO-LEFT OVERRIDE");
	is_str(ESC("\xe2\x81\xa6x\xe2\x81\xa9"), "\\u{2066}x\\u{2069}",
	       "isolates");
	is_str(ESC("\xe2\x80\x8f\xd8\x9c"), "\\u{200f}\\u{61c}",
	       "RLM and ARABIC LETTER MARK");
	is_str(ESC("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad"),
	       "\\u{202a}\\u{202b}\\u{202c}\\u{202d}", "embeddings, PDF");
}

static void test_not_utf8(void)
{
	is_str(ESC("a\xff" "b"), "a\\xffb", "0xff");
	is_str(ESC("\xc0\xaf"), "\\xc0\\xaf", "overlong '/'");
	is_str(ESC("\xed\xa0\x80"), "\\xed\\xa0\\x80", "a UTF-16 surrogate");
	is_str(ESC("\xe2\x80"), "\\xe2\\x80", "a sequence cut short");
	is_str(ESC("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80",
	       "past U+10FFFF");
	is_str(esc("\xe2\x80\xae", 2), "\\xe2\\x80",
	       "a sequence past len is not read");
}

static void test_room(void)
{
	char out[8];

	is_str(text_escape("abcdefghij", 10, out, sizeof(out)), "abcdefg",
	       "cut to the room");
	is_str(text_escape("abcd\x1b", 5, out, sizeof(out)), "abcd",
	       "an escape that does not fit is left out whole");
	is_str(text_escape("ab\xe6\x9d\xb1\xe4\xba\xac", 8, out, sizeof(out)),
	       "ab\xe6\x9d\xb1", "a character that does not fit is left out");
	ok(text_escape("x", 1, out, 0) == out, "no room: nothing written");
}

static void test_prefix(void)
{
	char out[8];

	is_int(text_escape_prefix("abc", 3, out, sizeof(out)), 3,
	       "all of it taken");
	is_int(text_escape_prefix("abcdefghij", 10, out, sizeof(out)), 7,
	       "cut: what was taken");
	is_int(text_escape_prefix("abcd\x1b", 5, out, sizeof(out)), 4,
	       "an escape left out is not taken");
	is_int(text_escape_prefix("ab\0cd", 5, out, sizeof(out)), 2,
	       "stops at a NUL, which is not taken");
	is_int(text_escape_prefix("\xe2\x80\xae", 3, out, sizeof(out)), 0,
	       "\\u{202e} needs 9 bytes of room: nothing taken");
}

static void test_decode(void)
{
	uint32_t cp = 0;

	ok(text_utf8_decode("\xf4\x8f\xbf\xbf", 4, &cp) == 4 &&
	   cp == 0x10ffff, "U+10FFFF, the last code point");
	ok(text_utf8_decode("\xef\xbf\xbe", 3, &cp) == 3 && cp == 0xfffe,
	   "U+FFFE is well-formed (a noncharacter, not an error)");
	ok(text_utf8_decode("\xe0\x9f\xbf", 3, &cp) == 0, "overlong U+07FF");
	ok(text_utf8_decode("\xed\xbf\xbf", 3, &cp) == 0, "surrogate U+DFFF");
	ok(text_utf8_decode("\xf4\x90\x80\x80", 4, &cp) == 0, "U+110000");
	ok(text_utf8_decode("\xc3\xa9", 1, &cp) == 0, "cut short by len");
	ok(text_utf8_decode("", 0, &cp) == 0, "nothing to decode");
	ok(text_is_hidden_control(0x9b) && text_is_hidden_control(0x202e) &&
	   !text_is_hidden_control(0xa0) && !text_is_hidden_control(0x200b),
	   "hidden controls: C1 and bidi, not NBSP or ZWSP");
}

int main(void)
{
	test_plain();
	test_controls();
	test_bidi();
	test_not_utf8();
	test_room();
	test_prefix();
	test_decode();
	return tap_done();
}
