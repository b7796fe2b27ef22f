/* The report as a text matrix with legend and findings, and as one JSON
 * document; both through lib/out/output.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "out/json_writer.h"
#include "out/output.h"
#include "report/render/report_render.h"
#include "base/text_escape.h"

/* n in decimal at buf[used..len), NUL-terminated when it fits: what
 * snprintf("%d") would write, without printf (a report writes a million
 * cells). The new used, which may pass len as snprintf's count does. */
static size_t append_int(char *buf, size_t len, size_t used, int n)
{
	char digits[16];
	size_t k = 0;
	unsigned v = n < 0 ? 0u - (unsigned)n : (unsigned)n;

	do
		digits[k++] = (char)('0' + v % 10);
	while (v /= 10);
	if (n < 0)
		digits[k++] = '-';
	for (size_t i = 0; i < k; i++, used++)
		if (used + 1 < len)
			buf[used] = digits[k - 1 - i];
	if (len)
		buf[used < len ? used : len - 1] = '\0';
	return used;
}

const char *report_hops_text(const struct report_cell *c, char *buf,
			     size_t len)
{
	size_t used = 0;

	if (!c->hop_count) {
		snprintf(buf, len, "?h");
		return buf;
	}
	buf[0] = '\0';
	for (size_t i = 0; i < c->hop_count && used < len; i++) {
		if (i) {
			if (used + 1 < len)
				buf[used] = ',';
			used++;
			if (used < len)
				buf[used] = '\0';
			else
				break;
		}
		used = append_int(buf, len, used, c->hops[i]);
	}
	if (used + 1 < len) {
		buf[used] = 'h';
		buf[used + 1] = '\0';
	}
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
		snprintf(buf, len, c->run_failed ? "FAIL" : ".");
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

const char *report_expect_text(const struct report *r, char *buf, size_t len)
{
	if (!r->expect.count)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%zu host%s expected: %zu sent no results, "
			 "%zu pair%s never probed", r->expect.count,
			 r->expect.count == 1 ? "" : "s", r->silent_hosts.count,
			 r->never_probed_count,
			 r->never_probed_count == 1 ? "" : "s");
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

/* Text output stays under 100 columns: a long line is broken after
 * "; " or ", ", else at a blank, and goes on indented. */
#define TEXT_COLUMNS 99

static void wrapped(size_t indent, const char *s)
{
	char *text = NULL, *p;
	size_t room = TEXT_COLUMNS - indent, len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	/* Escaped first, so that what is measured is what is shown. */
	for (size_t left = strlen(s); left;) {
		char piece[256];
		size_t took = text_escape_prefix(s, left, piece, sizeof(piece));

		fputs(piece, f);
		s += took;
		left -= took;
	}
	if (fclose(f))
		return;
	out_text("%*s", (int)indent, "");
	for (p = text; width(p) > room;) {
		size_t cut = 0, chars = 0, best, sep = 0, blank = 0;

		for (; p[cut] && chars < room; cut++) {
			chars += ((unsigned char)p[cut] & 0xc0) != 0x80;
			if (p[cut] == ' ' && cut &&
			    (p[cut - 1] == ';' || p[cut - 1] == ','))
				sep = cut;
			else if (p[cut] == ' ')
				blank = cut;
		}
		/* A list breaks between its items, unless that leaves
		 * most of the line empty. */
		best = sep > cut / 2 || !blank ? sep : blank;
		if (!best)	/* one word longer than the line */
			best = cut;
		out_text("%.*s\n%*s", (int)best, p, (int)indent + 2, "");
		p += best + (p[best] == ' ');
		room = TEXT_COLUMNS - indent - 2;
	}
	out_text("%s\n", p);
	free(text);
}

/* A list of names, as many a line as fit. */
static void name_list(const char *head, const char *const *items,
		      size_t count)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	fputs(head, f);
	for (size_t k = 0; k < count; k++)
		fprintf(f, "%s%s", k ? ", " : "", items[k]);
	if (fclose(f) == 0)
		wrapped(2, text);
	free(text);
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
		out_text(": %s", report_status_word(c->status));
		if (c->sent)
			out_text(", %llu of %llu answered",
				 (unsigned long long)c->received,
				 (unsigned long long)c->sent);
		out_text(" (%zu set%s%s)\n", c->sets, c->sets == 1 ? "" : "s",
			 c->interrupted ? ", run interrupted" : "");
		for (size_t k = 0; k < c->errors.count; k++) {
			char *line;

			if (asprintf(&line, "error: %s", c->errors.items[k]) < 0)
				continue;
			wrapped(6, line);
			free(line);
		}
		for (size_t k = 0; k < c->findings.count; k++)
			wrapped(6, c->findings.items[k]);
	}
	for (size_t k = 0; k < r->failed_count; k++) {
		const struct report_failed_run *f = &r->failed[k];
		char *line;

		if (!any)
			out_text("\nfindings:\n");
		any = true;
		if (asprintf(&line, "%s%sa probe run failed (exit status "
			     "%d): %s (%s)", f->host ? f->host : "",
			     f->host ? ": " : "", f->exit_status, f->error,
			     f->where) < 0)
			continue;
		wrapped(2, line);
		free(line);
	}
}

/* report --traces: the suspects on the path, each on one aligned line
 * (rank, kind, name, results it explains), the segment's inner nodes and
 * the evidence below; the counts line also when there is none. */
static void path_suspects_text(const struct report_path_suspects *ps)
{
	char *counts, ranks[32];
	char **names;
	size_t name_width = 0;
	int rank_width;

	if (!ps)
		return;
	counts = report_path_counts(ps);
	out_text("\nsuspects on the path:\n");
	if (counts)
		wrapped(2, counts);
	free(counts);
	if (!ps->tomo.count)
		return;
	names = calloc(ps->tomo.count, sizeof(*names));
	if (!names)
		return;
	rank_width = snprintf(ranks, sizeof(ranks), "%zu",
			      ps->tomo.items[ps->tomo.count - 1].rank);
	for (size_t k = 0; k < ps->tomo.count; k++) {
		char *via = NULL;
		size_t w;

		names[k] = report_path_suspect_name(ps, &ps->tomo.items[k], &via);
		free(via);
		w = names[k] ? shown(names[k], false) : 1;
		name_width = w > name_width ? w : name_width;
	}
	for (size_t k = 0; k < ps->tomo.count; k++) {
		const struct tomo_suspect *x = &ps->tomo.items[k];
		char *via = NULL, *name = report_path_suspect_name(ps, x, &via);
		char *evidence = report_path_evidence(x), *line = NULL;

		out_text("  %*zu. %-11s  ", rank_width, x->rank,
			 report_path_suspect_kind(ps, x));
		text_pad(names[k] ? names[k] : "?", name_width);
		out_text("  explains %zu failing result%s\n", x->explained,
			 x->explained == 1 ? "" : "s");
		if (via && via[0] && asprintf(&line, "via %s", via) >= 0) {
			wrapped((size_t)rank_width + 6, line);
			free(line);
		}
		if (evidence)
			wrapped((size_t)rank_width + 6, evidence);
		free(evidence);
		free(name);
		free(via);
		free(names[k]);
	}
	free(names);
}

/* After the matrix, only when there is one: each suspect on one aligned
 * line (rank, kind, name, pairs it explains), its evidence below. */
void report_render_suspects_text(const struct report *r,
				 const struct report_grouping *g)
{
	struct report_suspects s;
	size_t name_width = 0;
	int rank_width;
	char ranks[32];

	if (report_suspects_find(&s, r, g)) {
		diag_warn("out of memory naming the suspects");
		return;
	}
	if (!s.count) {
		path_suspects_text(r->path_suspects);
		return;
	}
	rank_width = snprintf(ranks, sizeof(ranks), "%zu",
			      s.items[s.count - 1].rank);
	for (size_t k = 0; k < s.count; k++) {
		size_t w = shown(s.items[k].name, false);

		name_width = w > name_width ? w : name_width;
	}
	out_text("\nsuspects (they explain %zu of %zu failing pairs; the "
		 "strongest first):\n", s.explained, s.failing);
	for (size_t k = 0; k < s.count; k++) {
		const struct report_suspect *x = &s.items[k];
		enum report_suspect_line lines[4];
		size_t n = report_suspect_lines(x, lines);

		out_text("  %*zu. %-11s  ", rank_width, x->rank,
			 report_suspect_kind_name(x->kind));
		text_pad(x->name, name_width);
		out_text("  explains %zu failing pair%s\n", x->explained,
			 x->explained == 1 ? "" : "s");
		for (size_t l = 0; l < n; l++) {
			char *text = report_suspect_evidence(&s, x, lines[l]);

			if (text)
				wrapped((size_t)rank_width + 6, text);
			free(text);
		}
	}
	report_suspects_free(&s);
	path_suspects_text(r->path_suspects);
}

static bool any_run_failed(const struct report *r)
{
	for (size_t i = 0; i < r->row_count * r->col_count; i++)
		if (r->cells[i].run_failed)
			return true;
	return false;
}

/* What --expect misses, and the runs' notes. */
static void print_expected(const struct report *r)
{
	const char **names;

	if (r->silent_hosts.count || r->never_probed_count)
		out_text("\nexpected but missing:\n");
	if (r->silent_hosts.count)
		name_list("sent no results: ",
			  (const char *const *)r->silent_hosts.items,
			  r->silent_hosts.count);
	if (!r->never_probed_count)
		return;
	names = calloc(r->never_probed_count, sizeof(*names));
	if (!names)
		return;
	for (size_t k = 0; k < r->never_probed_count; k++)
		if (asprintf((char **)&names[k], "%s -> %s",
			     r->never_probed[k].source,
			     r->never_probed[k].destination) < 0)
			names[k] = NULL;
	name_list("never probed: ", names, r->never_probed_count);
	for (size_t k = 0; k < r->never_probed_count; k++)
		free((char *)names[k]);
	free(names);
}

static void print_notes(const struct report *r)
{
	if (r->notes.count)
		out_text("\nnotes:\n");
	for (size_t k = 0; k < r->notes.count; k++)
		wrapped(2, r->notes.items[k]);
}

void report_render_text(const struct report *r)
{
	char summary[512];

	out_text("%s\n", report_summary_text(r, summary, sizeof(summary)));
	if (r->expect.count)
		out_text("%s\n", report_expect_text(r, summary,
						    sizeof(summary)));
	out_newline();
	print_matrix(r);
	out_text("\nlegend: ok Nh T = reachable, N router hops, median RTT T; "
		 "LOSS l/s = l of s probes lost;\n        -- = unreachable; "
		 "ERR = error; R = traffic class remarked; . = not probed%s\n",
		 any_run_failed(r) ? ";\n        FAIL = the probe run of the "
				     "source failed" : "");
	report_render_suspects_text(r, NULL);
	print_findings(r);
	print_expected(r);
	print_notes(r);
}

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
	jw_uint(w, "reachable", r->status_count[REPORT_REACHABLE]);
	jw_uint(w, "partial_loss", r->status_count[REPORT_PARTIAL]);
	jw_uint(w, "unreachable", r->status_count[REPORT_UNREACHABLE]);
	jw_uint(w, "error", r->status_count[REPORT_ERROR]);
	jw_uint(w, "failed_runs", r->failed_count);
	jw_uint(w, "sent_no_results", r->silent_hosts.count);
	jw_uint(w, "never_probed", r->never_probed_count);
	jw_close_object(w);
	jw_close_object(w);
	return json_writer_finish(w);
}

void report_runs_text(const struct report *r, char *when, size_t when_len,
		      char *params, size_t params_len)
{
	const struct report_run *first = NULL, *last = NULL;
	size_t used = 0, shown_params = 0, more = 0;

	params[0] = '\0';
	for (size_t k = 0; k < r->run_count; k++) {
		const struct report_run *ru = &r->runs[k];
		bool seen = false;

		if (ru->dropped)
			continue;
		if (ru->start_time) {
			if (!first || ru->start < first->start)
				first = ru;
			if (!last || ru->start > last->start)
				last = ru;
		}
		if (!ru->params_text)
			continue;
		for (size_t j = 0; j < k && !seen; j++)
			seen = !r->runs[j].dropped && r->runs[j].params_text &&
			       strcmp(r->runs[j].params_text,
				      ru->params_text) == 0;
		if (seen)
			continue;
		if (shown_params == 3) {
			more++;
			continue;
		}
		if (used < params_len)
			used += (size_t)snprintf(params + used,
						 params_len - used, "%s%s",
						 shown_params ? "; " : "",
						 ru->params_text);
		shown_params++;
	}
	if (more && used < params_len)
		snprintf(params + used, params_len - used, "; and %zu more",
			 more);
	if (!first)
		snprintf(when, when_len, "run date unknown");
	else if (first->start == last->start)
		snprintf(when, when_len, "run %s", first->start_time);
	else
		snprintf(when, when_len, "runs %s to %s", first->start_time,
			 last->start_time);
}
