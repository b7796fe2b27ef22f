/* The values of a stream of JSON text one at a time, found without
 * parsing them: each top-level value, and each element of a top-level
 * array (trace -j writes an array of flows; files may be concatenated).
 * Only the value being gathered is held, never more than a bound, so that
 * report --traces costs the size of its largest trace, not a json-c tree
 * of each document (13 to 27 times the file). */
#ifndef IBAHPROBE_REPORT_TRACE_SPLIT_H
#define IBAHPROBE_REPORT_TRACE_SPLIT_H

#include <stdbool.h>
#include <stddef.h>

enum trace_split_status {
	TRACE_SPLIT_OK,
	TRACE_SPLIT_STOPPED,	/* the callback returned non-zero */
	TRACE_SPLIT_TOO_BIG,	/* a value past the bound */
	TRACE_SPLIT_SYNTAX,	/* a stray ',', ']' or '}', or no ',' */
	TRACE_SPLIT_CUT,	/* the input ends inside a value or array */
};

/* The length of the object at text[0] (its '{') when text[0..len) holds
 * all of it, 0 when that cannot be told (cut off, or of a shape the
 * measure does not take): a scanner that reads the object anyway, so
 * that the splitter need not walk its bytes as well. */
typedef size_t (*trace_split_measure_fn)(void *ctx, const char *text,
					 size_t len);

struct trace_split {
	char *value;		/* the value being gathered */
	size_t len, cap, max;
	trace_split_measure_fn measure;	/* NULL: every byte walked */
	void *measure_ctx;
	unsigned long depth;	/* its open brackets */
	bool in_value, bare, in_string, escape;
	bool in_array, after_element, after_comma;
};

/* Called with each whole value, NUL-terminated (value[len] == '\0'). */
typedef int (*trace_split_fn)(void *ctx, const char *value, size_t len);

/* max: the most bytes one value may take. */
void trace_split_init(struct trace_split *s, size_t max);
/* Objects that measure takes whole from one piece are handed out
 * without a walk of their bytes; the others are walked as before. */
void trace_split_set_measure(struct trace_split *s,
			     trace_split_measure_fn measure, void *ctx);
/* The next len bytes of the stream; fn called with each value they end. */
enum trace_split_status trace_split_feed(struct trace_split *s,
					 const char *buf, size_t len,
					 trace_split_fn fn, void *ctx);
/* The end of the stream: a bare value (a number) it ends is handed out. */
enum trace_split_status trace_split_end(struct trace_split *s,
					trace_split_fn fn, void *ctx);
void trace_split_free(struct trace_split *s);

#endif
