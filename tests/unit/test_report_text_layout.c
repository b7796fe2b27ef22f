/* Unit tests of the report's text wrapping (report_render_text_layout.h):
 * a list broken after its separators, a word longer than the line cut
 * between characters, every line under 100 columns, nothing lost; and a
 * text of a million characters wrapped in linear time (measuring the
 * remainder of the text at every line made it quadratic). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "out/output.h"
#include "report/render/report_render_text_layout.h"

static const char *wrap_text;
static size_t wrap_indent;

/* What report_text_wrapped(wrap_indent, wrap_text) writes, whole;
 * malloc'd. */
static char *wrapped(size_t indent, const char *s)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDOUT_FILENO);
	long n;
	char *text;

	if (!tmp || saved < 0)
		abort();
	wrap_text = s;
	wrap_indent = indent;
	fflush(stdout);
	dup2(fileno(tmp), STDOUT_FILENO);
	out_init(OUT_TEXT, false);
	report_text_wrapped(wrap_indent, wrap_text);
	out_finish();
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	n = ftell(tmp);
	if (n < 0 || fseek(tmp, 0, SEEK_END) || (n = ftell(tmp)) < 0)
		abort();
	rewind(tmp);
	text = malloc((size_t)n + 1);
	if (!text || fread(text, 1, (size_t)n, tmp) != (size_t)n)
		abort();
	text[n] = '\0';
	fclose(tmp);
	return text;
}

static void test_short(void)
{
	char *t = wrapped(2, "fine");

	is_str(t, "  fine\n", "short: one line, indented");
	free(t);
}

/* 30 items of "itemNN, ": the line breaks after a comma, and goes on
 * indented by 2 more. */
static void test_list(void)
{
	char in[400] = "", *t, *nl;

	for (int k = 0; k < 30; k++)
		snprintf(in + strlen(in), sizeof(in) - strlen(in), "%sitem%02d",
			 k ? ", " : "", k);
	t = wrapped(2, in);
	nl = strchr(t, '\n');
	ok(nl && nl > t && nl[-1] == ',', "list: the first line ends after a comma");
	ok(nl && strncmp(nl + 1, "    item", 8) == 0,
	   "list: the next line indented by 4");
	free(t);
}

/* Lines of at most 99 columns (ASCII here: bytes), and the text again when
 * the breaks and indents are taken out. */
static bool lines_fit_and_keep(const char *out, const char *in, size_t indent)
{
	const char *p = out, *q = in;
	bool first = true;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t lead = first ? indent : indent + 2;

		if (!nl || (size_t)(nl - p) > 99)
			return false;
		if (strspn(p, " ") < lead)
			return false;
		p += lead;
		if (!first && *q == ' ')
			q++;	/* the blank the break took */
		if (strncmp(p, q, (size_t)(nl - p)) != 0)
			return false;
		q += nl - p;
		p = nl + 1;
		first = false;
	}
	return *q == '\0';
}

static void test_long_word(void)
{
	char in[300];
	char *t;

	memset(in, 'x', sizeof(in) - 1);
	in[sizeof(in) - 1] = '\0';
	t = wrapped(6, in);
	ok(lines_fit_and_keep(t, in, 6),
	   "long word: cut into lines under 100 columns, nothing lost");
	free(t);
}

static void test_million(void)
{
	enum { ITEMS = 100000 };
	char *in = malloc(ITEMS * 10 + 1), *t;
	size_t len = 0;
	clock_t start;
	double took;

	if (!in)
		abort();
	for (int k = 0; k < ITEMS; k++)
		len += (size_t)sprintf(in + len, "%sr%06d", k ? ", " : "", k);
	start = clock();
	t = wrapped(2, in);
	took = (double)(clock() - start) / CLOCKS_PER_SEC;
	ok(took < 5.0, "million: %zu characters wrapped in under 5 s (%.2f s)",
	   len, took);
	ok(lines_fit_and_keep(t, in, 2),
	   "million: lines under 100 columns, nothing lost");
	free(t);
	free(in);
}

int main(void)
{
	test_short();
	test_list();
	test_long_word();
	test_million();
	return tap_done();
}
