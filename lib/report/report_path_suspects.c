/* The suspects on the path (report_traces.h): each probe result of the
 * report joined with the trace of its source host, destination, traffic
 * class and flow label, then the tomography core over them, and the
 * suspects' names. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_traces.h"

/* In the "any flow label" map: the traces to that destination take more
 * than one path. */
#define AMBIGUOUS ((void *)(uintptr_t)-1)

struct join {
	const struct report_traces *t;
	struct strmap by_label;	/* host, destination, tclass, label */
	struct strmap any_label;	/* host, destination, tclass */
	struct strmap by_sport;	/* host, destination, tclass, UDP port */
};

static bool same_path(const struct report_trace_flow *a,
		      const struct report_trace_flow *b)
{
	return a->element_count == b->element_count &&
	       (!a->element_count ||
		memcmp(a->elements, b->elements,
		       a->element_count * sizeof(*a->elements)) == 0);
}

/* dest: a normalised address, or "text:" and the destination as given;
 * labels -1 (InfiniBand) as "-". */
static char *key_of(const char *host, const char *dest, bool text, long tc,
		    long fl, bool any)
{
	char *key;

	if (asprintf(&key, "%s\x1f%s%s\x1f%ld\x1f%ld", host,
		     text ? "text:" : "", dest, tc, any ? -2 : fl) < 0)
		return NULL;
	return key;
}

static int put(struct strmap *m, char *key, size_t flow,
	       const struct report_traces *t)
{
	void **slot = key ? strmap_slot(m, key) : NULL;

	free(key);
	if (!slot)
		return -1;
	if (!*slot)
		*slot = (void *)(uintptr_t)(flow + 1);
	else if (*slot != AMBIGUOUS &&
		 !same_path(&t->flows[(uintptr_t)*slot - 1], &t->flows[flow]))
		*slot = AMBIGUOUS;
	return 0;
}

static int join_build(struct join *j, const struct report_traces *t)
{
	j->t = t;
	for (size_t k = 0; k < t->count; k++) {
		const struct report_trace_flow *f = &t->flows[k];
		long tc = f->traffic_class, fl = f->flow_label;

		/* By address and by the text the tracer was given: a probe
		 * result without an AH knows only the latter. */
		if (put(&j->by_label, key_of(f->host, f->dest, true, tc, fl,
					     false), k, t) ||
		    put(&j->any_label, key_of(f->host, f->dest, true, tc, fl,
					      true), k, t))
			return -1;
		if (f->dest_address &&
		    (put(&j->by_label, key_of(f->host, f->dest_address, false,
					      tc, fl, false), k, t) ||
		     put(&j->any_label, key_of(f->host, f->dest_address, false,
					       tc, fl, true), k, t)))
			return -1;
		if (f->udp_sport < 0)
			continue;
		if (put(&j->by_sport, key_of(f->host, f->dest, true, tc,
					     f->udp_sport, false), k, t) ||
		    (f->dest_address &&
		     put(&j->by_sport, key_of(f->host, f->dest_address, false,
					      tc, f->udp_sport, false), k, t)))
			return -1;
	}
	return 0;
}

/* The value of key in m (NULL: none), key freed; *oom on failure. */
static void *lookup(const struct strmap *m, char *key, bool *oom)
{
	void *v = key ? strmap_get(m, key) : NULL;

	*oom |= !key;
	free(key);
	return v;
}

enum placed { PLACED, NO_TRACE, ECMP_UNKNOWN };

/* The trace of rec: on RoCE by the UDP source port its probes carried
 * when known (wire_udp_sport: the 5-tuple ECMP hashes), else by its flow
 * label when its provider sends the label's port, else any trace of that
 * destination and traffic class as long as they all take one path; on
 * InfiniBand by the destination. */
static enum placed find_trace(const struct join *j,
			      const struct report_record *rec,
			      const struct report_trace_flow **out, bool *oom)
{
	long tc = rec->params.traffic_class < 0 ? 0 : rec->params.traffic_class;
	long fl = rec->params.flow_label < 0 ? 0 : rec->params.flow_label;
	char addr[64];
	bool by_addr = rec->dgid &&
		       report_addr_normalize(rec->dgid, addr, sizeof(addr)) == 0;
	void *v = NULL;

	*out = NULL;
	for (int pass = 0; !v && pass < 2; pass++) {
		bool text = pass == 1 || !by_addr;
		const char *dest = text ? rec->dest_text : addr;

		if (rec->wire_udp_sport >= 0)
			v = lookup(&j->by_sport,
				   key_of(rec->host, dest, text, tc,
					  rec->wire_udp_sport, false),
				   oom);
		if (v)
			break;
		if (rec->sport_follows_label)
			v = lookup(&j->by_label,
				   key_of(rec->host, dest, text, tc, fl, false),
				   oom);
		else
			v = lookup(&j->any_label,
				   key_of(rec->host, dest, text, tc, fl, true),
				   oom);
		/* InfiniBand traces have no labels. */
		if (!v)
			v = lookup(&j->by_label,
				   key_of(rec->host, dest, text, -1, -1, false),
				   oom);
	}
	if (!v)
		return NO_TRACE;
	if (v == AMBIGUOUS)
		return ECMP_UNKNOWN;
	*out = &j->t->flows[(uintptr_t)v - 1];
	return (*out)->element_count ? PLACED : NO_TRACE;
}

static const char *element_name(size_t e, const void *ctx)
{
	const struct report_traces *t = ctx;

	return t->elements[e].name;
}

int report_path_suspects_find(struct report_path_suspects *ps,
			      const struct report *r,
			      const struct report_traces *t)
{
	struct join j = { 0 };
	struct tomo_flow *flows = NULL;
	size_t n = 0;
	bool oom = false;
	int rc = -1;

	memset(ps, 0, sizeof(*ps));
	ps->traces = t;
	flows = calloc(r->record_count ? r->record_count : 1, sizeof(*flows));
	if (!flows || join_build(&j, t))
		goto out;
	for (size_t k = 0; k < r->record_count; k++) {
		const struct report_record *rec = r->records[k];
		const struct report_trace_flow *tf;
		enum placed placed;
		bool failing = rec->status != REPORT_REACHABLE;

		if (r->runs[rec->run].dropped ||
		    (rec->sgid && rec->dgid && strcmp(rec->sgid, rec->dgid) == 0))
			continue;
		placed = find_trace(&j, rec, &tf, &oom);
		flows[n++] = (struct tomo_flow){
			.failing = failing,
			.traced = placed == PLACED,
			.elements = tf ? tf->elements : NULL,
			.element_count = tf ? tf->element_count : 0,
		};
		if (failing && placed == NO_TRACE)
			ps->failing_no_trace++;
		if (failing && placed == ECMP_UNKNOWN)
			ps->failing_ecmp_unknown++;
	}
	ps->flows = n;
	if (!oom && tomo_find(&ps->tomo, flows, n, t->element_count,
			      element_name, t) == 0)
		rc = 0;
out:
	free(flows);
	strmap_free(&j.by_label);
	strmap_free(&j.any_label);
	strmap_free(&j.by_sport);
	return rc;
}

void report_path_suspects_free(struct report_path_suspects *ps)
{
	tomo_free(&ps->tomo);
	memset(ps, 0, sizeof(*ps));
}

int report_traces_place(const struct report *r,
			const struct report_traces *t,
			const struct report_trace_flow **out)
{
	struct join j = { 0 };
	bool oom = false;

	if (join_build(&j, t))
		oom = true;
	for (size_t k = 0; !oom && k < r->record_count; k++)
		if (find_trace(&j, r->records[k], &out[k], &oom) != PLACED)
			out[k] = NULL;
	strmap_free(&j.by_label);
	strmap_free(&j.any_label);
	strmap_free(&j.by_sport);
	return oom ? -1 : 0;
}

const char *report_path_suspect_kind(const struct report_path_suspects *ps,
				     const struct tomo_suspect *s)
{
	if (s->element_count != 1)
		return "segment";
	return report_path_kind_name(ps->traces->elements[s->elements[0]].kind);
}

/* The nodes along a segment, each once: a router or switch, a link's
 * two ends. */
static size_t segment_nodes(const struct report_traces *t,
			    const struct tomo_suspect *s, const char **nodes)
{
	size_t n = 0;

	for (size_t k = 0; k < s->element_count; k++) {
		const struct report_path_element *e = &t->elements[s->elements[k]];
		const char *ends[2] = { e->from, e->to };

		for (int i = 0; i < 2 && ends[i]; i++)
			if (!n || strcmp(nodes[n - 1], ends[i]) != 0)
				nodes[n++] = ends[i];
	}
	return n;
}

char *report_path_suspect_name(const struct report_path_suspects *ps,
			       const struct tomo_suspect *s, char **via)
{
	const struct report_traces *t = ps->traces;
	const char **nodes = calloc(2 * s->element_count + 1, sizeof(*nodes));
	char *name = NULL, *list = NULL;
	size_t n, len = 0;
	FILE *f;

	*via = NULL;
	if (!nodes)
		return NULL;
	if (s->element_count == 1) {
		name = strdup(t->elements[s->elements[0]].name);
		*via = strdup("");
		goto out;
	}
	n = segment_nodes(t, s, nodes);
	if (n == 0 || asprintf(&name, "%s -> %s", nodes[0], nodes[n - 1]) < 0) {
		name = NULL;
		goto out;
	}
	f = open_memstream(&list, &len);
	if (!f)
		goto out;
	for (size_t k = 1; k + 1 < n; k++)
		fprintf(f, "%s%s", k > 1 ? ", " : "", nodes[k]);
	if (fclose(f)) {
		free(list);
		list = NULL;
	}
	*via = list;
out:
	free(nodes);
	if (!*via) {
		free(name);
		name = NULL;
	}
	return name;
}
