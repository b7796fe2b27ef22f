/* A multicast probe's answers by member (lib/probe/mcast_members.c): the
 * credit per (sequence, responder), the merge of who answered with whom
 * the SA lists, the summary's verdict and its sentence. */
#include <string.h>

#include "probe/mcast_members.h"
#include "tap.h"

#define MS 1000000u

static struct mcast_responder roce(uint8_t last)
{
	struct mcast_responder r = { .qpn = 0x11 };

	/* ::ffff:198.18.1.last */
	r.gid.raw[10] = r.gid.raw[11] = 0xff;
	r.gid.raw[12] = 198;
	r.gid.raw[13] = 18;
	r.gid.raw[14] = 1;
	r.gid.raw[15] = last;
	return r;
}

static void test_credit_per_member(void)
{
	struct mcast_tally t;
	struct mcast_responder b = roce(2), c = roce(3);
	size_t ib = 99, ic = 99;
	uint32_t s1, s2;

	ok(mcast_tally_init(&t, 2, 1000) == 0, "init");
	s1 = mcast_tally_sent(&t, 0, 100 * MS);
	s2 = mcast_tally_sent(&t, 10 * MS, 110 * MS);
	is_int(s1, 1000, "first sequence");
	is_int(s2, 1001, "second sequence");
	/* One probe, two members: both are answers, not a duplicate. */
	is_int(mcast_tally_credit(&t, &b, s1, 5 * MS, &ib),
	       PROBE_CREDIT_ANSWERED, "B answers probe 1");
	is_int(mcast_tally_credit(&t, &c, s1, 7 * MS, &ic),
	       PROBE_CREDIT_ANSWERED, "C answers probe 1 too");
	ok(ib != ic, "two members");
	is_int(t.count, 2, "two members counted");
	is_int(mcast_tally_credit(&t, &b, s1, 8 * MS, &ib),
	       PROBE_CREDIT_DUPLICATE, "B again for probe 1: duplicate");
	is_int(mcast_tally_credit(&t, &c, s2, 200 * MS, &ic),
	       PROBE_CREDIT_LATE, "C after probe 2's deadline: late");
	is_int(mcast_tally_credit(&t, &b, 999, 8 * MS, &ib),
	       PROBE_CREDIT_UNKNOWN, "a sequence before the run");
	is_int(mcast_tally_credit(&t, &b, 1002, 8 * MS, &ib),
	       PROBE_CREDIT_UNKNOWN, "a sequence never sent");
	is_int(t.strangers, 2, "both strangers counted");
	is_int(t.members[ib].received, 1, "B: 1 in time");
	is_int(t.members[ib].duplicates, 1, "B: 1 duplicate");
	is_int(t.members[ic].received, 1, "C: 1 in time");
	is_int(t.members[ic].late, 1, "C: 1 late");
	is_int(t.members[ib].rtt_min_ns, 5 * MS, "B's RTT");
	is_int(t.members[ic].rtt_max_ns, 7 * MS, "C's RTT");
	mcast_tally_free(&t);
}

/* On IB inside a subnet a reply may come without a GRH: the LID and QPN
 * tell members apart. */
static void test_ib_without_grh(void)
{
	struct mcast_tally t;
	struct mcast_responder x = { .lid = 5, .qpn = 0x20 };
	struct mcast_responder y = { .lid = 6, .qpn = 0x20 };
	size_t i;

	mcast_tally_init(&t, 1, 7);
	mcast_tally_sent(&t, 0, 10 * MS);
	mcast_tally_credit(&t, &x, 7, 1 * MS, &i);
	mcast_tally_credit(&t, &y, 7, 1 * MS, &i);
	is_int(t.count, 2, "LIDs 5 and 6: two members");
	mcast_tally_free(&t);
}

static void test_observe_hops(void)
{
	struct mcast_member m = { .hops = -1 };
	struct probe_observed o = { .grh_present = true, .hop_limit = 63 };

	mcast_member_observe(&m, &o, 64);
	is_int(m.hops, 1, "sent 64, seen 63: one router");
	o.hop_limit = 64;
	mcast_member_observe(&m, &o, 64);
	is_int(m.hops, 0, "on the LAN: 0 hops");
	mcast_member_observe(&m, &o, -1);
	is_int(m.hops, -1, "hop limit sent unknown: hops unknown");
	o.grh_present = false;
	mcast_member_observe(&m, &o, 64);
	is_int(m.hops, -1, "no GRH: hops unknown");
	o.grh_present = true;
	o.hop_limit = 70;
	mcast_member_observe(&m, &o, 64);
	is_int(m.hops, -1, "more arrived than sent: unknown");
}

static void test_merge_listed(void)
{
	struct mcast_tally t;
	struct mcast_responder b = roce(2), c = roce(3), d = roce(4);
	struct mcast_responder nogrh = { .lid = 9, .qpn = 0x30 };
	union ibv_gid listed[3] = { b.gid, d.gid, { .raw = { 0xfe, 0x80 } } };
	uint16_t lids[3] = { 0, 0, 9 };
	struct mcast_summary s;
	char words[160];
	size_t i;

	mcast_tally_init(&t, 1, 1);
	mcast_tally_sent(&t, 0, 10 * MS);
	mcast_tally_credit(&t, &b, 1, 1 * MS, &i);
	mcast_tally_credit(&t, &c, 1, 1 * MS, &i);
	mcast_tally_credit(&t, &nogrh, 1, 1 * MS, &i);
	mcast_tally_summarize(&t, 0, &s);
	is_int(s.answered, 3, "before the merge: 3 answered");
	is_int(s.unlisted, 0, "no listing: nobody is unlisted");
	ok(s.ok, "no listing, nothing expected: fine");

	ok(mcast_tally_merge_listed(&t, listed, lids, 3) == 0, "merge");
	is_int(t.count, 4, "D added as a member");
	ok(t.members[0].listed, "B listed");
	ok(!t.members[1].listed, "C not listed");
	ok(t.members[2].listed, "the LID-only reply matched by LID");
	is_int(mcast_member_state(&t, &t.members[0]), MCAST_MEMBER_ANSWERED,
	       "B answered");
	is_int(mcast_member_state(&t, &t.members[1]), MCAST_MEMBER_UNLISTED,
	       "C answered unlisted");
	is_int(mcast_member_state(&t, &t.members[3]), MCAST_MEMBER_SILENT,
	       "D silent");
	is_str(mcast_member_state_name(MCAST_MEMBER_SILENT), "silent",
	       "state name");
	mcast_tally_summarize(&t, 0, &s);
	is_int(s.answered, 3, "3 answered");
	is_int(s.silent, 1, "1 silent");
	is_int(s.unlisted, 1, "1 unlisted");
	ok(!s.ok, "a listed member silent: not fine");
	mcast_summary_describe(&s, words, sizeof(words));
	is_str(words, "3 members answered, 1 listed by the SA silent, "
		      "1 answered without being listed", "the sentence");
	mcast_tally_free(&t);
}

static void test_expect_members(void)
{
	struct mcast_tally t;
	struct mcast_responder b = roce(2);
	struct mcast_summary s;
	char words[160];
	size_t i;

	mcast_tally_init(&t, 1, 1);
	mcast_tally_sent(&t, 0, 10 * MS);
	mcast_tally_credit(&t, &b, 1, 1 * MS, &i);
	mcast_tally_summarize(&t, 3, &s);
	ok(!s.ok, "1 answered of 3 expected: not fine");
	mcast_summary_describe(&s, words, sizeof(words));
	is_str(words, "1 member answered; expected 3, 2 short",
	       "the sentence says the shortfall");
	mcast_tally_summarize(&t, 1, &s);
	ok(s.ok, "1 of 1: fine");
	mcast_tally_summarize(&t, 0, &s);
	mcast_summary_describe(&s, words, sizeof(words));
	is_str(words, "1 member answered", "no expectation");
	mcast_tally_free(&t);

	mcast_tally_init(&t, 1, 1);
	mcast_tally_sent(&t, 0, 10 * MS);
	mcast_tally_summarize(&t, 1, &s);
	mcast_summary_describe(&s, words, sizeof(words));
	is_str(words, "0 members answered; expected 1, 1 short",
	       "nobody answered");
	mcast_tally_free(&t);
}

int main(void)
{
	test_credit_per_member();
	test_ib_without_grh();
	test_observe_hops();
	test_merge_listed();
	test_expect_members();
	return tap_done();
}
