/* Unit tests of XML/HTML escaping: host names and destination texts are
 * user input on their way into SVG and HTML documents. */
#include <stdlib.h>

#include "out/markup.h"
#include "tap.h"

/* What fn wrote, as a string (static buffer). */
static char out[1024];

static FILE *open_out(void)
{
	memset(out, 0, sizeof(out));
	return fmemopen(out, sizeof(out) - 1, "w");
}

static const char *escaped(const char *s)
{
	FILE *f = open_out();

	markup_escape(f, s);
	fclose(f);
	return out;
}

int main(void)
{
	FILE *f;

	is_str(escaped("node01"), "node01", "plain text stays");
	is_str(escaped("<script>alert('x')</script>"),
	       "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;",
	       "tags and single quotes");
	is_str(escaped("a&b \"c\""), "a&amp;b &quot;c&quot;",
	       "ampersand and double quotes (safe in attributes)");
	is_str(escaped("&amp;"), "&amp;amp;", "an entity is text, escaped again");
	is_str(escaped("tab\tnl\ncr\r"), "tab\tnl\ncr\r",
	       "tab, newline, carriage return kept");
	is_str(escaped("a\x01" "b\x1b[31m\x7f"), "a\xef\xbf\xbd" "b\xef\xbf\xbd"
	       "[31m\xef\xbf\xbd", "control characters XML cannot carry "
	       "become U+FFFD");
	is_str(escaped("h\xc3\xb6st \xe2\x86\x92"), "h\xc3\xb6st \xe2\x86\x92",
	       "UTF-8 passes through");
	is_str(escaped("\xf0\x9f\x90\xa7 \xef\xbf\xbd \xef\xbf\xbd"),
	       "\xf0\x9f\x90\xa7 \xef\xbf\xbd \xef\xbf\xbd",
	       "4-byte characters and U+FFFD itself pass through");
#define FFFD "\xef\xbf\xbd"
	is_str(escaped("a\xc0\x80" "b\xed\xa0\x80" "c\xf4\x90\x80\x80" "d"),
	       "a" FFFD FFFD "b" FFFD FFFD FFFD "c" FFFD FFFD FFFD FFFD "d",
	       "overlong, surrogate, past U+10FFFF: each byte U+FFFD");
	is_str(escaped("\xff\xfe<\xe2\x82"), FFFD FFFD "&lt;" FFFD FFFD,
	       "bytes that start nothing, a character cut short at the end");
	is_str(escaped("\xe2\x82<"), FFFD FFFD "&lt;",
	       "a character cut short does not swallow the next one");
	is_str(escaped("x\xef\xbf\xbe\xef\xbf\xbf\xef\xb7\x90\xef\xb7\xaf"
		       "\xf0\x9f\xbf\xbe\xf4\x8f\xbf\xbf" "y"),
	       "x" FFFD FFFD FFFD FFFD FFFD FFFD "y",
	       "noncharacters (U+FFFE, U+FFFF, U+FDD0, U+FDEF, U+1FFFE, "
	       "U+10FFFF) become U+FFFD");
	is_str(escaped("\xef\xb7\x8f\xef\xb7\xb0\xef\xbf\xbc"),
	       "\xef\xb7\x8f\xef\xb7\xb0\xef\xbf\xbc",
	       "U+FDCF, U+FDF0, U+FFFC are characters: kept");
	is_str(escaped("\xc2\x85\xc2\x9b" "31m\xe2\x80\xae" "cod.exe\xd8\x9c"),
	       FFFD FFFD "31m" FFFD "cod.exe" FFFD,
	       "C1 controls and bidi controls become U+FFFD");
	is_str(escaped("\xc2\xa0\xe2\x80\x8b"), "\xc2\xa0\xe2\x80\x8b",
	       "NBSP and ZWSP are no controls: kept");
	is_str(escaped(""), "", "empty string");
	is_str(escaped(NULL), "", "NULL writes nothing");

	f = open_out();
	markup_printf(f, "<text x=\"%.1f\" n=\"%d\" z=\"%zu\" u=\"%llu\" "
		      "l=\"%ld\" h=\"0x%02x\">%s%%</text>", 1.25, -3,
		      (size_t)7, 1ULL << 40, -5L, 0xa, "<b&\">");
	fclose(f);
	is_str(out, "<text x=\"1.2\" n=\"-3\" z=\"7\" u=\"1099511627776\" "
	       "l=\"-5\" h=\"0x0a\">&lt;b&amp;&quot;&gt;%</text>",
	       "markup_printf: numbers as printf, strings escaped, %%%% kept");
	f = open_out();
	markup_printf(f, "%s and %s", "a<b", "c>d");
	fclose(f);
	is_str(out, "a&lt;b and c&gt;d", "every %%s argument escaped");
	f = open_out();
	markup_printf(f, "<title>%s</title>", "t\xc0\x80\x01");
	fclose(f);
	is_str(out, "<title>t" FFFD FFFD FFFD "</title>",
	       "%%s arguments are made well-formed too");
	return tap_done();
}
