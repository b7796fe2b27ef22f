/* report --traces: trace documents into paths, the join with the probe
 * results, and the tomography over them (report_traces.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_trace_split.h"
#include "report/result_scan.h"
#include "report/result_view.h"
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
	/* The length of the value the splitter hands out next when the
	 * scanner already took it whole (measure_value); 0 otherwise. */
	size_t scanned;
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

/* A member's string (value v of key): in *out, not NUL-terminated; kind
 * JV_ABSENT when absent or null; -1 when of another type or holding a
 * NUL (json-c would cut it there). */
static int get_string(const struct reader *rd, const struct jv *v,
		      const char *key, bool required, struct jv *out)
{
	memset(out, 0, sizeof(*out));
	if (v->kind == JV_ABSENT || v->kind == JV_NULL) {
		/* Traces before report --traces named no source. */
		if (required)
			return fail(rd, "no \"%s\"%s", key,
				    strcmp(key, "host") == 0
					    ? " (a trace of an older ibahprobe? "
					      "trace again with this one)"
					    : "");
		return 0;
	}
	if (v->kind != JV_STRING)
		return fail(rd, "\"%s\" is no string", key);
	if (memchr(v->s, '\0', v->len))
		return fail(rd, "\"%s\" holds a NUL character", key);
	if (v->len > REPORT_TRACE_STRING_MAX)
		return fail(rd, "\"%s\" is longer than %d bytes (the most "
			    "report reads of one name)", key,
			    REPORT_TRACE_STRING_MAX);
	*out = *v;
	return 0;
}

/* A member's integer in 0..max; -1 in *out when absent or null. */
static int get_uint(const struct reader *rd, const struct jv *v,
		    const char *key, int64_t max, long *out)
{
	*out = -1;
	if (v->kind == JV_ABSENT || v->kind == JV_NULL)
		return 0;
	if (v->kind != JV_INT)
		return fail(rd, "\"%s\" is no integer", key);
	if (v->i < 0 || v->i > max)
		return fail(rd, "\"%s\" is %lld, out of range 0..%lld", key,
			    (long long)v->i, (long long)max);
	*out = (long)v->i;
	return 0;
}

/* A string get_string took, NUL-terminated in buf (REPORT_TRACE_STRING_MAX
 * + 1 bytes). */
static const char *string_in(const struct jv *v, char *buf)
{
	memcpy(buf, v->s, v->len);
	buf[v->len] = '\0';
	return buf;
}

/* Whether text is a dotted IPv4 address as inet_ntop writes it (four
 * numbers up to 255, no leading zero): then it is its own key. Most hops
 * answer from one, so this spares inet_pton and inet_ntop a million
 * times. */
static bool canonical_ipv4(const char *text)
{
	for (int part = 0; part < 4; part++) {
		unsigned value = 0, n = 0;

		while (text[n] >= '0' && text[n] <= '9' && n < 4)
			value = value * 10 + (unsigned)(text[n++] - '0');
		if (!n || n > 3 || value > 255 || (n > 1 && text[0] == '0'))
			return false;
		text += n;
		if (*text != (part < 3 ? '.' : '\0'))
			return false;
		text++;
	}
	return true;
}

/* An address as report keys it (report_addr_normalize; IPv4 as dotted);
 * the text itself when it is no address. Malloc'd. */
static char *address_key(const struct jv *v)
{
	char text[REPORT_TRACE_STRING_MAX + 1], buf[64];
	struct in_addr a4;

	string_in(v, text);
	/* No IPv6 text without a colon: report_addr_normalize declines. */
	if (canonical_ipv4(text))
		return strdup(text);
	if (report_addr_normalize(text, buf, sizeof(buf)) == 0)
		return strdup(buf);
	if (inet_pton(AF_INET, text, &a4) == 1 &&
	    inet_ntop(AF_INET, &a4, buf, sizeof(buf)))
		return strdup(buf);
	return strdup(text);
}

/* The longest key: a link between two names of the most report reads. */
#define ELEMENT_KEY_MAX (2 * REPORT_TRACE_STRING_MAX + 64)

/* The index key of an element in buf: its kind's letter, then its name
 * (from, or a link's "from -> to" when to is given). Kinds apart by
 * construction: a hop that answered from "A -> B" (the text itself when
 * it is no address) is a router, never the link of that name. Its
 * length, as snprintf's. */
static int element_key(char *buf, size_t len, enum report_path_kind kind,
		       const char *from, const char *to)
{
	static const char letter[] = {
		[REPORT_PATH_ROUTER] = 'r',
		[REPORT_PATH_SWITCH] = 's',
		[REPORT_PATH_LINK] = 'l',
	};
	/* Built by hand: a key for every hop of every trace. */
	const char *parts[] = { from, to ? " -> " : "", to ? to : "" };
	size_t n = 1, part_len[3];

	for (int i = 0; i < 3; i++) {
		part_len[i] = strlen(parts[i]);
		n += part_len[i];
	}
	if (n >= len || n > INT_MAX)
		return (int)(n > INT_MAX ? INT_MAX : n);
	buf[0] = letter[kind];
	n = 1;
	for (int i = 0; i < 3; i++) {
		memcpy(buf + n, parts[i], part_len[i]);
		n += part_len[i];
	}
	buf[n] = '\0';
	return (int)n;
}

const char *report_path_kind_name(enum report_path_kind kind)
{
	switch (kind) {
	case REPORT_PATH_ROUTER:
		return "router";
	case REPORT_PATH_SWITCH:
		return "switch";
	case REPORT_PATH_LINK:
		return "link";
	}
	return "element";
}

size_t report_traces_element_find(const struct report_traces *t,
				   enum report_path_kind kind, const char *name)
{
	char key[ELEMENT_KEY_MAX];
	int n = element_key(key, sizeof(key), kind, name, NULL);
	void *index = n >= 0 && (size_t)n < sizeof(key)
			      ? strmap_get(&t->element_index, key)
			      : NULL;

	return index ? (size_t)(uintptr_t)index - 1 : SIZE_MAX;
}

size_t report_traces_element_add(struct report_traces *t,
				  enum report_path_kind kind, const char *from,
				  const char *to)
{
	/* Its key and, past the letter, its name: built here rather than
	 * allocated, as most hops are known. */
	char key[ELEMENT_KEY_MAX];
	char *name;
	void **slot;
	size_t index;
	int n = element_key(key, sizeof(key), kind, from,
			    kind == REPORT_PATH_LINK ? to : NULL);

	if (n < 0 || (size_t)n >= sizeof(key))
		return SIZE_MAX;
	slot = strmap_slot(&t->element_index, key);
	if (!slot)
		return SIZE_MAX;
	if (*slot)
		return (size_t)(uintptr_t)*slot - 1;
	if (t->element_count == t->element_capacity) {
		size_t cap = t->element_capacity ? t->element_capacity * 2 : 16;
		struct report_path_element *e =
			realloc(t->elements, cap * sizeof(*e));

		if (!e)
			return SIZE_MAX;
		t->elements = e;
		t->element_capacity = cap;
	}
	index = t->element_count;
	name = strdup(key + 1);
	t->elements[index] = (struct report_path_element){
		.kind = kind, .name = name, .from = strdup(from),
		.to = kind == REPORT_PATH_LINK ? strdup(to) : NULL,
	};
	if (!name || !t->elements[index].from ||
	    (kind == REPORT_PATH_LINK && !t->elements[index].to)) {
		free(t->elements[index].from);
		free(t->elements[index].to);
		free(name);
		return SIZE_MAX;
	}
	t->element_count++;
	*slot = (void *)(uintptr_t)(index + 1);
	return index;
}

int report_traces_element_rename(struct report_traces *t, size_t e,
				 const char *name)
{
	char key[ELEMENT_KEY_MAX];
	int n = element_key(key, sizeof(key), t->elements[e].kind, name, NULL);
	void **slot;
	char *copy;

	if (n < 0 || (size_t)n >= sizeof(key))
		return -1;
	slot = strmap_slot(&t->element_index, key);
	if (slot && *slot && (size_t)(uintptr_t)*slot != e + 1)
		return 1;
	copy = slot ? strdup(name) : NULL;
	if (!copy)
		return -1;
	*slot = (void *)(uintptr_t)(e + 1);
	free(t->elements[e].name);
	t->elements[e].name = copy;
	return 0;
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
static unsigned char answered_share(size_t asked, size_t got)
{
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
		     const struct jv *hops)
{
	static const char *const hop_keys[] = { "answers" };
	static const char *const answer_keys[] = { "from", "kind" };
	const char *prev = fl->source ? fl->source : fl->host;
	char *prev_own = NULL;
	struct jv_cursor hc;
	struct jv hop;
	size_t i = 0;
	int rc = 0;

	jv_cursor_init(&hc, hops);
	while (rc == 0 && jv_cursor_next(&hc, &hop)) {
		struct jv answers, a, m[2], from = { 0 }, kind = { 0 };
		struct jv_cursor ac;
		unsigned char share;
		size_t before, asked = 0, got = 0;
		char *addr;

		i++;
		jv_members(&hop, hop_keys, 1, &answers);
		if (hop.kind != JV_OBJECT || answers.kind != JV_ARRAY) {
			rc = fail(rd, "hop %zu is no object with \"answers\"",
				  i);
			break;
		}
		/* One walk of the answers: the first that came from
		 * somewhere (checked up to it), and how many did. */
		jv_cursor_init(&ac, &answers);
		while (jv_cursor_next(&ac, &a)) {
			bool first = from.kind == JV_ABSENT;

			asked++;
			if (first && a.kind != JV_OBJECT) {
				rc = fail(rd, "hop %zu: an answer is no "
					  "object", i);
				break;
			}
			jv_members(&a, answer_keys, first ? 2 : 1, m);
			got += m[0].kind == JV_STRING;
			if (first &&
			    (get_string(rd, &m[0], "from", false, &from) ||
			     get_string(rd, &m[1], "kind", false, &kind))) {
				rc = -1;
				break;
			}
		}
		if (rc)
			break;
		if (from.kind == JV_ABSENT) {
			free(prev_own);
			prev = NULL;
			prev_own = NULL;
			continue;
		}
		before = fl->element_count;
		addr = address_key(&from);
		if (!addr ||
		    (prev && path_add(fl, report_traces_element_add(
						  rd->t, REPORT_PATH_LINK, prev,
						  addr))) ||
		    (kind.kind != JV_ABSENT && !jv_is(&kind, "responder") &&
		     path_add(fl, report_traces_element_add(
					  rd->t, REPORT_PATH_ROUTER, addr,
					  NULL)))) {
			free(addr);
			rc = fail(rd, "out of memory");
			break;
		}
		/* The hop's link and router: how many of its queries were
		 * answered. */
		share = answered_share(asked, got);
		for (size_t k = before; k < fl->element_count; k++)
			fl->answered[k] = share;
		if (before == 0 && fl->element_count > 0)
			fl->first_hop = (unsigned char)(i < 255 ? i : 255);
		free(prev_own);
		prev = prev_own = addr;
	}
	free(prev_own);
	return rc;
}

/* "0x0002c90300a1b2c3:5": a switch port. */
static int port_name(const struct reader *rd, const struct jv *guid_value,
		     const struct jv *port_value, const char *key, char *out,
		     size_t len, struct jv *guid)
{
	long port;

	if (get_string(rd, guid_value, "node_guid", true, guid) ||
	    get_uint(rd, port_value, key, 255, &port))
		return -1;
	if (port < 0)
		snprintf(out, len, "%.*s", (int)guid->len, guid->s);
	else
		snprintf(out, len, "%.*s:%ld", (int)guid->len, guid->s, port);
	return 0;
}

/* InfiniBand: each switch by its node GUID, and each link from a port
 * to the next hop's port. */
static int ib_path(const struct reader *rd, struct report_trace_flow *fl,
		   const struct jv *hops)
{
	enum { H_GUID, H_IN, H_OUT, H_TYPE, H_COUNT };
	static const char *const keys[H_COUNT] = {
		[H_GUID] = "node_guid", [H_IN] = "in_port",
		[H_OUT] = "out_port", [H_TYPE] = "node_type",
	};
	char prev_out[96] = "";
	struct jv_cursor c;
	struct jv hop;
	size_t i = 0;

	jv_cursor_init(&c, hops);
	while (jv_cursor_next(&c, &hop)) {
		struct jv m[H_COUNT], guid, type;
		char in[96], out[96], guid_text[REPORT_TRACE_STRING_MAX + 1];

		i++;
		if (hop.kind != JV_OBJECT)
			return fail(rd, "hop %zu is no object", i);
		jv_members(&hop, keys, H_COUNT, m);
		if (port_name(rd, &m[H_GUID], &m[H_IN], "in_port", in,
			      sizeof(in), &guid) ||
		    port_name(rd, &m[H_GUID], &m[H_OUT], "out_port", out,
			      sizeof(out), &guid) ||
		    get_string(rd, &m[H_TYPE], "node_type", false, &type))
			return -1;
		if ((prev_out[0] &&
		     path_add(fl, report_traces_element_add(
					  rd->t, REPORT_PATH_LINK, prev_out,
					  in))) ||
		    (jv_is(&type, "switch") &&
		     path_add(fl, report_traces_element_add(
					  rd->t, REPORT_PATH_SWITCH,
					  string_in(&guid, guid_text),
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
		       const struct jv *changes)
{
	static const char *const keys[] = { "after", "before", "after_hop",
					    "before_hop" };
	struct jv_cursor cur;
	struct jv c, m[4], after, before;
	long after_hop, before_hop;

	if (changes->kind != JV_ARRAY)
		return 0;
	jv_cursor_init(&cur, changes);
	if (!jv_cursor_next(&cur, &c))
		return 0;
	if (c.kind != JV_OBJECT)
		return fail(rd, "a traffic_class_changes entry is no object");
	jv_members(&c, keys, 4, m);
	if (get_string(rd, &m[0], "after", false, &after) ||
	    get_string(rd, &m[1], "before", false, &before) ||
	    get_uint(rd, &m[2], "after_hop", 255, &after_hop) ||
	    get_uint(rd, &m[3], "before_hop", 255, &before_hop))
		return -1;
	if (after_hop >= 0 && before_hop > after_hop + 1)
		fl->remark_gap = (unsigned char)(before_hop - after_hop - 1);
	if ((after.kind != JV_ABSENT &&
	     !(fl->remark_after = address_key(&after))) ||
	    (before.kind != JV_ABSENT &&
	     !(fl->remark_before = address_key(&before))))
		return fail(rd, "out of memory");
	return 0;
}

/* The members of a trace that report reads. */
enum trace_member {
	TM_SCHEMA, TM_SLID, TM_HOST, TM_DEST, TM_STATUS, TM_SGID,
	TM_SOURCE_ADDRESS, TM_DEST_ADDRESS, TM_FLOW_LABEL, TM_UDP_SPORT,
	TM_TRAFFIC_CLASS, TM_HOPS, TM_TRAFFIC_CLASS_CHANGES, TM_COUNT
};

static const char *const trace_keys[TM_COUNT] = {
	[TM_SCHEMA] = "schema", [TM_SLID] = "slid", [TM_HOST] = "host",
	[TM_DEST] = "dest", [TM_STATUS] = "status", [TM_SGID] = "sgid",
	[TM_SOURCE_ADDRESS] = "source_address",
	[TM_DEST_ADDRESS] = "dest_address", [TM_FLOW_LABEL] = "flow_label",
	[TM_UDP_SPORT] = "udp_sport", [TM_TRAFFIC_CLASS] = "traffic_class",
	[TM_HOPS] = "hops",
	[TM_TRAFFIC_CLASS_CHANGES] = "traffic_class_changes",
};

static int read_flow(const struct reader *rd, const struct jv *o)
{
	struct report_traces *t = rd->t;
	struct report_trace_flow fl = { .flow_label = -1, .traffic_class = -1,
					.udp_sport = -1 };
	struct jv m[TM_COUNT], schema, host, dest, dest_address, source,
		status;
	size_t hop_count;
	bool ib;
	int rc;

	if (o->kind != JV_OBJECT)
		return fail(rd, "is no trace (a JSON object)");
	jv_members(o, trace_keys, TM_COUNT, m);
	if (get_string(rd, &m[TM_SCHEMA], "schema", true, &schema))
		return -1;
	if (!jv_is(&schema, TRACE_SCHEMA))
		return fail(rd, "\"schema\" is no %s: --traces reads the "
			    "output of trace -j", TRACE_SCHEMA);
	/* A "slid" member, even null, makes an InfiniBand trace. */
	ib = m[TM_SLID].kind != JV_ABSENT;
	if (get_string(rd, &m[TM_HOST], "host", true, &host) ||
	    get_string(rd, &m[TM_DEST], "dest", true, &dest) ||
	    get_string(rd, &m[TM_STATUS], "status", true, &status) ||
	    get_string(rd, &m[ib ? TM_SGID : TM_SOURCE_ADDRESS],
		       ib ? "sgid" : "source_address", false, &source) ||
	    get_string(rd, &m[TM_DEST_ADDRESS], "dest_address", false,
		       &dest_address) ||
	    get_uint(rd, &m[TM_FLOW_LABEL], "flow_label", 0xfffff,
		     &fl.flow_label) ||
	    get_uint(rd, &m[TM_UDP_SPORT], "udp_sport", 0xffff,
		     &fl.udp_sport) ||
	    get_uint(rd, &m[TM_TRAFFIC_CLASS], "traffic_class", 255,
		     &fl.traffic_class))
		return -1;
	if (m[TM_HOPS].kind != JV_ARRAY)
		return fail(rd, "\"hops\" is no array");
	hop_count = jv_array_length(&m[TM_HOPS]);
	if (hop_count > REPORT_TRACE_HOPS_MAX)
		return fail(rd, "%zu hops, more than the %d report reads of "
			    "one trace", hop_count, REPORT_TRACE_HOPS_MAX);
	fl.host = strndup(host.s, host.len);
	fl.dest = strndup(dest.s, dest.len);
	fl.source = source.kind != JV_ABSENT ? address_key(&source) : NULL;
	fl.dest_address = dest_address.kind != JV_ABSENT
				  ? address_key(&dest_address)
				  : NULL;
	if (!fl.host || !fl.dest || (source.kind != JV_ABSENT && !fl.source) ||
	    (dest_address.kind != JV_ABSENT && !fl.dest_address)) {
		flow_free(&fl);
		return fail(rd, "out of memory");
	}
	if (!ib && fl.flow_label < 0 && fl.udp_sport < 0)
		rc = fail(rd, "no \"flow_label\" nor \"udp_sport\" in a RoCE "
			  "trace");
	else
		rc = ib ? ib_path(rd, &fl, &m[TM_HOPS])
			: roce_path(rd, &fl, &m[TM_HOPS]);
	if (rc == 0 && !ib)
		rc = read_remark(rd, &fl, &m[TM_TRAFFIC_CLASS_CHANGES]);
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

/* A value of the common shape (no escape in it, report_scan.h's bounds)
 * read from its text by the scanner: the length of the value and the
 * blanks after it, when that is all of value; 0 when json-c reads it
 * instead, and says what is wrong with it if anything is. */
static size_t scan_one(const char *value, size_t len, struct jv *root)
{
	size_t used = value[0] == '{' ? result_scan_plain(value, len) : 0;

	if (!used)
		return 0;
	while (used < len && strchr(" \t\r\n", value[used]))
		used++;
	if (used < len)
		return 0;
	*root = (struct jv){ .kind = JV_OBJECT, .s = value, .len = len };
	return used;
}

/* The splitter's measure (report_trace_split.h): a trace of the common
 * shape read by the scanner straight from the input's piece, so that
 * neither the splitter walks its bytes nor scan_one scans it again. */
static size_t measure_value(void *ctx, const char *text, size_t len)
{
	struct reader *rd = ctx;

	rd->scanned = result_scan_plain(text, len);
	return rd->scanned;
}

/* One value of the input, read alone: a trace, or junk. */
static int read_one(void *ctx, const char *value, size_t len)
{
	struct reader *rd = ctx;
	json_object *v = NULL;
	enum json_tokener_error jerr;
	struct jv root;
	size_t end;
	bool scanned = rd->scanned && rd->scanned == len;
	int rc;

	/* (The splitter hands out what it measured at once.) */
	rd->scanned = 0;
	if (scanned)
		root = (struct jv){ .kind = JV_OBJECT, .s = value, .len = len };
	else if (!scan_one(value, len, &root)) {
		json_tokener_reset(rd->tok);
		/* With its NUL, so that a number at its end ends. */
		v = json_tokener_parse_ex(rd->tok, value, (int)len + 1);
		jerr = json_tokener_get_error(rd->tok);
		end = json_tokener_get_parse_end(rd->tok);
		if (jerr == json_tokener_continue)
			return fail(rd, "the input ends inside a JSON value");
		if (jerr != json_tokener_success)
			return fail(rd, "no JSON: %s",
				    json_tokener_error_desc(jerr));
		while (end < len && strchr(" \t\r\n", value[end]))
			end++;
		if (end < len) {
			json_object_put(v);
			return fail(rd, "no JSON: unexpected character");
		}
		jv_from_json(&root, v);
	}
	if (rd->t->count - rd->before >= REPORT_TRACE_FLOWS_MAX) {
		json_object_put(v);
		return fail(rd, "more than %zu traces in one file (the most "
			    "report reads from one)", REPORT_TRACE_FLOWS_MAX);
	}
	rc = read_flow(rd, &root);
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
	trace_split_set_measure(&rd->split, measure_value, rd);
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

void report_traces_elements_free(struct report_traces *t)
{
	for (size_t k = 0; k < t->element_count; k++) {
		free(t->elements[k].name);
		free(t->elements[k].from);
		free(t->elements[k].to);
		for (size_t i = 0; i < t->elements[k].alias_count; i++)
			free(t->elements[k].aliases[i]);
		free(t->elements[k].aliases);
	}
	free(t->elements);
	strmap_free(&t->element_index);
}

void report_traces_free(struct report_traces *t)
{
	for (size_t k = 0; k < t->count; k++)
		flow_free(&t->flows[k]);
	free(t->flows);
	report_traces_elements_free(t);
	report_trace_join_free(&t->join);
	memset(t, 0, sizeof(*t));
}
