/* The groups JSON document (report --groups -j): the groups with their
 * sources and destinations, the blocks with a probed pair, and the
 * summary; through lib/out/output.h. */
#include <stdbool.h>

#include "out/output.h"
#include "report/report_groups.h"
#include "report/render/report_render.h"

/* Each status's count under its name, as report -j gives them. */
static void status_counts(const size_t count[REPORT_STATUS_COUNT])
{
	for (int st = 0; st < REPORT_STATUS_COUNT; st++)
		out_uint(report_status_name((enum report_status)st), NULL,
			 count[st]);
}

static void json_names(const char *key, const struct report *r,
		       const size_t *index, size_t count, bool rows)
{
	out_open_array(key);
	for (size_t k = 0; k < count; k++)
		out_element_string(NULL, rows ? r->rows[index[k]]->source_name
					      : r->cols[index[k]]->dest_name);
	out_close_array();
}

void report_groups_render_json(const struct report *r,
			       const struct report_grouping *g)
{
	out_open_object(NULL);
	out_string("schema", NULL, REPORT_GROUPS_SCHEMA);
	out_open_array("groups");
	for (size_t a = 0; a < g->count; a++) {
		const struct report_group *grp = &g->groups[a];

		out_open_object(NULL);
		out_string("name", NULL, grp->name);
		out_bool("ungrouped", NULL, grp->ungrouped);
		json_names("sources", r, grp->rows, grp->row_count, true);
		json_names("destinations", r, grp->cols, grp->col_count,
			   false);
		out_close_object();
	}
	out_close_array();
	/* Only blocks with a probed pair: ungrouped hosts can make the
	 * full square large and mostly empty. */
	out_open_array("blocks");
	for (size_t a = 0; a < g->count; a++)
		for (size_t b = 0; b < g->count; b++) {
			const struct report_block *k =
				report_groups_block(g, a, b);
			int worst = report_block_worst(k);

			if (!k->pairs)
				continue;
			out_open_object(NULL);
			out_uint("source_group", NULL, a);
			out_uint("destination_group", NULL, b);
			out_uint("pairs", NULL, k->pairs);
			status_counts(k->status);
			out_uint("remarked", NULL, k->remarked);
			out_string("worst", NULL, report_status_name(
				(enum report_status)worst));
			if (k->has_rtt)
				out_double("rtt_median_us", NULL,
					   k->rtt_median_us);
			else
				out_null("rtt_median_us", NULL);
			out_close_object();
		}
	out_close_array();
	out_open_object("summary");
	out_uint("groups", NULL, g->count);
	out_uint("ungrouped", NULL, g->ungrouped);
	out_uint("sources", NULL, r->row_count);
	out_uint("destinations", NULL, r->col_count);
	out_uint("pairs", NULL, r->pairs);
	status_counts(r->status_count);
	out_uint("failed_runs", NULL, r->failed_count);
	out_close_object();
	out_close_object();
}
