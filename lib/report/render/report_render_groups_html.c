/* The large-fabric HTML page (report --html with --groups, or above
 * REPORT_GROUPS_AUTO_HOSTS sources or destinations): a canvas-drawn group
 * x group block matrix; a click on a block (or the URL fragment
 * #block=I,J, 0-based) draws that block's host x host cells, "all groups"
 * goes back, and hovering shows a block's or a cell's numbers.
 *
 * One DOM node per cell (the SVG page) does not scale to 4,096 x 4,096;
 * here the page draws with ImageData (one pass over the pixels) and the
 * data is embedded once as compact JSON: one character per cell for its
 * status, the cells' median RTTs as little-endian 16-bit units of 0.1 us
 * in base64, and a flat list only for cells that lost probes. The page
 * loads nothing from the network. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/markup.h"
#include "out/output.h"
#include "report/report_groups.h"
#include "report/render/report_render.h"
#include "report/render/report_render_style.h"


/* A JSON string safe inside <script>: '<', '>' and '&' as \u escapes, so
 * no host name can close the element; bad UTF-8 repaired first. */
static void json_str(FILE *f, const char *s)
{
	size_t len = 0;
	char *fixed = s ? out_utf8_repair(s, strlen(s), &len) : NULL;

	if (!fixed) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)fixed[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == '<' || c == '>' || c == '&' ||
			 c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
	free(fixed);
}

static const char b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

struct b64_out {
	FILE *f;
	unsigned char held[3];
	size_t count;
};

static void b64_flush(struct b64_out *o, bool final)
{
	unsigned char *h = o->held;

	if (o->count == 3 || (final && o->count)) {
		size_t n = o->count;

		if (n < 3)
			memset(h + n, 0, 3 - n);
		fputc(b64[h[0] >> 2], o->f);
		fputc(b64[((h[0] & 3) << 4) | (h[1] >> 4)], o->f);
		fputc(n > 1 ? b64[((h[1] & 15) << 2) | (h[2] >> 6)] : '=',
		      o->f);
		fputc(n > 2 ? b64[h[2] & 63] : '=', o->f);
		o->count = 0;
	}
}

static void b64_byte(struct b64_out *o, unsigned char c)
{
	o->held[o->count++] = c;
	b64_flush(o, false);
}

/* The key of each style in the page's data: cell_char's lower case. */
static const char *const style_key[REPORT_STYLE_COUNT] = {
	[REPORT_REACHABLE] = "a",
	[REPORT_PARTIAL] = "b",
	[REPORT_UNREACHABLE] = "c",
	[REPORT_ERROR] = "d",
	[REPORT_STYLE_NOT_PROBED] = "'.'",
	[REPORT_STYLE_RUN_FAILED] = "x",
};

/* The cell's character: '.' not probed, 'x' its source's run failed,
 * 'a'..'d' reachable, partial loss, unreachable, error; upper case when
 * its traffic class was remarked. */
static char cell_char(const struct report_cell *c)
{
	if (!c->probed)
		return c->run_failed ? 'x' : '.';
	return (char)((c->tclass_remarked ? 'A' : 'a') + (int)c->status);
}

static uint16_t rtt_units(const struct report_cell *c)
{
	double u;

	if (!c->probed || !c->has_rtt)
		return 0;
	u = c->rtt_median_us * 10 + 0.5;
	return u >= 65535 ? 65535 : u < 1 ? 1 : (uint16_t)u;
}

/* Calls fn on every cell in the page's order: rows and columns grouped. */
#define FOR_EACH_CELL(g, r, c, BODY)                                        \
	for (size_t ga_ = 0; ga_ < (g)->count; ga_++)                      \
		for (size_t i_ = 0; i_ < (g)->groups[ga_].row_count; i_++)  \
			for (size_t gb_ = 0; gb_ < (g)->count; gb_++)      \
				for (size_t j_ = 0;                         \
				     j_ < (g)->groups[gb_].col_count; j_++) { \
					const struct report_cell *c =       \
						report_cell((r),            \
						(g)->groups[ga_].rows[i_],  \
						(g)->groups[gb_].cols[j_]); \
					BODY                                \
				}

static void embed_data(FILE *f, const struct report *r,
		       const struct report_grouping *g, const char *title)
{
	size_t row_at = 0, col_at = 0, index = 0;
	struct b64_out o = { .f = f };
	bool first = true;

	fputs("{\"title\":", f);
	json_str(f, title);
	fputs(",\"groups\":[", f);
	for (size_t a = 0; a < g->count; a++) {
		fputs(a ? ",[" : "[", f);
		json_str(f, g->groups[a].name);
		fprintf(f, ",%d,%zu,%zu,%zu,%zu]", g->groups[a].ungrouped,
			row_at, g->groups[a].row_count, col_at,
			g->groups[a].col_count);
		row_at += g->groups[a].row_count;
		col_at += g->groups[a].col_count;
	}
	fputs("],\n\"rows\":[", f);
	for (size_t a = 0; a < g->count; a++)
		for (size_t i = 0; i < g->groups[a].row_count; i++) {
			fputs(first ? "" : ",", f);
			first = false;
			json_str(f, r->rows[g->groups[a].rows[i]]->source_name);
		}
	fputs("],\n\"cols\":[", f);
	first = true;
	for (size_t a = 0; a < g->count; a++)
		for (size_t j = 0; j < g->groups[a].col_count; j++) {
			fputs(first ? "" : ",", f);
			first = false;
			json_str(f, r->cols[g->groups[a].cols[j]]->dest_name);
		}
	/* Per block: pairs, the four statuses, remarked, median RTT in
	 * 0.1 us (-1: none). */
	fputs("],\n\"blocks\":[", f);
	for (size_t k = 0; k < g->count * g->count; k++) {
		const struct report_block *b = &g->blocks[k];

		fprintf(f, "%s%zu,%zu,%zu,%zu,%zu,%zu,%.0f", k ? "," : "",
			b->pairs, b->status[0], b->status[1], b->status[2],
			b->status[3], b->remarked,
			b->has_rtt ? b->rtt_median_us * 10 : -1.0);
	}
	fputs("],\n\"cells\":\"", f);
	FOR_EACH_CELL(g, r, c, fputc(cell_char(c), f);)
	fputs("\",\n\"rtt\":\"", f);
	FOR_EACH_CELL(g, r, c, {
		uint16_t u = rtt_units(c);

		b64_byte(&o, (unsigned char)(u & 0xff));
		b64_byte(&o, (unsigned char)(u >> 8));
	})
	b64_flush(&o, true);
	/* cell index, sent, received: only where probes were lost. */
	fputs("\",\n\"loss\":[", f);
	first = true;
	FOR_EACH_CELL(g, r, c, {
		if (c->probed && c->received < c->sent) {
			fprintf(f, "%s%zu,%llu,%llu", first ? "" : ",",
				index, (unsigned long long)c->sent,
				(unsigned long long)c->received);
			first = false;
		}
		index++;
	})
	fputs("]}", f);
}

/* The script up to its colours and words of the cells' characters. */
static const char page_script_head[] =
"(function () {\n"
"'use strict';\n"
"var t0 = performance.now();\n"
"var D = JSON.parse(document.getElementById('report-data').textContent);\n"
"var G = D.groups.length, NC = D.cols.length;\n";

/* The rest of the script, after COLOUR and WORD (script_styles). */
static const char page_script[] =
"var raw = atob(D.rtt), loss = {};\n"
"for (var k = 0; k < D.loss.length; k += 3)\n"
"  loss[D.loss[k]] = [D.loss[k + 1], D.loss[k + 2]];\n"
"var canvas = document.getElementById('matrix');\n"
"var tip = document.getElementById('tip');\n"
"var heading = document.getElementById('view');\n"
"var back = document.getElementById('back');\n"
"var view = null;\n"
"function rttText(u) {\n"
"  if (u <= 0) return 'no answer';\n"
"  var us = u / 10;\n"
"  return us >= 1000 ? (us / 1000).toFixed(1) + ' ms' : us.toFixed(1) + ' us';\n"
"}\n"
"function block(a, b) { var o = (a * G + b) * 7; return D.blocks.slice(o, o + 7); }\n"
"function worst(bl) {\n"
"  if (!bl[0]) return '.';\n"
"  for (var s = 3; s >= 0; s--) if (bl[1 + s]) return 'abcd'[s];\n"
"  return '.';\n"
"}\n"
"function fit(n, m, most) {\n"
"  var w = Math.max(64, window.innerWidth - 48);\n"
"  var h = Math.max(64, window.innerHeight - canvas.getBoundingClientRect().top - 16);\n"
"  return Math.max(1, Math.min(most, Math.floor(Math.min(w / m, h / n))));\n"
"}\n"
"function paint(n, m, px, gap, colourOf) {\n"
"  canvas.width = m * px; canvas.height = n * px;\n"
"  var ctx = canvas.getContext('2d');\n"
"  var img = ctx.createImageData(canvas.width, canvas.height), p = img.data;\n"
"  for (var i = 0; i < n; i++)\n"
"    for (var j = 0; j < m; j++) {\n"
"      var c = colourOf(i, j);\n"
"      for (var y = 0; y < px - gap; y++) {\n"
"        var at = ((i * px + y) * canvas.width + j * px) * 4;\n"
"        for (var x = 0; x < px - gap; x++, at += 4) {\n"
"          p[at] = c[0]; p[at + 1] = c[1]; p[at + 2] = c[2]; p[at + 3] = 255;\n"
"        }\n"
"      }\n"
"    }\n"
"  ctx.putImageData(img, 0, 0);\n"
"}\n"
"function render() {\n"
"  var t1 = performance.now();\n"
"  var m = /^#block=(\\d+),(\\d+)$/.exec(location.hash);\n"
"  tip.style.display = 'none';\n"
"  if (m && +m[1] < G && +m[2] < G) {\n"
"    var ga = D.groups[+m[1]], gb = D.groups[+m[2]];\n"
"    var n = ga[3], w = gb[5], px = fit(n, w, 24);\n"
"    view = { a: +m[1], b: +m[2], px: px };\n"
"    heading.textContent = ga[0] + ' \\u2192 ' + gb[0] + ': ' + n +\n"
"      ' sources x ' + w + ' destinations';\n"
"    back.style.display = '';\n"
"    paint(n, w, px, px >= 6 ? 1 : 0, function (i, j) {\n"
"      return COLOUR[D.cells.charAt((ga[2] + i) * NC + gb[4] + j).toLowerCase()];\n"
"    });\n"
"  } else {\n"
"    var bp = fit(G, G, 48);\n"
"    view = { px: bp };\n"
"    heading.textContent = G + ' groups: source group (rows) x destination group (columns); click a block for its hosts';\n"
"    back.style.display = 'none';\n"
"    paint(G, G, bp, bp >= 6 ? 1 : 0, function (i, j) {\n"
"      return COLOUR[worst(block(i, j))];\n"
"    });\n"
"  }\n"
"  var rect = canvas.getBoundingClientRect();\n"
"  canvas.setAttribute('data-rect', Math.round(rect.left + scrollX) + ' ' +\n"
"    Math.round(rect.top + scrollY) + ' ' + view.px);\n"
"  /* what drawing and loading took, for the tests and the curious */\n"
"  canvas.setAttribute('data-draw-ms', Math.round(performance.now() - t1));\n"
"  canvas.setAttribute('data-view', 'a' in view ? 'block ' + view.a + ',' + view.b : 'groups');\n"
"}\n"
"function describe(ev) {\n"
"  var i = Math.floor(ev.offsetY / view.px), j = Math.floor(ev.offsetX / view.px);\n"
"  if (!('a' in view)) {\n"
"    if (i >= G || j >= G) return null;\n"
"    var bl = block(i, j);\n"
"    return D.groups[i][0] + ' \\u2192 ' + D.groups[j][0] + ': ' + bl[0] +\n"
"      ' pairs, ' + bl[1] + ' reachable, ' + bl[2] + ' partial loss, ' +\n"
"      bl[3] + ' unreachable, ' + bl[4] + ' error, ' + bl[5] +\n"
"      ' remarked; median RTT ' + rttText(bl[6]);\n"
"  }\n"
"  var ga = D.groups[view.a], gb = D.groups[view.b];\n"
"  if (i >= ga[3] || j >= gb[5]) return null;\n"
"  var idx = (ga[2] + i) * NC + gb[4] + j, ch = D.cells.charAt(idx);\n"
"  var u = raw.charCodeAt(2 * idx) | raw.charCodeAt(2 * idx + 1) << 8;\n"
"  var text = D.rows[ga[2] + i] + ' \\u2192 ' + D.cols[gb[4] + j] + ': ' +\n"
"    WORD[ch.toLowerCase()];\n"
"  if (ch !== '.' && ch !== 'x') {\n"
"    text += loss[idx] ? ', ' + loss[idx][1] + ' of ' + loss[idx][0] + ' answered'\n"
"      : ', all answered';\n"
"    text += ', median RTT ' + rttText(u);\n"
"    if (ch !== ch.toLowerCase()) text += ', traffic class remarked';\n"
"  }\n"
"  return text;\n"
"}\n"
"canvas.addEventListener('mousemove', function (ev) {\n"
"  var text = describe(ev);\n"
"  if (!text) { tip.style.display = 'none'; return; }\n"
"  tip.textContent = text;\n"
"  tip.style.left = (ev.pageX + 12) + 'px'; tip.style.top = (ev.pageY + 12) + 'px';\n"
"  tip.style.display = 'block';\n"
"});\n"
"canvas.addEventListener('mouseleave', function () { tip.style.display = 'none'; });\n"
"canvas.addEventListener('click', function (ev) {\n"
"  if ('a' in view) return;\n"
"  var i = Math.floor(ev.offsetY / view.px), j = Math.floor(ev.offsetX / view.px);\n"
"  if (i < G && j < G) location.hash = 'block=' + i + ',' + j;\n"
"});\n"
"window.addEventListener('hashchange', render);\n"
"window.addEventListener('resize', render);\n"
"render();\n"
"canvas.setAttribute('data-load-ms', Math.round(performance.now() - t0));\n"
"})();\n";

/* The script's COLOUR (red, green, blue) and WORD of each cell
 * character, from the SVG page's styles, so both pages read alike. */
static void script_styles(FILE *f)
{
	for (int words = 0; words < 2; words++) {
		fputs(words ? "var WORD = {" : "var COLOUR = {", f);
		for (size_t k = 0; k < REPORT_STYLE_COUNT; k++) {
			const struct report_style *st = &report_styles[k];
			/* Two lines each, as short as the script's others. */
			const char *sep = k == 0 ? " "
					  : k == REPORT_ERROR ? ",\n  " : ", ";
			unsigned red = 0, green = 0, blue = 0;

			fprintf(f, "%s%s: ", sep, style_key[k]);
			if (words) {
				fprintf(f, "'%s'", st->legend);
			} else {
				sscanf(st->fill, "#%2x%2x%2x", &red, &green,
				       &blue);
				fprintf(f, "[%u,%u,%u]", red, green, blue);
			}
		}
		fputs(" };\n", f);
	}
}

void report_groups_render_html(FILE *f, const struct report *r,
			       const struct report_grouping *g,
			       const char *title)
{
	char summary[512];

	markup_printf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		      "<meta charset=\"utf-8\"/>\n<title>%s</title>\n", title);
	fputs("<style>\n"
	      "body { font-family: sans-serif; margin: 16px 24px; "
	      "color: #212121; background: #fafafa; }\n"
	      "h1 { font-size: 20px; margin: 0 0 4px; }\n"
	      "p { margin: 0 0 6px; color: #616161; font-size: 13px; }\n"
	      ".key { display: inline-block; width: 10px; height: 10px; "
	      "margin: 0 4px 0 10px; vertical-align: middle; }\n"
	      "canvas { display: block; image-rendering: pixelated; "
	      "cursor: crosshair; }\n"
	      "#tip { position: absolute; display: none; background: "
	      "#ffffff; border: 1px solid #9e9e9e; padding: 4px 6px; "
	      "font-size: 12px; max-width: 480px; pointer-events: none; }\n"
	      ".suspects ol { margin: 0 0 8px; padding-left: 24px; "
	      "font-size: 13px; }\n"
	      "</style>\n</head>\n<body>\n", f);
	markup_printf(f, "<h1>%s</h1>\n<p>%s</p>\n<p>", title,
		      report_summary_text(r, summary, sizeof(summary)));
	for (size_t k = 0; k < REPORT_STYLE_COUNT; k++)
		fprintf(f, "<span class=\"key\" style=\"background: %s\">"
			"</span>%s", report_styles[k].fill,
			report_styles[k].legend);
	fputs("</p>\n", f);
	report_render_suspects_html(f, r, g);
	fputs("<p><a id=\"back\" href=\"#\">\xe2\x86\x90 all groups"
	      "</a> <span id=\"view\"></span></p>\n"
	      "<canvas id=\"matrix\" width=\"1\" height=\"1\"></canvas>\n"
	      "<div id=\"tip\"></div>\n"
	      "<script type=\"application/json\" id=\"report-data\">", f);
	embed_data(f, r, g, title);
	fprintf(f, "</script>\n<script>\n%s", page_script_head);
	script_styles(f);
	fprintf(f, "%s</script>\n</body>\n</html>\n", page_script);
}
