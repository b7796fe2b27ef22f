/* The join of a report's probe results with their traces (report_traces.h),
 * made once for all of report --traces' consumers, by interned ids. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/hop_changes.h"
#include "report/report_traces.h"

/* A slot's value: the index of the one flow its key leads to, + 1; this
 * when the traces of that key take more than one path. */
#define AMBIGUOUS UINT32_MAX

/* What a trace is found by, each its own table of keys. */
enum join_table {
	BY_LABEL,	/* host, destination, traffic class, flow label */
	ANY_LABEL,	/* host, destination, traffic class */
	BY_SPORT,	/* host, destination, traffic class, UDP port */
};

/* A flow's key: the host's and destination's ids, and in `rest` the
 * table (2 bits), traffic class (9) and label or port (21), each offset
 * so that -1 and -2 (none, any) stay apart from the values. */
struct join_key {
	uint64_t ids;
	uint32_t rest;
};

/* A key and its value in 16 bytes: some three million of them for half
 * a million traces. */
struct join_slot {
	uint64_t ids;
	uint32_t rest;
	uint32_t value;		/* 0: free */
};

struct join_index {
	const struct report_traces *t;
	/* Text -> id + 1: the tracing hosts; the destinations, as given
	 * (texts) and as normalised addresses, from one count so that a
	 * text and an address never share an id. */
	struct strmap hosts, dest_texts, dest_addrs;
	size_t ids;
	struct join_slot *slots;
	size_t capacity, count;	/* capacity 0 or a power of two */
};

static struct join_key key_make(size_t host, size_t dest,
				enum join_table table, long tc, long x)
{
	return (struct join_key){
		.ids = (uint64_t)host << 32 | (uint32_t)dest,
		.rest = (uint32_t)table << 30 | (uint32_t)(tc + 2) << 21 |
			(uint32_t)(x + 2),
	};
}

static size_t key_hash(struct join_key k)
{
	uint64_t h = k.ids * 0x9e3779b97f4a7c15ull ^ k.rest;

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 29;
	return (size_t)h;
}

static struct join_slot *slot_of(const struct join_index *j,
				 struct join_key k)
{
	size_t mask = j->capacity - 1;

	for (size_t i = key_hash(k) & mask;; i = (i + 1) & mask) {
		struct join_slot *s = &j->slots[i];

		if (!s->value || (s->ids == k.ids && s->rest == k.rest))
			return s;
	}
}

static int grow(struct join_index *j)
{
	struct join_index bigger = *j;

	bigger.capacity = j->capacity ? j->capacity * 2 : 1024;
	bigger.slots = calloc(bigger.capacity, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -1;
	for (size_t i = 0; i < j->capacity; i++) {
		const struct join_slot *s = &j->slots[i];

		if (s->value)
			*slot_of(&bigger, (struct join_key){ s->ids, s->rest }) =
				*s;
	}
	free(j->slots);
	*j = bigger;
	return 0;
}

/* The id of text in m, added when new; SIZE_MAX when out of memory. */
static size_t id_add(struct join_index *j, struct strmap *m, const char *text)
{
	void **slot = strmap_slot(m, text);

	if (!slot)
		return SIZE_MAX;
	if (!*slot)
		*slot = (void *)(uintptr_t)++j->ids;
	return (uintptr_t)*slot - 1;
}

/* Its id; SIZE_MAX when no trace has it. */
static size_t id_of(const struct strmap *m, const char *text)
{
	void *v = text ? strmap_get(m, text) : NULL;

	return v ? (uintptr_t)v - 1 : SIZE_MAX;
}

static bool same_path(const struct report_trace_flow *a,
		      const struct report_trace_flow *b)
{
	return a->element_count == b->element_count &&
	       (!a->element_count ||
		memcmp(a->elements, b->elements,
		       a->element_count * sizeof(*a->elements)) == 0);
}

static int put(struct join_index *j, struct join_key k, size_t flow)
{
	struct join_slot *s;

	/* At most three quarters full: probes stay short. */
	if (4 * (j->count + 1) > 3 * j->capacity && grow(j))
		return -1;
	s = slot_of(j, k);
	if (!s->value) {
		*s = (struct join_slot){ .ids = k.ids, .rest = k.rest,
					 .value = (uint32_t)(flow + 1) };
		j->count++;
	} else if (s->value != AMBIGUOUS &&
		   !same_path(&j->t->flows[s->value - 1], &j->t->flows[flow])) {
		s->value = AMBIGUOUS;
	}
	return 0;
}

static uint32_t get(const struct join_index *j, size_t host, size_t dest,
		  enum join_table table, long tc, long x)
{
	/* No trace has a traffic class or label past these (read_flow). */
	if (!j->capacity || tc < -2 || tc > 255 || x < -2 || x > 0xfffff)
		return 0;
	return slot_of(j, key_make(host, dest, table, tc, x))->value;
}

/* A flow's keys for one of its destination's names. */
static int put_dest(struct join_index *j, size_t flow, size_t host,
		    size_t dest)
{
	const struct report_trace_flow *f = &j->t->flows[flow];
	long tc = f->traffic_class;

	return put(j, key_make(host, dest, BY_LABEL, tc, f->flow_label),
		   flow) ||
	       put(j, key_make(host, dest, ANY_LABEL, tc, -2), flow) ||
	       (f->udp_sport >= 0 &&
		put(j, key_make(host, dest, BY_SPORT, tc, f->udp_sport),
		    flow));
}

static int index_build(struct join_index *j, const struct report_traces *t)
{
	j->t = t;
	/* Ids and flow numbers of 32 bits (three new ids a trace at
	 * most: its host, destination text and address). */
	if (t->count >= UINT32_MAX / 4)
		return -1;
	for (size_t k = 0; k < t->count; k++) {
		const struct report_trace_flow *f = &t->flows[k];
		size_t host = id_add(j, &j->hosts, f->host);
		size_t text = id_add(j, &j->dest_texts, f->dest);
		size_t addr = f->dest_address
				      ? id_add(j, &j->dest_addrs, f->dest_address)
				      : 0;

		/* By address and by the text the tracer was given: a probe
		 * result without an AH knows only the latter. */
		if (host == SIZE_MAX || text == SIZE_MAX || addr == SIZE_MAX ||
		    put_dest(j, k, host, text) ||
		    (f->dest_address && put_dest(j, k, host, addr)))
			return -1;
	}
	return 0;
}

static void index_free(struct join_index *j)
{
	strmap_free(&j->hosts);
	strmap_free(&j->dest_texts);
	strmap_free(&j->dest_addrs);
	free(j->slots);
}

/* The ids of the last record's host and destination: a source's records
 * come together, and one destination's flow labels one after the other,
 * with the same (interned) strings, which then need no lookup and no
 * normalising again. */
struct last_ids {
	const char *host, *text, *dgid;
	size_t host_id, text_id, addr_id;
};

static void record_ids(const struct join_index *j,
		       const struct report_record *rec, struct last_ids *last)
{
	char addr[64];

	if (!last->host || rec->host != last->host) {
		last->host = rec->host;
		last->host_id = id_of(&j->hosts, rec->host);
	}
	if (!last->text || rec->dest_text != last->text) {
		last->text = rec->dest_text;
		last->text_id = id_of(&j->dest_texts, rec->dest_text);
	}
	if (!last->dgid || rec->dgid != last->dgid) {
		last->dgid = rec->dgid;
		last->addr_id = rec->dgid && report_addr_normalize(
						     rec->dgid, addr,
						     sizeof(addr)) == 0
					? id_of(&j->dest_addrs, addr)
					: SIZE_MAX;
	}
}

/* The trace of rec: on RoCE by the UDP source port its probes carried
 * when known (wire_udp_sport: the 5-tuple ECMP hashes), else by its flow
 * label when its provider sends the label's port, else any trace of that
 * destination and traffic class as long as they all take one path; on
 * InfiniBand by the destination. By the destination's address first,
 * then by its text. */
static enum report_trace_placement
find_trace(const struct join_index *j, const struct report_record *rec,
	   struct last_ids *last, const struct report_trace_flow **out)
{
	long tc = rec->params.traffic_class < 0 ? 0 : rec->params.traffic_class;
	long fl = rec->params.flow_label < 0 ? 0 : rec->params.flow_label;
	size_t host, dests[2];
	uint32_t v = 0;

	*out = NULL;
	record_ids(j, rec, last);
	host = last->host_id;
	dests[0] = last->addr_id;
	dests[1] = last->text_id;
	for (int pass = 0; host != SIZE_MAX && !v && pass < 2; pass++) {
		size_t dest = dests[pass];

		if (dest == SIZE_MAX)
			continue;
		if (rec->wire_udp_sport >= 0)
			v = get(j, host, dest, BY_SPORT, tc, rec->wire_udp_sport);
		if (v)
			break;
		if (rec->sport_follows_label)
			v = get(j, host, dest, BY_LABEL, tc, fl);
		else
			v = get(j, host, dest, ANY_LABEL, tc, -2);
		/* InfiniBand traces have no labels. */
		if (!v)
			v = get(j, host, dest, BY_LABEL, -1, -1);
	}
	if (!v)
		return REPORT_TRACE_NONE;
	if (v == AMBIGUOUS)
		return REPORT_TRACE_ECMP_UNKNOWN;
	*out = &j->t->flows[v - 1];
	return (*out)->element_count ? REPORT_TRACE_PLACED : REPORT_TRACE_NONE;
}

static int join_make(struct report_trace_join *join, const struct report *r,
		     const struct report_traces *t)
{
	struct join_index j = { 0 };
	struct last_ids last = { 0 };
	size_t n = r->record_count;
	int rc = -1;

	memset(join, 0, sizeof(*join));
	join->trace = calloc(n ? n : 1, sizeof(*join->trace));
	join->placement = calloc(n ? n : 1, sizeof(*join->placement));
	join->trace_hops = calloc(t->count ? t->count : 1,
				  sizeof(*join->trace_hops));
	if (!join->trace || !join->placement || !join->trace_hops ||
	    index_build(&j, t))
		goto out;
	for (size_t k = 0; k < n; k++) {
		const struct report_trace_flow *f;

		join->placement[k] = find_trace(&j, r->records[k], &last, &f);
		if (join->placement[k] == REPORT_TRACE_PLACED)
			join->trace[k] = f;
	}
	for (size_t k = 0; k < t->count; k++)
		join->trace_hops[k] = hop_changes_trace_hops(&t->flows[k], t);
	join->r = r;
	join->record_count = n;
	rc = 0;
out:
	index_free(&j);
	if (rc)
		report_trace_join_free(join);
	return rc;
}

int report_traces_join(struct report_traces *t, const struct report *r)
{
	report_trace_join_free(&t->join);
	return join_make(&t->join, r, t);
}

const struct report_trace_join *
report_traces_joined(const struct report_traces *t, const struct report *r,
		     struct report_trace_join *local)
{
	memset(local, 0, sizeof(*local));
	if (t->join.r == r && t->join.record_count == r->record_count)
		return &t->join;
	return join_make(local, r, t) ? NULL : local;
}

void report_trace_join_free(struct report_trace_join *join)
{
	free(join->trace);
	free(join->placement);
	free(join->trace_hops);
	memset(join, 0, sizeof(*join));
}
