/* The one output layer: every field is emitted once, through one call that
 * writes its text form and its JSON key, in the spirit of iproute2's
 * print_*() helpers. Output is buffered and reaches stdout only through
 * out_finish() (or out_flush_record() when streaming), so a failure part
 * way leaves nothing half-written behind. */
#ifndef IBAHPROBE_OUTPUT_H
#define IBAHPROBE_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum out_format {
	OUT_TEXT,
	OUT_JSON,	/* one document */
	OUT_JSONL,	/* one compact object per record, as records complete */
};

void out_init(enum out_format format, bool pretty);
enum out_format out_format(void);
bool out_is_json(void);

/* Containers. A NULL key opens an anonymous member of an array (or the
 * root). Text mode ignores containers but for the indent they set. */
void out_open_object(const char *key);
void out_close_object(void);
void out_open_array(const char *key);
void out_close_array(void);

/* Fields. text_fmt is a printf format for the text form (NULL: JSON only);
 * key is the JSON name (NULL: text only), once in an object: JSON is
 * written as it goes and cannot take a member back (the json-c tree it
 * replaced kept a repeated key's last value; no caller repeats one). */
void out_uint(const char *key, const char *text_fmt, uint64_t value);
void out_int(const char *key, const char *text_fmt, int64_t value);
void out_double(const char *key, const char *text_fmt, double value);
void out_bool(const char *key, const char *text_fmt, bool value);
void out_string(const char *key, const char *text_fmt, const char *value);
/* A string member of the innermost array (JSON); text as out_string. */
void out_element_string(const char *text_fmt, const char *value);
/* A null member of the innermost array (JSON); text shows text_fmt with
 * "-" as its %s argument. */
void out_element_null(const char *text_fmt);
/* An integer member of the innermost array (JSON); text as out_int. */
void out_element_int(const char *text_fmt, int64_t value);
/* JSON null, text shows text_fmt with "-" as its %s argument. */
void out_null(const char *key, const char *text_fmt);
/* Text only: free-form text and line ends. */
void out_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void out_newline(void);

/* Streaming (OUT_JSONL, and text records of long runs): writes the record
 * completed at the root level to stdout now. */
int out_flush_record(void);

/* Writes what was built to stdout; returns 0, or -1 if stdout failed
 * (full disk, closed pipe), after saying so on stderr. */
int out_finish(void);

/* Well-formed UTF-8 for a JSON string (RFC 8259, section 8.1): the len
 * bytes of s (a NUL among them is kept; JSON writes it \u0000), with each
 * maximal ill-formed subsequence replaced by one U+FFFD, as Unicode 15.0
 * section 3.9 ("U+FFFD Substitution of Maximal Subparts") and the WHATWG
 * Encoding Standard do: overlong forms, surrogates, code points above
 * U+10FFFF, cut sequences and stray bytes. Every string and key reaches
 * JSON through it. Returns a malloc'ed copy, NUL-terminated, its length in
 * *out_len; NULL when out of memory. */
char *out_utf8_repair(const char *s, size_t len, size_t *out_len);

/* Members the JSON error object of out_fail carries besides "error" and
 * "exit_status", so a failed run is tied to its host and run when many
 * hosts' results are merged: "schema", "record": "error", "run_id",
 * "start_time" and "source": {"host"}; not for bad input (exit 2),
 * which is no run. Copied; NULL clears. */
struct out_fail_context {
	const char *schema, *run_id, *start_time, *host;
};
void out_set_fail_context(const struct out_fail_context *ctx);

/* Throws away what was built; in JSON modes stdout then carries only
 * {"error": MESSAGE, "exit_status": N}. Returns exit_status. */
int out_fail(int exit_status, const char *message);

#endif
