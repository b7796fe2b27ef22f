/* Probe results from JSON text into report records, with the line of every
 * value kept for messages; see report_input.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report_input.h"

/* Where in which input, and the message buffer of the one error. */
struct reader {
	struct report *report;
	const char *label;
	unsigned line;
	char *err;
	size_t errlen;
};

static int fail(const struct reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int fail(const struct reader *rd, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(rd->err, rd->errlen, "%s:%u: %s", rd->label, rd->line, msg);
	return -1;
}

/* The member at a dotted path ("source.sgid"); NULL if any step lacks
 * it. *present tells a JSON null apart from a missing key. */
static json_object *member(json_object *o, const char *path, bool *present)
{
	char step[64];

	*present = false;
	while (o && json_object_is_type(o, json_type_object)) {
		size_t n = strcspn(path, ".");

		snprintf(step, sizeof(step), "%.*s", (int)n, path);
		if (!json_object_object_get_ex(o, step, &o))
			return NULL;
		if (!path[n]) {
			*present = true;
			return o;
		}
		path += n + 1;
	}
	return NULL;
}

/* A member of the given type (or null, when allowed: *out NULL). */
static int want(const struct reader *rd, json_object *o, const char *path,
		json_type type, bool nullable, json_object **out)
{
	bool present;

	*out = member(o, path, &present);
	if (!present)
		return fail(rd, "result lacks \"%s\" (%s); is this the output "
			    "of 'ibahprobe probe --jsonl'?", path,
			    json_type_to_name(type));
	if (!*out && nullable)
		return 0;
	/* A whole number is a fine double too. */
	if (type == json_type_double && json_object_is_type(*out, json_type_int))
		return 0;
	if (!json_object_is_type(*out, type))
		return fail(rd, "\"%s\" is %s, expected %s%s", path,
			    json_type_to_name(json_object_get_type(*out)),
			    json_type_to_name(type), nullable ? " or null" : "");
	return 0;
}

static int want_string(const struct reader *rd, json_object *o,
		       const char *path, bool nullable, char **out)
{
	json_object *v;

	*out = NULL;
	if (want(rd, o, path, json_type_string, nullable, &v))
		return -1;
	if (v && !(*out = strdup(json_object_get_string(v))))
		return fail(rd, "out of memory");
	return 0;
}

static int want_uint(const struct reader *rd, json_object *o,
		     const char *path, int64_t max, int64_t *out)
{
	json_object *v;

	if (want(rd, o, path, json_type_int, false, &v))
		return -1;
	*out = json_object_get_int64(v);
	if (*out < 0 || *out > max)
		return fail(rd, "\"%s\" is %lld, expected 0-%lld", path,
			    (long long)*out, (long long)max);
	return 0;
}

static int want_strings(const struct reader *rd, json_object *o,
			const char *path, struct strvec *out)
{
	json_object *v, *item;

	if (want(rd, o, path, json_type_array, false, &v))
		return -1;
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		item = json_object_array_get_idx(v, i);
		if (!json_object_is_type(item, json_type_string))
			return fail(rd, "\"%s\" holds %s, expected strings",
				    path,
				    json_object_get_type(item) == json_type_null
					    ? "null"
					    : json_type_to_name(
						      json_object_get_type(item)));
		if (strvec_add(out, json_object_get_string(item)))
			return fail(rd, "out of memory");
	}
	return 0;
}

static bool has_string(const struct strvec *v, const char *s)
{
	for (size_t i = 0; i < v->count; i++)
		if (strcmp(v->items[i], s) == 0)
			return true;
	return false;
}

/* What a result that got as far as probing adds: counts, RTT, hops,
 * verdicts, the AH's DGID and the traffic class seen. */
static int read_probed(const struct reader *rd, json_object *o,
		       struct report_record *rec)
{
	json_object *rtt, *median, *max, *grh, *v;
	int64_t n;

	if (want_uint(rd, o, "sent", UINT32_MAX, &n))
		return -1;
	rec->sent = (uint32_t)n;
	if (want_uint(rd, o, "received", rec->sent, &n))
		return -1;
	rec->received = (uint32_t)n;
	if (want(rd, o, "rtt_us", json_type_object, true, &rtt))
		return -1;
	if (rtt) {
		if (want(rd, o, "rtt_us.median", json_type_double, false,
			 &median) ||
		    want(rd, o, "rtt_us.max", json_type_double, false, &max))
			return -1;
		rec->has_rtt = true;
		rec->rtt_median_us = json_object_get_double(median);
		rec->rtt_max_us = json_object_get_double(max);
	}
	rec->hops = -1;
	if (want(rd, o, "hops", json_type_int, true, &v))
		return -1;
	if (v) {
		if (want_uint(rd, o, "hops", 255, &n))
			return -1;
		rec->hops = (int)n;
	}
	if (want_strings(rd, o, "verdicts", &rec->verdicts) ||
	    want_strings(rd, o, "findings", &rec->findings))
		return -1;
	rec->has_ah = true;
	if (want(rd, o, "ah_attr", json_type_object, false, &v) ||
	    want(rd, o, "ah_attr.grh", json_type_object, true, &grh))
		return -1;
	if (grh && want_string(rd, o, "ah_attr.grh.dgid", false, &rec->dgid))
		return -1;
	rec->tclass_remarked = has_string(&rec->verdicts, "tclass_remarked");
	if (rec->tclass_remarked) {
		if (want_uint(rd, o, "params.traffic_class", 255, &n))
			return -1;
		rec->tclass_sent = (uint8_t)n;
		if (want_uint(rd, o, "observed.traffic_class", 255, &n))
			return -1;
		rec->tclass_seen = (uint8_t)n;
	}
	return 0;
}

static int read_result(const struct reader *rd, json_object *o)
{
	struct report_record *rec = calloc(1, sizeof(*rec));
	json_object *v;
	int64_t n;

	if (!rec)
		return fail(rd, "out of memory");
	if (want_string(rd, o, "dest", false, &rec->dest_text) ||
	    want(rd, o, "source", json_type_object, false, &v) ||
	    want_string(rd, o, "source.host", false, &rec->host) ||
	    want_string(rd, o, "source.device", false, &rec->device) ||
	    want_uint(rd, o, "source.port_num", 255, &n) ||
	    want_string(rd, o, "source.sgid", true, &rec->sgid) ||
	    want(rd, o, "params", json_type_object, false, &v) ||
	    want(rd, o, "status", json_type_string, false, &v))
		goto bad;
	rec->port_num = (unsigned)n;
	if (report_status_parse(json_object_get_string(v), &rec->status)) {
		fail(rd, "\"status\" is \"%s\", expected reachable, partial "
		     "loss, unreachable or error", json_object_get_string(v));
		goto bad;
	}
	if (rec->status == REPORT_ERROR) {
		if (want_string(rd, o, "error", false, &rec->error))
			goto bad;
		rec->hops = -1;
	} else if (read_probed(rd, o, rec)) {
		goto bad;
	}
	if (report_add(rd->report, rec))
		return fail(rd, "out of memory");
	return 0;
bad:
	report_record_free(rec);
	return -1;
}

/* {"error": ..., "exit_status": N}: what a prober writes when it could not
 * run at all (probe -j or --jsonl). */
static int read_failed_run(const struct reader *rd, json_object *o)
{
	json_object *error, *status;
	char where[512];

	json_object_object_get_ex(o, "error", &error);
	json_object_object_get_ex(o, "exit_status", &status);
	snprintf(where, sizeof(where), "%s:%u", rd->label, rd->line);
	if (report_add_failed_run(rd->report, where,
				  json_object_get_string(error),
				  json_object_get_int(status)))
		return fail(rd, "out of memory");
	return 0;
}

static int read_value(const struct reader *rd, json_object *o)
{
	json_object *error, *status, *dest;

	if (!json_object_is_type(o, json_type_object))
		return fail(rd, "%s is not a probe result (a JSON object)",
			    o ? json_type_to_name(json_object_get_type(o))
			      : "null");
	if (!json_object_object_get_ex(o, "dest", &dest) &&
	    json_object_object_get_ex(o, "error", &error) &&
	    json_object_is_type(error, json_type_string) &&
	    json_object_object_get_ex(o, "exit_status", &status) &&
	    json_object_is_type(status, json_type_int))
		return read_failed_run(rd, o);
	return read_result(rd, o);
}

static void advance(struct reader *rd, const char *buf, size_t *pos,
		    size_t to)
{
	for (; *pos < to; (*pos)++)
		if (buf[*pos] == '\n')
			rd->line++;
}

static void skip_space(struct reader *rd, const char *buf, size_t len,
		       size_t *pos)
{
	size_t end = *pos;

	while (end < len && strchr(" \t\r\n", buf[end]) && buf[end])
		end++;
	advance(rd, buf, pos, end);
}

/* The start of the line that holds buf[at], quoted for a message; a
 * "host: " prefix there is what pdsh and clush add without -N. */
/* Bytes of the printable UTF-8 character at s; 0 for a control
 * character or a byte that does not start a well-formed sequence. */
static size_t utf8_sequence_length(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len;
	uint32_t cp;

	if (u[0] < 0x20 || u[0] == 0x7f)
		return 0;
	if (u[0] < 0x80)
		return 1;
	if (u[0] >= 0xc2 && u[0] <= 0xdf) {
		len = 2;
		cp = u[0] & 0x1f;
	} else if (u[0] >= 0xe0 && u[0] <= 0xef) {
		len = 3;
		cp = u[0] & 0x0f;
	} else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
		len = 4;
		cp = u[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (u[i] & 0x3f);
	}
	/* Overlong forms, UTF-16 surrogates, past U+10FFFF, C1 controls. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff ||
	    (cp >= 0x80 && cp < 0xa0))
		return 0;
	return len;
}

static const char *quote_line(const char *buf, size_t at, char *out,
			      size_t len)
{
	size_t from = at, n = 0;

	while (from > 0 && buf[from - 1] != '\n')
		from--;
	out[n++] = '\'';
	while (buf[from] && buf[from] != '\n') {
		size_t seq = utf8_sequence_length(buf + from);

		if (n + seq + 5 >= len)
			break;	/* cut before a whole character */
		if (seq == 0) {
			/* Control characters and bytes that are no UTF-8
			 * would reach the terminal as they are. */
			out[n++] = '?';
			from++;
			continue;
		}
		memcpy(out + n, buf + from, seq);
		n += seq;
		from += seq;
	}
	if (buf[from] && buf[from] != '\n') {
		memcpy(out + n, "...", 3);
		n += 3;
	}
	out[n++] = '\'';
	out[n] = '\0';
	return out;
}

/* One JSON value at *pos; *pos moves past it. */
static int parse_one(struct reader *rd, json_tokener *tok, const char *buf,
		     size_t len, size_t *pos, json_object **out)
{
	enum json_tokener_error jerr;
	size_t start = *pos;
	char quoted[64];

	json_tokener_reset(tok);
	/* The terminating NUL ends a number that ends the input. */
	*out = json_tokener_parse_ex(tok, buf + start, (int)(len - start + 1));
	jerr = json_tokener_get_error(tok);
	if (jerr == json_tokener_success) {
		advance(rd, buf, pos, start + json_tokener_get_parse_end(tok));
		return 0;
	}
	json_object_put(*out);
	*out = NULL;
	advance(rd, buf, pos, start + json_tokener_get_parse_end(tok));
	return fail(rd, "not JSON (%s): %s", json_tokener_error_desc(jerr),
		    quote_line(buf, *pos, quoted, sizeof(quoted)));
}

/* Parses and reads one value; messages about its content name the line
 * where it starts, *pos and the line count move past it. */
static int parse_and_read(struct reader *rd, json_tokener *tok,
			  const char *buf, size_t len, size_t *pos)
{
	unsigned start_line = rd->line, end_line;
	json_object *o;
	int rc;

	if (parse_one(rd, tok, buf, len, pos, &o))
		return -1;
	end_line = rd->line;
	rd->line = start_line;
	rc = read_value(rd, o);
	rd->line = end_line;
	json_object_put(o);
	return rc;
}

/* [ value, value, ... ]: each element read as parsed, with its own line. */
static int read_array(struct reader *rd, json_tokener *tok, const char *buf,
		      size_t len, size_t *pos, size_t *values)
{
	advance(rd, buf, pos, *pos + 1);
	skip_space(rd, buf, len, pos);
	if (*pos < len && buf[*pos] == ']') {
		(*pos)++;
		return 0;
	}
	for (;;) {
		skip_space(rd, buf, len, pos);
		if (*pos >= len)
			return fail(rd, "not JSON: the array is cut short");
		if (parse_and_read(rd, tok, buf, len, pos))
			return -1;
		(*values)++;
		skip_space(rd, buf, len, pos);
		if (*pos < len && buf[*pos] == ',') {
			(*pos)++;
			continue;
		}
		if (*pos < len && buf[*pos] == ']') {
			(*pos)++;
			return 0;
		}
		return fail(rd, "not JSON: expected ',' or ']' in the array");
	}
}

int report_read_buffer(struct report *r, const char *label,
		       const char *buf, size_t len, char *err, size_t errlen)
{
	struct reader rd = { r, label, 1, err, errlen };
	json_tokener *tok;
	const char *nul = memchr(buf, '\0', len);
	size_t pos = 0, values = 0;
	int rc = 0;

	if (nul) {
		advance(&rd, buf, &pos, (size_t)(nul - buf));
		return fail(&rd, "not JSON: a NUL byte");
	}
	tok = json_tokener_new();
	if (!tok)
		return fail(&rd, "out of memory");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
				    JSON_TOKENER_ALLOW_TRAILING_CHARS |
				    JSON_TOKENER_VALIDATE_UTF8);
	for (;;) {
		skip_space(&rd, buf, len, &pos);
		if (pos >= len)
			break;
		if (buf[pos] == '[') {
			rc = read_array(&rd, tok, buf, len, &pos, &values);
		} else {
			rc = parse_and_read(&rd, tok, buf, len, &pos);
			values++;
		}
		if (rc)
			break;
	}
	json_tokener_free(tok);
	if (rc == 0 && values == 0) {
		rd.line = 1;
		rc = fail(&rd, "no probe results (empty input)");
	}
	return rc;
}

int report_read_stream(struct report *r, const char *label, FILE *f,
		       char *err, size_t errlen)
{
	size_t len = 0, cap = 65536, n;
	char *buf = malloc(cap + 1), *grown;
	int rc;

	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len < cap)
			continue;
		cap *= 2;
		grown = realloc(buf, cap + 1);
		if (!grown)
			free(buf);
		buf = grown;
	}
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory reading it", label);
		return -1;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read %s: %s", label,
			 strerror(errno));
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	rc = report_read_buffer(r, label, buf, len, err, errlen);
	free(buf);
	return rc;
}
