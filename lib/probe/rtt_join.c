/* Joining a round trip's stamps by sequence; see rtt_join.h. */
#include <stdlib.h>
#include <string.h>

#include "probe/rtt_join.h"

int rtt_join_init(struct rtt_join *j, size_t size, rtt_join_delta_fn delta,
		  const void *clock, rtt_join_done_fn done, void *ctx)
{
	memset(j, 0, sizeof(*j));
	j->entries = calloc(size ? size : 1, sizeof(*j->entries));
	if (!j->entries)
		return -1;
	j->size = size ? size : 1;
	j->delta = delta;
	j->clock = clock;
	j->done = done;
	j->ctx = ctx;
	return 0;
}

void rtt_join_free(struct rtt_join *j)
{
	free(j->entries);
	memset(j, 0, sizeof(*j));
}

static struct rtt_join_entry *slot_of(struct rtt_join *j, uint32_t sequence)
{
	return &j->entries[sequence % j->size];
}

static struct rtt_join_entry *find(struct rtt_join *j, uint32_t sequence)
{
	struct rtt_join_entry *e = slot_of(j, sequence);

	return e->used && e->sequence == sequence ? e : NULL;
}

/* The prober's device stamps count only when both of its completions
 * had them: t4 - t1 on one clock. `waited`: the caller was told to wait
 * for a stamps message for it. */
static void split_entry(struct rtt_join *j, struct rtt_join_entry *e,
			bool waited)
{
	struct rtt_split split;

	if (e->sent_hw && e->recv_hw && j->delta) {
		e->stamps.prober_hw = true;
		e->stamps.prober_hw_ns =
			j->delta(j->clock, e->sent_stamp, e->recv_stamp);
	}
	rtt_split(&e->stamps, &split);
	e->used = false;
	if (j->done)
		j->done(j->ctx, e->cell, &split, waited);
}

static void split_and_free(struct rtt_join *j, struct rtt_join_entry *e)
{
	bool waited = e->replied && e->wait_until_ns;

	if (waited && j->waiting)
		j->waiting--;
	split_entry(j, e, waited);
}

void rtt_join_sent(struct rtt_join *j, uint32_t sequence, uint32_t cell)
{
	struct rtt_join_entry *e = slot_of(j, sequence);

	/* A reply still waiting here is split with what it has; a probe
	 * never answered just leaves. */
	if (e->used && e->replied)
		split_and_free(j, e);
	memset(e, 0, sizeof(*e));
	e->used = true;
	e->sequence = sequence;
	e->cell = cell;
}

void rtt_join_send_stamp(struct rtt_join *j, uint32_t sequence,
			 uint64_t stamp)
{
	struct rtt_join_entry *e = find(j, sequence);

	if (!e)
		return;
	e->sent_hw = true;
	e->sent_stamp = stamp;
}

void rtt_join_reply(struct rtt_join *j, uint32_t sequence, uint32_t cell,
		    const struct rtt_stamps *stamps, bool recv_hw,
		    uint64_t recv_stamp, bool stamps_follow, uint64_t now,
		    uint64_t wait_ns)
{
	struct rtt_join_entry *e = find(j, sequence), lone;

	if (!e || e->replied) {
		/* Out of the join (it came round): split what there is at
		 * once; a caller told to wait is told it is over. */
		memset(&lone, 0, sizeof(lone));
		lone.cell = cell;
		lone.stamps = *stamps;
		split_entry(j, &lone, stamps_follow);
		return;
	}
	e->replied = true;
	e->stamps = *stamps;
	e->recv_hw = recv_hw;
	e->recv_stamp = recv_stamp;
	if (!stamps_follow) {
		split_and_free(j, e);
		return;
	}
	e->wait_until_ns = now + wait_ns;
	j->waiting++;
}

void rtt_join_stamps(struct rtt_join *j, uint32_t sequence, bool known,
		     uint64_t hw_dwell_ns)
{
	struct rtt_join_entry *e = find(j, sequence);

	if (!e || !e->replied)
		return;
	e->stamps.responder_hw = known;
	e->stamps.responder_hw_ns = known ? hw_dwell_ns : 0;
	split_and_free(j, e);
}

void rtt_join_expire(struct rtt_join *j, uint64_t now, bool all)
{
	if (!j->waiting)
		return;
	for (size_t i = 0; i < j->size && j->waiting; i++) {
		struct rtt_join_entry *e = &j->entries[i];

		if (e->used && e->replied &&
		    (all || now >= e->wait_until_ns))
			split_and_free(j, e);
	}
}
