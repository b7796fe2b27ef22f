/* Unit tests of localisation's fit (localise_fit.h) on made-up results:
 * a lossy ToR uplink named, not its rack's hosts; background loss alone
 * names nothing; the unseen element where traces stop preferred to the
 * link that leads there; loss on the way back not charged to the forward
 * path (of unknown direction it is); one path for every
 * failing result marked; an element the naming ruled out no rival of
 * the pick that stands for it; a rack behind a ToR that forwards nothing
 * explained by the ToR; failing flows that lost what noise loses name
 * nothing, nor does a busy link losing a few times what its results
 * expect; a link whose failing results a ruled-out host explains far
 * better not named; a host's access link counted over every result of
 * its host, traced or not; untraced results spread over their pair's
 * traced paths telling a link from the one before it; results that lost everything not charged to
 * an element where they are the fewer of its failing ones, nor results
 * that lost far beyond an element's rate; a router that loses replies
 * coming in over its neighbours explaining those results, not their
 * host; an element out of range refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "report/localise_fit.h"

/* Rack A (hosts 0-3) behind ToR A, rack B (hosts 4-7) behind ToR B; A's
 * uplink to the spine, the spine's downlink to B, and back. */
enum {
	H0, H1, H2, H3, H4, H5, H6, H7, TOR_A, TOR_B, SPINE, UP_A, DOWN_B,
	UP_B, DOWN_A, UNSEEN_AFTER_SPINE, HX, UP_X, ACCESS_0, SPINE_2,
	ELEMENTS,
};

struct bench {
	struct loc_obs obs[256];
	size_t ends[256][2];
	size_t n;
};

static const size_t a_to_b[] = { TOR_A, UP_A, SPINE, DOWN_B, TOR_B };
static const size_t b_to_a[] = { TOR_B, UP_B, SPINE, DOWN_A, TOR_A };
static const size_t x_to_b[] = { UP_X, SPINE, DOWN_B, TOR_B };
static const size_t in_a[] = { TOR_A };
static const size_t in_b[] = { TOR_B };
static const size_t a_stops[] = { TOR_A, UP_A, SPINE, UNSEEN_AFTER_SPINE };
static const size_t up_stops[] = { UP_A, SPINE, UNSEEN_AFTER_SPINE };

static void add(struct bench *b, size_t src, size_t dst, const size_t *fwd,
		size_t fwd_count, double there, double back, double unknown)
{
	struct loc_obs *o = &b->obs[b->n];

	b->ends[b->n][0] = src;
	b->ends[b->n][1] = dst;
	*o = (struct loc_obs){
		.ends = b->ends[b->n], .end_count = 2, .fwd = fwd,
		.fwd_count = fwd_count, .weight = 1, .sent = 20,
		.lost_there = there, .lost_back = back, .lost_unknown = unknown,
		.length = fwd_count + 2, .source = src, .path = fwd_count,
		.failing = there + back + unknown > 0,
	};
	b->n++;
}

/* Every host to every other, each pair twice; loss(src, dst, k) the
 * datagrams lost there. */
static void mesh(struct bench *b, double (*loss)(size_t, size_t, size_t))
{
	for (size_t s = H0; s <= H7; s++)
		for (size_t d = H0; d <= H7; d++)
			for (size_t k = 0; s != d && k < 2; k++) {
				bool sa = s <= H3, da = d <= H3;
				const size_t *p = sa == da ? (sa ? in_a : in_b)
						  : sa	   ? a_to_b
							   : b_to_a;
				size_t len = sa == da ? 1 : 5;

				add(b, s, d, p, len, loss(s, d, k), 0, 0);
			}
}

/* One datagram in twenty lost on a few results here and there. */
static double noise(size_t s, size_t d, size_t k)
{
	return (s * 7 + d * 3 + k) % 11 == 0 ? 1 : 0;
}

/* A's uplink loses a tenth, on top of the noise. */
static double uplink(size_t s, size_t d, size_t k)
{
	return noise(s, d, k) + (s <= H3 && d > H3 ? 2 : 0);
}

static void test_uplink_not_rack(void)
{
	struct bench b = { .n = 0 };
	struct loc_fit fit;

	mesh(&b, uplink);
	/* Another rack's host reaches B through the same downlink. */
	for (size_t d = H4; d <= H7; d++)
		for (size_t k = 0; k < 4; k++)
			add(&b, HX, d, x_to_b, 4, 0, 0, 0);
	is_int(loc_fit_run(&fit, b.obs, b.n, ELEMENTS, NULL, -1), 0,
	       "uplink: fits");
	is_int(fit.count, 1, "uplink: one suspect");
	is_int(fit.count ? fit.picks[0].element : 99, UP_A,
	       "uplink: A's uplink, not rack A's hosts nor ToR A");
	ok(fit.count && fit.picks[0].confidence > 0.9,
	   "uplink: confident (%.2f)", fit.count ? fit.picks[0].confidence : 0);
	is_int(fit.count ? fit.picks[0].stats.failing : 0, 32,
	       "uplink: its 32 failing results");
	loc_fit_free(&fit);
}

/* The uplink excluded (the naming found its evidence to be another's):
 * never picked, and its results stay for the others, so the spine's
 * downlink to B that they all cross is what explains them. */
static void test_excluded(void)
{
	bool excluded[ELEMENTS] = { false };
	struct loc_relations rel = { .excluded = excluded };
	struct bench b = { .n = 0 };
	struct loc_fit fit;

	excluded[UP_A] = true;
	mesh(&b, uplink);
	is_int(loc_fit_run(&fit, b.obs, b.n, ELEMENTS, &rel, -1), 0,
	       "excluded: fits");
	ok(fit.count >= 1, "excluded: a suspect still");
	for (size_t k = 0; k < fit.count; k++)
		ok(fit.picks[k].element != UP_A, "excluded: pick %zu is not "
		   "the excluded uplink (%zu)", k, fit.picks[k].element);
	ok(fit.count && fit.picks[0].stats.failing == 32,
	   "excluded: the first pick explains the uplink's 32 failing "
	   "results (%zu)", fit.count ? fit.picks[0].stats.failing : 0);
	loc_fit_free(&fit);
}

static void test_noise_silent(void)
{
	struct bench b = { .n = 0 };
	struct loc_fit fit;

	mesh(&b, noise);
	is_int(loc_fit_run(&fit, b.obs, b.n, ELEMENTS, NULL, -1), 0,
	       "noise: fits");
	is_int(fit.count, 0, "noise: background loss names nothing");
	ok(fit.background > 0 && fit.background < 0.01,
	   "noise: background estimated (%g)", fit.background);
	loc_fit_free(&fit);
}

static void test_unseen_preferred(void)
{
	struct bench b = { .n = 0 };
	unsigned char prefer[ELEMENTS] = { 0 };
	struct loc_relations rel = { .prefer = prefer };
	struct loc_fit fit;

	for (size_t e = TOR_A; e < ELEMENTS; e++)
		prefer[e] = 2;
	prefer[UNSEEN_AFTER_SPINE] = 1;
	/* Every flow A -> B dies after the spine (its traces stop there),
	 * nothing else is sampled through the uplink. */
	for (size_t s = H0; s <= H3; s++)
		for (size_t d = H4; d <= H7; d++)
			add(&b, s, d, a_stops, 4, 0, 0, 20);
	for (size_t s = H0; s <= H3; s++)
		for (size_t d = H0; d <= H3; d++)
			if (s != d)
				add(&b, s, d, in_a, 1, 0, 0, 0);
	for (size_t s = H4; s <= H7; s++)
		for (size_t d = H0; d <= H7; d++)
			if (s != d)
				add(&b, s, d, s <= H3 || d > H3 ? in_b : b_to_a,
				    d > H3 ? 1 : 5, 0, 0, 0);
	is_int(loc_fit_run(&fit, b.obs, b.n, ELEMENTS, &rel, -1), 0,
	       "unseen: fits");
	is_int(fit.count, 1, "unseen: one suspect");
	is_int(fit.count ? fit.picks[0].element : 99, UNSEEN_AFTER_SPINE,
	       "unseen: where the traces stop, not the uplink into it");
	ok(fit.count && fit.picks[0].rival_count >= 1,
	   "unseen: the uplink is a rival");
	ok(fit.count && fit.picks[0].one_path,
	   "unseen: every failing result took one path");
	loc_fit_free(&fit);
}

/* The unseen hop after the spine and the uplink before it ruled out by
 * the naming (the spine loses what it forwards, toward every next hop:
 * localise.c router_behind_links): the spine, which passing flows cross
 * too, is named for them, though they explained the same failing
 * results far better. A ruled-out element is nobody's rival. */
static void test_excluded_no_rival(void)
{
	bool excluded[ELEMENTS] = { false };
	struct loc_relations rel = { .excluded = excluded };
	struct bench b = { .n = 0 };
	struct loc_fit fit;

	excluded[UNSEEN_AFTER_SPINE] = true;
	excluded[UP_A] = true;
	for (size_t s = H0; s <= H3; s++)
		for (size_t d = H4; d <= H7; d++)
			add(&b, s, d, up_stops, 3, 0, 0, 20);
	for (size_t d = H4; d <= H7; d++)
		for (size_t k = 0; k < 4; k++)
			add(&b, HX, d, x_to_b, 4, 0, 0, 0);
	is_int(loc_fit_run(&fit, b.obs, b.n, ELEMENTS, &rel, -1), 0,
	       "excluded rival: fits");
	is_int(fit.count ? fit.picks[0].element : 99, SPINE,
	       "excluded rival: the spine is named");
	ok(fit.count && fit.picks[0].confidence >= LOC_CONFIDENCE_MIN,
	   "excluded rival: with confidence (%.2f)",
	   fit.count ? fit.picks[0].confidence : 0);
	ok(fit.count && fit.picks[0].rival_count == 0,
	   "excluded rival: the ruled-out elements are no alternatives");
	loc_fit_free(&fit);
}

/* Results through the uplink lose a quarter of their replies on the way
 * back (the responder counted them all): the forward
 * path is not charged; the same with the direction unknown is evidence
 * for it (the first of the forward path's tied elements). */
static void test_back_not_forward(void)
{
	for (int unknown = 0; unknown < 2; unknown++) {
		struct bench b = { .n = 0 };
		struct loc_fit fit;

		for (size_t s = H0; s <= H3; s++)
			for (size_t d = H4; d <= H7; d++)
				for (size_t k = 0; k < 3; k++)
					add(&b, s, d, a_to_b, 5, 0,
					    unknown ? 0 : 5, unknown ? 5 : 0);
		is_int(loc_fit_run(&fit, b.obs, b.n, ELEMENTS, NULL, 1e-4), 0,
		       "back (%s): fits", unknown ? "unknown" : "known");
		if (!unknown) {
			bool forward = false;

			for (size_t k = 0; k < fit.count; k++) {
				size_t e = fit.picks[k].element;

				forward |= e == UP_A || e == SPINE ||
					   e == DOWN_B;
			}
			ok(!forward, "back: no forward-only element named");
		} else {
			ok(fit.count >= 1 && fit.picks[0].element >= TOR_A &&
				   fit.picks[0].element <= DOWN_B &&
				   fit.picks[0].stats.lost == 48 * 5,
			   "back (unknown): evidence for the forward path too "
			   "(%g)", fit.count ? fit.picks[0].stats.lost : 0.0);
		}
		loc_fit_free(&fit);
	}
}

/* ToR B forwards nothing: A's flows to B name it (their traces cross
 * it), B's own flows have no forward path (nothing answered their
 * traces). With B's hosts' edge known (edge_of) and ToR B standing for
 * its forwarding, its rack's results are its: ToR B alone is named;
 * without those relations B's hosts follow it. */
static void test_rack_behind_router(void)
{
	for (int related = 0; related < 2; related++) {
		struct bench b = { .n = 0 };
		size_t edge_of[ELEMENTS], stands_for[ELEMENTS];
		struct loc_relations rel = { .edge_of = edge_of,
					     .stands_for = stands_for };
		struct loc_fit fit;

		for (size_t e = 0; e < ELEMENTS; e++)
			edge_of[e] = stands_for[e] = SIZE_MAX;
		for (size_t h = H4; h <= H7; h++)
			edge_of[h] = TOR_B;
		for (size_t h = H0; h <= H3; h++)
			edge_of[h] = TOR_A;
		stands_for[TOR_B] = TOR_B;
		stands_for[TOR_A] = TOR_A;
		for (size_t s = H0; s <= H7; s++)
			for (size_t d = H0; d <= H7; d++)
				for (size_t k = 0; s != d && k < 2; k++) {
					if (s <= H3 && d <= H3)
						add(&b, s, d, in_a, 1, 0, 0, 0);
					else if (s <= H3)
						add(&b, s, d, a_to_b, 5, 0, 0, 20);
					else
						add(&b, s, d, NULL, 0, 0, 0, 20);
				}
		is_int(loc_fit_run(&fit, b.obs, b.n, ELEMENTS,
				   related ? &rel : NULL, 1e-4), 0,
		       "rack (%s): fits", related ? "related" : "alone");
		ok(fit.count >= 1 && fit.picks[0].element == TOR_B,
		   "rack (%s): ToR B first (%zu)", related ? "related" : "alone",
		   fit.count ? fit.picks[0].element : (size_t)99);
		if (related)
			is_int(fit.count, 1, "rack: its hosts not named");
		else
			ok(fit.count > 1, "rack (alone): its hosts follow (%zu)",
			   fit.count);
		loc_fit_free(&fit);
	}
}

/* Failing flows all traced, passing ones sampled: a link that only
 * failing traced flows cross, each having lost one datagram of unknown
 * direction (what noise makes a failing result lose), names nothing; the
 * same flows losing four each name it. */
static void test_selected_noise(void)
{
	static const size_t up_x[] = { UP_X };

	for (int lost = 1; lost <= 4; lost += 3) {
		struct bench b = { .n = 0 };
		struct loc_fit fit;

		for (size_t k = 0; k < 40; k++)
			add(&b, H0 + k % 8, H0 + (k + 1 + k / 8) % 8, up_x, 1,
			    0, 0, lost);
		for (size_t k = 0; k < b.n; k++)
			b.obs[k].length = 5;
		is_int(loc_fit_run(&fit, b.obs, b.n, ELEMENTS, NULL, 1e-3), 0,
		       "selected (%d lost): fits", lost);
		if (lost == 1)
			is_int(fit.count, 0, "selected: noise-sized losses "
			       "name nothing");
		else
			ok(fit.count >= 1 && fit.picks[0].element == UP_X,
			   "selected: four lost each name the link");
		loc_fit_free(&fit);
	}
}

/* A link that carries many results and loses four times what they
 * expect: LLR ~34 against the background, ~20 against the rate a
 * healthy element may have (LOC_NULL_SPREAD), so what it loses is an
 * element's own noise and it is not named; losing ten times what they
 * expect, it is. */
static void test_busy_noise(void)
{
	static const size_t up_x[] = { UP_X };

	for (int strong = 0; strong < 2; strong++) {
		struct bench b = { .n = 0 };
		struct loc_fit fit;

		for (size_t k = 0; k < 120; k++) {
			double lost = 0;

			if (strong && k < 25)
				lost = 5;
			else if (!strong && k < 20)
				lost = 2 + k % 2;
			add(&b, H0 + k % 8, H0 + (k + 1 + k / 8) % 8, up_x, 1,
			    0, 0, lost);
			b.obs[k].length = 5;
		}
		is_int(loc_fit_run(&fit, b.obs, b.n, ELEMENTS, NULL, 1e-3), 0,
		       "busy (%s): fits", strong ? "ten times" : "four times");
		if (strong)
			ok(fit.count >= 1 && fit.picks[0].element == UP_X,
			   "busy: ten times what its results expect names the "
			   "link");
		else
			is_int(fit.count, 0, "busy: four times what they "
			       "expect, over many results, names nothing");
		loc_fit_free(&fit);
	}
}

/* Host 0 loses a sixth of what it exchanges with rack B, both ways, yet
 * half its results pass: its loss comes from elsewhere (check_passing),
 * and it is no candidate. Its access link carries the forward half of
 * the same failing results: by itself it looks lossy (LLR ~100), but
 * the host, which the data rules out, explains those results far
 * better (a posterior share of ~e^-500 for the link): the link has no
 * evidence of its own and is not named. */
static void test_explained_away(void)
{
	static const size_t access_0[] = { ACCESS_0 };
	struct bench b = { .n = 0 };
	struct loc_fit fit;

	for (size_t k = 0; k < 60; k++)
		add(&b, H0, H4 + k % 4, access_0, 1, 0, 0, k % 2 ? 3 : 0);
	for (size_t k = 0; k < 60; k++)
		add(&b, H4 + k % 4, H0, NULL, 0, k % 2 ? 10 : 0, 0, 0);
	for (size_t k = 0; k < b.n; k++)
		b.obs[k].length = 8;
	is_int(loc_fit_run(&fit, b.obs, b.n, ELEMENTS, NULL, 1e-3), 0,
	       "explained away: fits");
	is_int(fit.count, 0, "explained away: neither the host nor its "
	       "access link named");
	loc_fit_free(&fit);
}

/* Host 0's access link, which every result of host 0 crosses: its
 * failing results are traced, its passing ones not. Counted from its
 * traced results alone, ten failing results that lost three datagrams
 * each make it look lossy; counted over every result of host 0 (forty
 * more pass), they are noise. Thirty-two of fifty failing, two lost each
 * (a link that loses 6% lets a third pass), it is named; not when all of
 * them go to one peer (the loss may be anywhere on that pair's way). */
static void test_access_counts_untraced(void)
{
	static const size_t access_0[] = { ACCESS_0 };

	for (int variant = 0; variant < 4; variant++) {
		bool known = variant != 0;
		int lost = variant >= 2 ? 2 : 3;
		size_t failing_count = variant >= 2 ? 32 : 10;
		/* (3: every result toward one peer) */
		size_t peers = variant == 3 ? 1 : 4;
		struct bench b = { .n = 0 };
		struct loc_fit fit;
		bool named = false;

		for (size_t k = 0; k < 50; k++) {
			bool failing = k < failing_count;

			add(&b, H0, H4 + k % peers, failing ? access_0 : NULL,
			    failing, 0, 0, failing ? lost : 0);
			b.obs[b.n - 1].length = 8;
			if (known) {
				b.obs[b.n - 1].access = access_0;
				b.obs[b.n - 1].access_count = 1;
				b.obs[b.n - 1].access_there = 1;
			}
		}
		is_int(loc_fit_run(&fit, b.obs, b.n, ELEMENTS, NULL, 1e-3), 0,
		       "access (%d): fits", variant);
		for (size_t k = 0; k < fit.count; k++)
			named |= fit.picks[k].element == ACCESS_0;
		if (variant == 0)
			ok(named, "access: from the traced results alone, "
			   "three lost each look like a lossy link");
		else if (variant == 1)
			ok(!named, "access: over all of its host's results, "
			   "they do not");
		else if (variant == 2)
			ok(named, "access: a link losing 6%% is named");
		else
			ok(!named, "access: toward one peer only, it is that "
			   "pair's finding (as its host)");
		loc_fit_free(&fit);
	}
}

/* The spine's downlink to B loses a sixth: rack A's traced results to B
 * fail on both A's uplink and that downlink, which carry the same traced
 * flows. A's untraced results to X pass; their pair's traces show two
 * paths, one over A's uplink: spread over them (half a result each on
 * UP_A and UP_X), they tell the uplink from the downlink. Without the
 * spread, the two tie and the lower number (the uplink) is picked. */
static void test_spread_separates(void)
{
	/* (the links alone: the routers' share is the hosts' test) */
	static const size_t up_down[] = { UP_A, DOWN_B };
	static const size_t spread[] = { UP_A, UP_X };
	static const double share[] = { 0.5, 0.5 };

	for (int with = 0; with < 2; with++) {
		struct bench b = { .n = 0 };
		struct loc_fit fit;

		for (size_t s = H0; s <= H3; s++)
			for (size_t d = H4; d <= H7; d++)
				for (size_t k = 0; k < 2; k++)
					add(&b, s, d, up_down, 2,
					    (s + d + k) % 3 ? 3 : 0, 0, 0);
		for (size_t s = H0; s <= H3; s++)
			for (size_t k = 0; k < 16; k++) {
				add(&b, s, HX, NULL, 0, 0, 0, 0);
				b.obs[b.n - 1].path = SIZE_MAX;
				b.obs[b.n - 1].length = 6;
				if (with) {
					b.obs[b.n - 1].spread = spread;
					b.obs[b.n - 1].spread_share = share;
					b.obs[b.n - 1].spread_count = 2;
				}
			}
		is_int(loc_fit_run(&fit, b.obs, b.n, ELEMENTS, NULL, 1e-3), 0,
		       "spread (%d): fits", with);
		is_int(fit.count ? fit.picks[0].element : 99,
		       with ? DOWN_B : UP_A,
		       with ? "spread: the downlink, whose flows are the "
			      "failing ones"
			    : "spread: without it, the uplink (a tie)");
		if (!with)
			ok(fit.count && fit.picks[0].ties == 1 &&
				   fit.picks[0].rivals[0] == DOWN_B,
			   "spread: without it, the downlink tied with it");
		if (with)
			ok(fit.count == 1 && fit.picks[0].rival_count == 0,
			   "spread: the uplink no rival (it carries 64 "
			   "passing results)");
		loc_fit_free(&fit);
	}
}

/* Forty results cross UP_X: ten lost one datagram (noise), and four lost
 * all twenty where no trace shows (on their way back, say). UP_X is not
 * charged with the four (the fewer of its failing results: a link that
 * lost all of theirs would not let the others through) and not named;
 * when the four are the most of its failing results, it is. */
static void test_whole_losses_elsewhere(void)
{
	static const size_t up_x[] = { UP_X };

	for (int variant = 0; variant < 2; variant++) {
		struct bench b = { .n = 0 };
		struct loc_fit fit;
		bool up = false;

		for (size_t k = 0; k < 40; k++) {
			bool dead = k % 10 == 3;
			double noise_lost = variant == 0 && k % 3 == 0 ? 1 : 0;

			add(&b, H0 + k % 8, H0 + (k + 1 + k / 8) % 8, up_x, 1,
			    0, 0, dead ? 20 : noise_lost);
			b.obs[b.n - 1].length = 8;
		}
		is_int(loc_fit_run(&fit, b.obs, b.n, ELEMENTS, NULL, 1e-3), 0,
		       "whole losses (%d): fits", variant);
		for (size_t k = 0; k < fit.count; k++)
			up |= fit.picks[k].element == UP_X;
		if (variant == 0)
			ok(!up, "whole losses: the link they share with noise "
			   "not named");
		else
			ok(up, "whole losses: the link all failing results "
			   "lost everything on named");
		loc_fit_free(&fit);
	}
}

/* Host 0's results: twenty lose three or four datagrams each to host 0's
 * NIC; four others come back over a link that loses three in five, and
 * lose twelve. Host 0 is charged with what a NIC losing ~10% explains,
 * not the link's losses: named, with the rate of its own. */
static void test_beyond_rate(void)
{
	struct bench b = { .n = 0 };
	struct loc_fit fit;

	for (size_t k = 0; k < 40; k++) {
		double own = k < 20 ? 3 + k % 2 : 0;
		double far = k == 25 || k == 30 || k == 35 || k == 38 ? 12 : 0;

		add(&b, H0, H4 + k % 4, NULL, 0, own, far, 0);
		b.obs[b.n - 1].length = 8;
	}
	is_int(loc_fit_run(&fit, b.obs, b.n, ELEMENTS, NULL, 1e-3), 0,
	       "beyond rate: fits");
	ok(fit.count >= 1 && fit.picks[0].element == H0,
	   "beyond rate: host 0 named");
	ok(fit.count >= 1 &&
		   fit.picks[0].stats.lost < 0.12 * fit.picks[0].stats.exposed,
	   "beyond rate: charged its own loss only (%.0f of %.0f)",
	   fit.count ? fit.picks[0].stats.lost : 0,
	   fit.count ? fit.picks[0].stats.exposed : 0);
	loc_fit_free(&fit);
}

/* The spine loses half of what crosses it, a second spine nothing. A
 * flow's replies take a spine of their own (which one no trace shows):
 * of h0's flows over the second spine, those whose replies came back
 * over the first lost some of them. With the spine's neighbours known
 * (loc_relations near: the two ToRs, every result's edges), the spine
 * explains those too, and h0 is not named for them; without, it is. */
static void test_replies_near(void)
{
	static const size_t a_b_2[] = { TOR_A, SPINE_2, TOR_B };
	static const size_t b_a_2[] = { TOR_B, SPINE_2, TOR_A };
	static const size_t edges[] = { TOR_A, TOR_B };
	size_t near_first[ELEMENTS + 1], near[] = { TOR_A, TOR_B };

	for (size_t e = 0; e <= ELEMENTS; e++)
		near_first[e] = e <= SPINE ? 0 : 2;
	for (int related = 0; related < 2; related++) {
		struct loc_relations rel = { .near_first = near_first,
					     .near = near };
		struct bench b = { .n = 0 };
		struct loc_fit fit;
		bool hosts = false;

		for (size_t s = H0; s <= H7; s++)
			for (size_t d = H0; d <= H7; d++)
				for (size_t k = 0; (s <= H3) != (d <= H3) &&
						   k < 4; k++) {
					bool ab = s <= H3;
					/* k 0: over the spine; 1-3 over
					 * the second; h0's replies of 1
					 * and 2 over the spine */
					bool back = k < 3 && (s == H0 || d == H0);

					if (k == 0)
						add(&b, s, d, ab ? a_to_b : b_to_a,
						    5, 10, 0, 0);
					else
						add(&b, s, d, ab ? a_b_2 : b_a_2,
						    3, 0, back ? 3 : 0, 0);
					b.obs[b.n - 1].edges = edges;
					b.obs[b.n - 1].edge_count = 2;
				}
		is_int(loc_fit_run(&fit, b.obs, b.n, ELEMENTS,
				   related ? &rel : NULL, 1e-4), 0,
		       "replies near (%s): fits", related ? "near" : "alone");
		ok(fit.count >= 1 && fit.picks[0].element == SPINE,
		   "replies near (%s): the spine first (%zu)",
		   related ? "near" : "alone",
		   fit.count ? fit.picks[0].element : (size_t)99);
		for (size_t k = 0; k < fit.count; k++)
			hosts |= fit.picks[k].element <= H7;
		if (related)
			ok(!hosts && fit.count == 1, "replies near: the spine "
			   "explains the replies it lost (%zu picks)",
			   fit.count);
		else
			ok(fit.count > 1, "replies near (alone): others "
			   "follow (%zu)", fit.count);
		loc_fit_free(&fit);
	}
}

static void test_range(void)
{
	struct bench b = { .n = 0 };
	struct loc_fit fit;

	add(&b, H0, ELEMENTS, in_a, 1, 1, 0, 0);
	is_int(loc_fit_run(&fit, b.obs, b.n, ELEMENTS, NULL, -1), -1,
	       "range: an element past the count is refused");
	is_int(fit.count, 0, "range: nothing picked");
}

static void test_llr(void)
{
	ok(loc_llr(1000, 5, 5) == 0, "llr: loss as expected is no evidence");
	ok(loc_llr(1000, 5, 2) == 0, "llr: less loss than expected neither");
	ok(loc_llr(1000, 5, 100) > 100, "llr: 100 of 1000 against 5 is");
}

int main(void)
{
	test_uplink_not_rack();
	test_excluded();
	test_noise_silent();
	test_unseen_preferred();
	test_excluded_no_rival();
	test_back_not_forward();
	test_rack_behind_router();
	test_selected_noise();
	test_explained_away();
	test_busy_noise();
	test_access_counts_untraced();
	test_spread_separates();
	test_whole_losses_elsewhere();
	test_beyond_rate();
	test_replies_near();
	test_range();
	test_llr();
	return tap_done();
}
