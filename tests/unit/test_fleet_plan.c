/* Unit tests of probe plans: for group layouts of several shapes (no
 * groups, equal, uneven, one group, groups interleaved in the host list,
 * one large group among singletons) and several K and R, every ordered
 * pair of hosts is probed within R rounds (inside a group every round,
 * across groups exactly once per R rounds), a host probes and is probed
 * by at most (group size - 1) + K hosts per round, the same seed gives
 * the same plan, and too few rounds are refused with the fewest that
 * would do. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_plan.h"
#include "tap.h"

/* group_of from a list of group sizes; interleave: host h goes to the
 * groups in turn instead of group after group. */
static uint32_t *layout(const size_t *sizes, size_t groups, bool interleave,
			size_t *hosts)
{
	size_t n = 0, h = 0;
	size_t *left = calloc(groups, sizeof(size_t));
	uint32_t *group_of;

	for (size_t g = 0; g < groups; g++)
		n += sizes[g];
	group_of = calloc(n, sizeof(uint32_t));
	memcpy(left, sizes, groups * sizeof(size_t));
	if (interleave) {
		while (h < n)
			for (size_t g = 0; g < groups; g++)
				if (left[g]) {
					left[g]--;
					group_of[h++] = (uint32_t)g;
				}
	} else {
		for (size_t g = 0; g < groups; g++)
			for (size_t i = 0; i < sizes[g]; i++)
				group_of[h++] = (uint32_t)g;
	}
	free(left);
	*hosts = n;
	return group_of;
}

struct check {
	bool covered;		/* every ordered pair within R rounds */
	bool inter_once;	/* across groups exactly once per R rounds */
	bool intra_each_round;
	bool out_bounded;	/* <= group size - 1 + K, across groups <= K */
	bool in_bounded;
	bool no_self_or_repeat;
	uint64_t offsets;
	size_t max_out_inter, max_in_inter;
};

static struct check check_plan(const struct fleet_plan *p,
			       const uint32_t *group_of, size_t n)
{
	struct check c = { true, true, true, true, true, true, 0, 0, 0 };
	uint32_t *seen = calloc(n * n, sizeof(uint32_t));
	uint32_t *in_inter = calloc(n, sizeof(uint32_t));
	uint32_t *in_intra = calloc(n, sizeof(uint32_t));
	uint32_t *dests = calloc(n + p->window + 1, sizeof(uint32_t));
	size_t *gsize = calloc(n, sizeof(size_t));
	uint8_t *mark = calloc(n, 1);

	for (size_t h = 0; h < n; h++)
		gsize[group_of[h]]++;
	for (uint32_t r = 0; r < p->rounds; r++) {
		memset(in_inter, 0, n * sizeof(uint32_t));
		memset(in_intra, 0, n * sizeof(uint32_t));
		for (uint32_t a = 0; a < n; a++) {
			size_t k = fleet_plan_destinations(p, a, r, dests);
			size_t inter = 0, intra = 0;

			if (k > fleet_plan_max_destinations(p, a))
				c.out_bounded = false;
			for (size_t i = 0; i < k; i++) {
				uint32_t b = dests[i];

				if (b == a || mark[b])
					c.no_self_or_repeat = false;
				mark[b] = 1;
				seen[(size_t)a * n + b]++;
				if (group_of[b] == group_of[a]) {
					intra++;
					in_intra[b]++;
				} else {
					inter++;
					in_inter[b]++;
				}
			}
			for (size_t i = 0; i < k; i++)
				mark[dests[i]] = 0;
			if (intra != gsize[group_of[a]] - 1)
				c.intra_each_round = false;
			if (inter > p->per_round || inter > p->window ||
			    k > gsize[group_of[a]] - 1 + p->per_round)
				c.out_bounded = false;
			if (inter > c.max_out_inter)
				c.max_out_inter = inter;
		}
		for (size_t b = 0; b < n; b++) {
			if (in_inter[b] > p->window ||
			    in_inter[b] + in_intra[b] >
				    gsize[group_of[b]] - 1 + p->per_round)
				c.in_bounded = false;
			if (in_inter[b] > c.max_in_inter)
				c.max_in_inter = in_inter[b];
		}
	}
	for (size_t a = 0; a < n; a++)
		for (size_t b = 0; b < n; b++) {
			uint32_t times = seen[a * n + b];

			if (a == b)
				continue;
			if (!times)
				c.covered = false;
			if (group_of[a] != group_of[b] && times != 1)
				c.inter_once = false;
		}
	c.offsets = p->offset_count;
	free(seen);
	free(in_inter);
	free(in_intra);
	free(dests);
	free(gsize);
	free(mark);
	return c;
}

struct shape {
	const char *name;
	size_t sizes[64];
	size_t groups;
	bool interleave;
};

static const struct shape shapes[] = {
	{ "10 hosts, no groups (each its own)",
	  { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 }, 10, false },
	{ "4 groups of 8", { 8, 8, 8, 8 }, 4, false },
	{ "uneven groups 5, 3, 1, 7", { 5, 3, 1, 7 }, 4, false },
	{ "one group of 12", { 12 }, 1, false },
	{ "two hosts, two groups", { 1, 1 }, 2, false },
	{ "groups 100 and 99", { 100, 99 }, 2, false },
	{ "groups 20, 20, 12, 12, interleaved in the host list",
	  { 20, 20, 12, 12 }, 4, true },
	{ "a group of 40 and 10 singletons",
	  { 40, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 }, 11, false },
	{ "6 groups of 16, interleaved", { 16, 16, 16, 16, 16, 16 }, 6,
	  true },
};

static void test_shape(const struct shape *s, uint32_t k, uint32_t rounds)
{
	struct fleet_plan p;
	struct fleet_plan_params params = { 0 };
	size_t n, smallest = SIZE_MAX, largest = 0;
	uint32_t *group_of = layout(s->sizes, s->groups, s->interleave, &n);
	struct check c;
	char err[256];
	bool equal;

	for (size_t g = 0; g < s->groups; g++) {
		if (s->sizes[g] < smallest)
			smallest = s->sizes[g];
		if (s->sizes[g] > largest)
			largest = s->sizes[g];
	}
	equal = smallest == largest;
	params = (struct fleet_plan_params){ n, group_of, s->groups, 42, k,
					     rounds };
	if (!ok(fleet_plan_make(&p, &params, err, sizeof(err)) == 0,
		"%s, K %u R %u: a plan", s->name, k, rounds)) {
		printf("#   %s\n", err);
		free(group_of);
		return;
	}
	c = check_plan(&p, group_of, n);
	ok(c.covered, "%s, K %u, R %u: every ordered pair within %u rounds",
	   s->name, k, p.rounds, p.rounds);
	ok(c.inter_once, "%s: pairs across groups exactly once per R rounds",
	   s->name);
	ok(c.intra_each_round, "%s: the whole group every round", s->name);
	ok(c.out_bounded, "%s: outgoing <= group size - 1 + K (%zu across "
	   "groups at most)", s->name, c.max_out_inter);
	ok(c.in_bounded, "%s: incoming <= group size - 1 + K (%zu across "
	   "groups at most)", s->name, c.max_in_inter);
	ok(c.no_self_or_repeat, "%s: no host probes itself or one peer "
	   "twice in a round", s->name);
	/* The rotation needs no more offsets than n - 1, and with equal
	 * groups exactly the hosts outside a group: the least possible. */
	ok(c.offsets <= n - 1 && c.offsets >= n - smallest,
	   "%s: %llu offsets, between n - smallest group %zu and n - 1",
	   s->name, (unsigned long long)c.offsets, n - smallest);
	if (equal)
		is_int(c.offsets, n - smallest, "%s: equal groups need just "
		       "the hosts outside a group", s->name);
	if (!rounds && k)
		is_int(p.rounds, c.offsets ? (c.offsets + k - 1) / k : 1,
		       "%s: R derived as the fewest for K %u", s->name, k);
	fleet_plan_free(&p);
	free(group_of);
}

static bool same_plan(const struct fleet_plan *a, const struct fleet_plan *b)
{
	uint32_t *da = calloc(a->hosts + a->window, sizeof(uint32_t));
	uint32_t *db = calloc(b->hosts + b->window, sizeof(uint32_t));
	bool same = a->rounds == b->rounds && a->window == b->window;

	for (uint32_t r = 0; same && r < a->rounds; r++)
		for (uint32_t h = 0; same && h < a->hosts; h++) {
			size_t na = fleet_plan_destinations(a, h, r, da);
			size_t nb = fleet_plan_destinations(b, h, r, db);

			same = na == nb && memcmp(da, db, na * sizeof(*da)) == 0;
		}
	free(da);
	free(db);
	return same;
}

static void test_seed(void)
{
	static const size_t sizes[] = { 7, 7, 5, 9, 3 };
	struct fleet_plan a, b, c;
	size_t n;
	uint32_t *group_of = layout(sizes, 5, false, &n);
	struct fleet_plan_params params = { n, group_of, 5, 7, 4, 0 };
	char err[256];

	fleet_plan_make(&a, &params, err, sizeof(err));
	fleet_plan_make(&b, &params, err, sizeof(err));
	params.seed = 8;
	fleet_plan_make(&c, &params, err, sizeof(err));
	ok(same_plan(&a, &b), "the same seed gives the same plan");
	ok(!same_plan(&a, &c), "another seed gives another plan");
	fleet_plan_free(&a);
	fleet_plan_free(&b);
	fleet_plan_free(&c);
	free(group_of);
}

static void test_round_wraps(void)
{
	static const size_t sizes[] = { 3, 3, 3 };
	struct fleet_plan p;
	size_t n;
	uint32_t *group_of = layout(sizes, 3, false, &n);
	struct fleet_plan_params params = { n, group_of, 3, 1, 2, 0 };
	uint32_t d1[16], d2[16];
	char err[256];
	size_t n1, n2;

	fleet_plan_make(&p, &params, err, sizeof(err));
	is_int(p.rounds, 3, "3 groups of 3, K 2: 6 offsets, 3 rounds");
	n1 = fleet_plan_destinations(&p, 4, 1, d1);
	n2 = fleet_plan_destinations(&p, 4, 1 + 3 * 1000003ull, d2);
	ok(n1 == n2 && memcmp(d1, d2, n1 * sizeof(*d1)) == 0,
	   "round N and round N + a multiple of R are the same round");
	fleet_plan_free(&p);
	free(group_of);
}

static void test_too_few_rounds(void)
{
	static const size_t sizes[] = { 4, 4, 4, 4 };
	struct fleet_plan p;
	size_t n;
	uint32_t *group_of = layout(sizes, 4, false, &n);
	struct fleet_plan_params params = { n, group_of, 4, 1, 3, 3 };
	char err[256];

	/* 12 hosts outside each group: K 3 needs 4 rounds. */
	is_int(fleet_plan_make(&p, &params, err, sizeof(err)), -1,
	       "K 3 x R 3 < 12 refused");
	is_int(p.min_rounds, 4, "with the fewest rounds that do: 4");
	is_str(err, "3 rounds of 3 peers outside the group cannot cover 12 "
	       "ring offsets; at least 4 rounds are needed", "and says so");
	params.rounds = 4;
	is_int(fleet_plan_make(&p, &params, err, sizeof(err)), 0,
	       "K 3 x R 4 = 12 is enough");
	is_int(p.window, 3, "3 offsets per round");
	fleet_plan_free(&p);
	params.per_round = 0;
	params.rounds = 5;
	is_int(fleet_plan_make(&p, &params, err, sizeof(err)), 0,
	       "R alone: K follows");
	is_int(p.per_round, 3, "ceil(12 / 5) = 3 per round");
	fleet_plan_free(&p);
	free(group_of);
}

static void test_bad_input(void)
{
	uint32_t group_of[] = { 0, 2, 2 };
	struct fleet_plan p;
	struct fleet_plan_params params = { 3, group_of, 3, 0, 1, 0 };
	char err[256];

	is_int(fleet_plan_make(&p, &params, err, sizeof(err)), -1,
	       "a group without hosts refused");
	params.groups = 2;
	is_int(fleet_plan_make(&p, &params, err, sizeof(err)), -1,
	       "a group id out of range refused");
	params.hosts = 0;
	is_int(fleet_plan_make(&p, &params, err, sizeof(err)), -1,
	       "no hosts refused");
}

int main(void)
{
	static const uint32_t ks[] = { 1, 3, 16 };

	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		for (size_t j = 0; j < sizeof(ks) / sizeof(ks[0]); j++)
			test_shape(&shapes[i], ks[j], 0);
		/* More rounds than needed: fewer offsets per round. */
		test_shape(&shapes[i], 16, 7);
		/* R alone. */
		test_shape(&shapes[i], 0, 5);
	}
	test_seed();
	test_round_wraps();
	test_too_few_rounds();
	test_bad_input();
	return tap_done();
}
