/* The words the report's forms share (report_render_words.c) and the
 * pages' styles (report_render_style.c): what a cell, its hops and RTT
 * read as, and that a page's legend says what the text and JSON say. */
#include <string.h>

#include "report/render/report_render.h"
#include "report/render/report_render_style.h"
#include "tap.h"

static void test_us_and_rtt(void)
{
	struct report_cell c = { .has_rtt = false };
	char buf[32];

	is_str(report_us_text(8.46, buf, sizeof(buf)), "8.5us",
	       "under 10us: tenths");
	is_str(report_us_text(41.2, buf, sizeof(buf)), "41us",
	       "under 1ms: whole us");
	is_str(report_us_text(1234, buf, sizeof(buf)), "1.2ms",
	       "under 10ms: tenths of ms");
	is_str(report_us_text(12345, buf, sizeof(buf)), "12ms",
	       "from 10ms: whole ms");
	is_str(report_rtt_text(&c, buf, sizeof(buf)), "", "no answer: no RTT");
	c.has_rtt = true;
	c.rtt_median_us = 41.2;
	is_str(report_rtt_text(&c, buf, sizeof(buf)), "41us",
	       "the median as report_us_text gives it");
}

static void test_hops_and_cell(void)
{
	int hops[] = { 1, 2 };
	struct report_cell c = { .probed = true, .status = REPORT_REACHABLE,
				 .hops = hops, .hop_count = 1,
				 .has_rtt = true, .rtt_median_us = 41 };
	char buf[64];

	is_str(report_hops_text(&c, buf, sizeof(buf)), "1h", "one hop count");
	c.hop_count = 2;
	is_str(report_hops_text(&c, buf, sizeof(buf)), "1,2h",
	       "sets that differ: each count");
	is_str(report_cell_text(&c, buf, sizeof(buf)), "ok 1,2h 41us",
	       "reachable: hops and RTT");
	c.tclass_remarked = true;
	is_str(report_cell_text(&c, buf, sizeof(buf)), "ok 1,2h 41us R",
	       "remarked: R");
	c.hop_count = 0;
	c.has_rtt = false;
	c.tclass_remarked = false;
	is_str(report_cell_text(&c, buf, sizeof(buf)), "ok ?h",
	       "hops unknown, no RTT");
	c.status = REPORT_PARTIAL;
	c.sent = 5;
	c.received = 2;
	is_str(report_cell_text(&c, buf, sizeof(buf)), "LOSS 3/5",
	       "partial: lost of sent");
	c.status = REPORT_UNREACHABLE;
	is_str(report_cell_text(&c, buf, sizeof(buf)), "--", "unreachable");
	c.status = REPORT_ERROR;
	is_str(report_cell_text(&c, buf, sizeof(buf)), "ERR", "error");
	c.probed = false;
	is_str(report_cell_text(&c, buf, sizeof(buf)), ".", "not probed");
	c.run_failed = true;
	is_str(report_cell_text(&c, buf, sizeof(buf)), "FAIL", "run failed");
}

static void test_width(void)
{
	is_int(report_text_width(""), 0, "empty: no column");
	is_int(report_text_width("node03"), 6, "ASCII: a column a byte");
	is_int(report_text_width("n\xc3\xb6" "de\xe2\x86\x92"), 5,
	       "UTF-8: a column a character, not a byte");
}

static void test_styles(void)
{
	struct report_cell c = { .probed = true, .status = REPORT_PARTIAL };

	for (int st = 0; st < REPORT_STATUS_COUNT; st++)
		is_str(report_styles[st].legend,
		       report_status_word((enum report_status)st),
		       "the legend names status %d as the text does", st);
	ok(report_cell_style(&c) == &report_styles[REPORT_PARTIAL],
	   "a probed cell: its status's style");
	c.probed = false;
	ok(report_cell_style(&c) ==
		   &report_styles[REPORT_STYLE_NOT_PROBED],
	   "not probed");
	c.run_failed = true;
	ok(report_cell_style(&c) ==
		   &report_styles[REPORT_STYLE_RUN_FAILED],
	   "not probed, its run failed");
}

int main(void)
{
	test_us_and_rtt();
	test_hops_and_cell();
	test_width();
	test_styles();
	return tap_done();
}
