/* Probe plans: the ring layout and the per-round rotation (see
 * fleet_plan.h for why it covers every pair and bounds the load). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet_plan.h"

#define SLOT_EMPTY UINT32_MAX

/* SplitMix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014): one 64-bit state, the same sequence on every
 * platform, which is all a reproducible plan asks of it. */
static uint64_t splitmix64_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Fisher-Yates; the modulo's bias (below 2^-32 for any list that fits in
 * memory) does not matter to a plan. */
static void shuffle_u32(uint32_t *v, size_t n, uint64_t *state)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(splitmix64_next(state) % i);
		uint32_t t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

static void shuffle_u64(uint64_t *v, uint64_t n, uint64_t *state)
{
	for (uint64_t i = n; i > 1; i--) {
		uint64_t j = splitmix64_next(state) % i;
		uint64_t t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

static int fail(struct fleet_plan *plan, char *err, size_t errlen,
		const char *msg)
{
	uint32_t min_rounds = plan->min_rounds;

	snprintf(err, errlen, "%s", msg);
	fleet_plan_free(plan);
	plan->min_rounds = min_rounds;
	return -1;
}

/* Members of each group, in host order (CSR arrays). */
static int group_members_build(struct fleet_plan *plan, size_t *largest)
{
	size_t *fill;

	plan->group_start = calloc(plan->groups + 1, sizeof(size_t));
	plan->group_members = calloc(plan->hosts, sizeof(uint32_t));
	fill = calloc(plan->groups, sizeof(size_t));
	if (!plan->group_start || !plan->group_members || !fill) {
		free(fill);
		return -1;
	}
	for (size_t h = 0; h < plan->hosts; h++)
		plan->group_start[plan->group_of[h] + 1]++;
	*largest = 0;
	for (size_t g = 0; g < plan->groups; g++) {
		if (plan->group_start[g + 1] > *largest)
			*largest = plan->group_start[g + 1];
		plan->group_start[g + 1] += plan->group_start[g];
	}
	for (size_t h = 0; h < plan->hosts; h++) {
		uint32_t g = plan->group_of[h];

		plan->group_members[plan->group_start[g] + fill[g]++] =
			(uint32_t)h;
	}
	free(fill);
	return 0;
}

/* Deals the groups into columns (group order and member order from the
 * seed): slot row * G + column. squeeze: drop the empty slots, so the
 * ring has n slots. */
static int ring_build(struct fleet_plan *plan, size_t largest, bool squeeze,
		      uint64_t *state)
{
	uint64_t padded = (uint64_t)plan->groups * largest;
	uint32_t *column_group = malloc(plan->groups * sizeof(uint32_t));
	uint32_t *members = malloc(plan->hosts * sizeof(uint32_t));
	uint64_t next = 0;
	int rc = -1;

	plan->slot_of = malloc(plan->hosts * sizeof(uint64_t));
	plan->host_at = malloc((squeeze ? plan->hosts : padded) *
			       sizeof(uint32_t));
	if (!column_group || !members || !plan->slot_of || !plan->host_at)
		goto out;
	for (size_t g = 0; g < plan->groups; g++)
		column_group[g] = (uint32_t)g;
	shuffle_u32(column_group, plan->groups, state);
	memcpy(members, plan->group_members, plan->hosts * sizeof(uint32_t));
	for (size_t g = 0; g < plan->groups; g++)
		shuffle_u32(members + plan->group_start[g],
			    plan->group_start[g + 1] - plan->group_start[g],
			    state);
	for (uint64_t slot = 0; slot < padded; slot++) {
		uint32_t g = column_group[slot % plan->groups];
		uint64_t row = slot / plan->groups;
		size_t size = plan->group_start[g + 1] - plan->group_start[g];
		uint32_t h;

		if (row >= size) {
			if (!squeeze)
				plan->host_at[next++] = SLOT_EMPTY;
			continue;
		}
		h = members[plan->group_start[g] + row];
		plan->slot_of[h] = next;
		plan->host_at[next++] = h;
	}
	plan->ring_size = next;
	rc = 0;
out:
	free(column_group);
	free(members);
	return rc;
}

/* The offsets that can join two groups: on the padded ring those that are
 * no multiple of G (a multiple stays in its column, its group), on the
 * squeezed ring all of 1 .. n - 1. */
static int offsets_build(struct fleet_plan *plan, bool squeeze,
			 uint64_t *state)
{
	uint64_t count = 0;

	plan->offset_count = squeeze ? plan->ring_size - 1
				     : plan->ring_size - plan->ring_size /
								 plan->groups;
	plan->offsets = malloc((plan->offset_count ? plan->offset_count : 1) *
			       sizeof(uint64_t));
	if (!plan->offsets)
		return -1;
	for (uint64_t d = 1; d < plan->ring_size; d++)
		if (squeeze || d % plan->groups != 0)
			plan->offsets[count++] = d;
	shuffle_u64(plan->offsets, count, state);
	return 0;
}

/* K and R from what the user gave: R the fewest that K allows, or K what
 * R needs, or both checked against each other. */
static int rounds_settle(struct fleet_plan *plan,
			 const struct fleet_plan_params *params, char *err,
			 size_t errlen)
{
	uint64_t offsets = plan->offset_count;
	uint32_t k = params->per_round;
	char msg[256];

	if (!k && !params->rounds)
		k = FLEET_PLAN_DEFAULT_PER_ROUND;
	if (k) {
		uint64_t fewest = ceil_div(offsets, k);

		plan->min_rounds = fewest ? (uint32_t)fewest : 1;
	}
	plan->rounds = params->rounds ? params->rounds : plan->min_rounds;
	plan->window = (uint32_t)ceil_div(offsets, plan->rounds);
	plan->per_round = k ? k : plan->window;
	if (k && plan->window > k) {
		snprintf(msg, sizeof(msg),
			 "%u rounds of %u peers outside the group cannot "
			 "cover %llu ring offsets; at least %u rounds are "
			 "needed", plan->rounds, k,
			 (unsigned long long)offsets, plan->min_rounds);
		return fail(plan, err, errlen, msg);
	}
	if (!k)
		plan->min_rounds = plan->rounds;
	return 0;
}

int fleet_plan_make(struct fleet_plan *plan,
		    const struct fleet_plan_params *params, char *err,
		    size_t errlen)
{
	uint64_t state = params->seed;
	uint64_t padded_offsets;
	size_t largest;
	bool squeeze;

	memset(plan, 0, sizeof(*plan));
	if (!params->hosts || !params->groups || params->hosts >= SLOT_EMPTY ||
	    params->groups > params->hosts)
		return fail(plan, err, errlen, "a plan needs 1 to 2^32-2 "
			    "hosts in 1 to that many groups");
	for (size_t h = 0; h < params->hosts; h++)
		if (params->group_of[h] >= params->groups)
			return fail(plan, err, errlen, "a host's group is "
				    "out of range");
	plan->hosts = params->hosts;
	plan->groups = params->groups;
	plan->group_of = params->group_of;
	if (group_members_build(plan, &largest))
		return fail(plan, err, errlen, "out of memory");
	/* An empty group would be a column of empty slots: offsets for
	 * nobody. */
	for (size_t g = 0; g < plan->groups; g++)
		if (plan->group_start[g + 1] == plan->group_start[g])
			return fail(plan, err, errlen, "a group has no host");
	/* Equal groups: the padded ring needs exactly n - g offsets; the
	 * squeezed one never more than n - 1. */
	padded_offsets = (uint64_t)(plan->groups - 1) * largest;
	squeeze = padded_offsets > plan->hosts - 1;
	if (ring_build(plan, largest, squeeze, &state) ||
	    offsets_build(plan, squeeze, &state))
		return fail(plan, err, errlen, "out of memory");
	return rounds_settle(plan, params, err, errlen);
}

size_t fleet_plan_max_destinations(const struct fleet_plan *plan,
				   uint32_t host)
{
	uint32_t g = plan->group_of[host];

	return plan->group_start[g + 1] - plan->group_start[g] - 1 +
	       plan->window;
}

size_t fleet_plan_destinations(const struct fleet_plan *plan, uint32_t host,
			       uint64_t round, uint32_t *out)
{
	uint32_t g = plan->group_of[host];
	uint64_t r = round % plan->rounds;
	/* Round r's window of the shuffled offsets: sizes differ by one at
	 * most, the largest is W. */
	uint64_t lo = r * plan->offset_count / plan->rounds;
	uint64_t hi = (r + 1) * plan->offset_count / plan->rounds;
	size_t n = 0;

	for (size_t i = plan->group_start[g]; i < plan->group_start[g + 1];
	     i++)
		if (plan->group_members[i] != host)
			out[n++] = plan->group_members[i];
	for (uint64_t i = lo; i < hi; i++) {
		uint64_t slot = (plan->slot_of[host] + plan->offsets[i]) %
				plan->ring_size;
		uint32_t peer = plan->host_at[slot];

		if (peer != SLOT_EMPTY && plan->group_of[peer] != g)
			out[n++] = peer;
	}
	return n;
}

void fleet_plan_free(struct fleet_plan *plan)
{
	free(plan->group_start);
	free(plan->group_members);
	free(plan->slot_of);
	free(plan->host_at);
	free(plan->offsets);
	memset(plan, 0, sizeof(*plan));
}
