/* report --traces: trace documents into paths, the join with the probe
 * results, and the tomography over them (report_traces.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_trace_split.h"
#include "report/report_traces.h"

#define TRACE_SCHEMA "ibahprobe.trace.v1"

struct reader {
	struct report_traces *t;
	const char *label;
	size_t value;		/* 1-based index of the value being read */
	size_t before;		/* t->count when this input began */
	char *err;
	size_t errlen;
	struct trace_split split;
	struct json_tokener *tok;
};

static int fail(const struct reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int fail(const struct reader *rd, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(rd->err, rd->errlen, "%s: trace %zu: ", rd->label,
			 rd->value);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < rd->errlen)
		vsnprintf(rd->err + n, rd->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* A member's string; NULL when absent or null; -1 when of another type or
 * holding a NUL (json-c would cut it there). */
static int get_string(const struct reader *rd, json_object *o, const char *key,
		      bool required, const char **out)
{
	json_object *v;

	*out = NULL;
	if (!json_object_object_get_ex(o, key, &v) || !v) {
		/* Traces before report --traces named no source. */
		if (required)
			return fail(rd, "no \"%s\"%s", key,
				    strcmp(key, "host") == 0
					    ? " (a trace of an older ibahprobe? "
					      "trace again with this one)"
					    : "");
		return 0;
	}
	if (!json_object_is_type(v, json_type_string))
		return fail(rd, "\"%s\" is no string", key);
	*out = json_object_get_string(v);
	if (strlen(*out) != (size_t)json_object_get_string_len(v))
		return fail(rd, "\"%s\" holds a NUL character", key);
	if (strlen(*out) > REPORT_TRACE_STRING_MAX)
		return fail(rd, "\"%s\" is longer than %d bytes (the most "
			    "report reads of one name)", key,
			    REPORT_TRACE_STRING_MAX);
	return 0;
}

/* A member's integer in 0..max; -1 in *out when absent or null. */
static int get_uint(const struct reader *rd, json_object *o, const char *key,
		    int64_t max, long *out)
{
	json_object *v;
	int64_t n;

	*out = -1;
	if (!json_object_object_get_ex(o, key, &v) || !v)
		return 0;
	if (!json_object_is_type(v, json_type_int))
		return fail(rd, "\"%s\" is no integer", key);
	n = json_object_get_int64(v);
	if (n < 0 || n > max)
		return fail(rd, "\"%s\" is %lld, out of range 0..%lld", key,
			    (long long)n, (long long)max);
	*out = (long)n;
	return 0;
}

/* An address as report keys it (report_addr_normalize; IPv4 as dotted);
 * the text itself when it is no address. Malloc'd. */
static char *address_key(const char *text)
{
	char buf[64];
	struct in_addr a4;

	if (report_addr_normalize(text, buf, sizeof(buf)) == 0)
		return strdup(buf);
	if (inet_pton(AF_INET, text, &a4) == 1 &&
	    inet_ntop(AF_INET, &a4, buf, sizeof(buf)))
		return strdup(buf);
	return strdup(text);
}

/* The index key of an element: its kind's letter, then its name. Kinds
 * apart by construction: a hop that answered from "A -> B" (the text
 * itself when it is no address) is a router, never the link of that
 * name. Malloc'd; NULL when memory ran out. */
static char *element_key(enum report_path_kind kind, const char *name)
{
	static const char letter[] = {
		[REPORT_PATH_ROUTER] = 'r',
		[REPORT_PATH_SWITCH] = 's',
		[REPORT_PATH_LINK] = 'l',
	};
	char *key;

	if (asprintf(&key, "%c%s", letter[kind], name) < 0)
		return NULL;
	return key;
}

size_t report_traces_element_find(const struct report_traces *t,
				   enum report_path_kind kind, const char *name)
{
	char *key = element_key(kind, name);
	void *index = key ? strmap_get(&t->element_index, key) : NULL;

	free(key);
	return index ? (size_t)(uintptr_t)index - 1 : SIZE_MAX;
}

/* The element of that kind and name, added when new: its index, or
 * SIZE_MAX when memory ran out. */
static size_t element(struct report_traces *t, enum report_path_kind kind,
		      const char *from, const char *to)
{
	char *name, *key;
	void **slot;
	size_t index;
	int n = kind == REPORT_PATH_LINK
			? asprintf(&name, "%s -> %s", from, to)
			: asprintf(&name, "%s", from);

	if (n < 0)
		return SIZE_MAX;
	key = element_key(kind, name);
	slot = key ? strmap_slot(&t->element_index, key) : NULL;
	free(key);
	if (!slot) {
		free(name);
		return SIZE_MAX;
	}
	if (*slot) {
		free(name);
		return (size_t)(uintptr_t)*slot - 1;
	}
	if (t->element_count == t->element_capacity) {
		size_t cap = t->element_capacity ? t->element_capacity * 2 : 16;
		struct report_path_element *e =
			realloc(t->elements, cap * sizeof(*e));

		if (!e) {
			free(name);
			return SIZE_MAX;
		}
		t->elements = e;
		t->element_capacity = cap;
	}
	index = t->element_count;
	t->elements[index] = (struct report_path_element){
		.kind = kind, .name = name, .from = strdup(from),
		.to = kind == REPORT_PATH_LINK ? strdup(to) : NULL,
	};
	if (!t->elements[index].from ||
	    (kind == REPORT_PATH_LINK && !t->elements[index].to)) {
		free(t->elements[index].from);
		free(name);
		return SIZE_MAX;
	}
	t->element_count++;
	*slot = (void *)(uintptr_t)(index + 1);
	return index;
}

static int path_add(struct report_trace_flow *fl, size_t e)
{
	size_t *p;
	unsigned char *a;

	if (e == SIZE_MAX)
		return -1;
	p = realloc(fl->elements, (fl->element_count + 1) * sizeof(*p));
	if (!p)
		return -1;
	fl->elements = p;
	a = realloc(fl->answered, fl->element_count + 1);
	if (!a)
		return -1;
	fl->answered = a;
	fl->answered[fl->element_count] = 0;
	fl->elements[fl->element_count++] = e;
	return 0;
}

/* Of a hop's queries, how many got an answer (at most 15 each). */
static unsigned char answered_share(json_object *answers)
{
	size_t asked = json_object_array_length(answers), got = 0;

	for (size_t q = 0; q < asked; q++) {
		json_object *a = json_object_array_get_idx(answers, q), *from;

		got += json_object_is_type(a, json_type_object) &&
		       json_object_object_get_ex(a, "from", &from) &&
		       json_object_is_type(from, json_type_string);
	}
	if (asked > 15) {
		got = got * 15 / asked;
		asked = 15;
	}
	return (unsigned char)(got << 4 | asked);
}

/* Hop by hop from the source: each hop's answering address (the first
 * datagram that got an answer: one flow is one 5-tuple, so its queries
 * take one path), a router where its hop limit ran out; a link between
 * two consecutive hops that both answered; a silent hop breaks the chain
 * around it. */
static int roce_path(const struct reader *rd, struct report_trace_flow *fl,
		     json_object *hops)
{
	const char *prev = fl->source ? fl->source : fl->host;
	char *prev_own = NULL;
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < json_object_array_length(hops); i++) {
		json_object *hop = json_object_array_get_idx(hops, i), *answers;
		const char *from = NULL, *kind = NULL;
		size_t before;
		char *addr;

		if (!json_object_is_type(hop, json_type_object) ||
		    !json_object_object_get_ex(hop, "answers", &answers) ||
		    !json_object_is_type(answers, json_type_array)) {
			rc = fail(rd, "hop %zu is no object with \"answers\"",
				  i + 1);
			break;
		}
		for (size_t q = 0; !from && q < json_object_array_length(answers);
		     q++) {
			json_object *a = json_object_array_get_idx(answers, q);

			if (!json_object_is_type(a, json_type_object)) {
				rc = fail(rd, "hop %zu: an answer is no "
					  "object", i + 1);
				break;
			}
			if (get_string(rd, a, "from", false, &from) ||
			    get_string(rd, a, "kind", false, &kind)) {
				rc = -1;
				break;
			}
		}
		if (rc)
			break;
		if (!from) {
			free(prev_own);
			prev = NULL;
			prev_own = NULL;
			continue;
		}
		before = fl->element_count;
		addr = address_key(from);
		if (!addr ||
		    (prev && path_add(fl, element(rd->t, REPORT_PATH_LINK,
						  prev, addr))) ||
		    (kind && strcmp(kind, "responder") != 0 &&
		     path_add(fl, element(rd->t, REPORT_PATH_ROUTER, addr,
					  NULL)))) {
			free(addr);
			rc = fail(rd, "out of memory");
			break;
		}
		/* The hop's link and router: how many of its queries were
		 * answered. */
		for (size_t k = before; k < fl->element_count; k++)
			fl->answered[k] = answered_share(answers);
		free(prev_own);
		prev = prev_own = addr;
	}
	free(prev_own);
	return rc;
}

/* "0x0002c90300a1b2c3:5": a switch port. */
static int port_name(const struct reader *rd, json_object *hop,
		     const char *key, char *out, size_t len, const char **guid)
{
	long port;

	if (get_string(rd, hop, "node_guid", true, guid) ||
	    get_uint(rd, hop, key, 255, &port))
		return -1;
	if (port < 0)
		snprintf(out, len, "%s", *guid);
	else
		snprintf(out, len, "%s:%ld", *guid, port);
	return 0;
}

/* InfiniBand: each switch by its node GUID, and each link from a port
 * to the next hop's port. */
static int ib_path(const struct reader *rd, struct report_trace_flow *fl,
		   json_object *hops)
{
	char prev_out[96] = "";

	for (size_t i = 0; i < json_object_array_length(hops); i++) {
		json_object *hop = json_object_array_get_idx(hops, i);
		const char *guid, *type = NULL;
		char in[96], out[96];

		if (!json_object_is_type(hop, json_type_object))
			return fail(rd, "hop %zu is no object", i + 1);
		if (port_name(rd, hop, "in_port", in, sizeof(in), &guid) ||
		    port_name(rd, hop, "out_port", out, sizeof(out),
			      &guid) ||
		    get_string(rd, hop, "node_type", false, &type))
			return -1;
		if ((prev_out[0] &&
		     path_add(fl, element(rd->t, REPORT_PATH_LINK, prev_out,
					  in))) ||
		    (type && strcmp(type, "switch") == 0 &&
		     path_add(fl, element(rd->t, REPORT_PATH_SWITCH, guid,
					  NULL))))
			return fail(rd, "out of memory");
		snprintf(prev_out, sizeof(prev_out), "%s", out);
	}
	return 0;
}

static void flow_free(struct report_trace_flow *fl)
{
	free(fl->host);
	free(fl->source);
	free(fl->dest);
	free(fl->dest_address);
	free(fl->elements);
	free(fl->answered);
	free(fl->remark_after);
	free(fl->remark_before);
}

/* The first entry of "traffic_class_changes", when there is one. */
static int read_remark(const struct reader *rd, struct report_trace_flow *fl,
		       json_object *o)
{
	json_object *changes, *c;
	const char *after = NULL, *before = NULL;

	if (!json_object_object_get_ex(o, "traffic_class_changes", &changes) ||
	    !json_object_is_type(changes, json_type_array) ||
	    json_object_array_length(changes) == 0)
		return 0;
	c = json_object_array_get_idx(changes, 0);
	if (!json_object_is_type(c, json_type_object))
		return fail(rd, "a traffic_class_changes entry is no object");
	if (get_string(rd, c, "after", false, &after) ||
	    get_string(rd, c, "before", false, &before))
		return -1;
	if ((after && !(fl->remark_after = address_key(after))) ||
	    (before && !(fl->remark_before = address_key(before))))
		return fail(rd, "out of memory");
	return 0;
}

static int read_flow(const struct reader *rd, json_object *o)
{
	struct report_traces *t = rd->t;
	struct report_trace_flow fl = { .flow_label = -1, .traffic_class = -1,
					.udp_sport = -1 };
	const char *schema, *host, *dest, *dest_address, *source, *status;
	json_object *hops, *slid;
	bool ib;
	int rc;

	if (!json_object_is_type(o, json_type_object))
		return fail(rd, "is no trace (a JSON object)");
	if (get_string(rd, o, "schema", true, &schema))
		return -1;
	if (strcmp(schema, TRACE_SCHEMA) != 0)
		return fail(rd, "\"schema\" is no %s: --traces reads the "
			    "output of trace -j", TRACE_SCHEMA);
	ib = json_object_object_get_ex(o, "slid", &slid);
	if (get_string(rd, o, "host", true, &host) ||
	    get_string(rd, o, "dest", true, &dest) ||
	    get_string(rd, o, "status", true, &status) ||
	    get_string(rd, o, ib ? "sgid" : "source_address", false,
		       &source) ||
	    get_string(rd, o, "dest_address", false, &dest_address) ||
	    get_uint(rd, o, "flow_label", 0xfffff, &fl.flow_label) ||
	    get_uint(rd, o, "udp_sport", 0xffff, &fl.udp_sport) ||
	    get_uint(rd, o, "traffic_class", 255, &fl.traffic_class))
		return -1;
	if (!json_object_object_get_ex(o, "hops", &hops) ||
	    !json_object_is_type(hops, json_type_array))
		return fail(rd, "\"hops\" is no array");
	if (json_object_array_length(hops) > REPORT_TRACE_HOPS_MAX)
		return fail(rd, "%zu hops, more than the %d report reads of "
			    "one trace", json_object_array_length(hops),
			    REPORT_TRACE_HOPS_MAX);
	fl.host = strdup(host);
	fl.dest = strdup(dest);
	fl.source = source ? address_key(source) : NULL;
	fl.dest_address = dest_address ? address_key(dest_address) : NULL;
	if (!fl.host || !fl.dest || (source && !fl.source) ||
	    (dest_address && !fl.dest_address)) {
		flow_free(&fl);
		return fail(rd, "out of memory");
	}
	if (!ib && fl.flow_label < 0 && fl.udp_sport < 0)
		rc = fail(rd, "no \"flow_label\" nor \"udp_sport\" in a RoCE "
			  "trace");
	else
		rc = ib ? ib_path(rd, &fl, hops) : roce_path(rd, &fl, hops);
	if (rc == 0 && !ib)
		rc = read_remark(rd, &fl, o);
	if (rc == 0 && t->count == t->capacity) {
		size_t cap = t->capacity ? t->capacity * 2 : 16;
		struct report_trace_flow *f = realloc(t->flows, cap * sizeof(*f));

		if (!f)
			rc = fail(rd, "out of memory");
		else {
			t->flows = f;
			t->capacity = cap;
		}
	}
	if (rc) {
		flow_free(&fl);
		return -1;
	}
	t->flows[t->count++] = fl;
	return 0;
}

/* One value of the input, parsed alone: a trace, or junk. */
static int read_one(void *ctx, const char *value, size_t len)
{
	struct reader *rd = ctx;
	json_object *v;
	enum json_tokener_error jerr;
	size_t end;
	int rc;

	json_tokener_reset(rd->tok);
	/* With its NUL, so that a number at its end ends. */
	v = json_tokener_parse_ex(rd->tok, value, (int)len + 1);
	jerr = json_tokener_get_error(rd->tok);
	end = json_tokener_get_parse_end(rd->tok);
	if (jerr == json_tokener_continue)
		return fail(rd, "the input ends inside a JSON value");
	if (jerr != json_tokener_success)
		return fail(rd, "no JSON: %s", json_tokener_error_desc(jerr));
	while (end < len && strchr(" \t\r\n", value[end]))
		end++;
	if (end < len) {
		json_object_put(v);
		return fail(rd, "no JSON: unexpected character");
	}
	if (rd->t->count - rd->before >= REPORT_TRACE_FLOWS_MAX) {
		json_object_put(v);
		return fail(rd, "more than %zu traces in one file (the most "
			    "report reads from one)", REPORT_TRACE_FLOWS_MAX);
	}
	rc = read_flow(rd, v);
	json_object_put(v);
	if (rc == 0)
		rd->value++;
	return rc;
}

/* What the splitter stopped at, said of the value it was in. */
static int split_failed(struct reader *rd, enum trace_split_status status)
{
	switch (status) {
	case TRACE_SPLIT_OK:
		return 0;
	case TRACE_SPLIT_STOPPED:
		return -1;	/* read_one said why */
	case TRACE_SPLIT_TOO_BIG:
		return fail(rd, "more than %zu KiB in one trace (the most "
			    "report reads of one): no trace output",
			    REPORT_TRACE_VALUE_BYTES_MAX >> 10);
	case TRACE_SPLIT_SYNTAX:
		return fail(rd, "no JSON: unexpected character");
	case TRACE_SPLIT_CUT:
		return fail(rd, "the input ends inside a JSON value");
	}
	return -1;
}

static int reader_start(struct reader *rd, struct report_traces *t,
			const char *label, char *err, size_t errlen)
{
	*rd = (struct reader){ .t = t, .label = label, .value = 1, .err = err,
			       .errlen = errlen, .before = t->count };
	trace_split_init(&rd->split, REPORT_TRACE_VALUE_BYTES_MAX);
	rd->tok = json_tokener_new();
	if (!rd->tok)
		return fail(rd, "out of memory");
	json_tokener_set_flags(rd->tok, JSON_TOKENER_STRICT |
					    JSON_TOKENER_ALLOW_TRAILING_CHARS |
					    JSON_TOKENER_VALIDATE_UTF8);
	return 0;
}

static int reader_finish(struct reader *rd, int rc)
{
	if (rc == 0)
		rc = split_failed(rd, trace_split_end(&rd->split, read_one, rd));
	if (rc == 0 && rd->t->count == rd->before) {
		snprintf(rd->err, rd->errlen, "%s: no trace in it", rd->label);
		rc = -1;
	}
	trace_split_free(&rd->split);
	if (rd->tok)
		json_tokener_free(rd->tok);
	return rc;
}

int report_traces_read_buffer(struct report_traces *t, const char *label,
			      const char *buf, size_t len, char *err,
			      size_t errlen)
{
	struct reader rd;
	int rc = reader_start(&rd, t, label, err, errlen);

	if (rc == 0)
		rc = split_failed(&rd, trace_split_feed(&rd.split, buf, len,
							read_one, &rd));
	return reader_finish(&rd, rc);
}

/* A piece at a time: what is held is the trace being read, and what the
 * traces read so far became (report_traces.h), never the file. */
int report_traces_read(struct report_traces *t, const char *label, FILE *f,
		       char *err, size_t errlen)
{
	struct reader rd;
	char piece[65536];
	size_t total = 0;
	int rc = reader_start(&rd, t, label, err, errlen);

	while (rc == 0) {
		size_t n = fread(piece, 1, sizeof(piece), f);

		if (n == 0)
			break;
		total += n;
		if (total > REPORT_TRACE_BYTES_MAX) {
			snprintf(err, errlen, "%s: more than %zu MiB: "
				 "no trace output", label,
				 REPORT_TRACE_BYTES_MAX >> 20);
			rc = -1;
			break;
		}
		rc = split_failed(&rd, trace_split_feed(&rd.split, piece, n,
							read_one, &rd));
	}
	if (rc == 0 && ferror(f)) {
		snprintf(err, errlen, "cannot read %s: %s", label,
			 strerror(errno));
		rc = -1;
	}
	return reader_finish(&rd, rc);
}

void report_traces_free(struct report_traces *t)
{
	for (size_t k = 0; k < t->count; k++)
		flow_free(&t->flows[k]);
	for (size_t k = 0; k < t->element_count; k++) {
		free(t->elements[k].name);
		free(t->elements[k].from);
		free(t->elements[k].to);
	}
	free(t->flows);
	free(t->elements);
	strmap_free(&t->element_index);
	memset(t, 0, sizeof(*t));
}
