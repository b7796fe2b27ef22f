/* The group x group block matrix as text (report --groups), through
 * lib/out/output.h: the groups, the matrix, the suspects and the blocks
 * with failures. Columns are numbered (g1, g2, ...) and named in a legend,
 * so a few groups stay well under 100 columns whatever their names. */
#include <stdio.h>
#include <string.h>

#include "out/output.h"
#include "out/text_layout.h"
#include "report/report_groups.h"
#include "report/render/report_render.h"
#include "base/text_escape.h"

#define LABEL_MAX 20
#define BLOCK_WIDTH 8

/* "ok 18us" every pair reachable; else the worst status and how many
 * pairs fail: "LOSS 3", "-- 200", "ERR 1"; "." nothing probed; " R"
 * when a pair saw its traffic class remarked. */
static const char *block_text(const struct report_block *b, char *buf,
			      size_t len)
{
	static const char *const word[REPORT_STATUS_COUNT] = {
		"ok", "LOSS", "--", "ERR",
	};
	int worst = report_block_worst(b);
	const char *mark = b->remarked ? " R" : "";

	if (worst < 0)
		snprintf(buf, len, ".");
	else if (worst == REPORT_REACHABLE && b->has_rtt) {
		char rtt[32];

		snprintf(buf, len, "ok %s%s",
			 report_us_text(b->rtt_median_us, rtt, sizeof(rtt)),
			 mark);
	} else if (worst == REPORT_REACHABLE)
		snprintf(buf, len, "ok%s", mark);
	else
		snprintf(buf, len, "%s %zu%s", word[worst],
			 report_block_failing(b), mark);
	return buf;
}

static const char *shown(const char *name, char *buf, size_t len)
{
	return text_escape(name, strlen(name), buf, len);
}

/* One column of BLOCK_WIDTH after a blank; a line too long for the
 * buffer (hundreds of groups) is cut, as a terminal would wrap it anyway. */
static void append(char *line, size_t len, size_t *used, const char *text)
{
	if (*used < len)
		*used += (size_t)snprintf(line + *used, len - *used, " %-*s",
					  BLOCK_WIDTH, text);
	if (*used >= len)
		*used = len - 1;
}

static const char *trimmed(char *line)
{
	size_t n = strlen(line);

	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	return line;
}

void report_groups_render_text(const struct report *r,
			       const struct report_grouping *g)
{
	char name[1100], label[1200], text[64], line[4096];
	size_t width = 0, used;

	out_text("%zu group%s (%zu of them a host the groups file does not "
		 "name)\n", g->count, g->count == 1 ? "" : "s", g->ungrouped);
	for (size_t a = 0; a < g->count; a++)
		out_text("  g%-4zu %s: %zu source%s, %zu destination%s%s\n",
			 a + 1, shown(g->groups[a].name, name, sizeof(name)),
			 g->groups[a].row_count,
			 g->groups[a].row_count == 1 ? "" : "s",
			 g->groups[a].col_count,
			 g->groups[a].col_count == 1 ? "" : "s",
			 g->groups[a].ungrouped ? " (ungrouped)" : "");
	for (size_t a = 0; a < g->count; a++) {
		size_t n;

		snprintf(line, sizeof(line), "g%zu %s", a + 1,
			 shown(g->groups[a].name, name, sizeof(name)));
		n = text_columns(line);
		width = n > width ? n : width;
	}
	width = width > LABEL_MAX ? LABEL_MAX : width;
	used = (size_t)snprintf(line, sizeof(line), "%-*s", (int)width, "");
	for (size_t b = 0; b < g->count; b++)
		if (g->groups[b].col_count) {
			snprintf(label, sizeof(label), "g%zu", b + 1);
			append(line, sizeof(line), &used, label);
		}
	out_text("\n%s\n", trimmed(line));
	for (size_t a = 0; a < g->count; a++) {
		if (!g->groups[a].row_count)
			continue;
		snprintf(label, sizeof(label), "g%zu %s", a + 1,
			 shown(g->groups[a].name, name, sizeof(name)));
		/* Cut between characters, padded by the columns they take. */
		text_cut_ellipsis(label, width);
		used = (size_t)snprintf(line, sizeof(line), "%s%*s", label,
					(int)(width - text_columns(label)), "");
		for (size_t b = 0; b < g->count; b++)
			if (g->groups[b].col_count)
				append(line, sizeof(line), &used,
				       block_text(report_groups_block(g, a, b),
						  text, sizeof(text)));
		out_text("%s\n", trimmed(line));
	}
	report_render_suspects_text(r, g);
	for (size_t a = 0, first = 1; a < g->count; a++)
		for (size_t b = 0; b < g->count; b++) {
			const struct report_block *k =
				report_groups_block(g, a, b);
			char rtt[32];

			if (!report_block_failing(k) && !k->remarked)
				continue;
			if (first)
				out_text("\nblocks with failures or "
					 "remarking (source group -> "
					 "destination group):\n");
			first = 0;
			out_text("  %s -> ", shown(g->groups[a].name, name,
						   sizeof(name)));
			out_text("%s: %zu pair%s: %zu reachable, %zu partial "
				 "loss, %zu unreachable, %zu error, %zu "
				 "remarked; median RTT %s\n",
				 shown(g->groups[b].name, name, sizeof(name)),
				 k->pairs, k->pairs == 1 ? "" : "s",
				 k->status[REPORT_REACHABLE],
				 k->status[REPORT_PARTIAL],
				 k->status[REPORT_UNREACHABLE],
				 k->status[REPORT_ERROR], k->remarked,
				 k->has_rtt ? report_us_text(k->rtt_median_us,
							     rtt, sizeof(rtt))
					    : "none");
		}
	out_text("\n%s\n", report_summary_text(r, line, sizeof(line)));
}
