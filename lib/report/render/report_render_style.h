/* How the pages of a report look: a status's colours, class and words,
 * shared by the SVG heat map, the HTML page around it and the --groups
 * canvas page, so that every picture of a report reads alike. */
#ifndef IBAHPROBE_REPORT_RENDER_STYLE_H
#define IBAHPROBE_REPORT_RENDER_STYLE_H

#include "report/report_matrix.h"

#define REPORT_STYLE_FONT "'DejaVu Sans', Verdana, Arial, sans-serif"
#define REPORT_STYLE_TEXT_DARK "#212121"

struct report_style {
	const char *css;	/* the class: "reachable", "partial", ... */
	const char *fill, *ink;	/* background and text colour */
	const char *word;	/* in a cell: "ok", "LOSS", "unreachable" */
	const char *legend;	/* in a legend: "partial loss" */
};

/* The statuses (enum report_status), then a pair not probed, then one
 * not probed because the source's probe run failed as a whole: the
 * order of the legends. */
enum {
	REPORT_STYLE_NOT_PROBED = REPORT_STATUS_COUNT,
	REPORT_STYLE_RUN_FAILED,
	REPORT_STYLE_COUNT,
};
extern const struct report_style report_styles[REPORT_STYLE_COUNT];

/* The style of a cell: its status's, or not probed, or run failed. */
const struct report_style *report_cell_style(const struct report_cell *c);

#endif
