/* Probe results from JSON text into report records, read as a stream in
 * chunks within the bounds of report_input.h, with the line of every
 * value kept for messages. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "out/probe_schema.h"
#include "report/report_input.h"
#include "report/result_scan.h"
#include "report/result_view.h"
#include "base/text_escape.h"
#include "verbs/provider.h"

/* json_tokener_parse_ex() takes an int length: the input goes to it in
 * chunks of this size, never as a whole. A value the chunk cuts goes to
 * json-c rather than to the scanner: large chunks keep those rare. */
#define CHUNK_BYTES (1 << 20)
/* An error quotes the start of its line: this many bytes of it are kept,
 * and this many characters of their escaped form shown. */
#define HEAD_BYTES 80
#define QUOTE_CHARS 56

/* Where the reader is between values. */
enum place {
	TOP,		/* a result, or the '[' of an array of them */
	ARRAY_FIRST,	/* after '[': an element or ']' */
	ARRAY_AFTER,	/* after an element: ',' or ']' */
	ARRAY_NEXT,	/* after ',': an element */
};

/* What the bytes of a value hold beyond what json-c checks; see lex(). */
enum lex_problem {
	LEX_OK,
	LEX_END,		/* the value is complete (no problem) */
	LEX_NUL_ESCAPE,
	LEX_CONTROL,
	LEX_BAD_BYTE,
	LEX_CUT_SHORT,
	LEX_OVERLONG,
	LEX_SURROGATE,
	LEX_PAST_MAX,
	LEX_NUMBER_SIGN,	/* a '-' inside a number */
};

struct lexer {
	unsigned depth;		/* of objects and arrays */
	bool in_string;
	unsigned escape;	/* 1 after '\\', 2-5 in the digits of \u */
	uint32_t hex;		/* of \u so far */
	unsigned need, seq_len;	/* UTF-8: bytes still due, of how many */
	uint32_t cp;
	char number_last;	/* the last byte of a number under way */
	unsigned char byte;	/* the byte a problem is about */
	/* Where the escape or the UTF-8 sequence under way started. */
	unsigned long long line, col;
};

struct reader {
	struct report *report;
	const struct report_limits *limits;
	const char *label;
	char *err;
	size_t errlen;
	/* The input: a stream, or bytes in memory. */
	FILE *in;
	const char *mem;
	size_t mem_left;
	/* The chunk at hand: data[pos..len). */
	char *buf;
	const char *data;
	size_t len, pos, chunk;
	/* Where data[pos] is, and the start of its line for quotes. */
	unsigned long long line, col;
	char head[HEAD_BYTES];
	size_t head_len;
	bool head_cut;
	size_t line_blank;	/* bytes of this line outside values */
	enum place place;
	json_tokener *tok;
	/* The value under way. */
	bool in_value;
	unsigned long long value_line;
	size_t value_bytes;
	struct lexer lex;
	size_t values;
	bool scan;		/* values of the common shape go to the
				 * scanner (lib/report/result_scan.h) */
};

static int fail(const struct reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int fail(const struct reader *rd, const char *fmt, ...)
{
	char msg[512], label[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* The label is a file name: any bytes but '/' and NUL. */
	snprintf(rd->err, rd->errlen, "%s:%llu: %s",
		 text_escape(rd->label, strlen(rd->label), label,
			     sizeof(label)),
		 rd->line, msg);
	return -1;
}

/* The same with a column, for a byte or a character. */
static int fail_at(const struct reader *rd, unsigned long long line,
		   unsigned long long col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail_at(const struct reader *rd, unsigned long long line,
		   unsigned long long col, const char *fmt, ...)
{
	char msg[512], label[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(rd->err, rd->errlen, "%s:%llu:%llu: %s",
		 text_escape(rd->label, strlen(rd->label), label,
			     sizeof(label)),
		 line, col, msg);
	return -1;
}

/* Up to QUOTE_CHARS of s escaped for a terminal (text_escape.h), with
 * "..." when that is not all of it. */
static const char *quote(const char *s, size_t len, char *out,
			 size_t outlen)
{
	size_t took = text_escape_prefix(s, len, out, outlen - 3);

	if (took < len)
		strcat(out, "...");
	return out;
}

/* A member of the given kind (or null, when allowed: *out NULL). */
static int want(const struct reader *rd, const struct result_view *rv,
		enum result_member m, enum jv_kind kind, bool nullable,
		const struct jv **out)
{
	const struct jv *v = &rv->m[m];
	const char *path = result_members[m].path;

	*out = v;
	if (v->kind == JV_ABSENT)
		return fail(rd, "result lacks \"%s\" (%s); is this the output "
			    "of 'ibahprobe probe --jsonl'?", path,
			    jv_kind_name(kind));
	if (v->kind == JV_NULL && nullable) {
		*out = NULL;
		return 0;
	}
	/* A whole number is a fine double too. */
	if (kind == JV_DOUBLE && v->kind == JV_INT)
		return 0;
	if (v->kind != kind)
		return fail(rd, "\"%s\" is %s, expected %s%s", path,
			    jv_kind_name(v->kind), jv_kind_name(kind),
			    nullable ? " or null" : "");
	return 0;
}

static double jv_number(const struct jv *v)
{
	return v->kind == JV_INT ? (double)v->i : v->d;
}

static int want_string(const struct reader *rd, const struct result_view *rv,
		       enum result_member m, bool nullable, char **out)
{
	const struct jv *v;

	*out = NULL;
	if (want(rd, rv, m, JV_STRING, nullable, &v))
		return -1;
	if (v && !(*out = strndup(v->s, v->len)))
		return fail(rd, "out of memory");
	return 0;
}

static int want_uint(const struct reader *rd, const struct result_view *rv,
		     enum result_member m, int64_t max, int64_t *out)
{
	const struct jv *v;

	if (want(rd, rv, m, JV_INT, false, &v))
		return -1;
	*out = v->i;
	if (*out < 0 || *out > max)
		return fail(rd, "\"%s\" is %lld, expected 0-%lld",
			    result_members[m].path, (long long)*out,
			    (long long)max);
	return 0;
}

static int want_strings(const struct reader *rd, const struct result_view *rv,
			enum result_member m, struct strvec *out)
{
	const struct jv *v;
	struct jv_cursor cursor;
	struct jv item;

	if (want(rd, rv, m, JV_ARRAY, false, &v))
		return -1;
	jv_cursor_init(&cursor, v);
	while (jv_cursor_next(&cursor, &item)) {
		if (item.kind != JV_STRING)
			return fail(rd, "\"%s\" holds %s, expected strings",
				    result_members[m].path,
				    jv_kind_name(item.kind));
		if (strvec_add_len(out, item.s, item.len))
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
static int read_probed(const struct reader *rd, const struct result_view *rv,
		       struct report_record *rec)
{
	const struct jv *rtt, *median, *max, *grh, *v;
	int64_t n;

	if (want_uint(rd, rv, RM_SENT, UINT32_MAX, &n))
		return -1;
	rec->sent = (uint32_t)n;
	if (want_uint(rd, rv, RM_RECEIVED, rec->sent, &n))
		return -1;
	rec->received = (uint32_t)n;
	if (want(rd, rv, RM_RTT, JV_OBJECT, true, &rtt))
		return -1;
	if (rtt) {
		if (want(rd, rv, RM_RTT_MEDIAN, JV_DOUBLE, false, &median) ||
		    want(rd, rv, RM_RTT_MAX, JV_DOUBLE, false, &max))
			return -1;
		rec->has_rtt = true;
		rec->rtt_median_us = jv_number(median);
		rec->rtt_max_us = jv_number(max);
	}
	rec->hops = -1;
	if (want(rd, rv, RM_HOPS, JV_INT, true, &v))
		return -1;
	if (v) {
		if (want_uint(rd, rv, RM_HOPS, 255, &n))
			return -1;
		rec->hops = (int)n;
	}
	if (want_strings(rd, rv, RM_VERDICTS, &rec->verdicts) ||
	    want_strings(rd, rv, RM_FINDINGS, &rec->findings))
		return -1;
	/* One spelling in report's output, whatever the probe's schema. */
	for (size_t i = 0; i < rec->verdicts.count; i++)
		if (strcmp(rec->verdicts.items[i], "partial loss") == 0)
			rec->verdicts.items[i][7] = '_';
	rec->has_ah = true;
	if (want(rd, rv, RM_AH_ATTR, JV_OBJECT, false, &v) ||
	    want(rd, rv, RM_AH_GRH, JV_OBJECT, true, &grh))
		return -1;
	if (grh && want_string(rd, rv, RM_AH_GRH_DGID, false, &rec->dgid))
		return -1;
	rec->tclass_remarked = has_string(&rec->verdicts,
					  PROBE_VERDICT_TCLASS_REMARKED);
	if (rec->tclass_remarked) {
		if (want_uint(rd, rv, RM_PARAMS_TRAFFIC_CLASS, 255, &n))
			return -1;
		rec->tclass_sent = (uint8_t)n;
		if (want_uint(rd, rv, RM_OBSERVED_TRAFFIC_CLASS, 255, &n))
			return -1;
		rec->tclass_seen = (uint8_t)n;
	}
	return 0;
}

/* An optional member: absent or null leaves *out NULL. */
static int maybe(const struct reader *rd, const struct result_view *rv,
		 enum result_member m, enum jv_kind kind, const struct jv **out)
{
	if (rv->m[m].kind == JV_ABSENT || rv->m[m].kind == JV_NULL) {
		*out = NULL;
		return 0;
	}
	return want(rd, rv, m, kind, true, out);
}

/* One of params: -1 when absent or null (older probes, or a parameter
 * that does not apply, as sl on RoCE). */
static int param(const struct reader *rd, const struct result_view *rv,
		 enum result_member m, int64_t max, long *out)
{
	const struct jv *v;
	int64_t n;

	*out = -1;
	if (maybe(rd, rv, m, JV_INT, &v))
		return -1;
	if (!v)
		return 0;
	if (want_uint(rd, rv, m, max, &n))
		return -1;
	*out = (long)n;
	return 0;
}

/* "run_params" for people: "count 10, interval 100 ms, size 64, window 8,
 * timeout 1000 ms, tclass 0,0x28". What is not there is left out. */
static char *params_text(json_object *p)
{
	static const struct { const char *key, *word, *unit; } scalars[] = {
		{ "count", "count", "" }, { "interval_ms", "interval", " ms" },
		{ "size", "size", "" }, { "window", "window", "" },
		{ "timeout_ms", "timeout", " ms" },
	};
	static const struct { const char *key, *word; bool hex; } lists[] = {
		{ "hop_limits", "hl", false }, { "traffic_classes", "tclass", true },
		{ "flow_labels", "fl", true }, { "sls", "sl", false },
	};
	char *text = NULL;
	size_t len = 0;
	json_object *v;
	bool any = false;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	for (size_t i = 0; i < sizeof(scalars) / sizeof(*scalars); i++)
		if (json_object_object_get_ex(p, scalars[i].key, &v) &&
		    json_object_is_type(v, json_type_int)) {
			fprintf(f, "%s%s %lld%s", any ? ", " : "",
				scalars[i].word,
				(long long)json_object_get_int64(v),
				scalars[i].unit);
			any = true;
		}
	for (size_t i = 0; i < sizeof(lists) / sizeof(*lists); i++) {
		size_t n;

		if (!json_object_object_get_ex(p, lists[i].key, &v) ||
		    !json_object_is_type(v, json_type_array) ||
		    !(n = json_object_array_length(v)))
			continue;
		fprintf(f, "%s%s ", any ? ", " : "", lists[i].word);
		any = true;
		for (size_t k = 0; k < n; k++) {
			json_object *e = json_object_array_get_idx(v, k);
			long long x = json_object_get_int64(e);

			if (!json_object_is_type(e, json_type_int))
				fprintf(f, "%s?", k ? "," : "");
			else if (lists[i].hex && x)
				fprintf(f, "%s0x%llx", k ? "," : "", x);
			else
				fprintf(f, "%s%lld", k ? "," : "", x);
		}
	}
	if (fclose(f) || !any) {
		free(text);
		return NULL;
	}
	return text;
}

/* params_text() of run_params as either reader kept it: the scanner's
 * text is parsed here, once per run. */
static char *run_params_text(const struct jv *v)
{
	json_tokener *tok;
	json_object *o;
	char *text;

	if (v->obj)
		return params_text(v->obj);
	tok = json_tokener_new();
	if (!tok)
		return NULL;
	o = json_tokener_parse_ex(tok, v->s, (int)v->len);
	text = o ? params_text(o) : NULL;
	json_object_put(o);
	json_tokener_free(tok);
	return text;
}

/* A string member as a C string: in buf when it fits, else a copy that
 * *heap owns (NULL when out of memory). */
static const char *c_string(const struct jv *v, char *buf, size_t size,
			    char **heap)
{
	*heap = NULL;
	if (v->len < size) {
		memcpy(buf, v->s, v->len);
		buf[v->len] = '\0';
		return buf;
	}
	return *heap = strndup(v->s, v->len);
}

/* The run a record belongs to (run_id, start_time, run_params of schema
 * v1; without them, one run per input and source). */
static int read_run(const struct reader *rd, const struct result_view *rv,
		    const char *host, const char *device, size_t *run)
{
	char quoted[QUOTE_CHARS + 4], id_buf[128], start_buf[128];
	char *id_heap = NULL, *start_heap = NULL;
	const struct jv *id, *start, *params;
	const char *id_text = NULL, *start_text = NULL;
	struct report_run *ru;
	double t = -1;
	int rc = -1;

	if (maybe(rd, rv, RM_RUN_ID, JV_STRING, &id) ||
	    maybe(rd, rv, RM_START_TIME, JV_STRING, &start) ||
	    maybe(rd, rv, RM_RUN_PARAMS, JV_OBJECT, &params))
		return -1;
	if ((id && !(id_text = c_string(id, id_buf, sizeof(id_buf),
					&id_heap))) ||
	    (start && !(start_text = c_string(start, start_buf,
					      sizeof(start_buf), &start_heap)))) {
		fail(rd, "out of memory");
		goto out;
	}
	if (start && (t = report_parse_time(start_text)) < 0) {
		fail(rd, "\"start_time\" is \"%s\", expected an RFC 3339 "
		     "date and time (2026-11-23T18:12:27Z)",
		     quote(start->s, start->len, quoted, sizeof(quoted)));
		goto out;
	}
	*run = report_run_get(rd->report, id_text, rd->label, host, device);
	if (*run == SIZE_MAX) {
		fail(rd, "out of memory");
		goto out;
	}
	ru = &rd->report->runs[*run];
	if (start && !ru->start_time) {
		ru->start = t;
		if (!(ru->start_time = strdup(start_text))) {
			fail(rd, "out of memory");
			goto out;
		}
	}
	if (params && !ru->params_text)
		ru->params_text = run_params_text(params);
	rc = 0;
out:
	free(id_heap);
	free(start_heap);
	return rc;
}

/* "interrupted": true in a result or a summary marks its run. */
static int read_interrupted(const struct reader *rd,
			    const struct result_view *rv, size_t run)
{
	const struct jv *v;

	if (maybe(rd, rv, RM_INTERRUPTED, JV_BOOL, &v))
		return -1;
	if (v && v->b)
		rd->report->runs[run].interrupted = true;
	return 0;
}

/* loss_direction, lost_there and lost_back (probe since the responder
 * counts what it received): optional, older probes lack them. */
static int read_loss_direction(const struct reader *rd,
			       const struct result_view *rv,
			       struct report_record *rec)
{
	static const char *const words[] = {
		[REPORT_LOSS_NONE] = "none", [REPORT_LOSS_THERE] = "there",
		[REPORT_LOSS_BACK] = "back", [REPORT_LOSS_BOTH] = "both",
	};
	const struct jv *v;

	rec->loss_direction = REPORT_LOSS_UNKNOWN;
	if (maybe(rd, rv, RM_LOSS_DIRECTION, JV_STRING, &v))
		return -1;
	for (size_t k = REPORT_LOSS_NONE; v && k <= REPORT_LOSS_BOTH; k++)
		if (v->len == strlen(words[k]) &&
		    memcmp(v->s, words[k], v->len) == 0)
			rec->loss_direction = k;
	return param(rd, rv, RM_LOST_THERE, UINT32_MAX, &rec->lost_there) ||
	       param(rd, rv, RM_LOST_BACK, UINT32_MAX, &rec->lost_back);
}

static int read_result(const struct reader *rd, const struct result_view *rv)
{
	struct report_record *rec = calloc(1, sizeof(*rec));
	char quoted[QUOTE_CHARS + 4], word[32];
	const struct jv *v, *provider;
	int64_t n;
	long p;

	if (!rec)
		return fail(rd, "out of memory");
	rec->lost_there = rec->lost_back = -1;
	if (want_string(rd, rv, RM_DEST, false, &rec->dest_text) ||
	    want(rd, rv, RM_SOURCE, JV_OBJECT, false, &v) ||
	    want_string(rd, rv, RM_SOURCE_HOST, false, &rec->host) ||
	    want_string(rd, rv, RM_SOURCE_DEVICE, false, &rec->device) ||
	    want_uint(rd, rv, RM_SOURCE_PORT_NUM, 255, &n) ||
	    want_string(rd, rv, RM_SOURCE_SGID, true, &rec->sgid) ||
	    want(rd, rv, RM_PARAMS, JV_OBJECT, false, &v) ||
	    want(rd, rv, RM_STATUS, JV_STRING, false, &v))
		goto bad;
	rec->port_num = (unsigned)n;
	if (maybe(rd, rv, RM_SOURCE_PROVIDER, JV_STRING, &provider))
		goto bad;
	rec->sport_follows_label =
		provider && provider_sport_follows_flow_label(
				    provider_from_name(provider->s,
						       provider->len));
	if (param(rd, rv, RM_SOURCE_LID, 0xffff, &p))
		goto bad;
	rec->lid = p < 0 ? 0 : (uint16_t)p;
	/* No status word is this long: such a text is refused below. */
	snprintf(word, sizeof(word), "%.*s",
		 (int)(v->len < sizeof(word) ? v->len : sizeof(word) - 1),
		 v->s);
	if (v->len >= sizeof(word) ||
	    report_status_parse(word, &rec->status)) {
		fail(rd, "\"" PROBE_KEY_STATUS "\" is \"%s\", expected "
		     PROBE_STATUS_NAME_REACHABLE ", " PROBE_STATUS_NAME_PARTIAL
		     ", " PROBE_STATUS_NAME_UNREACHABLE " or "
		     PROBE_STATUS_NAME_ERROR,
		     quote(v->s, v->len, quoted, sizeof(quoted)));
		goto bad;
	}
	if (rec->status == REPORT_ERROR) {
		if (want_string(rd, rv, RM_ERROR, false, &rec->error))
			goto bad;
		rec->hops = -1;
	} else if (read_probed(rd, rv, rec) ||
		   read_loss_direction(rd, rv, rec)) {
		goto bad;
	}
	if (param(rd, rv, RM_PARAMS_HOP_LIMIT, 255, &p))
		goto bad;
	rec->params.hop_limit = (int)p;
	if (param(rd, rv, RM_PARAMS_TRAFFIC_CLASS, 255, &p))
		goto bad;
	rec->params.traffic_class = (int)p;
	if (param(rd, rv, RM_PARAMS_SL, 15, &p))
		goto bad;
	rec->params.sl = (int)p;
	if (param(rd, rv, RM_PARAMS_FLOW_LABEL, 0xfffff,
		  &rec->params.flow_label) ||
	    param(rd, rv, RM_PARAMS_WIRE_UDP_SPORT, 0xffff,
		  &rec->wire_udp_sport) ||
	    read_run(rd, rv, rec->host, rec->device, &rec->run) ||
	    read_interrupted(rd, rv, rec->run))
		goto bad;
	if (report_add(rd->report, rec))
		return fail(rd, "out of memory");
	return 0;
bad:
	report_record_free(rec);
	return -1;
}

/* json_object_get_int()'s value: an int64 clamped to int's range. */
static int jv_int(const struct jv *v)
{
	if (v->i < INT_MIN)
		return INT_MIN;
	return v->i > INT_MAX ? INT_MAX : (int)v->i;
}

/* {"error": ..., "exit_status": N}: what a prober writes when it could not
 * run at all (probe -j or --jsonl); since schema v1 with "record":
 * "error", its run and its host. */
static int read_failed_run(const struct reader *rd,
			   const struct result_view *rv, bool record)
{
	const struct jv *error = &rv->m[RM_ERROR],
			*status = &rv->m[RM_EXIT_STATUS], *v;
	char *where, *host = NULL, *text = NULL;
	size_t run = SIZE_MAX;
	int rc;

	if (rd->report->failed_count >= rd->limits->failed_runs)
		return fail(rd, "more than %zu failed runs in the input: report "
			    "keeps at most that many", rd->limits->failed_runs);
	if (record &&
	    (want(rd, rv, RM_ERROR, JV_STRING, false, &v) ||
	     want(rd, rv, RM_EXIT_STATUS, JV_INT, false, &v) ||
	     want(rd, rv, RM_SOURCE, JV_OBJECT, false, &v) ||
	     want_string(rd, rv, RM_SOURCE_HOST, false, &host)))
		return -1;
	if (record && read_run(rd, rv, host, NULL, &run)) {
		free(host);
		return -1;
	}
	if (asprintf(&where, "%s:%llu", rd->label, rd->line) < 0 ||
	    !(text = strndup(error->s, error->len))) {
		free(host);
		return fail(rd, "out of memory");
	}
	rc = report_add_failed_run(rd->report, where, text, jv_int(status),
				   host, run);
	free(where);
	free(text);
	free(host);
	return rc ? fail(rd, "out of memory") : 0;
}

/* A run's closing record: not a result; it tells whether the run was
 * interrupted. */
static int read_summary(const struct reader *rd, const struct result_view *rv)
{
	char *host = NULL, *device = NULL;
	const struct jv *v;
	size_t run;
	int rc = -1;

	if (want(rd, rv, RM_SOURCE, JV_OBJECT, false, &v) ||
	    want_string(rd, rv, RM_SOURCE_HOST, false, &host) ||
	    want_string(rd, rv, RM_SOURCE_DEVICE, true, &device) ||
	    read_run(rd, rv, host, device, &run) ||
	    read_interrupted(rd, rv, run))
		goto out;
	rc = 0;
out:
	free(host);
	free(device);
	return rc;
}

/* Whether one more result fits in the limits (err set if not). */
static int room_for_one(const struct reader *rd)
{
	if (rd->report->record_count + rd->report->failed_count >=
	    rd->limits->results)
		return fail(rd, "more than %zu results in the input: report "
			    "merges at most that many", rd->limits->results);
	return 0;
}

/* A JSON object's members, by whichever reader took them. */
static int read_view(const struct reader *rd, const struct result_view *rv)
{
	const struct jv *v;
	char quoted[QUOTE_CHARS + 4];

	if (maybe(rd, rv, RM_SCHEMA, JV_STRING, &v))
		return -1;
	if (v && !jv_is(v, PROBE_SCHEMA))
		return fail(rd, "\"schema\" is \"%s\": report reads %s",
			    quote(v->s, v->len, quoted, sizeof(quoted)),
			    PROBE_SCHEMA);
	if (maybe(rd, rv, RM_RECORD, JV_STRING, &v))
		return -1;
	if (v && jv_is(v, PROBE_RECORD_SUMMARY))
		return read_summary(rd, rv);
	if (v && jv_is(v, PROBE_RECORD_ERROR))
		return read_failed_run(rd, rv, true);
	/* A group's members are no pairs of the matrix: a fleet's inputs
	 * that hold group probes too are read, and say so. */
	if (v && (jv_is(v, PROBE_RECORD_MCAST_MEMBER) ||
		  jv_is(v, PROBE_RECORD_MCAST_GROUP))) {
		rd->report->mcast_records++;
		return 0;
	}
	if (v && !jv_is(v, PROBE_RECORD_RESULT))
		return fail(rd, "\"record\" is \"%s\", expected result, "
			    "summary, error, mcast_member or mcast_group",
			    quote(v->s, v->len, quoted, sizeof(quoted)));
	if (v)
		return read_result(rd, rv);
	if (rv->m[RM_DEST].kind == JV_ABSENT &&
	    rv->m[RM_ERROR].kind == JV_STRING &&
	    rv->m[RM_EXIT_STATUS].kind == JV_INT)
		return read_failed_run(rd, rv, false);
	return read_result(rd, rv);
}

/* A value json-c has read. */
static int read_value(const struct reader *rd, json_object *o)
{
	struct result_view rv;

	if (room_for_one(rd))
		return -1;
	if (!json_object_is_type(o, json_type_object))
		return fail(rd, "%s is not a probe result (a JSON object)",
			    o ? json_type_to_name(json_object_get_type(o))
			      : "null");
	result_view_from_json(&rv, o);
	return read_view(rd, &rv);
}

/* One byte of a value, for what json-c 0.16 lets through even with
 * JSON_TOKENER_STRICT (json_tokener.c: the string state copies any byte
 * but the quote and the backslash; json_tokener_validate_utf8(), when
 * asked, counts continuation bytes only): a \u0000 escape, after which
 * json_object_get_string() and every object key are cut short; a control
 * character not escaped (RFC 8259, section 7); and UTF-8 that RFC 3629
 * forbids (overlong forms, surrogates, past U+10FFFF). And a '-' inside
 * a number, but for one right after its exponent's 'e': json-c refuses it
 * in an object or array, unless it starts the bytes of a call, where
 * json_tokener_parse_ex() resumes the number as if it began there and
 * takes "10" "-5" as 10. LEX_END when the
 * byte completes an object, array or string at the top. (line, col) is
 * where the byte is. */
static enum lex_problem lex(struct lexer *lx, unsigned char c,
			    unsigned long long line, unsigned long long col)
{
	if (lx->need) {
		if ((c & 0xc0) != 0x80)
			return LEX_CUT_SHORT;
		lx->cp = lx->cp << 6 | (c & 0x3f);
		if (--lx->need)
			return LEX_OK;
		if ((lx->seq_len == 2 && lx->cp < 0x80) ||
		    (lx->seq_len == 3 && lx->cp < 0x800) ||
		    (lx->seq_len == 4 && lx->cp < 0x10000))
			return LEX_OVERLONG;
		if (lx->cp >= 0xd800 && lx->cp <= 0xdfff)
			return LEX_SURROGATE;
		return lx->cp > 0x10ffff ? LEX_PAST_MAX : LEX_OK;
	}
	if (c >= 0x80) {
		lx->line = line;
		lx->col = col;
		lx->byte = c;
		/* C0, C1 and F5..F7 start sequences here, so that what they
		 * encode is named: an overlong form, past U+10FFFF. */
		if (c < 0xc0 || c > 0xf7)
			return LEX_BAD_BYTE;
		lx->seq_len = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
		lx->cp = c & (0x7f >> lx->seq_len);
		lx->need = lx->seq_len - 1;
		return LEX_OK;
	}
	if (!lx->in_string) {
		bool in_number = lx->number_last != '\0';

		if (c && strchr("0123456789-+.eE", c) &&
		    (in_number || c == '-' || (c >= '0' && c <= '9'))) {
			if (in_number && c == '-' && lx->depth &&
			    lx->number_last != 'e' && lx->number_last != 'E')
				return LEX_NUMBER_SIGN;
			lx->number_last = (char)c;
			return LEX_OK;
		}
		lx->number_last = '\0';
		if (c == '{' || c == '[')
			lx->depth++;
		else if ((c == '}' || c == ']') && lx->depth && !--lx->depth)
			return LEX_END;
		else if (c == '"')
			lx->in_string = true;
		return LEX_OK;
	}
	if (lx->escape == 1) {
		lx->escape = c == 'u' ? 2 : 0;
		lx->hex = 0;
		return LEX_OK;
	}
	if (lx->escape) {
		/* json-c has checked that these are hex digits. */
		lx->hex = lx->hex << 4 |
			  (uint32_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
		if (++lx->escape < 6)
			return LEX_OK;
		lx->escape = 0;
		return lx->hex == 0 ? LEX_NUL_ESCAPE : LEX_OK;
	}
	if (c == '\\') {
		lx->escape = 1;
		lx->line = line;
		lx->col = col;
		return LEX_OK;
	}
	if (c == '"') {
		lx->in_string = false;
		return lx->depth ? LEX_OK : LEX_END;
	}
	if (c < 0x20) {
		lx->line = line;
		lx->col = col;
		lx->byte = c;
		return LEX_CONTROL;
	}
	return LEX_OK;
}

static int fail_not_json(struct reader *rd, enum json_tokener_error jerr);

static int fail_lex(struct reader *rd, enum lex_problem problem)
{
	const struct lexer *lx = &rd->lex;
	static const char *const why[] = {
		[LEX_CUT_SHORT] = "a character cut short",
		[LEX_OVERLONG] = "an overlong form",
		[LEX_SURROGATE] = "a UTF-16 surrogate",
		[LEX_PAST_MAX] = "past U+10FFFF",
	};

	switch (problem) {
	case LEX_NUL_ESCAPE:
		return fail_at(rd, lx->line, lx->col, "a NUL character "
			       "(\\u0000) in a JSON string: no name or text "
			       "of a probe result holds one");
	case LEX_CONTROL:
		return fail_at(rd, lx->line, lx->col, "not JSON: control "
			       "character 0x%02x in a string (JSON writes "
			       "it \\u%04x)", lx->byte, lx->byte);
	case LEX_BAD_BYTE:
		return fail_at(rd, lx->line, lx->col, "not UTF-8 (byte 0x%02x "
			       "starts no character)", lx->byte);
	case LEX_NUMBER_SIGN:
		/* What json-c says where it sees the '-' itself. */
		return fail_not_json(rd, json_tokener_error_parse_number);
	default:
		return fail_at(rd, lx->line, lx->col, "not UTF-8 (%s)",
			       why[problem]);
	}
}

/* The next chunk when this one is used up: 1, 0 at the end, -1 when the
 * input cannot be read (err set). */
static int fill(struct reader *rd)
{
	size_t n;

	if (rd->pos < rd->len)
		return 1;
	rd->pos = rd->len = 0;
	if (!rd->in) {
		n = rd->mem_left < rd->chunk ? rd->mem_left : rd->chunk;
		rd->data = rd->mem;
		rd->mem += n;
		rd->mem_left -= n;
		rd->len = n;
		return n > 0;
	}
	errno = 0;
	n = fread(rd->buf, 1, rd->chunk, rd->in);
	rd->data = rd->buf;
	rd->len = n;
	if (n == 0 && ferror(rd->in)) {
		char label[1024];

		snprintf(rd->err, rd->errlen, "cannot read %s: %s",
			 text_escape(rd->label, strlen(rd->label), label,
				     sizeof(label)),
			 strerror(errno ? errno : EIO));
		return -1;
	}
	return n > 0;
}

/* Moves past data[pos], keeping count of lines and columns and the start
 * of the line for a quote. */
static void pass(struct reader *rd)
{
	char c = rd->data[rd->pos++];

	if (c == '\n') {
		rd->line++;
		rd->col = 1;
		rd->head_len = 0;
		rd->head_cut = false;
		rd->line_blank = 0;
		return;
	}
	rd->col++;
	if (rd->head_len < sizeof(rd->head))
		rd->head[rd->head_len++] = c;
	else
		rd->head_cut = true;
}

/* pass() over n bytes at once: a value's bytes, where most of the time
 * of reading goes. */
static void pass_many(struct reader *rd, size_t n)
{
	const char *start = rd->data + rd->pos, *end = start + n;
	const char *nl = memrchr(start, '\n', n), *rest = start;
	size_t keep;

	rd->pos += n;
	if (nl) {
		for (const char *q = memchr(start, '\n', n); q && q <= nl;
		     q = memchr(q + 1, '\n', (size_t)(nl - q)))
			rd->line++;
		rd->col = 1;
		rd->head_len = 0;
		rd->head_cut = false;
		rd->line_blank = 0;
		rest = nl + 1;
	}
	rd->col += (unsigned long long)(end - rest);
	keep = sizeof(rd->head) - rd->head_len;
	if ((size_t)(end - rest) > keep)
		rd->head_cut = true;
	else
		keep = (size_t)(end - rest);
	memcpy(rd->head + rd->head_len, rest, keep);
	rd->head_len += keep;
}

/* "not JSON" quoting the line where json-c gave up: the rest of its start
 * is read first (the reader stops here anyway). */
static int fail_not_json(struct reader *rd, enum json_tokener_error jerr)
{
	char quoted[QUOTE_CHARS + 4];
	size_t took;

	while (!rd->head_cut && fill(rd) > 0 && rd->data[rd->pos] != '\n')
		pass(rd);
	took = text_escape_prefix(rd->head, rd->head_len, quoted,
				  QUOTE_CHARS + 1);
	return fail(rd, "not JSON (%s): '%s%s'", json_tokener_error_desc(jerr),
		    quoted, took < rd->head_len || rd->head_cut ? "..." : "");
}

/* The value under way is past the limit: named by its first line. */
static int fail_too_long(struct reader *rd)
{
	rd->line = rd->value_line;
	return fail(rd, "a JSON value longer than %zu bytes starts here: no "
		    "probe result is that long", rd->limits->value_bytes);
}

/* A complete value: read it as a result, with messages about its content
 * naming the line where it starts. */
static int take_value(struct reader *rd, json_object *o)
{
	unsigned long long line = rd->line;
	int rc;

	if (rd->value_bytes > rd->limits->value_bytes) {
		json_object_put(o);
		return fail_too_long(rd);
	}
	rd->in_value = false;
	rd->line_blank = 0;
	rd->place = rd->place == TOP ? TOP : ARRAY_AFTER;
	rd->values++;
	rd->line = rd->value_line;
	rc = read_value(rd, o);
	rd->line = line;
	json_object_put(o);
	return rc;
}

/* The value starting at data[pos], read by the scanner when it is whole
 * in this chunk and of the common shape: 1 when it was (and has been
 * taken, or refused with err set: -1), 0 when json-c is to read it. */
static int scan_whole(struct reader *rd)
{
	unsigned long long line;
	struct result_view rv;
	size_t n;
	int rc;

	n = result_scan(rd->data + rd->pos, rd->len - rd->pos, &rv);
	if (!n || n > rd->limits->value_bytes)
		return 0;
	pass_many(rd, n);
	rd->in_value = false;
	rd->line_blank = 0;
	rd->place = rd->place == TOP ? TOP : ARRAY_AFTER;
	rd->values++;
	/* Messages about the content name the line where it starts. */
	line = rd->line;
	rd->line = rd->value_line;
	rc = room_for_one(rd) ? -1 : read_view(rd, &rv);
	rd->line = line;
	return rc ? -1 : 1;
}

/* Feeds json-c the value's bytes of this chunk: as far as its end, a
 * NUL, or the first byte that lex() refuses, whichever comes first. */
static int feed(struct reader *rd)
{
	const char *p = rd->data + rd->pos;
	size_t avail = rd->len - rd->pos, limit = 0, used;
	struct lexer ahead = rd->lex;
	enum lex_problem problem = LEX_OK;
	enum json_tokener_error jerr;
	json_object *o;

	unsigned long long line = rd->line, col = rd->col;

	if (rd->value_bytes == 0 && rd->scan) {
		int taken = scan_whole(rd);

		if (taken)
			return taken < 0 ? -1 : 0;
	}
	/* A dry run of the lexer finds how far json-c may go; it keeps
	 * count of lines so that its state can stand for the real one. */
	while (limit < avail && p[limit] &&
	       (problem = lex(&ahead, (unsigned char)p[limit], line, col)) <=
		       LEX_OK) {
		if (p[limit] == '\n')
			line++, col = 1;
		else
			col++;
		limit++;
	}
	if (problem == LEX_END)
		limit++;
	o = limit ? json_tokener_parse_ex(rd->tok, p, (int)limit) : NULL;
	jerr = limit ? json_tokener_get_error(rd->tok) : json_tokener_continue;
	used = limit ? json_tokener_get_parse_end(rd->tok) : 0;
	if (jerr != json_tokener_success && jerr != json_tokener_continue) {
		while (used--)
			pass(rd);
		return fail_not_json(rd, jerr);
	}
	if (used == limit && problem <= LEX_END) {
		/* json-c took all the dry run passed: its state is ours. */
		rd->lex = ahead;
		pass_many(rd, used);
	} else {
		for (size_t i = 0; i < used; i++) {
			lex(&rd->lex, (unsigned char)rd->data[rd->pos],
			    rd->line, rd->col);
			pass(rd);
		}
	}
	rd->value_bytes += used;
	if (jerr == json_tokener_success)
		return take_value(rd, o);
	if (rd->value_bytes > rd->limits->value_bytes)
		return fail_too_long(rd);
	if (used < avail && !p[used])
		return fail_at(rd, rd->line, rd->col, "not JSON: a NUL byte");
	if (used < avail && problem > LEX_END)
		return fail_lex(rd, lex(&rd->lex, (unsigned char)p[used],
					rd->line, rd->col));
	return 0;
}

/* Between values: blanks, and the brackets and commas of an array. Stops
 * where a value starts. */
static int between(struct reader *rd)
{
	while (rd->pos < rd->len) {
		char c = rd->data[rd->pos];
		enum place next = rd->place;

		if (c == '\0')
			return fail_at(rd, rd->line, rd->col,
				       "not JSON: a NUL byte");
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
			;
		else if (rd->place == TOP && c == '[')
			next = ARRAY_FIRST;
		else if ((rd->place == ARRAY_FIRST ||
			  rd->place == ARRAY_AFTER) && c == ']')
			next = TOP;
		else if (rd->place == ARRAY_AFTER && c == ',')
			next = ARRAY_NEXT;
		else if (rd->place == ARRAY_AFTER)
			return fail(rd, "not JSON: expected ',' or ']' in the "
				    "array");
		else {
			rd->in_value = true;
			rd->value_line = rd->line;
			rd->value_bytes = 0;
			memset(&rd->lex, 0, sizeof(rd->lex));
			json_tokener_reset(rd->tok);
			return 0;
		}
		rd->place = next;
		pass(rd);
		if (c != '\n' && ++rd->line_blank > rd->limits->value_bytes)
			return fail(rd, "a line longer than %zu bytes holds no "
				    "result", rd->limits->value_bytes);
	}
	return 0;
}

/* The end of the input: a value still under way may be a number, which
 * only its end completes (the NUL json-c takes as the end of data). */
static int at_end(struct reader *rd)
{
	if (rd->in_value) {
		json_object *o = json_tokener_parse_ex(rd->tok, "", 1);
		enum json_tokener_error jerr = json_tokener_get_error(rd->tok);

		if (jerr != json_tokener_success)
			return fail_not_json(rd, jerr);
		if (take_value(rd, o))
			return -1;
	}
	if (rd->place != TOP)
		return fail(rd, "not JSON: the array is cut short");
	if (rd->values == 0) {
		rd->line = 1;
		return fail(rd, "no probe results (empty input)");
	}
	return 0;
}

static bool use_scanner = true;

void report_input_use_scanner(bool on)
{
	use_scanner = on;
}

static const struct report_limits default_limits = {
	.value_bytes = REPORT_VALUE_BYTES_MAX,
	.results = REPORT_RESULTS_MAX,
	.failed_runs = REPORT_FAILED_RUNS_MAX,
};

static int read_input(struct reader *rd)
{
	int rc;

	rd->line = rd->col = 1;
	rd->tok = json_tokener_new();
	if (!rd->tok)
		return fail(rd, "out of memory");
	/* Not JSON_TOKENER_VALIDATE_UTF8: json-c 0.16 keeps the count of
	 * continuation bytes due (json_tokener_validate_utf8()'s nBytes) in
	 * a local of json_tokener_parse_ex(), so a character split between
	 * two chunks is refused; lex() checks UTF-8 instead, and more
	 * strictly. */
	json_tokener_set_flags(rd->tok, JSON_TOKENER_STRICT |
				       JSON_TOKENER_ALLOW_TRAILING_CHARS);
	while ((rc = fill(rd)) > 0)
		if (rd->in_value ? feed(rd) : between(rd)) {
			rc = -1;
			break;
		}
	if (rc == 0)
		rc = at_end(rd);
	json_tokener_free(rd->tok);
	return rc;
}

int report_read_stream(struct report *r, const char *label, FILE *f,
		       const struct report_limits *limits, char *err,
		       size_t errlen)
{
	struct reader rd = {
		.report = r, .limits = limits ? limits : &default_limits,
		.label = label, .err = err, .errlen = errlen, .in = f,
		.scan = use_scanner,
	};
	int rc;

	rd.chunk = rd.limits->chunk_bytes ? rd.limits->chunk_bytes : CHUNK_BYTES;
	rd.buf = malloc(rd.chunk);
	if (!rd.buf) {
		snprintf(err, errlen, "out of memory reading %s", label);
		return -1;
	}
	rc = read_input(&rd);
	free(rd.buf);
	return rc;
}

int report_read_buffer(struct report *r, const char *label, const char *buf,
		       size_t len, const struct report_limits *limits,
		       char *err, size_t errlen)
{
	struct reader rd = {
		.report = r, .limits = limits ? limits : &default_limits,
		.label = label, .err = err, .errlen = errlen, .mem = buf,
		.scan = use_scanner,
		.mem_left = len,
	};

	rd.chunk = rd.limits->chunk_bytes ? rd.limits->chunk_bytes : CHUNK_BYTES;
	return read_input(&rd);
}
