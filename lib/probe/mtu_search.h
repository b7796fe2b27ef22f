/* MTU discovery as a pure state machine: per destination, the largest UD
 * payload that arrives between a lower bound (the smallest probe) and an
 * upper bound (the narrowest MTU we know of), found byte-exact from
 * per-size outcomes (probes sent / answered) that the caller measures. */
#ifndef IBAHPROBE_MTU_SEARCH_H
#define IBAHPROBE_MTU_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Upper bound first, lower bound, ~12 bisection steps for 136..4096 and
 * at most one retry per lost size that became the edge: well within. */
#define MTU_SEARCH_MAX_STEPS 48

enum mtu_search_result {
	MTU_SEARCHING,		/* next size in mtu_search_next() */
	MTU_BOUND_ARRIVES,	/* the upper bound arrives: no blackhole */
	MTU_BLACKHOLE,		/* largest_arrived + 1 == smallest_lost */
	MTU_UNREACHABLE,	/* not even the lower bound arrives */
};

struct mtu_step {
	uint32_t size;
	uint32_t sent, answered;
	bool retry;		/* a lost size tried once more */
};

struct mtu_search {
	uint32_t lower, upper;
	/* 0: none yet. */
	uint32_t largest_arrived, smallest_lost;
	enum mtu_search_result result;
	/* Sizes lost once and arrived on their retry: random loss, not the
	 * MTU (each made the search resume above it). */
	uint32_t random_losses;
	struct mtu_step steps[MTU_SEARCH_MAX_STEPS];
	size_t step_count;
	/* Internal: the size asked next (0 when done), whether it is a
	 * retry. */
	uint32_t next;
	bool next_is_retry;
};

/* Starts a search between lower and upper (bytes of UD payload). Returns
 * 0, or -1 when lower is 0 or above upper. */
int mtu_search_init(struct mtu_search *m, uint32_t lower, uint32_t upper);

/* The size to probe next; 0 when the search is over (m->result). */
uint32_t mtu_search_next(const struct mtu_search *m);

/* The outcome of probing the size mtu_search_next() gave: sent probes
 * left, answered of them came back. A size arrives when any probe was
 * answered, is lost when none was. sent 0 (nothing could be sent) is the
 * caller's error to handle: it is refused (-1), as is a size not asked. */
int mtu_search_record(struct mtu_search *m, uint32_t size, uint32_t sent,
		      uint32_t answered);

/* Bytes that RoCE v2 puts around a UD payload inside the IP packet:
 * UDP 8 + BTH 12 + DETH 8 + ICRC 4, plus IPv4 20 or IPv6 40. So the
 * narrowest IP MTU on the path is payload + this. */
uint32_t mtu_roce_v2_ip_overhead(bool ipv6);

#endif
