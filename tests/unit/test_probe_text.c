/* probe's table for people: columns, widths, the sent>seen forms, the
 * findings shown and the summary, from cells built here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probe/probe_text.h"
#include "out/run_info.h"
#include "tap.h"
#include "out/term_color.h"
#include "out/text_layout.h"

static int fake_ah;

static size_t widest_line(const char *text)
{
	size_t widest = 0;

	while (*text) {
		size_t n = strcspn(text, "\n");

		if (n > widest)
			widest = n;
		text += n + (text[n] == '\n');
	}
	return widest;
}

static size_t count_lines(const char *text)
{
	size_t n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

struct fixture {
	struct probe_session s;
	struct dest dests[3];
	struct probe_target targets[3];
	struct probe_cell cells[3];
	uint64_t rtt_ns[3][4];
};

/* Three RoCE destinations: b answers all (tc kept), d answers all with
 * the DSCP remarked, e is unreachable; IPv4, so no flow label column. */
static void fixture_init(struct fixture *f, const char *long_name)
{
	static char *names[3] = { "b", "d", "e" };

	memset(f, 0, sizeof(*f));
	f->s.settings.count = 4;
	f->s.settings.gid_index = -1;
	f->s.settings.size = 136;
	f->s.settings.timeout_ms = 1000;
	f->s.facts.link_layer = LINK_LAYER_ETHERNET;
	f->s.facts.port_num = 1;
	snprintf(f->s.hostname, sizeof(f->s.hostname), "a");
	f->s.device = "rxe_a";
	f->s.cells = f->cells;
	f->s.cell_count = 3;
	for (int i = 0; i < 3; i++) {
		struct probe_cell *c = &f->cells[i];

		f->dests[i].text = i == 0 && long_name ? (char *)long_name
						       : names[i];
		f->targets[i].dest = &f->dests[i];
		f->targets[i].ready = true;
		c->target = &f->targets[i];
		c->ah = (struct ibv_ah *)&fake_ah;
		c->attr.is_global = 1;
		c->attr.grh.dgid.raw[10] = 0xff;
		c->attr.grh.dgid.raw[11] = 0xff;
		c->asked.hop_limit = 64;
		c->sent = 4;
		c->judged = true;
		c->verdict.hops = -1;
	}
	for (int i = 0; i < 2; i++) {
		struct probe_cell *c = &f->cells[i];

		c->received = 4;
		for (int k = 0; k < 4; k++)
			f->rtt_ns[i][k] = 1000000u + 200000u * (unsigned)k;
		c->rtt.ns = f->rtt_ns[i];
		c->rtt.count = c->rtt.capacity = 4;
		c->observed_valid = true;
		c->last_reply.observed.grh_present = true;
		c->last_reply.observed.grh_ipv4 = true;
		c->verdict.hops = i * 2;
	}
	f->cells[1].last_reply.observed.traffic_class = 0x30;
	f->cells[1].verdict.flags = VERDICT_TCLASS_REMARKED;
	f->cells[1].verdict.text_count = 1;
	snprintf(f->cells[1].verdict.text[0], sizeof(f->cells[1].verdict.text[0]),
		 "traffic class remarked: sent 0x00 (DSCP 0), seen 0x30 "
		 "(DSCP 12)");
	f->cells[2].verdict.reach = PROBE_STATUS_UNREACHABLE;
	f->cells[2].verdict.text_count = 2;
	f->cells[2].verdict.text_detail_start = 1;
	snprintf(f->cells[2].verdict.text[0], sizeof(f->cells[2].verdict.text[0]),
		 "unreachable: none of 4 probes answered");
	snprintf(f->cells[2].verdict.text[1], sizeof(f->cells[2].verdict.text[1]),
		 "the responder is up (its rendezvous answered over TCP); "
		 "RoCE v2 (UDP 4791) or the IB data path is blocked on the way");
}

static void test_rows(void)
{
	struct fixture f;
	struct probe_text_layout l;
	char buf[PROBE_TEXT_ROW_MAX];

	fixture_init(&f, NULL);
	probe_text_layout_init(&l, &f.s, false, false, false, false);
	ok(!l.show_flow_label, "IPv4 destinations: no flow label column");
	ok(!l.show_p99, "4 probes: no p99 column");
	probe_text_titles(&l, buf, sizeof(buf));
	is_str(buf, "DEST  STATUS       LOST     RTT  HOPS  TC\n", "titles");
	probe_text_row(&l, &f.cells[0], &f.cells[0].verdict, 4, true, buf,
		       sizeof(buf));
	is_str(buf, "b     ok            0/4  1.30ms     0  0x00\n",
	       "an answered row: median RTT in ms, hops, tc kept");
	probe_text_row(&l, &f.cells[1], &f.cells[1].verdict, 4, true, buf,
		       sizeof(buf));
	is_str(buf, "d     ok            0/4  1.30ms     2  0x00>0x30\n"
		    "    traffic class remarked: sent 0x00 (DSCP 0), seen 0x30 "
		    "(DSCP 12)\n", "remarked: sent>seen and the finding under it");
	probe_text_row(&l, &f.cells[2], &f.cells[2].verdict, 4, true, buf,
		       sizeof(buf));
	is_str(buf, "e     unreachable   4/4       -     -  0x00\n"
		    "    the responder is up (its rendezvous answered over TCP); "
		    "RoCE v2 (UDP 4791) or the IB data path\n"
		    "      is blocked on the way\n",
	       "unreachable: the loss sentence is the row's; the cause wraps "
	       "at a space");
	ok(widest_line(buf) <= PROBE_TEXT_WIDTH, "findings fit in %d columns",
	   PROBE_TEXT_WIDTH);
	probe_text_row(&l, &f.cells[2], NULL, 2, false, buf, sizeof(buf));
	is_str(buf, "e     unreachable   2/2       -     -  0x00\n",
	       "a running row counts resolved probes, no findings");
	f.targets[2].ready = false;
	snprintf(f.targets[2].error, sizeof(f.targets[2].error),
		 "cannot resolve host 'e'");
	probe_text_row(&l, &f.cells[2], NULL, 0, true, buf, sizeof(buf));
	is_str(buf, "e     error  cannot resolve host 'e'\n",
	       "an error is in its row");
	probe_text_summary(&f.s, 3, 1, buf, sizeof(buf));
	is_str(buf, "3 destinations, 1 set: 2 ok, 0 loss, 0 unreachable, 1 "
		    "error; tc remarked 1\n", "summary counts and findings");
}

/* With a flow label column (an IPv6 destination among IPv4 ones), an
 * IPv4 row shows "-" there, answered or not: it carries none. */
static void test_flow_label_column(void)
{
	struct fixture f;
	struct probe_text_layout l;
	char buf[PROBE_TEXT_ROW_MAX];

	fixture_init(&f, NULL);
	f.cells[0].attr.grh.dgid.raw[10] = 0;
	f.cells[0].attr.grh.dgid.raw[11] = 0;
	f.cells[0].attr.grh.dgid.raw[0] = 0x20;
	f.cells[0].last_reply.observed.grh_ipv4 = false;
	probe_text_layout_init(&l, &f.s, false, false, false, false);
	ok(l.show_flow_label, "an IPv6 destination: a flow label column");
	probe_text_row(&l, &f.cells[0], &f.cells[0].verdict, 4, false, buf,
		       sizeof(buf));
	ok(strstr(buf, "0x00       0x0\n") != NULL,
	   "IPv6: the flow label sent and seen");
	probe_text_row(&l, &f.cells[2], &f.cells[2].verdict, 4, false, buf,
		       sizeof(buf));
	is_str(buf, "e     unreachable   4/4       -     -  0x00       -\n",
	       "IPv4, nothing came back: '-', not 0x0");
	probe_text_row(&l, &f.cells[1], &f.cells[1].verdict, 4, false, buf,
		       sizeof(buf));
	ok(strstr(buf, "0x00>0x30  -\n") != NULL, "IPv4 answered: '-' too");
}

static void test_widths(void)
{
	static const char gid[] = "fe80:0000:0000:0000:0002:c903:00a1:b2c3";
	struct fixture f;
	struct probe_text_layout l;
	char buf[PROBE_TEXT_ROW_MAX];

	fixture_init(&f, gid);
	f.s.settings.count = 1000;
	f.cells[0].asked.flow_label = 0x12345;
	f.cells[0].last_reply.observed.grh_ipv4 = false;
	f.cells[0].last_reply.observed.flow_label = 0x54321;
	probe_text_layout_init(&l, &f.s, true, true, false, false);
	ok(l.show_flow_label && l.show_p99 && l.show_hop_limit && l.show_sl,
	   "every optional column on");
	probe_text_row(&l, &f.cells[0], &f.cells[0].verdict, 1000, true, buf,
		       sizeof(buf));
	ok(widest_line(buf) <= PROBE_TEXT_WIDTH, "widest row fits (%zu): %s",
	   widest_line(buf), buf);
	ok(strstr(buf, "0x12345>0x54321") != NULL, "flow label sent>seen");
	ok(strstr(buf, "..") != NULL && strncmp(buf, "fe80:", 5) == 0 &&
		   strstr(buf, "b2c3 ") != NULL,
	   "a long name keeps its start and end: %.40s", buf);
	is_int(count_lines(buf), 1, "one line");
}

/* --continuous: the round beside the run (LAST%, LAST), and a round that
 * got nothing back says so in the status and under the row, however
 * good the run's totals. */
static void test_round_row(void)
{
	static const char gid[] = "fe80:0000:0000:0000:0002:c903:00a1:b2c3";
	struct fixture f;
	struct probe_text_layout l;
	struct probe_round_cell down = {
		.sent = 3, .received = 0,
		/* 2026-11-26 15:58:01 UTC */
		.last_success_unix = 1795708681.25,
	};
	struct probe_round_cell up = {
		.sent = 4, .received = 3, .has_rtt = true,
		.rtt = { .median_us = 812.4 },
	};
	char buf[PROBE_TEXT_ROW_MAX], words[64];

	setenv("TZ", "UTC", 1);
	tzset();
	fixture_init(&f, NULL);
	probe_text_layout_init(&l, &f.s, false, false, true, false);
	probe_text_titles(&l, buf, sizeof(buf));
	is_str(buf, "DEST  STATUS              LOST     RTT     P99  LAST%    LAST  "
		    "HOPS  TC\n", "titles: the round's loss and RTT after the "
		    "run's");
	probe_text_round_row(&l, &f.cells[0], &f.cells[0].verdict, 4, false,
			     &up, buf, sizeof(buf));
	is_str(buf, "b     ok                   0/4  1.30ms  1.60ms    25%   812us"
		    "     0  0x00\n", "a round with one of 4 lost: 25%%, its "
		    "own median");
	probe_text_round_row(&l, &f.cells[0], &f.cells[0].verdict, 4, false,
			     &down, buf, sizeof(buf));
	is_str(buf, "b     no reply             0/4  1.30ms  1.60ms   100%       -"
		    "     0  0x00\n    no reply since 15:58:01\n",
	       "a round that got nothing: no reply since the last one, "
	       "though the run's totals are clean");
	probe_text_round_row(&l, &f.cells[0], &f.cells[0].verdict, 4, false,
			     NULL, buf, sizeof(buf));
	ok(strstr(buf, "     -       -") != NULL && count_lines(buf) == 1,
	   "no round closed yet: '-' in its columns");
	down.last_success_unix = 0;
	ok(probe_text_round_silence(&down, words, sizeof(words)) &&
		   strcmp(words, "no reply yet") == 0,
	   "never answered: no reply yet");
	ok(!probe_text_round_silence(&up, words, sizeof(words)) && !words[0],
	   "a reply in the round: not silent");
	down.sent = 0;
	ok(!probe_text_round_silence(&down, words, sizeof(words)),
	   "nothing sent in the round: nothing to say");

	fixture_init(&f, gid);
	f.cells[0].asked.flow_label = 0x12345;
	f.cells[0].last_reply.observed.grh_ipv4 = false;
	f.cells[0].last_reply.observed.flow_label = 0x54321;
	probe_text_layout_init(&l, &f.s, false, false, true, false);
	ok(l.show_flow_label, "with a flow label column");
	f.cells[0].sent = f.cells[0].received = 99999;
	probe_text_round_row(&l, &f.cells[0], &f.cells[0].verdict, 99999,
			     false, &up, buf, sizeof(buf));
	ok(widest_line(buf) <= PROBE_TEXT_WIDTH, "the widest continuous row "
	   "fits (%zu): %s", widest_line(buf), buf);
}

static void test_rtt_units(void)
{
	char b[16];

	probe_text_rtt(4.214, b, sizeof(b));
	is_str(b, "4.21us", "under 10 us: two decimals");
	probe_text_rtt(812.4, b, sizeof(b));
	is_str(b, "812us", "under 1 ms: whole us");
	probe_text_rtt(999.7, b, sizeof(b));
	is_str(b, "1.00ms", "999.7 us rounds into ms, not to 1000us");
	probe_text_rtt(12345, b, sizeof(b));
	is_str(b, "12.3ms", "tens of ms: one decimal");
	probe_text_rtt(3.2e6, b, sizeof(b));
	is_str(b, "3.2s", "seconds");
}

static void test_color(void)
{
	enum color_mode m;
	char err[128], b[64];

	ok(color_mode_parse("always", &m, err, sizeof(err)) == 0 &&
		   m == COLOR_ALWAYS, "always");
	ok(color_mode_parse("sometimes", &m, err, sizeof(err)) != 0 &&
		   strstr(err, "auto, always or never"), "bad word: %s", err);
	ok(!color_wanted(COLOR_AUTO, false, NULL, "xterm"), "auto: not a tty");
	ok(color_wanted(COLOR_AUTO, true, NULL, "xterm"), "auto: a tty");
	ok(!color_wanted(COLOR_AUTO, true, "1", "xterm"), "auto: NO_COLOR");
	ok(color_wanted(COLOR_AUTO, true, "", "xterm"),
	   "auto: NO_COLOR empty is unset (no-color.org)");
	ok(!color_wanted(COLOR_AUTO, true, NULL, "dumb"), "auto: TERM=dumb");
	ok(color_wanted(COLOR_ALWAYS, false, "1", "dumb"), "always wins");
	ok(!color_wanted(COLOR_NEVER, true, NULL, "xterm"), "never");
	color_pad(b, sizeof(b), "ok", 5, false, COLOR_GOOD, true);
	is_str(b, "\033[32mok\033[0m   ", "padding counts visible columns");
	color_pad(b, sizeof(b), "ok", 5, false, COLOR_GOOD, false);
	is_str(b, "ok   ", "off: plain");
}

static void test_wrap(void)
{
	char b[256];
	size_t used = 0;

	text_wrap_append(b, sizeof(b), &used, "aaa bbb ccc", 2, 4, 9);
	is_str(b, "  aaa bbb\n    ccc\n", "breaks at a space, indents");
	used = 0;
	text_wrap_append(b, sizeof(b), &used, "x fe80::1:2:3:4:5:6 y", 0, 2,
			 8);
	is_str(b, "x\n  fe80::1:2:3:4:5:6\n  y\n",
	       "a word longer than the line stands whole");
	used = 0;
	text_wrap_append(b, 8, &used, "abcdefghijkl", 0, 0, 99);
	is_int(strlen(b), 7, "cut to the buffer, NUL-terminated");
}

static void test_run_info(void)
{
	static const unsigned char zero[16];
	char id[RUN_ID_TEXT_MAX], t[RUN_TIME_TEXT_MAX];
	struct run_info a, b;

	run_id_format(zero, id, sizeof(id));
	is_str(id, "00000000-0000-4000-8000-000000000000",
	       "UUID v4: version and variant bits set");
	run_time_format(1795457547, t, sizeof(t));
	is_str(t, "2026-11-23T18:12:27Z", "RFC 3339 UTC");
	run_info_start(&a);
	run_info_start(&b);
	ok(strcmp(a.id, b.id) != 0, "two runs, two ids");
	is_int(strlen(a.id), 36, "id length");
}

/* -v's timing line: three medians side by side, the first-contact wait
 * named; an older responder's replies say why the network's share is
 * not known. */
static void test_timing(void)
{
	struct probe_cell c = { 0 };
	char buf[1024];

	probe_text_timing(&c, buf, sizeof(buf));
	is_str(buf, "", "no reply: no timing line");
	rtt_add(&c.rtt, 45000);
	probe_text_timing(&c, buf, sizeof(buf));
	is_str(buf, "    RTT median 45.0us end to end; the network's share is "
	       "not known: the responder did not say how\n      long it held "
	       "the probes (an older ibahprobe serve)\n",
	       "older responder: said, wrapped under 100 columns");
	rtt_add(&c.network, 15000);
	rtt_add(&c.dwell, 30000);
	c.stamps_seen = true;
	c.stamps = STAMP_SW_BUSY;
	probe_text_timing(&c, buf, sizeof(buf));
	is_str(buf, "    RTT medians: 45.0us end to end, network 15.0us "
	       "(sw-busy stamps), responder 30.0us (max 30.0us)\n",
	       "the three medians and the stamps");
	c.reply_ah_wait_max_ns = 1000000000ull;
	c.clock_errors = 1;
	probe_text_timing(&c, buf, sizeof(buf));
	ok(strstr(buf, "of which 1.0s waiting for its reply AH: first contact") &&
		   strstr(buf, "; 1 responder time longer than the"),
	   "first contact and clock errors named: %s", buf);
	ok(widest_line(buf) < 100, "under 100 columns");
	rtt_free(&c.rtt);
	rtt_free(&c.network);
	rtt_free(&c.dwell);
}

/* The header names the source GID the AHs carry: the one -g N gives,
 * by its index when the table has none there, never "-g auto". */
static void test_header_sgid(void)
{
	struct probe_text_layout l;
	struct fixture f;
	char buf[1024];

	fixture_init(&f, NULL);
	probe_text_layout_init(&l, &f.s, false, false, false, false);
	probe_text_header(&l, &f.s, 3, 1, NULL, buf, sizeof(buf));
	ok(strstr(buf, "sgid per destination (-g auto)") != NULL,
	   "-g auto: per destination");
	f.s.settings.gid_index = 9;
	probe_text_header(&l, &f.s, 3, 1, NULL, buf, sizeof(buf));
	ok(strstr(buf, "sgid_index 9 (-g)") && !strstr(buf, "auto"),
	   "-g 9 that names no GID: the index given");
}

/* -v says a destination's source GID choice once, not per set. */
static void test_sgid_choice_once(void)
{
	struct fixture f;

	fixture_init(&f, NULL);
	/* b with two parameter sets (cells 0 and 1), then e. */
	f.cells[1].target = &f.targets[0];
	for (int i = 0; i < 3; i++)
		snprintf(f.cells[i].sgid_choice.reason,
			 sizeof(f.cells[i].sgid_choice.reason),
			 "index 3 (route via eth1)");
	ok(!probe_text_sgid_choice_repeats(&f.s, &f.cells[0]),
	   "the first set: said");
	ok(probe_text_sgid_choice_repeats(&f.s, &f.cells[1]),
	   "the second set of the same destination: not again");
	ok(!probe_text_sgid_choice_repeats(&f.s, &f.cells[2]),
	   "the next destination: said");
	snprintf(f.cells[1].sgid_choice.reason,
		 sizeof(f.cells[1].sgid_choice.reason), "index 5 (family)");
	ok(!probe_text_sgid_choice_repeats(&f.s, &f.cells[1]),
	   "a set that chose otherwise: said");
}

/* A sweep of one destination (d twice) whose path remarks alike: the
 * rewrite is said under the first row only; another rewrite, or a
 * finding that is no rewrite, is said again. */
static void test_rewrite_once(void)
{
	struct fixture f;
	struct probe_text_layout l;
	char buf[PROBE_TEXT_ROW_MAX];
	const char *remark = "traffic class remarked: sent 0x00 (DSCP 0), "
			     "seen 0x30 (DSCP 12)";

	fixture_init(&f, NULL);
	f.cells[1].verdict.text_rewrite_end = 1;
	f.cells[2] = f.cells[1];
	f.cells[2].rtt.ns = f.rtt_ns[2];
	probe_text_layout_init(&l, &f.s, false, false, false, false);
	probe_text_row(&l, &f.cells[1], &f.cells[1].verdict, 4, true, buf,
		       sizeof(buf));
	ok(strstr(buf, remark) != NULL, "the first row of d says the remark");
	probe_text_row(&l, &f.cells[2], &f.cells[2].verdict, 4, true, buf,
		       sizeof(buf));
	is_int(count_lines(buf), 1, "the next row of d, remarked alike: the "
	       "row alone");
	f.cells[2].verdict.text_rewrite_end = 0;
	probe_text_row(&l, &f.cells[2], &f.cells[2].verdict, 4, true, buf,
		       sizeof(buf));
	ok(strstr(buf, remark) != NULL, "the same words as no rewrite: said");
	f.cells[2].verdict.text_rewrite_end = 1;
	snprintf(f.cells[2].verdict.text[0], sizeof(f.cells[2].verdict.text[0]),
		 "traffic class remarked: sent 0x08 (DSCP 2), seen 0x30 "
		 "(DSCP 12)");
	probe_text_row(&l, &f.cells[2], &f.cells[2].verdict, 4, true, buf,
		       sizeof(buf));
	ok(strstr(buf, "sent 0x08 (DSCP 2)") != NULL, "another rewrite: said");
	f.cells[2].target = &f.targets[2];
	f.cells[2].verdict = f.cells[1].verdict;
	probe_text_row(&l, &f.cells[2], &f.cells[2].verdict, 4, true, buf,
		       sizeof(buf));
	ok(strstr(buf, remark) != NULL, "another destination: said");
}

int main(void)
{
	test_sgid_choice_once();
	test_rewrite_once();
	test_header_sgid();
	test_rows();
	test_flow_label_column();
	test_widths();
	test_round_row();
	test_rtt_units();
	test_color();
	test_wrap();
	test_run_info();
	test_timing();
	return tap_done();
}
