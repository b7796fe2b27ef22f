/* The parts every HTML page of report shares (report_render.h): the
 * head with the page's title and its first style rules, and the rules of
 * tables and of notes, so the matrix page and the ports page look alike
 * from one source. */
#include <stdio.h>

#include "out/markup.h"
#include "report/render/report_render.h"
#include "report/render/report_render_style.h"

void report_html_page_open(FILE *f, const char *title)
{
	/* Also well-formed XML (polyglot), so XML tools can check it. */
	markup_printf(f, "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/"
		      "1999/xhtml\" lang=\"en\">\n<head>\n"
		      "<meta charset=\"utf-8\"/>\n<title>%s</title>\n", title);
	fprintf(f, "<style>\n"
		"body { font-family: %s; margin: 24px; color: %s; "
		"background: #fafafa; }\n"
		"h1 { font-size: 20px; margin: 0 0 4px; }\n"
		"h2 { font-size: 16px; margin: 24px 0 8px; }\n"
		".summary { margin: 0 0 12px; color: #616161; }\n",
		REPORT_STYLE_FONT, REPORT_STYLE_TEXT_DARK);
}

void report_html_table_rules(FILE *f)
{
	fputs("table { border-collapse: collapse; font-size: 13px; "
	      "background: #ffffff; }\n"
	      "th, td { border: 1px solid #e0e0e0; padding: 4px 8px; "
	      "text-align: left; vertical-align: top; }\n"
	      "th { background: #eeeeee; }\n"
	      "ul { margin: 0; padding-left: 16px; }\n", f);
}

void report_html_note_rules(FILE *f)
{
	fprintf(f, ".failed { color: %s; }\n"
		".note { color: #616161; }\n",
		report_styles[REPORT_UNREACHABLE].fill);
}
