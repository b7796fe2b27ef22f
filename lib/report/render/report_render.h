/* The forms of a fabric report (ibahprobe report): a text matrix and a
 * JSON document through the output layer, a self-contained SVG heat map
 * and an HTML page written to a stream, and the same for --groups and
 * --baseline. One vocabulary for all of them; each form is the file of
 * its name (report_render_text.c, report_render_json.c, ...). */
#ifndef IBAHPROBE_REPORT_RENDER_H
#define IBAHPROBE_REPORT_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/report_baseline.h"
#include "report/report_groups.h"
#include "report/report_matrix.h"
#include "report/report_suspects.h"
#include "report/hop_changes.h"
#include "report/identifiability.h"
#include "report/localise.h"
#include "report/report_traces.h"

/* report_render_words.c: the words every form shares. */

/* The cell as the text matrix shows it: "ok 2h 41us", "LOSS 3/5" (lost
 * of sent), "--" unreachable, "ERR", "." not probed; " R" when any set
 * saw its traffic class remarked. */
const char *report_cell_text(const struct report_cell *c, char *buf,
			     size_t len);
/* "2h", "1,2h" when sets differ, "?h" unknown. */
const char *report_hops_text(const struct report_cell *c, char *buf,
			     size_t len);
/* A time in microseconds, "41us", "8.5us", "1.2ms". */
const char *report_us_text(double us, char *buf, size_t len);
/* The median RTT as report_us_text gives it; "" when none answered. */
const char *report_rtt_text(const struct report_cell *c, char *buf,
			    size_t len);
/* The one-line summary: "4 sources x 3 destinations, 12 pairs: ...". */
const char *report_summary_text(const struct report *r, char *buf,
				size_t len);
/* "5 hosts expected: 1 sent no results, 3 pairs never probed"; "" when
 * no --expect. */
const char *report_expect_text(const struct report *r, char *buf,
			       size_t len);
/* The pages' heading under the summary, in *runs: when the runs started
 * ("run 2026-11-23T18:12:27Z", "runs ...Z to ...Z", "run date unknown"),
 * how many sources sent results and what --expect misses, a middle dot
 * between them; in *params: "parameters: " and the runs' distinct
 * run_params ("count 10, ...", "; " between them, "unknown" when none). */
void report_heading_text(const struct report *r, char *runs, size_t runs_len,
			 char *params, size_t params_len);
/* Columns, not bytes (UTF-8 names; text_columns() of lib/out/text_layout.h:
 * a wide character takes two): what a terminal's columns and the SVG's
 * font advance by. */
size_t report_text_width(const char *s);

/* report_render_text.c: through lib/out/output.h, the text matrix,
 * legend and findings. */
void report_render_text(const struct report *r);

/* report_render_json.c: the JSON document (-j), written to f as it goes
 * (json_writer.h): a fabric's million cells never held as a tree. 0, or
 * -1 when f failed (errno). */
#define REPORT_SCHEMA "ibahprobe.report.v1"
int report_render_json(FILE *f, const struct report *r, bool pretty);
struct json_writer;
/* A pair's "tclass_remarked" and "remarks" members (the traffic classes
 * sent and seen), as the report and --baseline documents both give them. */
void report_json_remarks(struct json_writer *w, const struct report_cell *c);
/* Each status's count from the status from on, under its name
 * (report_status_name: "reachable", "partial_loss", ...). */
void report_json_status_counts(struct json_writer *w,
			       const size_t count[REPORT_STATUS_COUNT],
			       enum report_status from);

/* report_render_page.c: what report's HTML pages share. page_open
 * writes the doctype, the head up to the title and the first style
 * rules (body, headings, summary) inside an open <style>; table_rules
 * and note_rules the rules of tables and of notes; the page adds its
 * own and closes the style. */
void report_html_page_open(FILE *f, const char *title);
void report_html_table_rules(FILE *f);
void report_html_note_rules(FILE *f);

/* report_render_suspects_json.c: the head of a suspect element's JSON
 * object in the matrix suspects' shape (rank, kind, name, address,
 * explained, the members that do not apply null or empty, results);
 * the caller adds its own keys and closes the object. */
void report_render_element_suspect_head(struct json_writer *w, size_t rank,
					const char *kind, const char *name,
					const char *address, size_t explained,
					size_t failing, size_t passing);

/* report_render_suspects_json.c: trace elements by index as a JSON
 * array "elements" of {kind, name}. */
void report_render_path_elements_json(struct json_writer *w,
				      const struct report_traces *t,
				      const size_t *elements, size_t count);

/* report_render_suspects_words.c: the suspects (report_suspects.h) in
 * words. One line of a suspect's evidence, "fails from 3 of 4 sources: 3
 * unreachable", "fails to ...", or "the other 1 of its failing pairs is
 * explained by host node03" (with several, how many each: "host node03
 * (2), source node07 (1)"). Malloc'd, unescaped; NULL when memory ran
 * out. */
enum report_suspect_line {
	REPORT_SUSPECT_LINE_MEMBERS,	/* a group's: "members: host n7, ..." */
	REPORT_SUSPECT_LINE_DESTINATION,
	REPORT_SUSPECT_LINE_SOURCE,
	REPORT_SUSPECT_LINE_OTHERS,
};
/* The lines a suspect has, in the order they are shown; how many. */
size_t report_suspect_lines(const struct report_suspect *x,
			    enum report_suspect_line lines[4]);
char *report_suspect_evidence(const struct report_suspects *s,
			      const struct report_suspect *x,
			      enum report_suspect_line line);
/* A group's member as report_suspects names it: a row's name unless it
 * is only a column. */
const char *report_suspect_member_name(const struct report_node *n,
				       enum report_suspect_kind kind);
/* The words the forms share for --traces: "4 failing results through
 * it, 0 passing" and the counts line of the section ("they explain 4 of 5
 * failing results; 1 has no trace"). Malloc'd; NULL when memory ran out. */
char *report_path_evidence(const struct tomo_suspect *x);
char *report_path_counts(const struct report_path_suspects *ps);

/* report_render_suspects_text.c: through lib/out/output.h, the text
 * section after the matrix; nothing when there is no suspect. g: the
 * --groups matrix's groups (report_suspects_find). */
void report_render_suspects_text(const struct report *r,
				 const struct report_grouping *g);

/* report_render_suspects_json.c: the "suspects" member of report -j: []
 * when there is none; then the suspects on the path (ps, NULL: no
 * --traces), their ranks after the matrix's. */
void report_render_suspects_json(struct json_writer *w,
				 const struct report_suspects *s,
				 const struct report_path_suspects *ps);
/* The "path_tomography" member of report -j: null without --traces. */
void report_render_tomography_json(struct json_writer *w,
				   const struct report_path_suspects *ps);

/* report_render_localise.c: the localisation (localise.h) as report's
 * suspects, when --traces made one: the "suspects" and "localisation"
 * members of report -j, the text section, the HTML list. */
void report_render_localise_json(struct json_writer *w,
				 const struct localise *l);
void report_render_localise_text(const struct localise *l);
void report_render_localise_html(FILE *f, const struct localise *l);

/* report_render_suspects_html.c: the HTML pages' short list above the
 * matrix; nothing when there is no suspect. g: the --groups page's
 * groups (report_suspects_find). */
void report_render_suspects_html(FILE *f, const struct report *r,
				 const struct report_grouping *g);

/* report_render_svg.c: a standalone SVG (with XML declaration), no
 * external resource, no script. */
void report_render_svg(FILE *f, const struct report *r, const char *title);
/* The <svg> element alone, for a page to hold; heading: with the title,
 * summary and report_heading_text's lines at its top. */
void report_render_svg_element(FILE *f, const struct report *r,
			       const char *title, bool heading);

/* report_render_html.c: an HTML page with the SVG and a findings table
 * inline: no external resource, no script. */
void report_render_html(FILE *f, const struct report *r, const char *title);

/* report_render_groups_text.c: through lib/out/output.h, the --groups
 * block matrix, its legend and the blocks with failures. */
void report_groups_render_text(const struct report *r,
			       const struct report_grouping *g);
/* report_render_groups_json.c: through lib/out/output.h, the groups JSON
 * document (--groups -j). */
#define REPORT_GROUPS_SCHEMA "ibahprobe.report.groups.v1"
void report_groups_render_json(const struct report *r,
			       const struct report_grouping *g);
/* report_render_groups_html.c: a self-contained HTML page (no network,
 * data embedded as compact JSON) drawing the block matrix on a canvas; a
 * click on a block (or the URL fragment #block=I,J) draws its host x host
 * cells. */
void report_groups_render_html(FILE *f, const struct report *r,
			       const struct report_grouping *g,
			       const char *title);

/* report_render_baseline_text.c: through lib/out/output.h, --baseline's
 * summary line, then one line per change (under 100 columns: names
 * longer than REPORT_CHANGE_NAME_MAX bytes are cut with "..."). */
#define REPORT_CHANGE_NAME_MAX 27
void report_diff_render_text(const struct report_diff *d);
/* report_render_baseline_json.c: --baseline's JSON document, written to
 * f as it goes; the inputs named as given. 0, or -1 when f failed. */
#define REPORT_BASELINE_SCHEMA "ibahprobe.report-baseline.v1"
int report_diff_render_json(FILE *f, const struct report_diff *d,
			    const char *old_input,
			    const char *const *cur_inputs, size_t cur_count,
			    bool pretty);

/* report_render_identifiability.c: with --traces, the groups of elements
 * the traces cannot tell apart (identifiability.h): report -j's
 * "identifiability", the text section, the HTML note. */
void report_render_identifiability_json(struct json_writer *w,
					const struct identifiability *id);
void report_render_identifiability_text(const struct identifiability *id);
void report_render_identifiability_html(FILE *f,
					const struct identifiability *id);

/* report_render_hop_changes.c: with --traces, the results whose hop
 * count differs from their trace's (hop_changes.h): report -j's
 * "hop_changes", and a text section and HTML note when there are any. */
void report_render_hop_changes_json(struct json_writer *w,
				    const struct hop_changes *hc);
void report_render_hop_changes_text(const struct hop_changes *hc);
void report_render_hop_changes_html(FILE *f, const struct hop_changes *hc);

#endif
