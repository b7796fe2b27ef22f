/* Unit tests of checklist expectations judged against measurements: each
 * kind held and missed, the words of "got" and "expected", their numbers
 * and units (check -j), and what is said when nothing could be measured;
 * long words are never cut in half. */
#include <math.h>
#include <string.h>

#include "probe/check_expect.h"
#include "probe/checklist.h"
#include "base/diag.h"
#include "base/parse.h"
#include "tap.h"

/* The one expectation of a checklist line. */
static struct expectation expect(const char *words)
{
	struct checklist l = { 0 };
	struct expectation e = { 0 };
	char line[256], err[DIAG_MSG_MAX * 2];

	snprintf(line, sizeof(line), "lid:3 %s", words);
	if (checklist_add_line(&l, line, 1, err, sizeof(err)) == 0)
		e = l.entries[0].expects[0];
	else
		printf("# cannot parse '%s': %s\n", words, err);
	checklist_free(&l);
	return e;
}

/* Five sent, four answered, two router hops, tclass 0x28 sent and 0x30
 * seen, flow label 0x12345 sent and 0 seen, RTT 40/90 us. */
static struct check_measured probed(void)
{
	return (struct check_measured){
		.probed = true, .sent = 5, .received = 4,
		.rtt_valid = true, .rtt_median_us = 40.5, .rtt_p99_us = 90,
		.network_rtt_valid = true, .network_rtt_median_us = 12.25,
		.network_rtt_p99_us = 30,
		.hops = 2, .observed_valid = true, .grh_present = true,
		.asked = { .hop_limit = 64, .traffic_class = 0x28,
			   .flow_label = 0x12345 },
		.tclass_seen = 0x30, .flow_label_seen = 0,
		.path_valid = true, .path_mtu = 2048, .has_path_sl = true,
		.path_sl = 3, .ah_known = true, .ah_is_global = true,
	};
}

static void judged(const char *words, const struct check_measured *m,
		   bool want_ok, const char *want_got,
		   const char *want_expected)
{
	struct expectation e = expect(words);
	struct check_outcome o;

	check_expect_judge(&e, m, &o);
	is_int(o.ok, want_ok, "%s %s", words, want_ok ? "holds" : "fails");
	is_str(o.got, want_got, "%s: got", words);
	is_str(o.expected, want_expected, "%s: expected", words);
}

static void test_probe_kinds(void)
{
	struct check_measured m = probed();

	judged("reachable", &m, true, "4 of 5 answered", "reachable");
	judged("unreachable", &m, false, "4 of 5 answered", "unreachable");
	judged("hops=2", &m, true, "2", "2");
	judged("hops=0", &m, false, "2", "0");
	judged("hops=1-3", &m, true, "2", "1-3");
	judged("loss<=20%", &m, true, "20% (1 of 5 lost)", "at most 20%");
	judged("loss<=0", &m, false, "20% (1 of 5 lost)", "0%");
	judged("rtt_median<=50", &m, true, "40.5 us", "at most 50 us");
	judged("rtt_median<=40", &m, false, "40.5 us", "at most 40 us");
	judged("rtt_p99<=1ms", &m, true, "90.0 us", "at most 1000 us");
	judged("network_rtt_median<=15", &m, true, "12.3 us", "at most 15 us");
	judged("network_rtt_median<=12", &m, false, "12.3 us", "at most 12 us");
	judged("network_rtt_p99<=20us", &m, false, "30.0 us", "at most 20 us");
	m.network_rtt_valid = false;
	judged("network_rtt_median<=15", &m, false, "the responder did not say "
	       "how long it held the probes (an older serve)", "at most 15 us");
	m.network_rtt_valid = true;
	judged("tclass_preserved", &m, false, "0x30", "0x28");
	judged("tclass_seen=0x30", &m, true, "0x30", "0x30");
	judged("flow_label_preserved", &m, false, "0x00000", "0x12345");

	m.tclass_seen = 0x28;
	m.flow_label_seen = 0x12345;
	judged("tclass_preserved", &m, true, "0x28", "0x28");
	judged("flow_label_preserved", &m, true, "0x12345", "0x12345");

	/* 1 lost of 1000 rounds up: it is not "0%". */
	m.sent = 1000;
	m.received = 999;
	judged("loss<=0", &m, false, "1% (1 of 1000 lost)", "0%");

	/* With the responder's counts, which way they went. */
	m.loss_direction = ONEWAY_THERE;
	judged("loss<=0", &m, false, "1% (1 of 1000 lost on the way there)",
	       "0%");
	m.loss_direction = ONEWAY_BACK;
	judged("loss<=0", &m, false, "1% (1 of 1000 lost on the way back)",
	       "0%");
	m.loss_direction = ONEWAY_BOTH;
	judged("loss<=0", &m, false, "1% (1 of 1000 lost both ways)", "0%");
	m.loss_direction = ONEWAY_UNKNOWN;
	judged("loss<=0", &m, false, "1% (1 of 1000 lost)", "0%");
}

static void test_nothing_answered(void)
{
	struct check_measured m = probed();

	m.received = 0;
	m.rtt_valid = false;
	m.observed_valid = false;
	m.hops = -1;
	judged("unreachable", &m, true, "0 of 5 answered", "unreachable");
	judged("reachable", &m, false, "0 of 5 answered", "reachable");
	judged("hops=1", &m, false, "no reply", "1");
	judged("rtt_median<=100", &m, false, "no reply", "at most 100 us");
	m.network_rtt_valid = false;
	judged("network_rtt_p99<=100", &m, false, "no reply", "at most 100 us");
	judged("tclass_seen=0x28", &m, false, "no reply", "0x28");
	judged("loss<=50%", &m, false, "100% (5 of 5 lost)", "at most 50%");

	m.received = 5;
	m.observed_valid = true;
	m.grh_present = false;
	judged("tclass_preserved", &m, false, "no GRH at the responder", "0x28");

	/* Known from another set to the same host: a loss still has hops. */
	m.hops = 1;
	judged("hops=1", &m, true, "1", "1");
}

static void test_not_measured(void)
{
	struct check_measured m = probed();

	m.probe_error = "connection refused by 198.18.4.4 port 18518";
	judged("reachable", &m, false,
	       "connection refused by 198.18.4.4 port 18518", "reachable");
	judged("unreachable", &m, false,
	       "connection refused by 198.18.4.4 port 18518", "unreachable");

	m = probed();
	m.path_valid = false;
	m.path_error = "no records (SA status 0x0300)";
	judged("path_mtu>=1024", &m, false, "no records (SA status 0x0300)",
	       "at least 1024 bytes");

	m = probed();
	m.probed = false;
	judged("hops=1", &m, false, "not probed", "1");
	m.ah_known = false;
	judged("grh_required=yes", &m, false, "no address handle built",
	       "a GRH");
}

static void test_path_and_ah(void)
{
	struct check_measured m = probed();

	judged("path_mtu>=2048", &m, true, "2048 bytes", "at least 2048 bytes");
	judged("path_mtu>=4096", &m, false, "2048 bytes", "at least 4096 bytes");
	judged("path_mtu=2048", &m, true, "2048 bytes", "2048 bytes");
	judged("path_sl=3", &m, true, "3", "3");
	judged("path_sl=0", &m, false, "3", "0");
	judged("grh_required=yes", &m, true, "a GRH", "a GRH");
	judged("grh_required=no", &m, false, "a GRH", "no GRH");
	m.has_path_sl = false;
	judged("path_sl=0", &m, false, "no SL: RoCE has no SA path record",
	       "0");
	m.ah_is_global = false;
	judged("grh_required=no", &m, true, "no GRH", "no GRH");
	/* RoCE: the port's MTU is no path's; what was not measured never
	 * passes (issue 26). */
	m.path_mtu = 1024;
	m.path_mtu_unmeasured = "not measured on RoCE (the port's MTU is "
				"1024 bytes)";
	judged("path_mtu>=1024", &m, false, m.path_mtu_unmeasured,
	       "at least 1024 bytes");
	judged("path_mtu=1024", &m, false, m.path_mtu_unmeasured,
	       "1024 bytes");
}

/* The numbers behind the words: value and unit got; min, max and unit
 * expected (NAN: no bound). */
static void numbers(const char *words, const struct check_measured *m,
		    double got, const char *unit, double min, double max)
{
	struct expectation e = expect(words);
	struct check_outcome o;
	const struct check_got *g = &o.got_value;
	const struct check_expected *x = &o.expected_value;

	check_expect_judge(&e, m, &o);
	ok(g->known && !g->is_bool && g->value == got, "%s: got value %g (%g)",
	   words, got, g->value);
	is_str(g->unit ? g->unit : "(null)", unit ? unit : "(null)",
	       "%s: got unit", words);
	is_str(x->unit ? x->unit : "(null)", unit ? unit : "(null)",
	       "%s: expected unit", words);
	ok(min != min ? !x->has_min : x->has_min && x->min == min,
	   "%s: expected min %s%g", words, min != min ? "none " : "", min);
	ok(max != max ? !x->has_max : x->has_max && x->max == max,
	   "%s: expected max %s%g", words, max != max ? "none " : "", max);
}

static void test_structured(void)
{
	struct check_measured m = probed();
	struct expectation e;
	struct check_outcome o;
	const double none = 0.0 / 0.0;

	numbers("rtt_median<=50", &m, 40.5, "us", none, 50);
	numbers("rtt_p99<=1ms", &m, 90, "us", none, 1000);
	numbers("loss<=20%", &m, 20, "percent", none, 20);
	numbers("hops=1-3", &m, 2, "hops", 1, 3);
	numbers("hops=0", &m, 2, "hops", 0, 0);
	numbers("path_mtu>=1024", &m, 2048, "bytes", 1024, none);
	numbers("path_sl=3", &m, 3, NULL, 3, 3);
	numbers("tclass_seen=0x30", &m, 0x30, NULL, 0x30, 0x30);
	numbers("tclass_preserved", &m, 0x30, NULL, 0x28, 0x28);
	numbers("reachable", &m, 4, "replies", 1, none);
	numbers("unreachable", &m, 4, "replies", 0, 0);

	e = expect("loss<=20%");
	check_expect_judge(&e, &m, &o);
	ok(o.got_value.has_counts && o.got_value.sent == 5 &&
	   o.got_value.received == 4, "loss: got has sent 5, received 4");

	e = expect("grh_required=no");
	check_expect_judge(&e, &m, &o);
	ok(o.got_value.known && o.got_value.is_bool && o.got_value.value == 1,
	   "grh_required: got is the yes/no true");
	ok(o.expected_value.is_bool && !o.expected_value.value,
	   "grh_required=no: expected is the yes/no false");

	/* Nothing measured: no value, the reason instead. */
	m.rtt_valid = false;
	e = expect("rtt_median<=50");
	check_expect_judge(&e, &m, &o);
	ok(!o.got_value.known && o.got_value.reason &&
	   strcmp(o.got_value.reason, "no reply") == 0,
	   "no RTT: got has no value and the reason 'no reply'");
	ok(o.expected_value.has_max && o.expected_value.max == 50,
	   "no RTT: expected still says at most 50");
}

/* An error as long as any message a measurement carries is kept whole;
 * a longer one ends with a whole word and "...". */
static void test_long_words(void)
{
	struct check_measured m = probed();
	char longer[DIAG_MSG_MAX - 1], huge[3 * DIAG_MSG_MAX], fit[40];
	struct expectation e = expect("reachable");
	struct check_outcome o;
	size_t n;

	/* "responder-00 responder-01 ...", words of 12 letters. */
	longer[0] = huge[0] = '\0';
	for (int i = 0; strlen(longer) + 13 < sizeof(longer); i++)
		snprintf(longer + strlen(longer), sizeof(longer) - strlen(longer),
			 "%sresponder-%02d", i ? " " : "", i % 100);
	for (int i = 0; strlen(huge) + 13 < sizeof(huge); i++)
		snprintf(huge + strlen(huge), sizeof(huge) - strlen(huge),
			 "%sresponder-%02d", i ? " " : "", i % 100);
	m.probe_error = longer;
	check_expect_judge(&e, &m, &o);
	is_str(o.got, longer, "a %zu-byte reason is kept whole",
	       strlen(longer));
	m.probe_error = huge;
	check_expect_judge(&e, &m, &o);
	n = strlen(o.got);
	ok(n > 3 && n < sizeof(o.got) && strcmp(o.got + n - 3, "...") == 0,
	   "a %zu-byte reason ends with '...'", strlen(huge));
	ok(n > 3 && strncmp(o.got, huge, n - 3) == 0 &&
	   huge[n - 3] == ' ' && o.got[n - 4] != ' ',
	   "and is cut after a whole word: '%.20s'", o.got + n - 20);

	check_text_fit(fit, sizeof(fit), "no answer within 1 ms from host-c");
	is_str(fit, "no answer within 1 ms from host-c", "a short text fits");
	check_text_fit(fit, sizeof(fit),
		       "no answer within 1 ms (-t) from responder-at-host-c");
	is_str(fit, "no answer within 1 ms (-t) from...",
	       "cut before the word that does not fit");
	check_text_fit(fit, 12, "unreachable-because-of-one-long-word");
	is_str(fit, "...", "a single word too long leaves only '...'");
}

/* isolated (issue 26): the way to check a partition or an ACL. Passes
 * only when the responder is up and its own count says no probe arrived;
 * a reply, a count above 0, no count, no responder all fail, each with
 * its reason. */
static void test_isolated(void)
{
	struct check_measured m = probed();
	struct expectation e = expect("isolated");
	struct check_outcome o;
	const char *want = "the responder up, 0 probes arriving";

	m.via_rendezvous = true;
	m.received = 0;
	m.responder_received = 0;
	judged("isolated", &m, true, "the responder is up and saw 0 of 5",
	       want);
	check_expect_judge(&e, &m, &o);
	ok(o.got_value.known && o.got_value.value == 0 &&
		   !strcmp(o.got_value.unit, "requests") &&
		   o.expected_value.has_max && o.expected_value.max == 0,
	   "as numbers: 0 requests, at most 0");

	m.responder_received = 3;
	judged("isolated", &m, false, "the responder saw 3 of 5: the "
	       "datagrams arrive (its replies were lost on the way back)",
	       want);
	m.received = 2;
	judged("isolated", &m, false, "2 of 5 answered: the datagrams arrive",
	       want);
	m.received = 0;
	m.responder_received = -1;
	judged("isolated", &m, false, "no reply, but whether the probes "
	       "arrived is not known: the responder's count could not be had",
	       want);
	check_expect_judge(&e, &m, &o);
	ok(!o.got_value.known, "no count: no value");

	m.responder_received = 0;
	m.probe_error = "no answer from the rendezvous at c:18517 "
			"(connection refused)";
	judged("isolated", &m, false, "no responder to ask: no answer from "
	       "the rendezvous at c:18517 (connection refused)", want);
	m.probe_error = NULL;
	m.via_rendezvous = false;
	judged("isolated", &m, false, "not known: qpn= skips the rendezvous, "
	       "so the responder's count cannot be asked", want);
	m = (struct check_measured){ .responder_received = -1 };
	judged("isolated", &m, false, "not probed", want);
}

/* pcp_seen: the PCP the responder saw, where its device reports it; not
 * known fails with the reason, never passes. */
static void test_pcp_seen(void)
{
	struct check_measured m = probed();
	struct expectation e;

	m.pcp_seen_known = true;
	m.pcp_seen = 3;
	judged("pcp_seen=3", &m, true, "3", "3");
	m.pcp_seen = 0;
	judged("pcp_seen=3", &m, false, "0", "3");
	numbers("pcp_seen=3", &m, 0, NULL, 3, 3);
	m.pcp_seen_known = false;
	m.pcp_unknown = "the responder's device does not report the VLAN tag "
			"of a receive (no IBV_WC_EX_WITH_CVLAN, as rxe)";
	judged("pcp_seen=0", &m, false, m.pcp_unknown, "0");
	m = probed();
	m.received = 0;
	m.observed_valid = false;
	m.pcp_unknown = "no reply";
	judged("pcp_seen=0", &m, false, "no reply", "0");
	e = expect("pcp_seen=8");
	ok(e.text[0] == '\0', "pcp_seen=8 is refused (PCP 0-7)");
}

/* The one expectation of a group's line. */
static struct expectation expect_group(const char *words)
{
	struct checklist l = { 0 };
	struct expectation e = { 0 };
	char line[256], err[DIAG_MSG_MAX * 2];

	snprintf(line, sizeof(line), "mcast:239.1.2.3 %s", words);
	if (checklist_add_line(&l, line, 1, err, sizeof(err)) == 0)
		e = l.entries[0].expects[0];
	else
		printf("# cannot parse '%s': %s\n", words, err);
	checklist_free(&l);
	return e;
}

static void judged_group(const char *words, const struct check_measured *m,
			 bool want_ok, const char *want_got,
			 const char *want_expected)
{
	struct expectation e = expect_group(words);
	struct check_outcome o;

	check_expect_judge(&e, m, &o);
	is_int(o.ok, want_ok, "%s %s", words, want_ok ? "holds" : "fails");
	is_str(o.got, want_got, "%s: got", words);
	is_str(o.expected, want_expected, "%s: expected", words);
}

static int fake_resolve(const char *host, union ibv_gid *gid, char *err,
			size_t errlen)
{
	if (strcmp(host, "host-c") == 0)
		return parse_gid("198.18.3.3", gid, err, errlen);
	snprintf(err, errlen, "cannot resolve '%s'", host);
	return -1;
}

static void test_mcast_kinds(void)
{
	union ibv_gid members[2];
	struct check_mcast_boundary boundary = { 0 };
	struct check_measured m = { .hops = -1 };
	struct expectation e;
	struct check_outcome o;
	char err[DIAG_MSG_MAX];

	parse_gid("198.18.1.2", &members[0], err, sizeof(err));
	parse_gid("198.18.3.3", &members[1], err, sizeof(err));
	judged_group("mcast_members>=2", &m, false, "not probed",
		     "at least 2 members");
	m.mcast_error = "probing a group needs a verbs device";
	judged_group("mcast_members>=2", &m, false,
		     "probing a group needs a verbs device",
		     "at least 2 members");
	m.mcast_error = NULL;
	m.mcast_probed = true;
	m.mcast_answered = 2;
	m.mcast_member_gids = members;
	judged_group("mcast_members>=2", &m, true, "2 members answered",
		     "at least 2 members");
	judged_group("mcast_members>=3", &m, false, "2 members answered",
		     "at least 3 members");
	judged_group("mcast_members=2", &m, true, "2 members answered",
		     "2 members");
	e = expect_group("mcast_members>=3");
	check_expect_judge(&e, &m, &o);
	ok(o.got_value.known && o.got_value.value == 2 &&
	   strcmp(o.got_value.unit, "members") == 0, "members as a number");
	judged_group("mcast_member=198.18.1.2", &m, true,
		     "198.18.1.2 answered", "198.18.1.2 answering");
	judged_group("mcast_member=198.18.9.9", &m, false,
		     "198.18.9.9 not among the 2 members that answered "
		     "(198.18.1.2, 198.18.3.3)", "198.18.9.9 answering");
	/* Traced unicast: where the group stops for it follows. */
	parse_gid("198.18.9.9", &boundary.gid, err, sizeof(err));
	snprintf(boundary.words, sizeof(boundary.words), "198.18.9.9 answers "
		 "unicast over 198.18.1.1 but not 239.1.2.3: 198.18.1.1 does "
		 "not route the group (the boundary)");
	m.mcast_boundaries = &boundary;
	m.mcast_boundary_count = 1;
	judged_group("mcast_member=198.18.9.9", &m, false,
		     "198.18.9.9 not among the 2 members that answered "
		     "(198.18.1.2, 198.18.3.3); 198.18.9.9 answers unicast "
		     "over 198.18.1.1 but not 239.1.2.3: 198.18.1.1 does not "
		     "route the group (the boundary)", "198.18.9.9 answering");
	judged_group("mcast_member=198.18.9.8", &m, false,
		     "198.18.9.8 not among the 2 members that answered "
		     "(198.18.1.2, 198.18.3.3)", "198.18.9.8 answering");
	m.mcast_boundary_count = 0;
	judged_group("mcast_member=host-c", &m, false,
		     "gid 'host-c' is not valid: expected an IPv6-format GID "
		     "such as fe80::2 or an IPv4 address",
		     "host-c answering");
	m.resolve_host = fake_resolve;
	judged_group("mcast_member=host-c", &m, true, "198.18.3.3 answered",
		     "host-c answering");
	judged_group("mcast_member=host-x", &m, false,
		     "cannot resolve 'host-x'", "host-x answering");
	m.mcast_answered = 0;
	judged_group("mcast_member=host-c", &m, false,
		     "198.18.3.3 not among the 0 members that answered",
		     "host-c answering");

	judged_group("mcast_joinable", &m, false, "the SA was not asked",
		     "joinable");
	m.mcast_sa_error = "RoCE has no SA: nothing judges a join";
	judged_group("mcast_joinable", &m, false,
		     "RoCE has no SA: nothing judges a join", "joinable");
	m.mcast_sa_error = NULL;
	m.mcast_joinable_known = true;
	m.mcast_joinable = false;
	m.mcast_joinable_words = "this port (MTU 2048) cannot join "
				 "ff12:401b:8001::ffff:ffff (MTU 4096)";
	judged_group("mcast_joinable", &m, false,
		     "this port (MTU 2048) cannot join "
		     "ff12:401b:8001::ffff:ffff (MTU 4096)", "joinable");
	m.mcast_joinable = true;
	m.mcast_joinable_words = "";
	judged_group("mcast_joinable", &m, true, "joinable", "joinable");
}

/* paths_ok=all over the paths' counts: fine only when every path
 * answered every probe; the failing ones named, and counted as paths. */
static void test_paths_ok(void)
{
	struct check_measured m = probed();
	struct probe_path_count p[4];

	for (unsigned i = 0; i < 4; i++)
		p[i] = (struct probe_path_count){
			.index = i + 1, .of = 4, .dlid = (uint16_t)(0x10 + i),
			.probed = true, .sent = 10, .received = 10,
		};
	m.paths = p;
	m.path_count = 4;
	judged("paths_ok=all", &m, true, "all 4 paths fine", "every path fine");
	numbers("paths_ok=all", &m, 0, "paths", NAN, 0);
	p[2].received = 0;
	judged("paths_ok=all", &m, false,
	       "DLID 0x12 (path 3 of 4) lost 10 of 10; paths 1, 2, 4 fine",
	       "every path fine");
	numbers("paths_ok=all", &m, 1, "paths", NAN, 0);
	p[0].probed = false;
	numbers("paths_ok=all", &m, 2, "paths", NAN, 0);
	/* The entry's first cell failed: the paths still speak. */
	m.probe_error = "AH creation failed";
	judged("paths_ok=all", &m, false,
	       "DLID 0x10 (path 1 of 4) not probed; DLID 0x12 (path 3 of 4) "
	       "lost 10 of 10; paths 2, 4 fine", "every path fine");
	/* Not expanded (RoCE; no path): never passes. */
	m = probed();
	judged("paths_ok=all", &m, false, "its LMC paths were not probed "
	       "(InfiniBand only, with a PathRecord)", "every path fine");
	m.probe_error = "no responder";
	judged("paths_ok=all", &m, false, "no responder", "every path fine");
	p[0] = (struct probe_path_count){ .index = 1, .of = 1, .dlid = 3,
					  .probed = true, .sent = 5,
					  .received = 5 };
	m = probed();
	m.paths = p;
	m.path_count = 1;
	judged("paths_ok=all", &m, true, "its one path fine", "every path fine");
}

int main(void)
{
	test_mcast_kinds();
	test_paths_ok();
	test_pcp_seen();
	test_structured();
	test_long_words();
	test_isolated();
	test_probe_kinds();
	test_nothing_answered();
	test_not_measured();
	test_path_and_ah();
	return tap_done();
}
