/* The fast way into a result_view (lib/report/result_view.h): one pass over the
 * JSON text of a probe result, keeping the members report reads and
 * checking the rest, with no tree and no allocation. It takes only the
 * common shape and declines everything else, which json-c then reads
 * (lib/report/report_input.c), so any message about a bad value comes from one
 * place. What it accepts is strict JSON (RFC 8259) that json-c reads to
 * the same members; it declines:
 * - anything that is no object, or is cut off before its end;
 * - any syntax error, a byte that is no UTF-8 (RFC 3629), a control
 *   character, a \u escape (json-c's handling of NUL and surrogates is
 *   left to it), and any escape in a member report reads or in a key of
 *   an object it reads into (the view keeps raw bytes);
 * - a member that report reads, given twice (json-c keeps the last);
 * - an array that report reads holding anything but strings;
 * - integers of more than 18 digits, numbers longer than 32 characters
 *   or with more than 3 exponent digits (json-c's edge cases);
 * - nesting deeper than RESULT_SCAN_DEPTH. */
#ifndef IBAHPROBE_RESULT_SCAN_H
#define IBAHPROBE_RESULT_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "report/result_view.h"

#define RESULT_SCAN_DEPTH 16

/* Reads the value at the start of text[0..len) (no blank before it): the
 * number of its bytes, the closing '}' included, with v filled; 0 when
 * declined (v undefined). */
size_t result_scan(const char *text, size_t len, struct result_view *v);

/* An object or array at the start of text[0..len) with no escape in any
 * string, otherwise checked as result_scan checks (strict syntax, UTF-8,
 * no control character, bounded numbers and nesting): the number of its
 * bytes; 0 when declined. What it accepts is read without a tree by
 * result_scan_members and result_scan_next_element (through jv_members
 * and jv_cursor_next): trace documents (lib/report/report_traces.c). */
size_t result_scan_plain(const char *text, size_t len);

/* The next element of an array in text a scanner checked (*pos starts
 * past its '['): true with *item, false after the last. A string of the
 * scanner's is its raw bytes (escapes as written: result_scan declines
 * them in what report reads, result_scan_plain everywhere). */
bool result_scan_next_element(const char **pos, const char *end,
			      struct jv *item);

/* The members named keys[0..n) of an object in text a scanner checked
 * (text[0] its '{', len its bytes), each in out[k]: JV_ABSENT when not
 * there; a key given twice: the last, as json-c keeps it. */
void result_scan_members(const char *text, size_t len,
			 const char *const *keys, size_t n, struct jv *out);

#endif
