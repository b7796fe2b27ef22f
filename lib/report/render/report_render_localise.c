/* The localisation of report --traces (localise.h) in the three forms:
 * report -j's "suspects" (the keys of the matrix's suspects, then the
 * evidence) and "localisation", the text section, the HTML list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/json_writer.h"
#include "out/markup.h"
#include "out/output.h"
#include "report/render/report_render.h"
#include "report/render/report_render_text_layout.h"

/* "cannot localise: all 6 failing results took the same path; trace
 * other flow labels (trace --flow-label ...)"; NULL when it can.
 * Malloc'd. */
static char *cannot_text(const struct localise_suspect *s)
{
	char *text = NULL;

	if (!s->cannot_localise)
		return NULL;
	if (s->cause == LOCALISE_REMARK) {
		if (asprintf(&text, "cannot localise: every remarked trace "
			     "changes between the same two hops; trace flows "
			     "of other flow labels (trace --flow-label ...) to "
			     "tell them apart") < 0)
			return NULL;
		return text;
	}
	if (asprintf(&text, "cannot localise: all %zu failing results took "
		     "the same path; trace other flow labels (trace "
		     "--flow-label ...) to tell its elements apart",
		     s->explained) < 0)
		return NULL;
	return text;
}

/* "confidence 97%; 12 failing, 3 passing results; it would lose 9.4% of
 * their datagrams, they expect 0.5% (LLR 412)". */
static char *evidence_text(const struct localise_suspect *s)
{
	char *text = NULL;
	int n;

	if (s->cause == LOCALISE_REMARK)
		n = asprintf(&text, "confidence %.0f%%; %s", 100 * s->confidence,
			     s->reason);
	else
		n = asprintf(&text, "confidence %.0f%%; %s (log-likelihood "
			     "ratio %.0f)", 100 * s->confidence, s->reason,
			     s->llr);
	return n < 0 ? NULL : text;
}

/* "LEAD NAME, NAME, ..." (at most shown of them, then "and N more"):
 * NULL when there are none (or memory ran out). */
static char *names_text(const char *lead, char *const *names, size_t count,
			size_t shown)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!count)
		return NULL;
	f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	fputs(lead, f);
	for (size_t k = 0; k < count && k < shown; k++)
		fprintf(f, "%s%s", k ? ", " : "", names[k]);
	if (count > shown)
		fprintf(f, " and %zu more", count - shown);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

static char *alternatives_text(const struct localise_suspect *s)
{
	return names_text("or ", s->alternatives, s->alternative_count,
			  s->alternative_count);
}

/* "traces show it also as 10.200.0.3, 10.200.0.7": a router's other
 * addresses are as many as its interfaces, the JSON has them all. */
#define ALIASES_SHOWN 4

static char *aliases_text(const struct localise_suspect *s)
{
	return names_text("traces show it also as ", s->aliases,
			  s->alias_count, ALIASES_SHOWN);
}

/* "routers answer traces from the address of each interface: 24
 * addresses belong to 6 routers, ..." */
static char *folded_text(const struct localise *l)
{
	char *text = NULL;

	if (!l->folded_routers ||
	    asprintf(&text, "routers answer traces from the address of each "
		     "interface: %zu addresses belong to %zu router%s, each "
		     "named by the address most traces show",
		     l->folded_addresses, l->folded_routers,
		     l->folded_routers == 1 ? "" : "s") < 0)
		return NULL;
	return text;
}

void report_render_localise_json(struct json_writer *w,
				 const struct localise *l)
{
	jw_open_object(w, "localisation");
	jw_uint(w, "results", l->results);
	jw_uint(w, "traced", l->traced);
	jw_uint(w, "failing", l->failing);
	jw_uint(w, "explained", l->explained);
	jw_uint(w, "remarked_traces", l->remarked);
	jw_double(w, "background_loss", l->background);
	jw_uint(w, "folded_routers", l->folded_routers);
	jw_uint(w, "folded_addresses", l->folded_addresses);
	jw_string(w, "verdict", l->count ? NULL : "no element stands out");
	jw_open_array(w, "suspects");
	for (size_t k = 0; k < l->count; k++) {
		const struct localise_suspect *s = &l->items[k];
		char *cannot = cannot_text(s);

		report_render_element_suspect_head(w, k + 1, s->kind, s->name,
						   s->address, s->explained,
						   s->failing, s->passing);
		/* (the hosts an edge no trace shows stands for) */
		jw_open_array(w, "elements");
		for (size_t i = 0; i < s->member_count; i++) {
			jw_open_object(w, NULL);
			jw_string(w, "kind", "host");
			jw_string(w, "name", s->members[i]);
			jw_close_object(w);
		}
		jw_close_array(w);
		jw_string(w, "cause", localise_cause_name(s->cause));
		jw_double(w, "confidence", s->confidence);
		jw_open_object(w, "evidence");
		jw_uint(w, "failing", s->failing);
		jw_uint(w, "passing", s->passing);
		jw_double(w, "loss_rate", s->loss_rate);
		jw_double(w, "expected_rate", s->expected_rate);
		jw_double(w, "log_likelihood_ratio", s->llr);
		jw_close_object(w);
		jw_string(w, "reason", s->reason);
		jw_open_array(w, "alternatives");
		for (size_t i = 0; i < s->alternative_count; i++)
			jw_string(w, NULL, s->alternatives[i]);
		jw_close_array(w);
		jw_open_array(w, "aliases");
		for (size_t i = 0; i < s->alias_count; i++)
			jw_string(w, NULL, s->aliases[i]);
		jw_close_array(w);
		jw_string(w, "cannot_localise", cannot);
		jw_close_object(w);
		free(cannot);
	}
	jw_close_array(w);
	jw_close_object(w);
}

void report_render_localise_text(const struct localise *l)
{
	char *counts = NULL;

	out_text("\nsuspects (localised; they explain %zu of %zu failing "
		 "results):\n", l->explained, l->failing);
	if (asprintf(&counts, "over %zu results, %zu of them traced; "
		     "background loss %.3f%% per element and datagram",
		     l->results, l->traced, 100 * l->background) >= 0)
		report_text_wrapped(2, counts);
	free(counts);
	counts = folded_text(l);
	if (counts)
		report_text_wrapped(2, counts);
	free(counts);
	if (!l->count) {
		out_text("  no element stands out\n");
		return;
	}
	for (size_t k = 0; k < l->count; k++) {
		const struct localise_suspect *s = &l->items[k];
		char *lines[4] = { evidence_text(s), alternatives_text(s),
				   aliases_text(s), cannot_text(s) };

		out_text("  %zu. %-6s  %s%s\n", k + 1, s->kind, s->name,
			 s->cause == LOCALISE_REMARK ? "  rewrites the traffic class"
			 : s->cause == LOCALISE_UNSEEN ? "  (not seen by traces)"
						       : "");
		for (int i = 0; i < 4; i++) {
			if (lines[i])
				report_text_wrapped(6, lines[i]);
			free(lines[i]);
		}
	}
}

void report_render_localise_html(FILE *f, const struct localise *l)
{
	char *folded;

	markup_printf(f, "<div class=\"suspects\">\n<p><b>Suspects</b> "
		      "(localised over %zu results, %zu traced; they explain "
		      "%zu of %zu failing results)</p>\n", l->results,
		      l->traced, l->explained, l->failing);
	folded = folded_text(l);
	if (folded)
		markup_printf(f, "<p>%s</p>\n", folded);
	free(folded);
	if (!l->count) {
		fputs("<p>No element stands out.</p>\n</div>\n", f);
		return;
	}
	fputs("<ol>\n", f);
	for (size_t k = 0; k < l->count; k++) {
		const struct localise_suspect *s = &l->items[k];
		char *lines[4] = { evidence_text(s), alternatives_text(s),
				   aliases_text(s), cannot_text(s) };

		markup_printf(f, "<li>%s <b>%s</b>", s->kind, s->name);
		for (int i = 0; i < 4; i++) {
			if (lines[i])
				markup_printf(f, "; %s", lines[i]);
			free(lines[i]);
		}
		fputs("</li>\n", f);
	}
	fputs("</ol>\n</div>\n", f);
}
