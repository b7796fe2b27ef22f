/* Unit tests of checklist files: every word, its value forms, defaults,
 * comments, and errors with their line and column. */
#include <stdlib.h>

#include "probe/checklist.h"
#include "base/diag.h"
#include "tap.h"
#include "verbs/ud_endpoint.h"

static char err[DIAG_MSG_MAX * 3];

/* Parses one line into a fresh list; returns the parser's status. */
static int one(const char *text, struct checklist *list)
{
	memset(list, 0, sizeof(*list));
	err[0] = '\0';
	return checklist_add_line(list, text, 7, err, sizeof(err));
}

static void test_entry_words(void)
{
	struct checklist l;
	const struct check_entry *e;

	is_int(one("198.18.4.4:18518 tclass=0x28 hop_limit=3 flow_label=0x12345 "
		   "sl=2 count=9 reachable hops=1-2 loss<=20% rtt_median<=2ms "
		   "rtt_p99<=900us tclass_seen=0x30 tclass_preserved "
		   "flow_label_preserved path_mtu>=2048 path_sl=3 "
		   "grh_required=yes", &l), 0, "a line with every word parses");
	e = &l.entries[0];
	is_int(l.count, 1, "one entry");
	is_int(e->line, 7, "its line number");
	is_str(e->dest.text, "198.18.4.4:18518", "the destination as given");
	ok(e->dest.has_port && e->dest.port == 18518, "with its port");
	ok(e->has_traffic_class && e->send.traffic_class == 0x28, "tclass=0x28");
	ok(e->has_hop_limit && e->send.hop_limit == 3, "hop_limit=3");
	ok(e->has_flow_label && e->send.flow_label == 0x12345, "flow_label");
	ok(e->has_sl && e->send.sl == 2, "sl=2");
	ok(e->has_count && e->count == 9, "count=9");
	ok(!e->has_qpn, "no qpn: the rendezvous tells");
	is_int(e->expect_count, 11, "eleven expectations");
	is_int(e->expects[0].kind, EXPECT_REACHABLE, "reachable");
	ok(e->expects[1].kind == EXPECT_HOPS && e->expects[1].low == 1 &&
		   e->expects[1].high == 2, "hops=1-2 is a range");
	ok(e->expects[2].kind == EXPECT_LOSS && e->expects[2].low == 0 &&
		   e->expects[2].high == 20, "loss<=20%% is at most 20");
	ok(e->expects[3].kind == EXPECT_RTT_MEDIAN &&
		   e->expects[3].high == 2000, "rtt_median<=2ms is 2000 us");
	ok(e->expects[4].kind == EXPECT_RTT_P99 && e->expects[4].high == 900,
	   "rtt_p99<=900us");
	ok(e->expects[5].kind == EXPECT_TCLASS_SEEN && e->expects[5].low == 0x30 &&
		   e->expects[5].high == 0x30, "tclass_seen=0x30 is exact");
	is_int(e->expects[6].kind, EXPECT_TCLASS_PRESERVED, "tclass_preserved");
	is_int(e->expects[7].kind, EXPECT_FLOW_LABEL_PRESERVED,
	       "flow_label_preserved");
	ok(e->expects[8].kind == EXPECT_PATH_MTU && e->expects[8].low == 2048 &&
		   e->expects[8].high == UINT64_MAX, "path_mtu>=2048 is at least");
	ok(e->expects[9].kind == EXPECT_PATH_SL && e->expects[9].low == 3,
	   "path_sl=3");
	ok(e->expects[10].kind == EXPECT_GRH_REQUIRED && e->expects[10].low == 1,
	   "grh_required=yes");
	is_str(e->expects[2].text, "loss<=20%", "the words as written, for TAP");
	is_int(e->expects[1].column, 84, "expectation columns are kept");
	ok(entry_needs(e, NEED_PROBE) && entry_needs(e, NEED_PATH) &&
		   entry_needs(e, NEED_AH), "it needs probes, a path and an AH");
	checklist_free(&l);

	is_int(one("lid:12 qpn=0x11 qkey=0x1234 path_mtu=1024 hops=2", &l), 0,
	       "qpn and qkey skip the rendezvous");
	e = &l.entries[0];
	ok(e->has_qpn && e->qpn == 0x11 && e->qkey == 0x1234, "qpn, qkey kept");
	ok(e->expects[0].low == 1024 && e->expects[0].high == 1024,
	   "path_mtu=1024 is exact");
	ok(e->expects[1].low == 2 && e->expects[1].high == 2, "hops=2 is exact");
	checklist_free(&l);

	is_int(one("lid:12 qpn=0x11", &l), 0, "qpn alone");
	is_int(l.entries[0].qkey, UD_DEFAULT_QKEY, "takes the default Q_Key");
	checklist_free(&l);

	is_int(one("  host-c:18517   # the router's far side", &l), 0,
	       "a destination alone, indented, with a comment");
	e = &l.entries[0];
	ok(e->expect_count == 1 && e->expects[0].kind == EXPECT_REACHABLE,
	   "expects reachable");
	ok(!entry_needs(e, NEED_PATH) && entry_needs(e, NEED_PROBE),
	   "and only probes");
	checklist_free(&l);

	is_int(one("lid:4 grh_required=no path_sl=0", &l), 0, "path-only entry");
	ok(!entry_needs(&l.entries[0], NEED_PROBE), "sends no probe");
	ok(l.entries[0].expects[0].low == 0, "grh_required=no is 0");
	checklist_free(&l);

	is_int(one("lid:4 loss<=0 loss<=5", &l), 0,
	       "the same expectation twice is two tests");
	is_int(l.entries[0].expect_count, 2, "both kept");
	checklist_free(&l);

	is_int(one("", &l), 0, "an empty line");
	is_int(l.count, 0, "adds nothing");
	is_int(one("   # comment only\t", &l), 0, "a comment line");
	is_int(l.count, 0, "adds nothing either");
	checklist_free(&l);
}

/* The spellings the hints and the TAP words suggest: a unit attached or
 * as the next word, milliseconds with decimals. */
static void test_units(void)
{
	static const struct {
		const char *line;
		enum expect_kind kind;
		uint64_t low, high;
		const char *text;
	} good[] = {
		{ "lid:3 rtt_median<=50 ms", EXPECT_RTT_MEDIAN, 0, 50000, "rtt_median<=50 ms" },
		{ "lid:3 rtt_median<=50\tms", EXPECT_RTT_MEDIAN, 0, 50000, "rtt_median<=50 ms" },
		{ "lid:3 rtt_p99<=900 us", EXPECT_RTT_P99, 0, 900, "rtt_p99<=900 us" },
		{ "lid:3 rtt_median<=40\xc2\xb5s", EXPECT_RTT_MEDIAN, 0, 40, "rtt_median<=40\xc2\xb5s" },
		{ "lid:3 rtt_median<=1.5ms", EXPECT_RTT_MEDIAN, 0, 1500, "rtt_median<=1.5ms" },
		{ "lid:3 rtt_median<=0.25 ms", EXPECT_RTT_MEDIAN, 0, 250, "rtt_median<=0.25 ms" },
		{ "lid:3 rtt_median<=3600000 ms", EXPECT_RTT_MEDIAN, 0, 3600000000ull, "rtt_median<=3600000 ms" },
		{ "lid:3 rtt_median<=200", EXPECT_RTT_MEDIAN, 0, 200, "rtt_median<=200" },
		{ "lid:3 loss<=20 %", EXPECT_LOSS, 0, 20, "loss<=20 %" },
		{ "lid:3 path_mtu>=2048 bytes", EXPECT_PATH_MTU, 2048, UINT64_MAX, "path_mtu>=2048 bytes" },
		{ "lid:3 path_mtu=1024bytes", EXPECT_PATH_MTU, 1024, 1024, "path_mtu=1024bytes" },
	};
	struct checklist l;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		const struct expectation *x;

		if (!ok(one(good[i].line, &l) == 0, "'%s' parses", good[i].line)) {
			printf("#   %s\n", err);
			continue;
		}
		x = &l.entries[0].expects[0];
		ok(l.entries[0].expect_count == 1 && x->kind == good[i].kind &&
		   x->low == good[i].low && x->high == good[i].high,
		   "'%s' is %llu-%llu", good[i].line,
		   (unsigned long long)good[i].low,
		   (unsigned long long)good[i].high);
		ok(strcmp(x->text, good[i].text) == 0, "kept as written: '%s'",
		   x->text);
		checklist_free(&l);
	}
	is_int(one("lid:3 rtt_median<=50 ms reachable loss<=5 % hops=1", &l), 0,
	       "units among other words");
	is_int(l.count ? l.entries[0].expect_count : 0, 4,
	       "four expectations: the units joined their values");
	checklist_free(&l);
}

static void test_errors(void)
{
	static const struct {
		const char *line, *message;
	} bad[] = {
		{ "lid:3 bogus", "7:7: unknown word 'bogus': expected reachable" },
		{ "lid:3 mcast_members>=2", "7:7: mcast_members is for a group: give an mcast: destination" },
		{ "lid:3 mcast_member=host-b", "7:7: mcast_member is for a group: give an mcast: destination" },
		{ "mcast:ipoib reachable", "7:13: reachable is not for a group: a group expects mcast_joinable, mcast_members>=N or mcast_member=HOST" },
		{ "mcast:ipoib qpn=5 mcast_joinable", "7:1: qpn= is not for a group: probes to a group go to QPN 0xffffff" },
		{ "mcast:ipoib mcast_member", "7:13: mcast_member is written as mcast_member=HOST" },
		{ "mcast:ipoib mcast_member=", "7:13: mcast_member is written as mcast_member=HOST" },
		{ "mcast:ipoib mcast_members<=3", "7:13: mcast_members is written as mcast_members>=N or mcast_members=N" },
		{ "mcast:ipoib mcast_members>=4097", "7:28: mcast_members '4097' is out of range" },
		{ "mcast:ipoib mcast_joinable=yes", "7:13: mcast_joinable is written as a bare word" },
		{ "lid:3 hops=3-1", "7:12: hops range '3-1' runs backwards" },
		{ "lid:3 hops=256", "7:12: hops '256' is out of range: expected 0-255" },
		{ "lid:3 hops<=2", "7:7: hops is written as hops=N or hops=N-M" },
		{ "lid:3 hops=", "7:7: hops is written as hops=N or hops=N-M" },
		{ "lid:3 loss=12", "7:7: loss is written as loss<=N" },
		{ "lid:3 loss<=101%", "7:13: loss '101' is out of range: expected 0-100" },
		{ "lid:3 rtt_median<=5s", "7:19: rtt_median '5s' is not a duration: expected N (microseconds), N us or N ms" },
		{ "lid:3 rtt_median<=3600001ms", "7:19: rtt_median '3600001ms' is out of range: expected at most 3600000000 us" },
		{ "lid:3 rtt_median<=3600000001", "7:19: rtt_median '3600000001' is out of range" },
		{ "lid:3 rtt_median<=1.5us", "7:19: rtt_median '1.5us' is finer than a microsecond" },
		{ "lid:3 rtt_median<=0.0005 ms", "7:19: rtt_median '0.0005 ms' is finer than a microsecond" },
		{ "lid:3 rtt_median<=.5ms", "7:19: rtt_median '.5ms' is not a duration" },
		{ "lid:3 rtt_median<=5 s", "7:21: unknown word 's'" },
		{ "lid:3 rtt_median<50", "7:7: rtt_median is written as rtt_median<=N" },
		{ "lid:3 loss>5", "7:7: loss is written as loss<=N" },
		{ "lid:3 hops=1 ms", "7:12: hops '1 ms' is not a number" },
		{ "lid:3 path_mtu>=2048 %", "7:17: mtu '2048 %' is not valid" },
		{ "lid:3 reachable ms", "7:17: 'ms' is a unit: it follows a number, as in rtt_median<=50 ms" },
		{ "lid:3 ms", "7:7: 'ms' is a unit" },
		{ "lid:3 path_mtu>=3000", "7:17: mtu '3000' is not valid" },
		{ "lid:3 path_mtu<=2048", "7:7: path_mtu is written as path_mtu>=N or path_mtu=N" },
		{ "lid:3 path_sl=16", "7:15: path_sl '16' is out of range: expected 0-15" },
		{ "lid:3 grh_required=maybe", "7:20: grh_required takes yes or no, not 'maybe'" },
		{ "lid:3 reachable=1", "7:7: reachable is written as a bare word" },
		{ "lid:3 tclass_seen", "7:7: tclass_seen is written as tclass_seen=N" },
		{ "lid:3 tclass=0x1ff", "7:14: traffic class '0x1ff' is out of range" },
		{ "lid:3 flow_label=0x123456", "7:18: 20-bit flow label '0x123456' is out of range" },
		{ "lid:3 sl=16", "7:10: 4-bit sl '16' is out of range" },
		{ "lid:3 count=0", "7:13: count '0' is out of range: expected 1-1000000" },
		{ "lid:3 count=2 count=3", "7:15: count is given twice" },
		{ "lid:3 tclass<=3", "7:7: tclass is written as tclass=VALUE" },
		{ "lid:3 hops=1 qkey=5", "7:14: qkey= needs qpn=" },
		{ "lid:99999", "7:1: lid '99999' is out of range" },
		{ "   gid:zz reachable", "7:4: " },
	};
	struct checklist l;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		is_int(one(bad[i].line, &l), -1, "refused: %s", bad[i].line);
		ok(strncmp(err, bad[i].message, strlen(bad[i].message)) == 0,
		   "message of '%s' starts '%s'", bad[i].line, bad[i].message);
		if (strncmp(err, bad[i].message, strlen(bad[i].message)) != 0)
			printf("#   got \"%s\"\n", err);
		is_int(l.count, 0, "nothing added for '%s'", bad[i].line);
	}
}

static void test_read(void)
{
	static const char good[] =
		"# rack 12 bring-up\n"
		"\n"
		"host-b:18516 hops=0\n"
		"host-c:18517 tclass=0x28 tclass_preserved   # via R1\n"
		"lid:7 path_mtu>=2048\n";
	static const char broken[] =
		"host-b:18516\n"
		"host-c:18517 hops=one\n";
	struct checklist l = { 0 };
	FILE *in;

	in = fmemopen((void *)good, sizeof(good) - 1, "r");
	is_int(checklist_read(&l, in, "rack12.chk", err, sizeof(err)), 0,
	       "a file with comments and blank lines");
	fclose(in);
	is_int(l.count, 3, "three entries");
	ok(l.entries[0].line == 3 && l.entries[1].line == 4 &&
		   l.entries[2].line == 5, "with their line numbers");
	checklist_free(&l);

	in = fmemopen((void *)broken, sizeof(broken) - 1, "r");
	is_int(checklist_read(&l, in, "rack12.chk", err, sizeof(err)), -1,
	       "an error on line 2");
	fclose(in);
	is_str(err, "rack12.chk:2:19: hops 'one' is not a number: expected 0-255",
	       "names the file, line and column");
	ok(l.count == 0 && l.entries == NULL, "and keeps nothing");

	/* Every broken line, one message each, in order. */
	static const char several[] =
		"lid:1 hops=one\n"
		"lid:2 reachable\n"
		"lid:3 fast\n";
	in = fmemopen((void *)several, sizeof(several) - 1, "r");
	is_int(checklist_read(&l, in, "r.chk", err, sizeof(err)), -1,
	       "two broken lines");
	fclose(in);
	is_str(err, "r.chk:1:12: hops 'one' is not a number: expected 0-255\n"
		    "r.chk:3:7: unknown word 'fast': expected reachable, "
		    "unreachable, isolated, hops, loss, rtt_median, rtt_p99, "
		    "network_rtt_median, network_rtt_p99, "
		    "tclass_preserved, tclass_seen, pcp_seen, flow_label_preserved, "
		    "path_mtu, path_sl, grh_required, paths_ok, mcast_joinable, "
		    "mcast_members, mcast_member, or what to send: "
		    "hop_limit, tclass, flow_label, sl, count, qpn, qkey",
	       "both named, a line each");
	ok(l.count == 0, "and nothing kept");
}

/* Groups: their expectations, the default mcast_members>=1, qkey=
 * alone (no rendezvous tells a group's Q_Key). */
static void test_groups(void)
{
	struct checklist l = { 0 };
	char msg[DIAG_MSG_MAX * 2];
	const struct check_entry *e;

	ok(checklist_add_line(&l, "mcast:239.1.2.3 count=3 qkey=0x11 "
			      "mcast_members>=2 mcast_member=host-c "
			      "mcast_joinable", 1, msg, sizeof(msg)) == 0,
	   "a group's line: %s", msg);
	ok(checklist_add_line(&l, "mcast:ipoib", 2, msg, sizeof(msg)) == 0,
	   "a group alone");
	if (l.count != 2) {
		checklist_free(&l);
		return;
	}
	e = &l.entries[0];
	is_int(e->expect_count, 3, "three expectations");
	is_int(e->expects[0].kind, EXPECT_MCAST_MEMBERS, "mcast_members");
	is_int(e->expects[0].low, 2, "at least 2");
	is_int(e->expects[1].kind, EXPECT_MCAST_MEMBER, "mcast_member");
	is_str(expectation_name_value(&e->expects[1]), "host-c", "its host");
	is_int(e->expects[2].kind, EXPECT_MCAST_JOINABLE, "mcast_joinable");
	ok(e->has_qkey && e->qkey == 0x11, "qkey= alone for a group");
	ok(entry_needs(e, NEED_MCAST_PROBE) && entry_needs(e, NEED_MCAST_SA) &&
	   !entry_needs(e, NEED_PROBE), "needs: the group's, not a probe's");
	e = &l.entries[1];
	is_int(e->expect_count, 1, "a group alone: one expectation");
	is_int(e->expects[0].kind, EXPECT_MCAST_MEMBERS,
	       "by default mcast_members");
	is_int(e->expects[0].low, 1, "at least one member");
	is_str(e->expects[0].text, "mcast_members>=1", "as written");
	checklist_free(&l);
}

/* paths_ok=all: the one value it takes. */
static void test_paths_ok(void)
{
	struct checklist l = { 0 };
	char msg[DIAG_MSG_MAX * 2];

	is_int(checklist_add_line(&l, "lid:3 paths_ok=all", 1, msg,
				  sizeof(msg)), 0, "paths_ok=all");
	ok(l.count == 1 && l.entries[0].expect_count == 1 &&
	   l.entries[0].expects[0].kind == EXPECT_PATHS_OK &&
	   entry_needs(&l.entries[0], NEED_PROBE), "a probing expectation");
	is_str(expect_kind_name(EXPECT_PATHS_OK), "paths_ok", "its name");
	is_int(checklist_add_line(&l, "lid:3 paths_ok=some", 2, msg,
				  sizeof(msg)), -1, "paths_ok=some refused");
	is_str(msg, "2:16: paths_ok takes all, not 'some'", "at the value");
	is_int(checklist_add_line(&l, "lid:3 paths_ok", 3, msg, sizeof(msg)),
	       -1, "bare paths_ok refused");
	is_str(msg, "3:7: paths_ok is written as paths_ok=all", "how it is written");
	is_int(checklist_add_line(&l, "lid:3 paths_ok>=all", 4, msg,
				  sizeof(msg)), -1, "paths_ok>=all refused");
	checklist_free(&l);
}

int main(void)
{
	test_groups();
	test_paths_ok();
	test_entry_words();
	test_units();
	test_errors();
	test_read();
	return tap_done();
}
