/* Unit tests of MTU discovery's search: made-up paths with a known edge
 * (the largest payload that passes), probes lost by chance on top, and
 * outcomes the search must refuse. */
#include <stdint.h>

#include "probe/mtu_search.h"
#include "tap.h"

#define LOWER 136
#define PROBES 3

/* A path: sizes up to edge pass; each probe is also lost when lose()
 * says so (the step number and probe of that step given). */
struct path {
	uint32_t edge;
	bool (*lose)(const struct path *p, size_t step, uint32_t probe);
	uint32_t lose_step;	/* for lose_step_once */
	uint64_t rng;		/* for lose_random */
	uint32_t percent;
};

static uint32_t answered_on(const struct path *p, size_t step, uint32_t size)
{
	uint32_t answered = 0;

	for (uint32_t k = 0; k < PROBES; k++)
		if (size <= p->edge && !(p->lose && p->lose(p, step, k)))
			answered++;
	return answered;
}

static bool run(struct mtu_search *m, uint32_t lower, uint32_t upper,
		const struct path *p)
{
	uint32_t size;

	if (mtu_search_init(m, lower, upper))
		return false;
	while ((size = mtu_search_next(m)) != 0)
		if (mtu_search_record(m, size, PROBES,
				      answered_on(p, m->step_count, size)))
			return false;
	return true;
}

static bool lose_step_once(const struct path *p, size_t step, uint32_t probe)
{
	(void)probe;
	return step == p->lose_step;
}

static bool lose_random(const struct path *p, size_t step, uint32_t probe)
{
	struct path *q = (struct path *)p;

	(void)step;
	(void)probe;
	q->rng = q->rng * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(q->rng >> 33) % 100 < q->percent;
}

static void test_bound_arrives(void)
{
	struct mtu_search m;
	struct path p = { .edge = 4096 };

	ok(run(&m, LOWER, 1024, &p), "runs");
	is_int(m.result, MTU_BOUND_ARRIVES, "the port MTU arrives");
	is_int(m.step_count, 1, "one step: the upper bound first");
	is_int(m.steps[0].size, 1024, "the first size is the upper bound");
	is_int(m.largest_arrived, 1024, "largest arrived is the bound");
	is_int(m.smallest_lost, 0, "nothing lost");
}

static void test_blackhole_700(void)
{
	struct mtu_search m;
	struct path p = { .edge = 648 };	/* IPv4 RoCE v2, IP MTU 700 */

	ok(run(&m, LOWER, 1024, &p), "runs");
	is_int(m.result, MTU_BLACKHOLE, "a blackhole");
	is_int(m.largest_arrived, 648, "648 arrives");
	is_int(m.smallest_lost, 649, "649 lost");
	is_int(m.steps[0].size, 1024, "upper bound first");
	is_int(m.steps[1].size, LOWER, "then the lower bound");
	is_int(m.steps[2].size, LOWER + (1024 - LOWER) / 2, "then halfway");
	ok(m.steps[m.step_count - 1].retry &&
		   m.steps[m.step_count - 1].size == 649,
	   "the edge's lost size was tried once more");
	ok(m.step_count <= 14, "%zu steps for 136..1024", m.step_count);
	is_int(m.random_losses, 0, "no random loss");
	is_int(mtu_roce_v2_ip_overhead(false) + m.largest_arrived, 700,
	       "IPv4 RoCE v2 headers: IP MTU 700");
	is_int(mtu_roce_v2_ip_overhead(true), 72, "IPv6: 40 + 32");
}

static void test_every_edge(void)
{
	struct mtu_search m;
	int wrong = 0;
	size_t most = 0;

	for (uint32_t e = LOWER; e < 1024; e++) {
		struct path p = { .edge = e };

		if (!run(&m, LOWER, 1024, &p) || m.result != MTU_BLACKHOLE ||
		    m.largest_arrived != e || m.smallest_lost != e + 1)
			wrong++;
		if (m.step_count > most)
			most = m.step_count;
	}
	is_int(wrong, 0, "every edge 136..1023 found byte-exact");
	ok(most <= 2 + 10 + 1, "at most %zu steps", most);
}

static void test_unreachable(void)
{
	struct mtu_search m;
	struct path p = { .edge = 0 };

	ok(run(&m, LOWER, 1024, &p), "runs");
	is_int(m.result, MTU_UNREACHABLE, "nothing arrives: unreachable");
	is_int(m.step_count, 3, "upper, lower, lower once more");
	is_int(m.largest_arrived, 0, "nothing arrived");
	is_int(m.smallest_lost, LOWER, "the lower bound lost");
}

static void test_equal_bounds(void)
{
	struct mtu_search m;
	struct path pass = { .edge = LOWER }, dead = { .edge = 0 };

	ok(run(&m, LOWER, LOWER, &pass), "runs");
	is_int(m.result, MTU_BOUND_ARRIVES, "one size, arrives");
	is_int(m.step_count, 1, "one step");
	ok(run(&m, LOWER, LOWER, &dead), "runs");
	is_int(m.result, MTU_UNREACHABLE, "one size, lost twice: unreachable");
	is_int(m.step_count, 2, "the size and its retry");
}

/* A size below the edge lost by chance: retried when it is the edge,
 * arrives then, and the search resumes above it. */
static void test_random_loss_below_edge(void)
{
	struct mtu_search m;
	struct path p = { .edge = 900, .lose = lose_step_once,
			  .lose_step = 2 };	/* 580, the first halfway */

	ok(run(&m, LOWER, 1024, &p), "runs");
	is_int(m.steps[2].size, 580, "step 2 is 580");
	is_int(m.steps[2].answered, 0, "580 lost by chance");
	is_int(m.result, MTU_BLACKHOLE, "still a blackhole");
	is_int(m.largest_arrived, 900, "the true edge 900");
	is_int(m.smallest_lost, 901, "901 lost");
	is_int(m.random_losses, 1, "one random loss counted");
}

/* The upper bound lost by chance: found again as the edge, retried,
 * arrives: no blackhole after all. */
static void test_random_loss_of_bound(void)
{
	struct mtu_search m;
	struct path p = { .edge = 4096, .lose = lose_step_once,
			  .lose_step = 0 };

	ok(run(&m, LOWER, 1024, &p), "runs");
	is_int(m.result, MTU_BOUND_ARRIVES, "the bound arrives on its retry");
	is_int(m.random_losses, 1, "its first loss was random");
	is_int(m.largest_arrived, 1024, "largest arrived is the bound");
	is_int(m.steps[m.step_count - 1].size, 1024, "the bound last");
}

/* Under heavy random loss the answer may come out low, never high: a
 * size that arrived did arrive. */
static void test_random_loss_never_high(void)
{
	struct mtu_search m;
	int high = 0, exact = 0, bad = 0;

	for (uint64_t seed = 1; seed <= 500; seed++) {
		struct path p = { .edge = 700 + (uint32_t)(seed % 300),
				  .lose = lose_random, .rng = seed,
				  .percent = 40 };

		if (!run(&m, LOWER, 1024, &p)) {
			bad++;
			continue;
		}
		if (m.largest_arrived > p.edge)
			high++;
		if (m.result == MTU_BLACKHOLE && m.largest_arrived == p.edge)
			exact++;
	}
	is_int(bad, 0, "every search ends within its step limit");
	is_int(high, 0, "never above the edge");
	/* 3 probes at 40% loss: a size is lost by chance 6.4% of the time,
	 * twice in a row 0.4%: most searches stay exact. */
	ok(exact >= 400, "%d of 500 exact at 40%% probe loss", exact);
}

static void test_refusals(void)
{
	struct mtu_search m;

	is_int(mtu_search_init(&m, 1025, 1024), -1, "lower above upper");
	is_int(mtu_search_init(&m, 0, 1024), -1, "lower 0");
	is_int(mtu_search_init(&m, LOWER, 1024), 0, "init");
	is_int(mtu_search_record(&m, 999, 3, 3), -1, "a size not asked");
	is_int(mtu_search_record(&m, 1024, 0, 0), -1, "nothing sent");
	is_int(mtu_search_record(&m, 1024, 3, 4), -1, "more answers than sent");
	is_int(m.step_count, 0, "refusals leave no step");
	is_int(mtu_search_record(&m, 1024, 3, 1), 0, "one answer: arrives");
	is_int(m.result, MTU_BOUND_ARRIVES, "done");
	is_int(mtu_search_next(&m), 0, "no next size when done");
	is_int(mtu_search_record(&m, 1024, 3, 3), -1, "nothing after the end");
}

int main(void)
{
	test_bound_arrives();
	test_blackhole_700();
	test_every_edge();
	test_unreachable();
	test_equal_bounds();
	test_random_loss_below_edge();
	test_random_loss_of_bound();
	test_random_loss_never_high();
	test_refusals();
	return tap_done();
}
