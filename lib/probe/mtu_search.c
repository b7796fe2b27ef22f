/* MTU discovery's search: the upper bound first (the common case: it
 * arrives, one step), then the lower bound (does anything arrive?), then
 * byte-exact bisection between the largest size that arrived and the
 * smallest that was lost. Byte-exact because on RoCE the narrow link's
 * IP MTU is then the edge plus the headers, exactly.
 *
 * Random loss: a size counts as lost when none of its probes came back.
 * Bisection never looks below the largest size that arrived, so a size
 * lost by chance would pull the result down for good. Hence the edge's
 * lost size is tried once more before the search ends: arriving then,
 * its first loss was random (counted), and the search goes on above it,
 * up to the next lost size. A size lost by chance twice in a row still
 * gives a low edge: more probes per size (-c) make that rarer. */
#include "probe/mtu_search.h"

#include <string.h>

#include "wire/roce_packet.h"

/* RoCE v2 around the payload: IP, UDP, the IB transport headers that a
 * UD send carries (BTH, DETH) and the invariant CRC. */
uint32_t mtu_roce_v2_ip_overhead(bool ipv6)
{
	return (ipv6 ? ROCE_IPV6_HEADER_BYTES : ROCE_IPV4_HEADER_BYTES) +
	       ROCE_UDP_HEADER_BYTES + ROCE_UD_HEADER_BYTES + ROCE_ICRC_BYTES;
}

static bool step_lost(const struct mtu_step *s)
{
	return s->answered == 0;
}

static const struct mtu_step *find_step(const struct mtu_search *m,
					uint32_t size, bool retry)
{
	for (size_t i = 0; i < m->step_count; i++)
		if (m->steps[i].size == size && m->steps[i].retry == retry)
			return &m->steps[i];
	return NULL;
}

/* The smallest lost size above the largest that arrived: a size lost
 * once and arrived on its retry is at or below it, so it drops out. */
static uint32_t smallest_lost_above(const struct mtu_search *m)
{
	uint32_t best = 0;

	for (size_t i = 0; i < m->step_count; i++) {
		const struct mtu_step *s = &m->steps[i];

		if (step_lost(s) && s->size > m->largest_arrived &&
		    (!best || s->size < best))
			best = s->size;
	}
	return best;
}

static void finish(struct mtu_search *m, enum mtu_search_result result)
{
	m->result = result;
	m->next = 0;
	m->next_is_retry = false;
}

/* The lost size at the edge: tried once more, else the end. */
static void edge(struct mtu_search *m, uint32_t lost,
		 enum mtu_search_result result)
{
	if (find_step(m, lost, true)) {
		finish(m, result);
		return;
	}
	m->next = lost;
	m->next_is_retry = true;
}

static void decide(struct mtu_search *m)
{
	uint32_t la = m->largest_arrived, sl = smallest_lost_above(m);

	m->smallest_lost = sl;
	m->next_is_retry = false;
	if (!sl) {
		/* The upper bound comes first: nothing lost above what
		 * arrived means the upper bound arrived. */
		finish(m, MTU_BOUND_ARRIVES);
		return;
	}
	if (!la) {
		if (!find_step(m, m->lower, false))
			m->next = m->lower;
		else
			edge(m, sl, MTU_UNREACHABLE);
		return;
	}
	if (sl - la > 1) {
		m->next = la + (sl - la) / 2;
		return;
	}
	edge(m, sl, MTU_BLACKHOLE);
}

int mtu_search_init(struct mtu_search *m, uint32_t lower, uint32_t upper)
{
	memset(m, 0, sizeof(*m));
	if (!lower || lower > upper)
		return -1;
	m->lower = lower;
	m->upper = upper;
	m->result = MTU_SEARCHING;
	m->next = upper;
	return 0;
}

uint32_t mtu_search_next(const struct mtu_search *m)
{
	return m->result == MTU_SEARCHING ? m->next : 0;
}

int mtu_search_record(struct mtu_search *m, uint32_t size, uint32_t sent,
		      uint32_t answered)
{
	struct mtu_step *s;

	if (m->result != MTU_SEARCHING || size != m->next || !sent ||
	    answered > sent || m->step_count >= MTU_SEARCH_MAX_STEPS)
		return -1;
	s = &m->steps[m->step_count++];
	*s = (struct mtu_step){ .size = size, .sent = sent,
				.answered = answered,
				.retry = m->next_is_retry };
	if (!step_lost(s)) {
		if (s->retry)
			m->random_losses++;
		if (size > m->largest_arrived)
			m->largest_arrived = size;
	}
	decide(m);
	return 0;
}
