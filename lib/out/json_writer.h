/* JSON written as it goes, member by member, to a stream: the one JSON
 * emitter. The report renderers write documents too large to hold as a
 * tree through it (report -j of a fabric: a million cells, where a json-c
 * tree took gigabytes); lib/out/output.c writes every command's JSON
 * through it into a buffer. Its bytes are those of json-c 0.16's
 * json_object_to_json_string_ext() with JSON_C_TO_STRING_NOSLASHESCAPE and
 * PLAIN, or PRETTY|SPACED (with empty_split), which output.h's documents
 * were written with until this writer took over: strings repaired to UTF-8
 * (out_utf8_repair), then '"', '\\', \b \f \n \r \t escaped short,
 * the other controls as \u00xx, DEL and '/' as they are; integers in
 * decimal; doubles "%.10g", non-finite ones null. */
#ifndef IBAHPROBE_JSON_WRITER_H
#define IBAHPROBE_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_WRITER_DEPTH_MAX 32

struct json_writer {
	FILE *f;
	bool pretty;		/* two-space indent, one member a line */
	/* Pretty only: an empty object or array written as json-c 0.16's
	 * PRETTY writes it, its opening bracket, a line end, the indent of
	 * its own line, its closing bracket ("{\n  }"); otherwise "{}" and
	 * "[]" (the report's). output.c's documents keep json-c's bytes. */
	bool empty_split;
	int depth;
	bool has_members[JSON_WRITER_DEPTH_MAX];
	bool failed;		/* too deep, or out of memory */
};

void json_writer_init(struct json_writer *w, FILE *f, bool pretty);
/* key NULL: an element of the innermost array (or the root). */
void jw_open_object(struct json_writer *w, const char *key);
void jw_close_object(struct json_writer *w);
void jw_open_array(struct json_writer *w, const char *key);
void jw_close_array(struct json_writer *w);
/* value NULL: null. */
void jw_string(struct json_writer *w, const char *key, const char *value);
void jw_uint(struct json_writer *w, const char *key, uint64_t value);
void jw_int(struct json_writer *w, const char *key, int64_t value);
void jw_double(struct json_writer *w, const char *key, double value);
void jw_bool(struct json_writer *w, const char *key, bool value);
void jw_null(struct json_writer *w, const char *key);
/* After the root: its line end; -1 if the writer failed or the stream
 * did (errno from the stream). */
int json_writer_finish(struct json_writer *w);

#endif
