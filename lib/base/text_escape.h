/* Text from the fabric (ServiceNames, node descriptions) and from files
 * (report input) made safe for a terminal and for JSON: anyone on the
 * subnet can register a ServiceRecord, and anyone can write a file, so a
 * name may carry escape sequences that rewrite the screen, or bidi
 * overrides that make one name look like another. */
#ifndef IBAHPROBE_TEXT_ESCAPE_H
#define IBAHPROBE_TEXT_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Room for the escaped form of len bytes: at worst every byte becomes
 * \xNN; \u{...} forms are shorter per byte than that. */
#define TEXT_ESCAPE_SIZE(len) ((len) * 4 + 1)

/* Copies the first len bytes of s (up to a NUL) to out as well-formed
 * UTF-8 that shows every character: C0 controls, DEL and bytes that are
 * no UTF-8 become \xNN; C1 controls (U+0080..U+009F) and the bidi
 * controls (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069)
 * become \u{NNNN}; a backslash becomes \\, so the escaped form reads back
 * one way. Cut at a whole character or escape when out is too small.
 * Returns out. */
char *text_escape(const char *s, size_t len, char *out, size_t outlen);

/* text_escape(), returning how many bytes of s it took: len, or fewer
 * when out was too small or s holds a NUL (so a caller can mark a cut). */
size_t text_escape_prefix(const char *s, size_t len, char *out,
			  size_t outlen);

/* Length of the well-formed UTF-8 sequence at s (at most len bytes) and
 * its code point in *cp; 0 when s[0] starts none (RFC 3629: no overlong
 * form, no UTF-16 surrogate, nothing past U+10FFFF). */
size_t text_utf8_decode(const char *s, size_t len, uint32_t *cp);

/* C1 controls and the bidi controls above: code points that change how
 * the text around them is shown, while showing nothing themselves. */
bool text_is_hidden_control(uint32_t cp);

#endif
