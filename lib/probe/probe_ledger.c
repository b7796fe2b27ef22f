/* The probing engine's bookkeeping without a device: see probe_ledger.h. */
#include <stdlib.h>

#include "probe/probe_ledger.h"

int probe_ledger_init(struct probe_ledger *l, uint32_t window)
{
	l->window = window;
	l->flight = calloc(window, sizeof(*l->flight));
	l->ring = calloc(PROBE_LEDGER_RING, sizeof(*l->ring));
	return l->flight && l->ring ? 0 : -1;
}

void probe_ledger_free(struct probe_ledger *l)
{
	free(l->flight);
	l->flight = NULL;
	free(l->ring);
	l->ring = NULL;
}

uint32_t probe_ledger_take_sequence(struct probe_ledger *l)
{
	return l->next_sequence++;
}

static struct probe_in_flight *free_slot(const struct probe_ledger *l)
{
	for (uint32_t i = 0; l->flight && i < l->window; i++)
		if (!l->flight[i].used)
			return &l->flight[i];
	return NULL;
}

bool probe_ledger_window_full(const struct probe_ledger *l)
{
	return free_slot(l) == NULL;
}

int probe_ledger_sent(struct probe_ledger *l, uint32_t sequence,
		      uint32_t cell, uint32_t ordinal, uint64_t sent_ns,
		      uint64_t deadline_ns)
{
	struct probe_in_flight *slot = free_slot(l);

	if (!slot)
		return -1;
	*slot = (struct probe_in_flight){
		.used = true, .sequence = sequence, .cell = cell,
		.sent_ns = sent_ns, .deadline_ns = deadline_ns,
	};
	l->ring[sequence % PROBE_LEDGER_RING] = (struct probe_sequence){
		.sequence = sequence,
		.cell = cell,
		.ordinal = ordinal,
		.state = PROBE_SEQ_IN_FLIGHT,
		.deadline_ns = deadline_ns,
	};
	return 0;
}

/* A sequence in flight holds its slot until answered or expired; the
 * ring entry names it only while no newer sequence took its place. */
enum probe_credit probe_ledger_credit(struct probe_ledger *l,
				      uint32_t sequence, uint64_t now,
				      struct probe_credit_info *info)
{
	struct probe_sequence *seq = &l->ring[sequence % PROBE_LEDGER_RING];

	*info = (struct probe_credit_info){ 0 };
	/* Ours, but older than the ring remembers: nothing to credit. */
	if (seq->state == PROBE_SEQ_UNUSED || seq->sequence != sequence)
		return PROBE_CREDIT_UNKNOWN;
	info->cell = seq->cell;
	info->ordinal = seq->ordinal;
	switch (seq->state) {
	case PROBE_SEQ_IN_FLIGHT:
		break;
	case PROBE_SEQ_EXPIRED:
		seq->state = PROBE_SEQ_LATE;
		info->late_by_ns = now - seq->deadline_ns;
		return PROBE_CREDIT_LATE;
	default:	/* answered, or late, already */
		return PROBE_CREDIT_DUPLICATE;
	}
	seq->state = PROBE_SEQ_ANSWERED;
	for (uint32_t i = 0; i < l->window; i++) {
		struct probe_in_flight *f = &l->flight[i];

		if (!f->used || f->sequence != sequence)
			continue;
		f->used = false;
		info->rtt_ns = now - f->sent_ns;
		return PROBE_CREDIT_ANSWERED;
	}
	return PROBE_CREDIT_UNKNOWN;	/* no slot: cannot be, see above */
}

void probe_ledger_expire(struct probe_ledger *l, uint64_t now,
			 void (*expired)(uint32_t cell, void *ctx), void *ctx)
{
	for (uint32_t i = 0; l->flight && i < l->window; i++) {
		struct probe_in_flight *f = &l->flight[i];
		struct probe_sequence *seq;

		if (!f->used || now < f->deadline_ns)
			continue;
		seq = &l->ring[f->sequence % PROBE_LEDGER_RING];
		f->used = false;
		if (seq->sequence == f->sequence &&
		    seq->state == PROBE_SEQ_IN_FLIGHT)
			seq->state = PROBE_SEQ_EXPIRED;
		if (expired)
			expired(f->cell, ctx);
	}
}

uint32_t probe_ledger_in_flight(const struct probe_ledger *l, uint32_t cell)
{
	uint32_t n = 0;

	for (uint32_t i = 0; l->flight && i < l->window; i++)
		n += l->flight[i].used && l->flight[i].cell == cell;
	return n;
}

bool probe_ledger_any_in_flight(const struct probe_ledger *l)
{
	for (uint32_t i = 0; l->flight && i < l->window; i++)
		if (l->flight[i].used)
			return true;
	return false;
}

bool probe_ledger_cell_done(const struct probe_ledger *l, uint32_t cell,
			    uint32_t sent, uint32_t quota, uint32_t received)
{
	return sent >= quota && received >= sent &&
	       probe_ledger_in_flight(l, cell) == 0;
}

uint32_t probe_send_quota(uint32_t cell_count, uint32_t session_count)
{
	if (cell_count)
		return cell_count;
	return session_count ? session_count : UINT32_MAX;
}

bool probe_send_wanted(const struct probe_send_state *c)
{
	return c->active && !c->paused && c->sent < c->quota;
}

size_t probe_schedule_next_due(const struct probe_schedule *sch, size_t rr,
			       uint64_t now)
{
	for (size_t k = 0; k < sch->cells; k++) {
		size_t i = (rr + k) % sch->cells;
		struct probe_send_state c = sch->state_of(i, sch->ctx);

		if (probe_send_wanted(&c) && c.next_send_ns <= now)
			return i;
	}
	return sch->cells;
}

bool probe_schedule_more(const struct probe_schedule *sch)
{
	for (size_t i = 0; i < sch->cells; i++) {
		struct probe_send_state c = sch->state_of(i, sch->ctx);

		if (probe_send_wanted(&c))
			return true;
	}
	return false;
}

uint64_t probe_next_event_ns(const struct probe_ledger *l,
			     const struct probe_schedule *sch, uint64_t now,
			     bool can_send, bool has_period,
			     uint64_t next_period_ns)
{
	uint64_t next = now + 100000000u;	/* look again in 100 ms */

	if (has_period && next_period_ns < next)
		next = next_period_ns;
	for (uint32_t i = 0; l->flight && i < l->window; i++)
		if (l->flight[i].used && l->flight[i].deadline_ns < next)
			next = l->flight[i].deadline_ns;
	for (size_t i = 0; can_send && i < sch->cells; i++) {
		struct probe_send_state c = sch->state_of(i, sch->ctx);

		if (probe_send_wanted(&c) && c.next_send_ns < next)
			next = c.next_send_ns;
	}
	return next > now ? next : now;
}
