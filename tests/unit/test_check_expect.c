/* Unit tests of checklist expectations judged against measurements: each
 * kind held and missed, the words of "got" and "expected", and what is
 * said when nothing could be measured. */
#include "check_expect.h"
#include "checklist.h"
#include "diag.h"
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
}

int main(void)
{
	test_probe_kinds();
	test_nothing_answered();
	test_not_measured();
	test_path_and_ah();
	return tap_done();
}
