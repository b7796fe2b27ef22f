/* The report as a text matrix with legend and findings, and as one JSON
 * document; both through lib/output.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "report_render.h"
#include "text_escape.h"

const char *report_hops_text(const struct report_cell *c, char *buf,
			     size_t len)
{
	size_t used = 0;

	if (!c->hop_count) {
		snprintf(buf, len, "?h");
		return buf;
	}
	buf[0] = '\0';
	for (size_t i = 0; i < c->hop_count && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%d",
					 i ? "," : "", c->hops[i]);
	if (used < len)
		snprintf(buf + used, len - used, "h");
	return buf;
}

const char *report_rtt_text(const struct report_cell *c, char *buf,
			    size_t len)
{
	double us = c->rtt_median_us;

	if (!c->has_rtt)
		snprintf(buf, len, "%s", "");
	else if (us >= 10000)
		snprintf(buf, len, "%.0fms", us / 1000);
	else if (us >= 1000)
		snprintf(buf, len, "%.1fms", us / 1000);
	else if (us >= 10)
		snprintf(buf, len, "%.0fus", us);
	else
		snprintf(buf, len, "%.1fus", us);
	return buf;
}

const char *report_cell_text(const struct report_cell *c, char *buf,
			     size_t len)
{
	char hops[64], rtt[32];
	const char *mark = c->tclass_remarked ? " R" : "";

	if (!c->probed)
		snprintf(buf, len, ".");
	else if (c->status == REPORT_REACHABLE)
		snprintf(buf, len, "ok %s%s%s%s",
			 report_hops_text(c, hops, sizeof(hops)),
			 c->has_rtt ? " " : "",
			 report_rtt_text(c, rtt, sizeof(rtt)), mark);
	else if (c->status == REPORT_PARTIAL)
		snprintf(buf, len, "LOSS %llu/%llu%s",
			 (unsigned long long)(c->sent - c->received),
			 (unsigned long long)c->sent, mark);
	else if (c->status == REPORT_UNREACHABLE)
		snprintf(buf, len, "--%s", mark);
	else
		snprintf(buf, len, "ERR%s", mark);
	return buf;
}

const char *report_summary_text(const struct report *r, char *buf,
				size_t len)
{
	int n = snprintf(buf, len, "%zu source%s x %zu destination%s, %zu "
			 "pair%s: %zu reachable, %zu partial loss, %zu "
			 "unreachable, %zu error",
			 r->row_count, r->row_count == 1 ? "" : "s",
			 r->col_count, r->col_count == 1 ? "" : "s", r->pairs,
			 r->pairs == 1 ? "" : "s",
			 r->status_count[REPORT_REACHABLE],
			 r->status_count[REPORT_PARTIAL],
			 r->status_count[REPORT_UNREACHABLE],
			 r->status_count[REPORT_ERROR]);

	if (r->failed_count && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "; %zu failed run%s",
			 r->failed_count, r->failed_count == 1 ? "" : "s");
	return buf;
}

/* Columns line up by characters, not bytes (UTF-8 host names). */
static size_t width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* Text from the input as a terminal may show it (text_escape.h: no
 * control sequence, no bidi override), written when print is set, in
 * pieces so that nothing is cut; returns its width. */
static size_t shown(const char *s, bool print)
{
	size_t len = strlen(s), w = 0;
	char piece[256];

	while (len) {
		size_t took = text_escape_prefix(s, len, piece, sizeof(piece));

		if (print)
			out_text("%s", piece);
		w += width(piece);
		s += took;
		len -= took;
	}
	return w;
}

/* Input text, escaped, padded with blanks to the width to. */
static void text_pad(const char *s, size_t to)
{
	size_t w = shown(s, true);

	out_text("%*s", (int)(to > w ? to - w : 0), "");
}

#define CORNER "source \\ destination"

static void print_matrix(const struct report *r)
{
	size_t first = width(CORNER), *widths;
	char cell[128];

	widths = calloc(r->col_count ? r->col_count : 1, sizeof(*widths));
	if (!widths)
		return;
	for (size_t i = 0; i < r->row_count; i++) {
		size_t w = shown(r->rows[i]->source_name, false);

		first = w > first ? w : first;
	}
	for (size_t j = 0; j < r->col_count; j++) {
		widths[j] = shown(r->cols[j]->dest_name, false);
		for (size_t i = 0; i < r->row_count; i++) {
			size_t w = strlen(report_cell_text(report_cell(r, i, j),
							   cell, sizeof(cell)));

			widths[j] = w > widths[j] ? w : widths[j];
		}
	}
	out_text("%s%*s", CORNER, (int)(first - width(CORNER)), "");
	for (size_t j = 0; j < r->col_count; j++) {
		out_text("  ");
		text_pad(r->cols[j]->dest_name,
			 j + 1 < r->col_count ? widths[j] : 0);
	}
	out_newline();
	for (size_t i = 0; i < r->row_count; i++) {
		text_pad(r->rows[i]->source_name, first);
		for (size_t j = 0; j < r->col_count; j++) {
			out_text("  ");
			report_cell_text(report_cell(r, i, j), cell,
					 sizeof(cell));
			out_text("%s%*s", cell,
				 (int)(j + 1 < r->col_count
					       ? widths[j] - strlen(cell)
					       : 0),
				 "");
		}
		out_newline();
	}
	free(widths);
}

static void print_findings(const struct report *r)
{
	bool any = false;
	size_t at = 0, i, j;

	while (report_next_noteworthy(r, &at, &i, &j)) {
		const struct report_cell *c = report_cell(r, i, j);

		if (!any)
			out_text("\nfindings:\n");
		any = true;
		out_text("  ");
		shown(r->rows[i]->source_name, true);
		out_text(" -> ");
		shown(r->cols[j]->dest_name, true);
		out_text(": %s", report_status_name(c->status));
		if (c->sent)
			out_text(", %llu of %llu answered",
				 (unsigned long long)c->received,
				 (unsigned long long)c->sent);
		out_text(" (%zu set%s)\n", c->sets, c->sets == 1 ? "" : "s");
		for (size_t k = 0; k < c->errors.count; k++) {
			out_text("      error: ");
			shown(c->errors.items[k], true);
			out_newline();
		}
		for (size_t k = 0; k < c->findings.count; k++) {
			out_text("      ");
			shown(c->findings.items[k], true);
			out_newline();
		}
	}
	for (size_t k = 0; k < r->failed_count; k++) {
		if (!any)
			out_text("\nfindings:\n");
		any = true;
		out_text("  ");
		shown(r->failed[k].where, true);
		out_text(": a probe run failed (exit status %d): ",
			 r->failed[k].exit_status);
		shown(r->failed[k].error, true);
		out_newline();
	}
}

void report_render_text(const struct report *r)
{
	char summary[512];

	out_text("%s\n\n", report_summary_text(r, summary, sizeof(summary)));
	print_matrix(r);
	out_text("\nlegend: ok Nh T = reachable, N router hops, median RTT T; "
		 "LOSS l/s = l of s probes lost;\n        -- = unreachable; "
		 "ERR = error; R = traffic class remarked; . = not probed\n");
	print_findings(r);
}

static void json_strings(const char *key, const struct strvec *v)
{
	out_open_array(key);
	for (size_t i = 0; i < v->count; i++)
		out_element_string(NULL, v->items[i]);
	out_close_array();
}

static void json_cell(const struct report *r, size_t i, size_t j)
{
	const struct report_cell *c = report_cell(r, i, j);

	out_open_object(NULL);
	out_string("source", NULL, r->rows[i]->source_name);
	out_string("destination", NULL, r->cols[j]->dest_name);
	out_string("status", NULL, report_status_name(c->status));
	out_uint("sets", NULL, c->sets);
	out_uint("sent", NULL, c->sent);
	out_uint("received", NULL, c->received);
	out_uint("lost", NULL, c->sent - c->received);
	if (c->hop_count == 1) {
		out_int("hops", NULL, c->hops[0]);
	} else if (c->hop_count) {
		out_open_array("hops");
		for (size_t k = 0; k < c->hop_count; k++)
			out_element_int(NULL, c->hops[k]);
		out_close_array();
	} else {
		out_null("hops", NULL);
	}
	if (c->has_rtt) {
		out_double("rtt_median_us", NULL, c->rtt_median_us);
		out_double("rtt_max_us", NULL, c->rtt_max_us);
	} else {
		out_null("rtt_median_us", NULL);
		out_null("rtt_max_us", NULL);
	}
	out_bool("tclass_remarked", NULL, c->tclass_remarked);
	out_open_array("remarks");
	for (size_t k = 0; k < c->remark_count; k++) {
		out_open_object(NULL);
		out_uint("traffic_class_sent", NULL, c->remarks[k].sent);
		out_uint("traffic_class_seen", NULL, c->remarks[k].seen);
		out_close_object();
	}
	out_close_array();
	json_strings("verdicts", &c->verdicts);
	json_strings("findings", &c->findings);
	json_strings("errors", &c->errors);
	out_close_object();
}

void report_render_json(const struct report *r)
{
	out_open_object(NULL);
	out_open_array("sources");
	for (size_t i = 0; i < r->row_count; i++) {
		const struct report_node *n = r->rows[i];

		out_open_object(NULL);
		out_string("name", NULL, n->source_name);
		out_string("host", NULL, n->host);
		out_string("device", NULL, n->device);
		out_string("address", NULL, n->addr);
		out_close_object();
	}
	out_close_array();
	out_open_array("destinations");
	for (size_t j = 0; j < r->col_count; j++) {
		out_open_object(NULL);
		out_string("name", NULL, r->cols[j]->dest_name);
		out_string("address", NULL, r->cols[j]->addr);
		out_close_object();
	}
	out_close_array();
	out_open_array("cells");
	for (size_t i = 0; i < r->row_count; i++)
		for (size_t j = 0; j < r->col_count; j++)
			if (report_cell(r, i, j)->probed)
				json_cell(r, i, j);
	out_close_array();
	out_open_array("failed_runs");
	for (size_t k = 0; k < r->failed_count; k++) {
		out_open_object(NULL);
		out_string("input", NULL, r->failed[k].where);
		out_string("error", NULL, r->failed[k].error);
		out_int("exit_status", NULL, r->failed[k].exit_status);
		out_close_object();
	}
	out_close_array();
	out_open_object("summary");
	out_uint("sources", NULL, r->row_count);
	out_uint("destinations", NULL, r->col_count);
	out_uint("pairs", NULL, r->pairs);
	out_uint("reachable", NULL, r->status_count[REPORT_REACHABLE]);
	out_uint("partial", NULL, r->status_count[REPORT_PARTIAL]);
	out_uint("unreachable", NULL, r->status_count[REPORT_UNREACHABLE]);
	out_uint("error", NULL, r->status_count[REPORT_ERROR]);
	out_uint("failed_runs", NULL, r->failed_count);
	out_close_object();
	out_close_object();
}
