/* The suspects of a report as report -j gives them: the "suspects"
 * array (the matrix's, then those on the path) and the "path_tomography"
 * member, through lib/out/json_writer.h. */
#include <stdlib.h>
#include <string.h>

#include "out/json_writer.h"
#include "report/render/report_render.h"
#include "report/report_suspects.h"

static void json_axis(struct json_writer *w, const char *key, bool present,
		      const struct report_suspect_axis *a)
{
	if (!present) {
		jw_null(w, key);
		return;
	}
	jw_open_object(w, key);
	jw_uint(w, "probed", a->probed);
	jw_uint(w, "failing", a->failing);
	report_json_status_counts(w, a->status, REPORT_PARTIAL);
	jw_uint(w, "explained_elsewhere", a->elsewhere);
	jw_close_object(w);
}

void report_render_element_suspect_head(struct json_writer *w, size_t rank,
					const char *kind, const char *name,
					const char *address, size_t explained,
					size_t failing, size_t passing)
{
	jw_open_object(w, NULL);
	jw_uint(w, "rank", rank);
	jw_string(w, "kind", kind);
	jw_string(w, "name", name);
	jw_string(w, "address", address);
	jw_uint(w, "explained", explained);
	jw_null(w, "as_destination");
	jw_null(w, "as_source");
	jw_open_array(w, "members");
	jw_close_array(w);
	jw_open_array(w, "explained_by");
	jw_close_array(w);
	jw_open_object(w, "results");
	jw_uint(w, "failing", failing);
	jw_uint(w, "passing", passing);
	jw_close_object(w);
}

void report_render_path_elements_json(struct json_writer *w,
				      const struct report_traces *t,
				      const size_t *elements, size_t count)
{
	jw_open_array(w, "elements");
	for (size_t k = 0; k < count; k++) {
		const struct report_path_element *e = &t->elements[elements[k]];

		jw_open_object(w, NULL);
		jw_string(w, "kind", report_path_kind_name(e->kind));
		jw_string(w, "name", e->name);
		jw_close_object(w);
	}
	jw_close_array(w);
}

/* One suspect on the path, in the shape of the matrix's: the members
 * that do not apply are null or empty, its own after them. */
static void json_path_suspect(struct json_writer *w,
			      const struct report_path_suspects *ps,
			      const struct tomo_suspect *x, size_t rank_base)
{
	const struct report_traces *t = ps->traces;
	const char *kind = report_path_suspect_kind(ps, x);
	char *via = NULL, *name = report_path_suspect_name(ps, x, &via);

	report_render_element_suspect_head(
		w, rank_base + x->rank, kind, name ? name : "?",
		strcmp(kind, "router") == 0 ? name : NULL, x->explained,
		x->failing, x->passing);
	report_render_path_elements_json(w, t, x->elements, x->element_count);
	jw_close_object(w);
	free(name);
	free(via);
}

void report_render_tomography_json(struct json_writer *w,
				   const struct report_path_suspects *ps)
{
	if (!ps) {
		jw_null(w, "path_tomography");
		return;
	}
	jw_open_object(w, "path_tomography");
	jw_uint(w, "traces", ps->traces->count);
	jw_uint(w, "results", ps->flows);
	jw_uint(w, "failing", ps->tomo.failing);
	jw_uint(w, "explained", ps->tomo.explained);
	jw_uint(w, "failing_without_trace", ps->failing_no_trace);
	jw_uint(w, "failing_ecmp_unknown", ps->failing_ecmp_unknown);
	jw_close_object(w);
}

void report_render_suspects_json(struct json_writer *w,
				 const struct report_suspects *s,
				 const struct report_path_suspects *ps)
{
	size_t rank_base = s->count ? s->items[s->count - 1].rank : 0;

	jw_open_array(w, "suspects");
	for (size_t k = 0; k < s->count; k++) {
		const struct report_suspect *x = &s->items[k];

		jw_open_object(w, NULL);
		jw_uint(w, "rank", x->rank);
		jw_string(w, "kind", report_suspect_kind_name(x->kind));
		jw_string(w, "name", x->name);
		jw_string(w, "address", x->node ? x->node->addr : NULL);
		jw_uint(w, "explained", x->explained);
		json_axis(w, "as_destination", x->as_destination,
			  &x->destination);
		json_axis(w, "as_source", x->as_source, &x->source);
		jw_open_array(w, "members");
		for (size_t m = 0; m < x->member_count; m++) {
			jw_open_object(w, NULL);
			jw_string(w, "kind",
				  report_suspect_kind_name(x->member_kinds[m]));
			jw_string(w, "name", report_suspect_member_name(
				x->members[m], x->member_kinds[m]));
			jw_close_object(w);
		}
		jw_close_array(w);
		jw_open_array(w, "explained_by");
		for (size_t o = 0; o < x->other_count; o++) {
			const struct report_suspect *by =
				&s->items[x->others[o].suspect];

			jw_open_object(w, NULL);
			jw_string(w, "kind", report_suspect_kind_name(by->kind));
			jw_string(w, "name", by->name);
			jw_uint(w, "pairs", x->others[o].pairs);
			jw_close_object(w);
		}
		jw_close_array(w);
		jw_close_object(w);
	}
	for (size_t k = 0; ps && k < ps->tomo.count; k++)
		json_path_suspect(w, ps, &ps->tomo.items[k], rank_base);
	jw_close_array(w);
}
