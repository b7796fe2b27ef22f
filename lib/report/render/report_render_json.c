/* The report as one JSON document (report -j): its sources,
 * destinations, probed pairs, runs, what --expect misses, suspects and
 * summary, written to a stream as it goes (lib/out/json_writer.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "out/json_writer.h"
#include "report/render/report_render.h"

static void json_strings(struct json_writer *w, const char *key,
			 const struct strvec *v)
{
	jw_open_array(w, key);
	for (size_t i = 0; i < v->count; i++)
		jw_string(w, NULL, v->items[i]);
	jw_close_array(w);
}

static void json_param(struct json_writer *w, const char *key, long value)
{
	if (value < 0)
		jw_null(w, key);
	else
		jw_int(w, key, value);
}

/* Each set of the pair, the worst first, with what tells it apart. */
static void json_sets(struct json_writer *w, const struct report_cell *c)
{
	jw_open_array(w, "set_results");
	for (size_t k = 0; k < c->sets; k++) {
		const struct report_record *rec = c->set_records[k];

		jw_open_object(w, NULL);
		jw_string(w, "label", c->set_labels[k]);
		jw_open_object(w, "params");
		json_param(w, "hop_limit", rec->params.hop_limit);
		json_param(w, "traffic_class", rec->params.traffic_class);
		json_param(w, "flow_label", rec->params.flow_label);
		json_param(w, "sl", rec->params.sl);
		jw_close_object(w);
		jw_string(w, "status", report_status_name(rec->status));
		jw_uint(w, "sent", rec->sent);
		jw_uint(w, "received", rec->received);
		jw_string(w, "error", rec->error);
		jw_bool(w, "interrupted", rec->interrupted);
		jw_close_object(w);
	}
	jw_close_array(w);
}

void report_json_remarks(struct json_writer *w, const struct report_cell *c)
{
	jw_bool(w, "tclass_remarked", c->tclass_remarked);
	jw_open_array(w, "remarks");
	for (size_t k = 0; k < c->remark_count; k++) {
		jw_open_object(w, NULL);
		jw_uint(w, "traffic_class_sent", c->remarks[k].sent);
		jw_uint(w, "traffic_class_seen", c->remarks[k].seen);
		jw_close_object(w);
	}
	jw_close_array(w);
}

void report_json_status_counts(struct json_writer *w,
			       const size_t count[REPORT_STATUS_COUNT],
			       enum report_status from)
{
	for (int st = from; st < REPORT_STATUS_COUNT; st++)
		jw_uint(w, report_status_name((enum report_status)st),
			count[st]);
}

static void json_cell(struct json_writer *w, const struct report *r,
		      size_t i, size_t j)
{
	const struct report_cell *c = report_cell(r, i, j);

	jw_open_object(w, NULL);
	jw_string(w, "source", r->rows[i]->source_name);
	jw_string(w, "destination", r->cols[j]->dest_name);
	jw_string(w, "status", report_status_name(c->status));
	jw_uint(w, "sets", c->sets);
	jw_bool(w, "interrupted", c->interrupted);
	jw_uint(w, "sent", c->sent);
	jw_uint(w, "received", c->received);
	jw_uint(w, "lost", c->sent - c->received);
	if (c->hop_count == 1) {
		jw_int(w, "hops", c->hops[0]);
	} else if (c->hop_count) {
		jw_open_array(w, "hops");
		for (size_t k = 0; k < c->hop_count; k++)
			jw_int(w, NULL, c->hops[k]);
		jw_close_array(w);
	} else {
		jw_null(w, "hops");
	}
	if (c->has_rtt) {
		jw_double(w, "rtt_median_us", c->rtt_median_us);
		jw_double(w, "rtt_max_us", c->rtt_max_us);
	} else {
		jw_null(w, "rtt_median_us");
		jw_null(w, "rtt_max_us");
	}
	report_json_remarks(w, c);
	json_strings(w, "verdicts", &c->verdicts);
	json_strings(w, "findings", &c->findings);
	json_strings(w, "errors", &c->errors);
	json_sets(w, c);
	jw_close_object(w);
}

static int text_order(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strverscmp(a, b);
}

/* Runs by host, device and start: not in the order of the inputs. */
static int run_order(const void *pa, const void *pb, void *ctx)
{
	const struct report_run *runs = ctx;
	const struct report_run *a = &runs[*(const size_t *)pa];
	const struct report_run *b = &runs[*(const size_t *)pb];
	int c;

	if ((c = text_order(a->host, b->host)) ||
	    (c = text_order(a->device, b->device)))
		return c;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return text_order(a->run_id, b->run_id);
}

static void json_runs(struct json_writer *w, const struct report *r)
{
	size_t *order = calloc(r->run_count ? r->run_count : 1,
			       sizeof(*order));

	if (!order)
		return;
	for (size_t k = 0; k < r->run_count; k++)
		order[k] = k;
	qsort_r(order, r->run_count, sizeof(*order), run_order, r->runs);
	jw_open_array(w, "runs");
	for (size_t k = 0; k < r->run_count; k++) {
		const struct report_run *ru = &r->runs[order[k]];

		if (ru->dropped)
			continue;
		jw_open_object(w, NULL);
		jw_string(w, "run_id", ru->run_id);
		jw_string(w, "host", ru->host);
		jw_string(w, "device", ru->device);
		jw_string(w, "start_time", ru->start_time);
		jw_string(w, "params", ru->params_text);
		jw_bool(w, "interrupted", ru->interrupted);
		jw_close_object(w);
	}
	jw_close_array(w);
	free(order);
}

static void json_expected(struct json_writer *w, const struct report *r)
{
	jw_open_object(w, "expected");
	json_strings(w, "hosts", &r->expect);
	json_strings(w, "sent_no_results", &r->silent_hosts);
	jw_open_array(w, "never_probed");
	for (size_t k = 0; k < r->never_probed_count; k++) {
		jw_open_object(w, NULL);
		jw_string(w, "source", r->never_probed[k].source);
		jw_string(w, "destination",
			   r->never_probed[k].destination);
		jw_close_object(w);
	}
	jw_close_array(w);
	jw_close_object(w);
}

static void json_suspects(struct json_writer *w, const struct report *r)
{
	struct report_suspects s;

	if (report_suspects_find(&s, r, NULL))
		diag_warn("out of memory naming the suspects");
	report_render_suspects_json(w, &s, r->path_suspects);
	report_render_tomography_json(w, r->path_suspects);
	report_suspects_free(&s);
	/* With --traces: the elements the one model names, beside the
	 * suspects as they were (a key keeps its meaning). */
	if (r->localise)
		report_render_localise_json(w, r->localise);
	if (r->identifiability)
		report_render_identifiability_json(w, r->identifiability);
	if (r->hop_changes)
		report_render_hop_changes_json(w, r->hop_changes);
}

int report_render_json(FILE *f, const struct report *r, bool pretty)
{
	struct json_writer writer, *w = &writer;

	json_writer_init(w, f, pretty);
	jw_open_object(w, NULL);
	jw_string(w, "schema", REPORT_SCHEMA);
	jw_open_array(w, "sources");
	for (size_t i = 0; i < r->row_count; i++) {
		const struct report_node *n = r->rows[i];

		jw_open_object(w, NULL);
		jw_string(w, "name", n->source_name);
		jw_string(w, "host", n->host);
		jw_string(w, "device", n->device);
		jw_string(w, "address", n->addr);
		jw_bool(w, "sent_results", n->has_results);
		jw_uint(w, "failed_runs", n->failed_runs);
		jw_close_object(w);
	}
	jw_close_array(w);
	jw_open_array(w, "destinations");
	for (size_t j = 0; j < r->col_count; j++) {
		jw_open_object(w, NULL);
		jw_string(w, "name", r->cols[j]->dest_name);
		jw_string(w, "address", r->cols[j]->addr);
		jw_close_object(w);
	}
	jw_close_array(w);
	jw_open_array(w, "cells");
	for (size_t i = 0; i < r->row_count; i++)
		for (size_t j = 0; j < r->col_count; j++)
			if (report_cell(r, i, j)->probed)
				json_cell(w, r, i, j);
	jw_close_array(w);
	jw_open_array(w, "failed_runs");
	for (size_t k = 0; k < r->failed_count; k++) {
		jw_open_object(w, NULL);
		const struct report_failed_run *fr = &r->failed[k];

		jw_string(w, "input", fr->where);
		jw_string(w, "host", fr->host);
		jw_string(w, "run_id", fr->run == SIZE_MAX ? NULL
				: r->runs[fr->run].run_id);
		jw_string(w, "error", fr->error);
		jw_int(w, "exit_status", fr->exit_status);
		jw_close_object(w);
	}
	jw_close_array(w);
	json_runs(w, r);
	json_expected(w, r);
	json_strings(w, "warnings", &r->warnings);
	json_strings(w, "notes", &r->notes);
	json_suspects(w, r);
	jw_open_object(w, "summary");
	jw_uint(w, "sources", r->row_count);
	jw_uint(w, "destinations", r->col_count);
	jw_uint(w, "pairs", r->pairs);
	report_json_status_counts(w, r->status_count, REPORT_REACHABLE);
	jw_uint(w, "failed_runs", r->failed_count);
	jw_uint(w, "sent_no_results", r->silent_hosts.count);
	jw_uint(w, "never_probed", r->never_probed_count);
	jw_close_object(w);
	jw_close_object(w);
	return json_writer_finish(w);
}
