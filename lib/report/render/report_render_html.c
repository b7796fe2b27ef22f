/* The report as an HTML page: title, summary and runs, the suspects,
 * the SVG heat map inline and a table of the findings. Self-contained
 * (no external resource, no script) and well-formed XML; every input
 * string is escaped (lib/out/markup.h). */
#include <stdio.h>

#include "out/markup.h"
#include "report/render/report_render.h"
#include "report/render/report_render_style.h"

static void html_findings(FILE *f, const struct report *r)
{
	char hops[64], rtt[32];
	size_t at = 0, i, j;
	bool any = false;

	while (report_next_noteworthy(r, &at, &i, &j)) {
		const struct report_cell *c = report_cell(r, i, j);

		if (!any)
			fputs("<table>\n<thead><tr><th>source</th>"
			      "<th>destination</th><th>status</th>"
			      "<th>received</th><th>hops</th><th>RTT median</th>"
			      "<th>details</th></tr></thead>\n<tbody>\n", f);
		any = true;
		markup_printf(f, "<tr><td>%s</td><td>%s</td><td><span "
			      "class=\"st %s\">%s</span></td>",
			      r->rows[i]->source_name, r->cols[j]->dest_name,
			      report_styles[c->status].css,
			      report_status_word(c->status));
		if (c->sent)
			fprintf(f, "<td>%llu of %llu</td>",
				(unsigned long long)c->received,
				(unsigned long long)c->sent);
		else
			fputs("<td>-</td>", f);
		fprintf(f, "<td>%s</td><td>%s</td><td><ul>",
			c->hop_count ? report_hops_text(c, hops, sizeof(hops))
				     : "-",
			c->has_rtt ? report_rtt_text(c, rtt, sizeof(rtt)) : "-");
		for (size_t k = 0; k < c->errors.count; k++)
			markup_printf(f, "<li>error: %s</li>",
				      c->errors.items[k]);
		for (size_t k = 0; k < c->findings.count; k++)
			markup_printf(f, "<li>%s</li>", c->findings.items[k]);
		if (c->interrupted)
			fputs("<li>from an interrupted run: partial</li>", f);
		fputs("</ul></td></tr>\n", f);
	}
	if (any)
		fputs("</tbody>\n</table>\n", f);
	else
		fputs("<p>Every pair reachable without loss; nothing "
		      "remarked.</p>\n", f);
	for (size_t k = 0; k < r->failed_count; k++)
		markup_printf(f, "<p class=\"failed\">%s%s%s: a probe run "
			      "failed (exit status %d): %s</p>\n",
			      r->failed[k].host ? r->failed[k].host : "",
			      r->failed[k].host ? ", " : "", r->failed[k].where,
			      r->failed[k].exit_status, r->failed[k].error);
	if (r->silent_hosts.count) {
		fputs("<p class=\"failed\">expected, sent no results: ", f);
		for (size_t k = 0; k < r->silent_hosts.count; k++)
			markup_printf(f, "%s%s", k ? ", " : "",
				      r->silent_hosts.items[k]);
		fputs("</p>\n", f);
	}
	if (r->never_probed_count) {
		fputs("<p class=\"failed\">expected, never probed: ", f);
		for (size_t k = 0; k < r->never_probed_count; k++)
			markup_printf(f, "%s%s \xe2\x86\x92 %s", k ? ", " : "",
				      r->never_probed[k].source,
				      r->never_probed[k].destination);
		fputs("</p>\n", f);
	}
	for (size_t k = 0; k < r->warnings.count; k++)
		markup_printf(f, "<p class=\"note\">warning: %s</p>\n",
			      r->warnings.items[k]);
	for (size_t k = 0; k < r->notes.count; k++)
		markup_printf(f, "<p class=\"note\">%s</p>\n",
			      r->notes.items[k]);
}

void report_render_html(FILE *f, const struct report *r, const char *title)
{
	char summary[512], runs[400], params_line[1100];

	report_html_page_open(f, title);
	fputs("svg { background: #ffffff; border: 1px solid #e0e0e0; "
	      "max-width: 100%; height: auto; }\n", f);
	report_html_table_rules(f);
	fputs(".st { font-weight: bold; padding: 1px 6px; border-radius: 3px; "
	      "white-space: nowrap; }\n", f);
	report_html_note_rules(f);
	fputs(".suspects ol { margin: 0 0 12px; padding-left: 24px; }\n", f);
	for (int s = 0; s < REPORT_STATUS_COUNT; s++)
		fprintf(f, ".st.%s { background: %s; color: %s; }\n",
			report_styles[s].css, report_styles[s].fill,
			report_styles[s].ink);
	report_heading_text(r, runs, sizeof(runs), params_line,
			    sizeof(params_line));
	markup_printf(f, "</style>\n</head>\n<body>\n<h1>%s</h1>\n"
		      "<p class=\"summary\">%s</p>\n", title,
		      report_summary_text(r, summary, sizeof(summary)));
	markup_printf(f, "<p class=\"summary runs\">%s</p>\n<p class=\"summary "
		      "params\">%s</p>\n", runs, params_line);
	report_render_suspects_html(f, r, NULL);
	if (r->identifiability)
		report_render_identifiability_html(f, r->identifiability);
	if (r->hop_changes)
		report_render_hop_changes_html(f, r->hop_changes);
	report_render_svg_element(f, r, title, false);
	fputs("<h2>Findings</h2>\n", f);
	html_findings(f, r);
	fputs("</body>\n</html>\n", f);
}
