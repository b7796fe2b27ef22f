/* Probe plans: which hosts each host probes in one round, so that a fabric
 * of thousands of hosts is covered pair by pair without every host probing
 * every other host every round. The idea is R-Pingmesh's (SIGCOMM 2024:
 * a full mesh inside each ToR, sampled probes between ToRs): a full mesh
 * inside each group, and between groups a rotation that covers every
 * ordered pair once in every R consecutive rounds.
 *
 * The rotation: the hosts sit on a ring of slots, the groups dealt round
 * robin into columns (slot row * G + column). An offset d names, for every
 * host at slot s, the host at slot s + d (mod the ring size); each offset
 * that can join two groups is given to exactly one round, at most W of
 * them per round, W = ceil(offsets / R) <= K. So in round N every host
 * probes at most W hosts outside its group (one per offset of the round),
 * and, since s -> s + d is a bijection of the ring, every host is probed
 * by at most W hosts from outside its group too: outgoing and incoming
 * load per round are both at most (group size - 1) + K. Every ordered
 * pair (a, b) of different groups lies at exactly one offset, hence is
 * probed exactly once per R rounds.
 *
 * The ring: with groups of equal size, slots are G x (largest group) and
 * same-group hosts sit at multiples of G, so only offsets that are not
 * multiples of G count: exactly the hosts outside a group, the least any
 * schedule needs. With uneven groups the ring is either that padded one
 * (empty slots where a group is short) or the hosts squeezed together
 * (n - 1 offsets); the plan takes the one with fewer offsets.
 *
 * Pure: plain inputs (host count, group of each host, seed), no I/O, the
 * same plan from the same inputs on every machine (its own generator,
 * not rand()). */
#ifndef IBAHPROBE_PROBE_PLAN_H
#define IBAHPROBE_PROBE_PLAN_H

#include <stddef.h>
#include <stdint.h>

/* Ranges of the user's numbers, checked by the command. */
#define FLEET_PLAN_MAX_PER_ROUND 100000u
#define FLEET_PLAN_MAX_ROUNDS 1000000u
#define FLEET_PLAN_DEFAULT_PER_ROUND 16u

struct fleet_plan_params {
	size_t hosts;			/* n >= 1 */
	const uint32_t *group_of;	/* group of each host, < groups */
	size_t groups;			/* every id in 0..groups-1 used */
	uint64_t seed;
	uint32_t per_round;		/* K; 0: derived from rounds */
	uint32_t rounds;		/* R; 0: the fewest K allows */
};

struct fleet_plan {
	size_t hosts;
	size_t groups;
	uint32_t rounds;		/* R */
	uint32_t per_round;		/* K as given, or W when derived */
	uint32_t window;		/* W: offsets per round, <= K */
	/* Members of each group in host order: group_start[g] ..
	 * group_start[g + 1] - 1 index group_members. */
	size_t *group_start;
	uint32_t *group_members;
	const uint32_t *group_of;	/* the caller's, kept */
	/* The ring. */
	uint64_t ring_size;
	uint64_t *slot_of;		/* per host */
	uint32_t *host_at;		/* per slot; UINT32_MAX: empty */
	uint64_t *offsets;		/* shuffled; round N takes its window */
	uint64_t offset_count;
	uint32_t min_rounds;		/* ceil(offsets / K): set even on failure */
};

/* Lays out the plan. Fails (-1, a message in err) when K * R cannot cover
 * every inter-group pair, with the fewest rounds that can in
 * plan->min_rounds, or when out of memory (min_rounds 0). */
int fleet_plan_make(struct fleet_plan *plan,
		    const struct fleet_plan_params *params, char *err,
		    size_t errlen);

/* The most destinations a host can get in one round: its group's size - 1
 * plus W. Size of the array for fleet_plan_destinations(). */
size_t fleet_plan_max_destinations(const struct fleet_plan *plan,
				   uint32_t host);

/* The hosts that host probes in round (taken mod R): its group's other
 * members in host order, then those of the round's offsets that land on a
 * host of another group. Returns how many were written to out. */
size_t fleet_plan_destinations(const struct fleet_plan *plan, uint32_t host,
			       uint64_t round, uint32_t *out);

void fleet_plan_free(struct fleet_plan *plan);

#endif
