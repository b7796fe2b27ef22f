/* The report as an SVG heat map: rows sources, columns destinations,
 * colour by status, hops and RTT in the cell, details in a tooltip.
 * Self-contained: no external resource, no script; every input string is
 * escaped (lib/out/markup.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "out/markup.h"
#include "report/render/report_render.h"
#include "report/render/report_render_style.h"

#define MARGIN 24
#define CELL_W 112
#define CELL_H 44
#define GAP 2
#define CHAR_W 7.2		/* average advance of the 12px font */
#define LABEL_CHARS 40		/* longer names are cut, whole in the tooltip */
#define HEAD_ANGLE 40		/* column labels rise at this angle */
#define LEGEND_ITEM_W 120

/* A name cut to LABEL_CHARS characters (UTF-8 aware), with an ellipsis. */
static const char *cut(const char *s, char *buf, size_t len)
{
	size_t n = 0, i = 0;

	for (; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 && n++ == LABEL_CHARS - 1)
			break;
	}
	if (!s[i] || i + 4 > len) {
		snprintf(buf, len, "%s", s);
		return buf;
	}
	snprintf(buf, len, "%.*s\xe2\x80\xa6", (int)i, s);
	return buf;
}

static double label_width(const char *s)
{
	size_t n = report_text_width(s);

	return (n > LABEL_CHARS ? LABEL_CHARS : n) * CHAR_W;
}

struct layout {
	double label_w, head_h, grid_x, grid_y, width, height, legend_y;
	double top;	/* where the matrix part starts */
};

/* heading_chars: the longest line of the heading (0: none), which the
 * picture is made wide enough for. */
static void plan(const struct report *r, bool heading, size_t heading_chars,
		 struct layout *l)
{
	double head = 0, right = 0, grid_w, legend_w = 5 * LEGEND_ITEM_W + 170;
	double rise = sin(HEAD_ANGLE * M_PI / 180);
	double run = cos(HEAD_ANGLE * M_PI / 180);

	l->label_w = 160;
	for (size_t i = 0; i < r->row_count; i++) {
		double w = label_width(r->rows[i]->source_name) + 16;

		l->label_w = w > l->label_w ? w : l->label_w;
	}
	grid_w = (double)r->col_count * (CELL_W + GAP);
	for (size_t j = 0; j < r->col_count; j++) {
		double w = label_width(r->cols[j]->dest_name);
		/* How far the rising label reaches past the grid's right. */
		double past = (double)j * (CELL_W + GAP) + CELL_W / 2.0 +
			      w * run - grid_w;

		head = w * rise > head ? w * rise : head;
		right = past > right ? past : right;
	}
	l->top = MARGIN + (heading ? 88 : 0);
	l->head_h = head + 28;
	l->grid_x = MARGIN + l->label_w;
	l->grid_y = l->top + l->head_h;
	l->legend_y = l->grid_y + (double)r->row_count * (CELL_H + GAP) + 24;
	l->width = l->grid_x + grid_w + right + MARGIN;
	if (MARGIN * 2 + legend_w > l->width)
		l->width = MARGIN * 2 + legend_w;
	if (MARGIN * 2 + (double)heading_chars * CHAR_W > l->width)
		l->width = MARGIN * 2 + (double)heading_chars * CHAR_W;
	l->height = l->legend_y + 44 + MARGIN;
}

/* What the tooltip of a cell says, one fact a line. */
static void cell_tooltip(FILE *f, const struct report *r, size_t i, size_t j)
{
	const struct report_cell *c = report_cell(r, i, j);
	char hops[64];

	markup_printf(f, "<title>%s \xe2\x86\x92 %s\n", r->rows[i]->source_name,
		      r->cols[j]->dest_name);
	if (!c->probed) {
		fputs(c->run_failed ? "not probed: the probe run of the source "
				      "failed</title>" : "not probed</title>", f);
		return;
	}
	markup_printf(f, "status: %s\nreceived %llu of %llu (%llu lost), "
		      "%zu parameter set%s\nhops: %s\n",
		      report_status_word(c->status),
		      (unsigned long long)c->received,
		      (unsigned long long)c->sent,
		      (unsigned long long)(c->sent - c->received), c->sets,
		      c->sets == 1 ? "" : "s",
		      c->hop_count ? report_hops_text(c, hops, sizeof(hops))
				   : "unknown");
	if (c->has_rtt)
		markup_printf(f, "RTT median %.1f us, max %.1f us\n",
			      c->rtt_median_us, c->rtt_max_us);
	for (size_t k = 0; k < c->remark_count; k++)
		markup_printf(f, "traffic class remarked: sent 0x%02x, seen "
			      "0x%02x\n", c->remarks[k].sent,
			      c->remarks[k].seen);
	for (size_t k = 0; k < c->errors.count; k++)
		markup_printf(f, "error: %s\n", c->errors.items[k]);
	for (size_t k = 0; k < c->findings.count; k++)
		markup_printf(f, "%s\n", c->findings.items[k]);
	if (c->interrupted)
		fputs("from an interrupted run: partial\n", f);
	fputs("</title>", f);
}

/* The two lines in a cell: what happened, then hops and RTT (or loss). */
static void cell_lines(const struct report_cell *c, char *one, char *two,
		       size_t len)
{
	char hops[64], rtt[32];

	two[0] = '\0';
	snprintf(one, len, "%s", report_styles[c->status].word);
	report_rtt_text(c, rtt, sizeof(rtt));
	if (c->status == REPORT_PARTIAL)
		snprintf(one, len, "LOSS %llu/%llu",
			 (unsigned long long)(c->sent - c->received),
			 (unsigned long long)c->sent);
	if (c->status == REPORT_REACHABLE || c->status == REPORT_PARTIAL)
		snprintf(two, len, "%s%s%s",
			 report_hops_text(c, hops, sizeof(hops)),
			 rtt[0] ? " \xc2\xb7 " : "", rtt);
	else if (c->status == REPORT_UNREACHABLE)
		snprintf(two, len, "%llu of %llu",
			 (unsigned long long)c->received,
			 (unsigned long long)c->sent);
}

static void draw_cell(FILE *f, const struct report *r, const struct layout *l,
		      size_t i, size_t j)
{
	const struct report_cell *c = report_cell(r, i, j);
	const struct report_style *st = report_cell_style(c);
	double x = l->grid_x + (double)j * (CELL_W + GAP);
	double y = l->grid_y + (double)i * (CELL_H + GAP);
	char one[64], two[96];

	fprintf(f, "<g class=\"cell %s\">", st->css);
	cell_tooltip(f, r, i, j);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" "
		"rx=\"3\" fill=\"%s\"/>", x, y, CELL_W, CELL_H, st->fill);
	if (!c->probed) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" "
			"text-anchor=\"middle\">%s</text></g>\n",
			x + CELL_W / 2.0, y + CELL_H / 2.0 + 4, st->ink,
			c->run_failed ? "run failed" : "\xc2\xb7");
		return;
	}
	cell_lines(c, one, two, sizeof(one));
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" "
		"text-anchor=\"middle\" font-weight=\"bold\">%s</text>",
		x + CELL_W / 2.0, y + (two[0] ? 18 : 27), st->ink, one);
	if (two[0])
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" "
			"text-anchor=\"middle\">%s</text>", x + CELL_W / 2.0,
			y + 35, st->ink, two);
	if (c->tclass_remarked)
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" "
			"height=\"14\" rx=\"2\" fill=\"#ffffff\" "
			"stroke=\"%s\"/><text x=\"%.1f\" y=\"%.1f\" "
			"fill=\"%s\" font-size=\"10\" font-weight=\"bold\" "
			"text-anchor=\"middle\">R</text>",
			x + CELL_W - 17, y + 3, REPORT_STYLE_TEXT_DARK,
			x + CELL_W - 10, y + 14, REPORT_STYLE_TEXT_DARK);
	fputs("</g>\n", f);
}

static void draw_axes(FILE *f, const struct report *r, const struct layout *l)
{
	char name[LABEL_CHARS * 4 + 8];

	fprintf(f, "<text x=\"%d\" y=\"%.1f\" fill=\"#757575\" "
		"font-size=\"11\">source \xe2\x86\x93  destination "
		"\xe2\x86\x92</text>\n", MARGIN, l->grid_y - 8);
	for (size_t i = 0; i < r->row_count; i++) {
		double y = l->grid_y + (double)i * (CELL_H + GAP) + CELL_H / 2.0;

		markup_printf(f, "<text x=\"%.1f\" y=\"%.1f\" "
			      "text-anchor=\"end\"><title>%s</title>%s</text>\n",
			      l->grid_x - 10, y + 4, r->rows[i]->source_name,
			      cut(r->rows[i]->source_name, name, sizeof(name)));
	}
	for (size_t j = 0; j < r->col_count; j++) {
		double x = l->grid_x + (double)j * (CELL_W + GAP) + CELL_W / 2.0;
		double y = l->grid_y - 8;

		markup_printf(f, "<text x=\"%.1f\" y=\"%.1f\" "
			      "transform=\"rotate(-%d %.1f %.1f)\"><title>%s"
			      "</title>%s</text>\n", x, y, HEAD_ANGLE, x, y,
			      r->cols[j]->dest_name,
			      cut(r->cols[j]->dest_name, name, sizeof(name)));
	}
}

static void draw_legend(FILE *f, const struct layout *l)
{
	double y = l->legend_y;

	/* The statuses and not probed: a failed run is in the tooltip. */
	for (size_t k = 0; k <= REPORT_STYLE_NOT_PROBED; k++) {
		double x = MARGIN + (double)k * LEGEND_ITEM_W;

		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" "
			"height=\"14\" rx=\"2\" fill=\"%s\"/><text x=\"%.1f\" "
			"y=\"%.1f\">%s</text>\n", x, y, report_styles[k].fill,
			x + 20, y + 11, report_styles[k].legend);
	}
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" "
		"rx=\"2\" fill=\"#ffffff\" stroke=\"%s\"/><text x=\"%.1f\" "
		"y=\"%.1f\" font-size=\"10\" font-weight=\"bold\" "
		"text-anchor=\"middle\">R</text><text x=\"%.1f\" y=\"%.1f\">"
		"traffic class remarked</text>\n", MARGIN + 5.0 * LEGEND_ITEM_W,
		y, REPORT_STYLE_TEXT_DARK, MARGIN + 5.0 * LEGEND_ITEM_W + 7,
		y + 11, MARGIN + 5.0 * LEGEND_ITEM_W + 20, y + 11);
	fprintf(f, "<text x=\"%d\" y=\"%.1f\" fill=\"#616161\" "
		"font-size=\"11\">cell: hops (router hops) \xc2\xb7 median "
		"RTT; LOSS l/s: l of s probes lost; hover a cell for "
		"details</text>\n", MARGIN, y + 36);
}

void report_render_svg_element(FILE *f, const struct report *r,
			       const char *title, bool heading)
{
	struct layout l;
	char summary[512], runs[400], params_line[1100];
	const char *lines[] = { summary, runs, params_line };
	size_t widest = 0;

	report_heading_text(r, runs, sizeof(runs), params_line,
			    sizeof(params_line));
	report_summary_text(r, summary, sizeof(summary));
	for (size_t k = 0; heading && k < 3; k++) {
		size_t w = report_text_width(lines[k]);

		widest = w > widest ? w : widest;
	}
	plan(r, heading, widest, &l);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"%s\" font-size=\"12\" fill=\"%s\" "
		"role=\"img\">\n", l.width, l.height, l.width, l.height,
		REPORT_STYLE_FONT, REPORT_STYLE_TEXT_DARK);
	markup_printf(f, "<title>%s</title>\n", title);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
	if (heading) {
		markup_printf(f, "<text x=\"%d\" y=\"%d\" font-size=\"18\" "
			      "font-weight=\"bold\">%s</text>\n<text x=\"%d\" "
			      "y=\"%d\" fill=\"#616161\">%s</text>\n", MARGIN,
			      MARGIN + 16, title, MARGIN, MARGIN + 38, summary);
		markup_printf(f, "<text x=\"%d\" y=\"%d\" fill=\"#616161\" "
			      "class=\"runs\">%s</text>\n<text x=\"%d\" "
			      "y=\"%d\" fill=\"#616161\" class=\"params\">%s"
			      "</text>\n", MARGIN, MARGIN + 56, runs, MARGIN,
			      MARGIN + 74, params_line);
	}
	draw_axes(f, r, &l);
	for (size_t i = 0; i < r->row_count; i++)
		for (size_t j = 0; j < r->col_count; j++)
			draw_cell(f, r, &l, i, j);
	draw_legend(f, &l);
	fputs("</svg>\n", f);
}

void report_render_svg(FILE *f, const struct report *r, const char *title)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	report_render_svg_element(f, r, title, true);
}
