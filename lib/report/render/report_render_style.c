/* The colours, classes and words of the statuses on a report's pages
 * (report_render_style.h). */
#include "report/render/report_render_style.h"

const struct report_style report_styles[REPORT_STYLE_COUNT] = {
	[REPORT_REACHABLE] = { "reachable", "#2e7d32", "#ffffff", "ok",
			       "reachable" },
	[REPORT_PARTIAL] = { "partial", "#f9a825", REPORT_STYLE_TEXT_DARK,
			     "LOSS", "partial loss" },
	[REPORT_UNREACHABLE] = { "unreachable", "#c62828", "#ffffff",
				 "unreachable", "unreachable" },
	[REPORT_ERROR] = { "error", "#5e35b1", "#ffffff", "error", "error" },
	[REPORT_STYLE_NOT_PROBED] = { "none", "#eceff1", "#90a4ae",
				      "not probed", "not probed" },
	[REPORT_STYLE_RUN_FAILED] = { "failed", "#d1c4e9",
				      REPORT_STYLE_TEXT_DARK, "run failed",
				      "run failed" },
};

const struct report_style *report_cell_style(const struct report_cell *c)
{
	if (c->probed)
		return &report_styles[c->status];
	return &report_styles[c->run_failed ? REPORT_STYLE_RUN_FAILED
					    : REPORT_STYLE_NOT_PROBED];
}
