/* The failing flows of probe's results: see failed_flows.h. */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/line_reader.h"
#include "out/probe_schema.h"
#include "trace/failed_flows.h"

/* probe --jsonl writes a result in a few KiB; a line this long is no
 * result of probe's. */
#define RESULT_LINE_MAX (1u << 20)
#define RESULT_LINES_MAX 100000000u

struct reader {
	struct failed_flows *flows;
	struct json_tokener *tok;
	struct line_reader lines;
	bool inside;		/* a value has started and not ended */
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3)))
static int fail(struct reader *rd, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(rd->err, rd->errlen, "%s:%lu: %s", rd->lines.label,
		 rd->lines.line, msg);
	return -1;
}

static const char *string_of(json_object *obj, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(obj, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* An integer key of obj in [min, max]: 1 with it in *out, 0 when it is
 * absent or null, -1 when it is anything else. */
static int integer_of(json_object *obj, const char *key, int64_t min,
		      int64_t max, int64_t *out)
{
	json_object *v;

	if (!json_object_object_get_ex(obj, key, &v) || !v)
		return 0;
	if (!json_object_is_type(v, json_type_int))
		return -1;
	*out = json_object_get_int64(v);
	return *out >= min && *out <= max ? 1 : -1;
}

static int add_flow(struct reader *rd, const char *dest, uint32_t label,
		    int32_t sport)
{
	struct failed_flows *f = rd->flows;
	char *key;
	void **slot;

	if (asprintf(&key, "%s\n%u\n%d", dest, label, sport) < 0)
		return fail(rd, "out of memory");
	slot = strmap_slot(&f->seen, key);
	free(key);
	if (!slot)
		return fail(rd, "out of memory");
	if (*slot)
		return 0;
	if (f->count == FAILED_FLOWS_MAX)
		return fail(rd, "more than %u distinct failing flows: trace "
			    "them in parts (each host its own results)",
			    FAILED_FLOWS_MAX);
	if (f->count == f->capacity) {
		size_t capacity = f->capacity ? 2 * f->capacity : 16;
		struct failed_flow *grown =
			reallocarray(f->items, capacity, sizeof(*grown));

		if (!grown)
			return fail(rd, "out of memory");
		f->items = grown;
		f->capacity = capacity;
	}
	f->items[f->count] = (struct failed_flow){
		.dest = strdup(dest), .flow_label = label, .udp_sport = sport,
	};
	if (!f->items[f->count].dest)
		return fail(rd, "out of memory");
	f->items[f->count].line = rd->lines.line;
	/* Not a pointer into items, which moves as it grows: a mark. */
	*slot = (void *)(uintptr_t)++f->count;
	return 0;
}

/* One record; nth: its place in an array (0: a value of its own). */
static int take_record(struct reader *rd, json_object *rec, size_t nth)
{
	char where[48] = "";
	const char *schema, *record, *status, *dest;
	enum probe_status st;
	json_object *params;
	int64_t label, sport = -1;
	int has;

	if (nth)
		snprintf(where, sizeof(where), "record %zu of the array: ", nth);
	if (!json_object_is_type(rec, json_type_object))
		return fail(rd, "%sno probe record (a JSON object, as probe -j "
			    "and --jsonl write)", where);
	schema = string_of(rec, PROBE_KEY_SCHEMA);
	if (!schema || strcmp(schema, PROBE_SCHEMA) != 0)
		return fail(rd, "%sno probe record (its \"%s\" is not \"%s\": "
			    "give probe -j or --jsonl output)", where,
			    PROBE_KEY_SCHEMA, PROBE_SCHEMA);
	record = string_of(rec, PROBE_KEY_RECORD);
	if (!record)
		return fail(rd, "%sa probe record without its \"%s\"", where,
			    PROBE_KEY_RECORD);
	if (strcmp(record, PROBE_RECORD_RESULT) != 0)
		return 0;
	rd->flows->results++;
	status = string_of(rec, PROBE_KEY_STATUS);
	if (!status || probe_status_parse(status, strlen(status), &st) < 0)
		return fail(rd, "%sa result without a probe status in \"%s\"",
			    where, PROBE_KEY_STATUS);
	if (st == PROBE_STATUS_REACHABLE) {
		rd->flows->reachable++;
		return 0;
	}
	dest = string_of(rec, PROBE_KEY_DEST);
	if (!dest || !*dest)
		return fail(rd, "%sa result without its \"%s\"", where,
			    PROBE_KEY_DEST);
	if (!json_object_object_get_ex(rec, PROBE_KEY_PARAMS, &params) ||
	    !json_object_is_type(params, json_type_object) ||
	    integer_of(params, PROBE_KEY_FLOW_LABEL, 0, 0xfffff, &label) != 1)
		return fail(rd, "%sthe result for %s has no \"%s\" of 0-1048575 "
			    "in its \"%s\"", where, dest, PROBE_KEY_FLOW_LABEL,
			    PROBE_KEY_PARAMS);
	has = integer_of(params, PROBE_KEY_WIRE_UDP_SPORT, 1, 0xffff, &sport);
	if (has < 0)
		return fail(rd, "%sthe result for %s has a \"%s\" that is no UDP "
			    "port (1-65535)", where, dest,
			    PROBE_KEY_WIRE_UDP_SPORT);
	return add_flow(rd, dest, (uint32_t)label,
			has ? (int32_t)sport : -1);
}

static int take_value(struct reader *rd, json_object *v)
{
	if (!json_object_is_type(v, json_type_array))
		return take_record(rd, v, 0);
	for (size_t i = 0; i < json_object_array_length(v); i++)
		if (take_record(rd, json_object_array_get_idx(v, i), i + 1))
			return -1;
	return 0;
}

static bool blank(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isspace((unsigned char)text[i]))
			return false;
	return true;
}

/* Text of the input to the tokener: each value it completes is taken. */
static int feed(struct reader *rd, const char *text, size_t len)
{
	size_t used = 0;

	while (used < len) {
		json_object *v = json_tokener_parse_ex(rd->tok, text + used,
						       (int)(len - used));
		enum json_tokener_error jerr = json_tokener_get_error(rd->tok);
		int rc;

		if (jerr == json_tokener_continue) {
			rd->inside |= !blank(text + used, len - used);
			return 0;
		}
		if (jerr != json_tokener_success)
			return fail(rd, "no JSON: %s",
				    json_tokener_error_desc(jerr));
		used += json_tokener_get_parse_end(rd->tok);
		json_tokener_reset(rd->tok);
		rd->inside = false;
		rc = take_value(rd, v);
		json_object_put(v);
		if (rc)
			return rc;
	}
	return 0;
}

int failed_flows_read(struct failed_flows *flows, FILE *in,
		      const char *label, char *err, size_t errlen)
{
	struct reader rd = { .flows = flows, .err = err, .errlen = errlen };
	int rc;

	if (line_reader_init(&rd.lines, in, label, RESULT_LINE_MAX,
			     RESULT_LINES_MAX)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rd.tok = json_tokener_new();
	if (!rd.tok) {
		line_reader_free(&rd.lines);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	json_tokener_set_flags(rd.tok, JSON_TOKENER_STRICT |
					       JSON_TOKENER_ALLOW_TRAILING_CHARS |
					       JSON_TOKENER_VALIDATE_UTF8);
	while ((rc = line_reader_next(&rd.lines, err, errlen)) > 0) {
		/* The newline ends a number at the end of a line. */
		if (feed(&rd, rd.lines.buf, strlen(rd.lines.buf)) ||
		    feed(&rd, "\n", 1)) {
			rc = -1;
			break;
		}
	}
	if (rc == 0 && rd.inside)
		rc = fail(&rd, "the input ends inside a JSON value");
	json_tokener_free(rd.tok);
	line_reader_free(&rd.lines);
	return rc < 0 ? -1 : 0;
}

void failed_flows_free(struct failed_flows *flows)
{
	for (size_t i = 0; i < flows->count; i++)
		free(flows->items[i].dest);
	free(flows->items);
	strmap_free(&flows->seen);
	*flows = (struct failed_flows){ 0 };
}
