/* The probing engine's bookkeeping, with no device: the in-flight window,
 * the sequence ring that credits a reply to its probe (answered, late,
 * duplicate), deadlines, and which cell is due to send next. */
#ifndef IBAHPROBE_PROBE_LEDGER_H
#define IBAHPROBE_PROBE_LEDGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Sequences remembered for matching replies: far more than can be in
 * flight or late within any deadline at the engine's rates. */
#define PROBE_LEDGER_RING 65536

enum probe_sequence_state {
	PROBE_SEQ_UNUSED,
	PROBE_SEQ_IN_FLIGHT,
	PROBE_SEQ_ANSWERED,
	PROBE_SEQ_EXPIRED,	/* deadline passed unanswered */
	PROBE_SEQ_LATE,		/* answered after its deadline */
};

struct probe_sequence {
	uint32_t sequence;
	uint32_t cell;		/* the caller's cell index */
	uint32_t ordinal;	/* which probe of its cell, from 1 */
	enum probe_sequence_state state;
	uint64_t deadline_ns;
};

struct probe_in_flight {
	bool used;
	uint32_t sequence;
	uint32_t cell;
	uint64_t sent_ns, deadline_ns;
};

struct probe_ledger {
	uint32_t window;		/* slots in flight */
	struct probe_in_flight *flight;
	struct probe_sequence *ring;	/* PROBE_LEDGER_RING entries */
	uint32_t next_sequence;
};

/* Allocates window slots and the ring. Returns 0, or -1 out of memory. */
int probe_ledger_init(struct probe_ledger *l, uint32_t window);
void probe_ledger_free(struct probe_ledger *l);

/* The sequence the next request carries; taken even when its send then
 * fails, as a sequence never names two requests. */
uint32_t probe_ledger_take_sequence(struct probe_ledger *l);

/* Whether every slot of the window holds a probe in flight. */
bool probe_ledger_window_full(const struct probe_ledger *l);

/* Records a request sent at sent_ns, the ordinal-th of cell, due back by
 * deadline_ns, in the first free slot. Returns -1 when the window is
 * full (nothing recorded), else 0. */
int probe_ledger_sent(struct probe_ledger *l, uint32_t sequence,
		      uint32_t cell, uint32_t ordinal, uint64_t sent_ns,
		      uint64_t deadline_ns);

enum probe_credit {
	PROBE_CREDIT_UNKNOWN,	/* never sent, or older than the ring */
	PROBE_CREDIT_ANSWERED,	/* in time: its slot is free again */
	PROBE_CREDIT_LATE,	/* after its deadline */
	PROBE_CREDIT_DUPLICATE,	/* answered (or late) already */
};

struct probe_credit_info {
	uint32_t cell, ordinal;
	uint64_t rtt_ns;	/* ANSWERED: since the send */
	uint64_t late_by_ns;	/* LATE: past the deadline */
};

/* Credits a reply carrying sequence, arriving at now. */
enum probe_credit probe_ledger_credit(struct probe_ledger *l,
				      uint32_t sequence, uint64_t now,
				      struct probe_credit_info *info);

/* Frees every slot whose deadline is at or before now, in slot order,
 * calling expired(cell, ctx) after each (NULL: none). */
void probe_ledger_expire(struct probe_ledger *l, uint64_t now,
			 void (*expired)(uint32_t cell, void *ctx), void *ctx);

/* Probes of cell in flight; 0 when the ledger was never set up. */
uint32_t probe_ledger_in_flight(const struct probe_ledger *l, uint32_t cell);
bool probe_ledger_any_in_flight(const struct probe_ledger *l);

/* A cell is done once it sent its quota, every probe resolved (none in
 * flight) and every one was answered in time. */
bool probe_ledger_cell_done(const struct probe_ledger *l, uint32_t cell,
			    uint32_t sent, uint32_t quota, uint32_t received);

/* What scheduling needs to know of a cell. */
struct probe_send_state {
	bool active;		/* it has an AH */
	bool paused;
	uint32_t sent, quota;
	uint64_t next_send_ns;	/* not before: the interval */
};

/* The probes a cell sends: its own count, else the session's; with
 * neither, until stopped (the sequence wraps, the ring does not care). */
uint32_t probe_send_quota(uint32_t cell_count, uint32_t session_count);

bool probe_send_wanted(const struct probe_send_state *c);

/* The cells, as the caller sees them now. */
struct probe_schedule {
	size_t cells;
	struct probe_send_state (*state_of)(size_t cell, const void *ctx);
	const void *ctx;
};

/* The first cell due at now (wanting to send, its interval passed),
 * round-robin from rr; sch->cells when none is. */
size_t probe_schedule_next_due(const struct probe_schedule *sch, size_t rr,
			       uint64_t now);

/* Whether any cell still wants to send. */
bool probe_schedule_more(const struct probe_schedule *sch);

/* When to look again: the earliest deadline in flight, the next periodic
 * call (has_period), and, when can_send, the earliest next send of a cell
 * wanting to send; at most 100 ms from now, never before now. */
uint64_t probe_next_event_ns(const struct probe_ledger *l,
			     const struct probe_schedule *sch, uint64_t now,
			     bool can_send, bool has_period,
			     uint64_t next_period_ns);

#endif
